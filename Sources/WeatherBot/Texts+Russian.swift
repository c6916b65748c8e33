import OpenWeather
import WeatherBotStore

extension Texts {
    /// The plural category of a whole number in Russian, per CLDR: 1, 21, 101 → one; 2–4, 22–24 →
    /// few; 0, 5–20, 25–30, 111–114 → many.
    static func russianPluralCategory(_ count: Int) -> PluralCategory {
        let tens = count.magnitude % 100
        let units = count.magnitude % 10
        if (11...14).contains(tens) { return .many }
        if units == 1 { return .one }
        if (2...4).contains(units) { return .few }
        return .many
    }

    /// Every text in Russian.
    static let russian = Texts(
        language: .ru,
        pluralCategory: russianPluralCategory,

        // MARK: Onboarding

        greeting: "👋 Привет! Я показываю погоду в вашем городе.\n\nЧтобы начать, отправьте геолокацию — я определю ваш город. Или выберите город вручную.",
        groupGreeting:
            "👋 Привет! Я показываю погоду для этого чата.\n\nЧтобы выбрать город чата, напишите <code>/city Казань</code> или ответьте на это сообщение названием города. Погода — /weather, все команды — /help.",
        locationLookupFailed: { "Не удалось определить город: \($0). \($1) или выберите город вручную." },
        sendAgain: { sent, when in
            switch sent {
            case .location: "Отправьте геолокацию ещё раз \(when)"
            case .coordinates: "Отправьте координаты ещё раз \(when)"
            case .link: "Отправьте ссылку ещё раз \(when)"
            }
        },
        shareLocationButton: "📍 Отправить геолокацию",
        chooseManuallyKeyboardButton: "🔎 Выбрать город вручную",
        inputPlaceholder: "Название города",

        // MARK: The city dialogue

        locating: "🔎 Определяем город…",
        isThisYourCity: "Это ваш город?",
        cityForAdministrators: "Сделать это место городом чата? Решают администраторы.",
        yesButton: "✅ Да, всё верно",
        noButton: "Нет, выбрать другой",
        justWeatherButton: "🌦 Только погода здесь",
        locationFailed: "Не удалось определить город",
        locationFailedExplanation: "Рядом с этой точкой не нашлось населённого пункта. Выберите город по названию.",
        mapLinkFailed: "Не удалось открыть ссылку на карту",
        mapLinkFailedExplanation: "По ней не нашлось точки. Отправьте геолокацию, координаты (например, 55.75, 37.62) или название города.",
        mapLinkUnreachableExplanation: "Сайт карты не ответил. Попробуйте позже или отправьте геолокацию, координаты (например, 55.75, 37.62) или название города.",
        mapLinksTooMany: "⏳ Слишком много ссылок, попробуйте через минуту",
        chooseManuallyButton: "Выбрать город вручную",
        ownCityExamples: ["Казань", "Самара", "Тверь"],
        ownCityPrompt: { "Напишите название вашего города, например: <i>\($0)</i>" },
        askPlaceToFind: "Какое место найти? Напишите название города или посёлка.",
        answeredNo: "Ответ: нет, другой город",
        answeredJustWeather: "Ответ: только погода здесь, город прежний",
        nothingFound: { "Ничего не нашлось по запросу «\($0)». Проверьте название и напишите ещё раз — можно по-русски или по-английски." },
        severalFoundOwnCity: "Нашлось несколько мест. Выберите свой город:",
        severalFoundPlace: "Нашлось несколько мест. Нажмите на любое — покажу погоду там.",
        nameTooLong: "Это слишком длинно для названия места. Напишите только название города, например: <i>Казань</i>",
        noPlaceInText: "Не нашёл в сообщении названия места. Напишите только название города, например: <i>Казань</i> или <i>Казань завтра</i>",
        severalFoundForChart: "Нашлось несколько мест. Нажмите на любое — пришлю его график.",
        picked: { "Выбрано: \($0)" },
        searchFailed: { "Не удалось выполнить поиск: \($0). Нажмите «🔄 Повторить» \($1)." },
        citySaved: { "📍 Ваш город: \($0)" },

        // MARK: Weather

        localTime: "Местное время",
        feelsLike: "Ощущается как",
        clouds: "Облачность",
        wind: "Ветер",
        calm: "штиль",
        gusts: { "порывы до \($0)" },
        humidity: "Влажность",
        pressure: "Давление",
        pressureUnits: [.millimetresOfMercury: "мм рт. ст.", .hectopascals: "гПа", .inchesOfMercury: "inHg"],
        speedUnits: [.metresPerSecond: "м/с", .kilometresPerHour: "км/ч", .milesPerHour: "mph"],
        millimetres: "мм",
        precipitationNow: "Осадки",
        perHour: "мм/ч",
        inches: "in",
        inchesPerHour: "in/ч",
        sunrise: "Восход",
        sunset: "Закат",
        dataAsOf: { "данные на \($0)" },
        dataFrom: { "Данные: \($0)" },
        lastKnownForecast: { "Сервис погоды сейчас не отвечает, поэтому это последний известный прогноз: от \($0), \($1) назад" },
        // «мин» and «ч» are short for every form: «1 ч», «2 ч», «5 ч».
        minutesShort: { "\($0) мин" },
        hoursShort: { "\($0) ч" },
        decimalMark: ",",
        hourlyTitle: "по часам",
        everyThreeHours: "каждые 3 ч",
        cloudsShort: "обл.",
        hourlyLegend: { "ветер \($0) · давление \($1) · влажность · облачность · вероятность осадков (от \($2)% — вероятны, жирным)" },
        precipitationLikely: { "☔ Вероятны осадки: с \($0), \($1)%" },
        noHours: "Почасового прогноза сейчас нет.",
        dailyTitle: { "на \($0) \(plural($0, one: "день", few: "дня", many: "дней"))" },
        onlyDays: { "Дальше чем на \($0) \(plural($0, one: "день", few: "дня", many: "дней")) прогноза для этого места сейчас нет." },
        moreAlerts: { "…и ещё \($0) \(plural($0, one: "предупреждение", few: "предупреждения", many: "предупреждений"))" },
        dayTime: "днём",
        nightTime: "ночью",
        today: "Сегодня",
        tomorrow: "Завтра",
        weekdays: ["Вс", "Пн", "Вт", "Ср", "Чт", "Пт", "Сб"],
        weekdaysInSentence: ["вс", "пн", "вт", "ср", "чт", "пт", "сб"],
        months: ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"],
        windPoints: ["С", "ССВ", "СВ", "ВСВ", "В", "ВЮВ", "ЮВ", "ЮЮВ", "Ю", "ЮЮЗ", "ЮЗ", "ЗЮЗ", "З", "ЗСЗ", "СЗ", "ССЗ"],
        nowButton: "Сейчас",
        hourlyButton: "По часам",
        daysButton: { "На \($0) \(plural($0, one: "день", few: "дня", many: "дней"))" },
        refreshButton: "🔄 Обновить",
        chartButton: "📈 График",
        chartHoursButton: "48 часов",
        chartWeekButton: "Неделя",
        chartHoursTitle: "48 часов",
        chartWeekTitle: "неделя",
        chartTemperature: "Температура",
        chartFeelsLike: "Ощущается",
        chartPrecipitation: "Осадки",
        chartPrecipitationChance: "Вероятность осадков",
        chartDayAndNight: "Днём и ночью",
        chartHour: "ч",
        previousDayButton: "◀ Сегодня",
        nextDayButton: "Завтра ▶",
        defaultCityHintInGroup:
            "Это погода в городе по умолчанию. Чтобы выбрать город чата, ответьте на это сообщение его названием, а если это он, нажмите «📍 Сделать городом чата».",
        defaultCityHint:
            "Это погода в городе по умолчанию. Напишите название своего города или отправьте геолокацию, а если это ваш город, нажмите «📍 Сделать моим городом».",
        makeCityButton: "📍 Сделать моим городом",
        cityMade: { "📍 Теперь ваш город: \($0)" },
        weatherFailed: { "Не удалось получить погоду: \($0)." },
        retryButton: "🔄 Повторить",
        shortCountryNames: [
            "US": "США", "GB": "Великобритания", "AE": "ОАЭ", "CF": "ЦАР", "CD": "ДР Конго", "KP": "КНДР",
            "DO": "Доминикана", "BA": "Босния и Герцеговина", "VC": "Сент-Винсент", "KN": "Сент-Китс и Невис",
        ],

        // MARK: Favorites

        addFavoriteButton: "⭐ В избранное",
        savedFavoriteButton: "★ В избранном",
        favoriteAdded: "⭐ Добавлено в избранное",
        ownCityIsFirst: "Это ваш город — в /fav он и так первый",
        favoriteRemoved: "☆ Убрано из избранного",
        alreadyFavorite: "★ Уже в избранном",
        alreadyNotFavorite: "☆ Уже не в избранном",
        onlyOneFavorite: { "В избранном одно место (\($0)) — переставлять нечего." },
        favoritesFull: { "В избранном уже \($0) \(plural($0, one: "место", few: "места", many: "мест")) — это максимум. Удалите одно: /del" },
        favoritesTitle: "⭐ <b>Избранное</b>",
        noCurrentCity: "📍 Город не выбран — /start",
        noFavorites: "Избранных мест пока нет. Найдите город через /search и нажмите «⭐ В избранное».",
        noFavoritesToChange: "В избранном пока ничего нет — удалять и переставлять нечего. Найдите город через /search и нажмите «⭐ В избранное».",
        noPrecipitation: "без осадков",
        unavailable: "нет данных",
        deleteModeButton: "🗑 Удалить",
        moveModeButton: "↕️ Переставить",
        doneButton: "« Готово",
        chooseToDelete: "Выберите, что удалить:",
        chooseToMove: "Переставьте места кнопками ⬆️ и ⬇️:",
        deleted: { "🗑 Удалено: \($0)" },
        moved: { "↕️ \($0) теперь №\($1)" },
        notMoved: { "\($0) и так №\($1) — ничего не переставлено." },
        dailyStays: { "Ежедневный прогноз для этого места (\($0)) остаётся; отменить: /daily" },
        alreadyFirst: "Это место и так первое",
        alreadyLast: "Это место и так последнее",
        favoritesEmpty: "В избранном пока ничего нет.",
        numberInRange: { $0 == 1 ? "В списке одно место — его номер 1: \($1)" : "Укажите номер от 1 до \($0), например: \($1)" },
        moveUsage: { "Укажите два номера: откуда и куда, например: \($0)" },

        // MARK: Daily forecasts

        dailyUsage:
            "Чтобы получать прогноз каждый день: <code>/daily 8:00</code> — для вашего города, <code>/daily 8:00 2</code> — для места №2 из /fav, <code>/daily 8:00 график</code> — вместе с графиком на 48 часов (<code>/daily 8:00 без графика</code> — без него). Время — местное для места. <code>/daily off</code> — отменить все.",
        dailyWithChart: "📈 С графиком на 48 часов.",
        withChartMark: "📈 с графиком",
        dailyChartAdded: { place, time in "📈 Прогноз в \(time) (\(place)) теперь приходит с графиком." },
        dailyChartRemoved: { place, time in "Прогноз в \(time) (\(place)) теперь приходит без графика." },
        dailyListTitle: "🗓 <b>Ежедневные прогнозы</b>",
        noDaily: "Подписок пока нет.",
        badTime: { "Не понимаю время «\($0)». Укажите часы и минуты, например: /daily 8:00" },
        dailyNotUnderstood: { "Не понимаю «\($0)»: после /daily нужно время." },
        dailyNeedsCity: "Сначала выберите город: напишите /city и его название, например /city Казань, или отправьте геолокацию.",
        dailyLimit: { "Можно не больше \($0) \(plural($0, one: "ежедневного прогноза", few: "ежедневных прогнозов", many: "ежедневных прогнозов")). Отмените один: /daily" },
        dailyDuplicate: "Такой прогноз уже есть.",
        dailyDuplicateWithChart: { "Такой прогноз уже есть, с графиком. Без графика: <code>/daily \($0) без графика</code>" },
        subscribed: { place, time, nowThere, firstToday in
            "✅ Каждый день в \(time) по местному времени (\(place)) пришлю прогноз. Сейчас там \(nowThere), первый придёт \(firstToday ? "сегодня" : "завтра")."
        },
        dailyCancelledCount: { "Ежедневные прогнозы отменены: \($0)." },
        dailyCancelledOne: "Прогноз отменён",
        dailyOffQuestion: { "Отменить все ежедневные прогнозы (\($0))?" },
        dailyOffConfirmButton: "🗑 Да, отменить все",
        dailyOffCancelButton: "Нет, оставить",
        dailyOffKept: "Ежедневные прогнозы остаются.",
        cancelButton: "❌ Отменить",
        forecastForToday: "Прогноз на сегодня",
        morning: "Утро",
        afternoon: "День",
        evening: "Вечер",
        night: "Ночь",
        precipitationChance: { "Осадки: \($0), вероятность \($1)%" },
        umbrellaSummary: "Возьмите зонт — осадки вероятны.",
        snowSummary: "Одевайтесь теплее — вероятен снег.",
        possibleSummary: "Осадки возможны, но маловероятны.",
        drySummary: "Осадков не ожидается.",
        rangeSummary: { "Температура от \($0) до \($1)." },
        noDayForecast: "Прогноза на этот день нет.",
        comparedWithYesterday: { degrees, warmer, afternoon in
            "\(afternoon ? "Днём" : "Ночью") на \(degrees) \(plural(degrees, one: "градус", few: "градуса", many: "градусов")) \(warmer ? "теплее" : "холоднее"), чем вчера"
        },

        // MARK: Notices

        alertsTitle: { "🔔 <b>Уведомления</b> — \($0)" },
        alertsRain: "☔ Дождь или снег в ближайший час",
        alertsWarnings: "⚠️ Предупреждения о непогоде",
        alertsPollen: "🌼 Пыльца: день с высоким уровнем",
        alertsOnMark: "✅",
        alertsOffMark: "☐",
        alertsQuietLine: { hours in
            guard let hours else { return "🌙 Тихих часов нет: уведомления приходят в любое время." }
            return "🌙 Тихие часы: \(hours) по местному времени. О дожде, который начнётся в это время, не сообщаю; предупреждения приходят без звука, а те, что начнутся позже, — когда тихие часы кончатся."
        },
        alertsQuietButton: { "🌙 Тихие часы: \($0) — выключить" },
        alertsQuietOnButton: { "🌙 Включить тихие часы \($0)" },
        alertsUnknown: { "Не понимаю «\($0)»." },
        alertsUsage:
            "<code>/alerts on</code> — включить дождь и предупреждения, <code>/alerts off</code> — выключить всё, <code>/alerts quiet 23:00-07:00</code> — свои тихие часы, <code>/alerts quiet off</code> — без тихих часов.",
        alertsCoarse: "О дожде сообщаю по прогнозу на каждые 3 часа, примерно: поминутные уведомления требуют подписки One Call 3.0 у OpenWeather.",
        alertsNeedCity: "Уведомления приходят для вашего города. Сначала выберите его: напишите /city и название, например /city Казань, или отправьте геолокацию.",
        alertsAnswerCity: "Сначала ответьте на вопрос выше о городе: уведомления приходят для выбранного города.",
        alertsBadQuiet: { "Не понимаю часы «\($0)». Укажите начало и конец, например: <code>/alerts quiet 23:00-07:00</code>" },
        alertsQuietEmpty: {
            "Тихие часы с \($0) до \($0) — это ни одного часа. Укажите разные начало и конец, например <code>/alerts quiet 23:00-07:00</code>, а чтобы обойтись без тихих часов — <code>/alerts quiet off</code>."
        },
        alertsAllOn: "Уведомления включены: дождь в ближайший час и предупреждения о непогоде.",
        alertsRainOn: "Уведомления включены: дождь в ближайший час.",
        alertsNoWarnings: "Официальных предупреждений о непогоде у источника погоды нет, поэтому о них не сообщаю.",
        alertsUsageWithoutWarnings:
            "<code>/alerts on</code> — включить дождь, <code>/alerts off</code> — выключить всё, <code>/alerts quiet 23:00-07:00</code> — свои тихие часы, <code>/alerts quiet off</code> — без тихих часов.",
        alertsAllOff: "Уведомления выключены.",
        alertsQuietSet: { "Тихие часы изменены: \($0)." },
        alertsQuietOff: "Тихие часы выключены.",
        alertsFollowCity: "🔔 Уведомления теперь приходят для этого города.",

        // MARK: Settings

        settingsTitle: "⚙️ <b>Настройки</b>",
        settingsTemperature: "Температура",
        settingsWind: "Ветер",
        settingsPressure: "Давление",
        settingsLanguage: "Язык",
        settingsClock: "Время",
        settingsAsInTelegram: "Как в Telegram",
        languageNames: [.ru: "Русский", .en: "English"],
        clockNames: [.twentyFourHour: "24 часа", .twelveHour: "12 часов"],
        settingsExample: { "Например: \($0)" },
        settingsSaved: "✅ Сохранено",
        inMinutes: { "через \($0) \(plural($0, one: "минуту", few: "минуты", many: "минут"))" },
        forMinutes: { "примерно на \($0) \(plural($0, one: "минуту", few: "минуты", many: "минут"))" },
        precipitationWords: [
            ["Небольшой дождь", "Дождь", "Сильный дождь"],
            ["Небольшой снег", "Снег", "Сильный снег"],
            ["Небольшой мокрый снег", "Мокрый снег", "Сильный мокрый снег"],
        ],
        rainSoon: { what, inMinutes, time, duration in
            "\(what) \(inMinutes), около \(time)" + (duration.map { ", \($0)" } ?? "") + "."
        },
        rainAround: { what, time in "Около \(time) ожидается: \(what.lowercased())." },
        warningSender: { "Источник: \($0)" },
        warningUpdated: { event, period in "⚠️ Предупреждение «\(event)» изменилось: теперь \(period)." },
        uvLevels: [
            ["умеренный", "в полдень лучше в тени"], ["высокий", "нужен крем и головной убор"],
            ["очень высокий", "крем SPF 30+, в полдень избегайте солнца"], ["экстремальный", "оставайтесь в тени, крем SPF 50+"],
        ],
        uvNow: { index, level, advice in "УФ \(index), \(level): \(advice)" },
        uvDayMaximum: { index, level, advice in "УФ днём до \(index), \(level): \(advice)" },
        airLevels: ["хороший", "удовлетворительный", "умеренный", "плохой", "очень плохой"],
        airNow: { level, particles in "Воздух: \(level)" + (particles.map { ", \($0)" } ?? "") },
        airParticles: { "PM2.5 \($0) мкг/м³" },
        airWarnings: [
            "Воздух сегодня будет плохим: лучше меньше бывать на улице, особенно детям и пожилым.",
            "Воздух сегодня будет очень плохим: по возможности оставайтесь дома и закройте окна.",
        ],
        pollenKind: { kind in
            switch kind {
            case .alder: "ольха"
            case .birch: "берёза"
            case .grass: "злаки"
            case .mugwort: "полынь"
            case .olive: "олива"
            case .ragweed: "амброзия"
            }
        },
        pollenLevel: { level in
            switch level {
            case .none: "нет"
            case .low: "низкий"
            case .moderate: "умеренный"
            case .high: "высокий"
            case .veryHigh: "очень высокий"
            }
        },
        // «берёза — высокий уровень, злаки — низкий»: the word once, after the first level.
        pollenNow: { levels in
            "Пыльца: " + levels.enumerated().map { "\($0.element.kind) — \($0.element.level)" + ($0.offset == 0 ? " уровень" : "") }.joined(separator: ", ")
        },
        pollenDay: { level, levels in
            let words = level == .veryHigh ? "очень высокий" : "высокий"
            return "🌼 Сегодня \(words) уровень пыльцы: " + levels.map { "\($0.kind) — \($0.level)" }.joined(separator: ", ") + "."
        },
        shareButton: "↗️ Поделиться",
        openAppButton: "📱 Открыть приложение",
        appHelp: "«📱 Открыть приложение» под погодой или кнопка 📱 у поля ввода открывают приложение: погода сейчас, по часам и на неделю, график, избранное и настройки.",
        appWeatherTab: "Погода",
        appFavoritesTab: "Избранное",
        appSearchTab: "Поиск",
        appSettingsTab: "Настройки",
        appSearchPlaceholder: "Город или место",
        appSearchButton: "Найти",
        appMyLocation: "📍 Моё местоположение",
        appLocationDenied: "Нет доступа к геолокации. Разрешите её Telegram или найдите место по названию.",
        appQuietLabel: "Тихие часы:",
        appDailyLabel: "Прогноз каждый день в (и номер места из избранного):",
        appSave: "Сохранить",
        appAdd: "Добавить",
        appDeleteLabel: "Удалить из избранного",
        appPlaceGone: "Этого места уже нет в избранном.",
        appChooseCity: "Это погода в городе по умолчанию. Чтобы выбрать свой город, найдите его во вкладке «Поиск» и нажмите «📍 Сделать моим городом».",
        appNoCity: "📍 Город не выбран: найдите его во вкладке «Поиск».",
        appNoFavorites: "Избранных мест пока нет. Найдите место во вкладке «Поиск» и нажмите «⭐ В избранное».",
        appOwnCity: "Это ваш город: в избранном он всегда первый.",
        appAlertsNeedCity: "Уведомления приходят для вашего города. Сначала выберите его: найдите во вкладке «Поиск» и нажмите «📍 Сделать моим городом».",
        inlineChooseCityButton: "Выбрать свой город",
        inlineHere: { "📍 Здесь: \($0)" },
        inlineNothingFound: { "Ничего не нашлось: «\($0)». Искать в чате с ботом" },
        inlineFailed: "⚠️ Погода сейчас недоступна. Открыть чат с ботом",
        inlineDefaultCity: { "\($0) — город по умолчанию" },
        inlineHelp: {
            "В любом чате напишите <code>@\($0) Казань</code> и выберите место — погода уйдёт в этот чат. <code>@\($0)</code> с пробелом — ваш город и избранное из личного чата со мной."
        },

        // MARK: Reset

        resetQuestion: "Удалить всё, что бот знает об этом чате: город, избранное, ежедневные прогнозы, уведомления и настройки? Это нельзя отменить.",
        resetConfirmButton: "🗑 Да, удалить всё",
        resetCancelButton: "Отмена",
        resetDone: "Всё удалено. Чтобы начать заново, нажмите /start",
        resetCancelled: "Ничего не удалено.",

        // MARK: Buttons and commands

        shortHintInGroup: "Ответьте на это сообщение названием города — покажу погоду. Все команды: /help",
        shortHint: "Напишите название города или отправьте геолокацию — покажу погоду. Все команды: /help",
        coordinatesOutOfRange:
            "Таких координат нет: широта — от −90 до 90, долгота — от −180 до 180, минуты и секунды — меньше 60. Например: 55.75, 37.62",
        unsupported: "Я понимаю геолокацию, названия городов, координаты и команды. Список команд — /help",
        refreshed: "🔄 Обновлено",
        alreadyShown: "Уже показано",
        fetchedUnderAMinuteAgo: "Данные свежие: получены меньше минуты назад",
        // «мин» is short for every form of «минута»: «1 мин», «2 мин», «5 мин».
        fetchedMinutesAgo: { "Данные свежие: получены \($0) мин назад" },
        retryFailed: { "Снова не удалось — попробуйте \($0)" },
        aLittleLater: "чуть позже",
        afterTheDayTurns: "после 00:00 UTC",
        refreshFailed: "Обновить не удалось — показаны последние данные",
        administratorsOnly:
            "В группе общее меняют только её администраторы: город, избранное, ежедневные прогнозы, уведомления, /settings и /reset. Погоду может смотреть каждый.",
        staleButton: "Эта кнопка уже неактуальна",
        unknownButton: "Эта кнопка больше не работает",
        couldNotHandle: "😔 Не получилось обработать ваше последнее сообщение. Попробуйте ещё раз или загляните в /help",
        tooManyMessages: "✋ Слишком много сообщений подряд, отвечаю на последние",
        tooManyPresses: "✋ Слишком много нажатий подряд, считается последнее",
        unknownCommand: { "Не знаю команды /\($0). Список команд — /help" },
        help: """
            Я показываю погоду для вашего города.

            /start — начало работы
            /weather — погода в вашем городе
            /city Казань — выбрать свой город
            /search Казань — найти место и посмотреть погоду там
            /fav — избранные места
            /del N — удалить место N из избранного
            /move N M — переставить место N на позицию M
            /chart — график погоды на 48 часов (/chart неделя — на неделю)
            /daily 8:00 — прогноз каждый день в 8:00 (/daily 8:00 2 — для места №2)
            /daily 8:00 график — то же с графиком на 48 часов
            /daily — ваши ежедневные прогнозы, /daily off — отменить все
            /alerts — уведомления: дождь в ближайший час и предупреждения о непогоде
            /settings — единицы (°C/°F, м/с, км/ч, mph, давление), язык и формат времени
            /reset — забыть всё об этом чате
            /help — эта справка

            Можно просто отправить геолокацию, координаты или ссылку на карту, или написать название города: «погода в Казани завтра».
            Кнопка «📈 График» под погодой присылает график на 48 часов и на неделю.
            В группе отвечайте на мои сообщения или упоминайте меня.
            """,
        menu: [
            ("weather", "Погода в вашем городе"),
            ("chart", "График погоды на 48 часов"),
            ("city", "Выбрать свой город"),
            ("search", "Найти город по названию"),
            ("fav", "Избранные места"),
            ("del", "Удалить место из избранного"),
            ("move", "Переставить место в избранном"),
            ("daily", "Прогноз каждый день"),
            ("alerts", "Уведомления о дожде и непогоде"),
            ("settings", "Единицы, язык и формат времени"),
            ("reset", "Забыть всё об этом чате"),
            ("start", "Начало работы"),
            ("help", "Справка и погода в любом чате: @ и моё имя"),
        ],

        // MARK: Failures, in plain words

        reasonInvalidKey: "сервис погоды не принял ключ доступа бота",
        reasonRateLimited: "слишком много запросов, попробуйте через минуту",
        reasonOverloaded: "сервис погоды сейчас перегружен, попробуйте через минуту",
        reasonTooManyFromChat: "слишком много запросов подряд из этого чата, подождите минуту",
        reasonDaySpent: "запросы к сервису погоды на сегодня исчерпаны, новые будут после 00:00 UTC (03:00 по Москве)",
        reasonChatDaySpent: "этот чат на сегодня израсходовал свою долю запросов к сервису погоды; недавно найденные места ещё отвечают, новые запросы — после 00:00 UTC (03:00 по Москве)",
        tooManyCharts: { "Слишком много графиков подряд: не больше \($0) в минуту. Подождите минуту." },
        reasonServer: "сервис погоды временно недоступен",
        reasonNetwork: "нет связи с сервисом погоды",
        reasonUndecodable: "сервис погоды ответил что-то непонятное",
        reasonNotFound: "место не найдено")
}

/// The Russian noun form for `count`: «1 место», «2 места», «5 мест», «21 место», «11 мест».
private func plural(_ count: Int, one: String, few: String, many: String) -> String {
    switch Texts.russianPluralCategory(count) {
    case .one: one
    case .few: few
    default: many
    }
}


extension Texts {
    /// Russian spoken to a group: the city, its weather and its favorites are the chat's.
    static let russianInGroup: Texts = {
        var texts = Texts.russian
        texts.isThisYourCity = "Это город чата?"
        texts.citySaved = { "📍 Город чата: \($0)" }
        texts.makeCityButton = "📍 Сделать городом чата"
        texts.cityMade = { "📍 Теперь город чата: \($0)" }
        texts.ownCityIsFirst = "Это город чата — в /fav он и так первый"
        texts.severalFoundOwnCity = "Нашлось несколько мест. Выберите город чата:"
        texts.dailyUsage =
            "Чтобы получать прогноз каждый день: <code>/daily 8:00</code> — для города чата, <code>/daily 8:00 2</code> — для места №2 из /fav, <code>/daily 8:00 график</code> — вместе с графиком на 48 часов (<code>/daily 8:00 без графика</code> — без него). Время — местное для места. <code>/daily off</code> — отменить все."
        texts.ownCityPrompt = { "Напишите название города чата, например: <i>\($0)</i>" }
        texts.alertsNeedCity = "Уведомления приходят для города чата. Сначала выберите его: напишите /city и название, например /city Казань."
        texts.settingsTitle = "⚙️ <b>Настройки чата</b> — для всех его участников, меняют администраторы"
        texts.help = """
            Я показываю погоду для города этого чата.

            /start — начало работы
            /weather — погода в городе чата
            /city Казань — выбрать город чата
            /search Казань — найти место и посмотреть погоду там
            /fav — избранные места чата
            /del N — удалить место N из избранного
            /move N M — переставить место N на позицию M
            /chart — график погоды на 48 часов (/chart неделя — на неделю)
            /daily 8:00 — прогноз каждый день в 8:00 (/daily 8:00 2 — для места №2)
            /daily 8:00 график — то же с графиком на 48 часов
            /daily — ежедневные прогнозы чата, /daily off — отменить все
            /alerts — уведомления: дождь в ближайший час и предупреждения о непогоде
            /settings — единицы (°C/°F, м/с, км/ч, mph, давление), язык и формат времени
            /reset — забыть всё об этом чате
            /help — эта справка

            Город чата, избранное, ежедневные прогнозы, уведомления и настройки меняют администраторы группы; первый город может выбрать любой участник.
            Можно отправить геолокацию, координаты или ссылку на карту, или написать название города: «погода в Казани завтра».
            Кнопка «📈 График» под погодой присылает график на 48 часов и на неделю.
            В группе отвечайте на мои сообщения или упоминайте меня.
            """
        return texts
    }()
}
