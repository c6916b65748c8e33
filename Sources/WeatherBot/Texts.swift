public import WeatherBotStore

/// Every sentence the bot says, in one language. These are Telegram HTML written by hand (no user
/// text in them); views escape every value they insert.
public struct Texts: Sendable {
    public let language: Language

    public static func `for`(_ language: Language) -> Texts { Texts(language: language) }

    /// The reply-keyboard button texts that mean «choose a city by name», in every language.
    static let manualChoiceButtons: Set<String> = Set(Language.allCases.map { Texts(language: $0).chooseManuallyKeyboardButton })

    private func pick(_ ru: String, _ en: String) -> String {
        language == .ru ? ru : en
    }

    // MARK: Onboarding

    var greeting: String {
        pick(
            "👋 Привет! Я показываю погоду в вашем городе.\n\nЧтобы начать, отправьте геолокацию — я определю ваш город. Или выберите город вручную.",
            "👋 Hi! I show the weather in your city.\n\nTo begin, share your location and I'll find your city. Or choose a city manually.")
    }
    var groupGreeting: String {
        pick(
            "👋 Привет! Я показываю погоду для этого чата.\n\nЧтобы выбрать город чата, напишите <code>/city Казань</code> или ответьте на это сообщение названием города. Погода — /weather, все команды — /help.",
            "👋 Hi! I show the weather for this chat.\n\nTo choose the chat's city, write <code>/city London</code> or reply to this message with a city's name. Weather: /weather; all commands: /help.")
    }
    func locationLookupFailed(_ reason: String) -> String {
        pick("Не удалось определить город: \(reason). Отправьте геолокацию ещё раз чуть позже или выберите город вручную.",
             "Could not find the city: \(reason). Share your location again a little later, or choose a city manually.")
    }
    var shareLocationButton: String { pick("📍 Отправить геолокацию", "📍 Share location") }
    var chooseManuallyKeyboardButton: String { pick("🔎 Выбрать город вручную", "🔎 Choose city manually") }
    var inputPlaceholder: String { pick("Название города", "City name") }

    // MARK: The city dialogue

    var locating: String { pick("🔎 Определяем город…", "🔎 Finding your city…") }
    var isThisYourCity: String { pick("Это ваш город?", "Is this your city?") }
    var yesButton: String { pick("✅ Да, всё верно", "✅ Yes, that's right") }
    var noButton: String { pick("Нет, выбрать другой", "No, choose another") }
    var locationFailed: String { pick("Не удалось определить город", "Could not determine the city") }
    var locationFailedExplanation: String {
        pick(
            "Рядом с этой точкой не нашлось населённого пункта. Выберите город по названию.",
            "No town was found near this point. Choose the city by name.")
    }
    var chooseManuallyButton: String { pick("Выбрать город вручную", "Choose city manually") }
    /// The prompt for the chat's own city; its example is never the place just turned down.
    func askOwnCity(notNamed rejected: [String]) -> String {
        let examples = language == .ru ? ["Казань", "Самара", "Тверь"] : ["London", "Madrid", "Toronto"]
        let example = examples.first { !rejected.contains($0) } ?? examples[0]
        return pick("Напишите название вашего города, например: <i>\(example)</i>", "Type the name of your city, for example: <i>\(example)</i>")
    }
    var askPlaceToFind: String {
        pick("Какое место найти? Напишите название города или посёлка.", "Which place shall I look up? Type the name of a city or town.")
    }
    /// What the question shows once answered.
    var answeredNo: String { pick("Ответ: нет, другой город", "Answer: no, another city") }
    func nothingFound(_ query: String) -> String {
        pick("Ничего не нашлось по запросу «\(query)». Проверьте название и напишите ещё раз — можно по-русски или по-английски.",
             "Nothing found for “\(query)”. Check the name and type it again, in English or in the local language.")
    }
    var severalFound: String { pick("Нашлось несколько мест. Выберите своё:", "Several places match. Choose yours:") }
    func searchFailed(_ reason: String) -> String {
        pick("Не удалось выполнить поиск: \(reason). Нажмите «🔄 Повторить» чуть позже.",
             "The search failed: \(reason). Press “🔄 Retry” a little later.")
    }
    func citySaved(_ name: String) -> String { pick("📍 Ваш город: \(name)", "📍 Your city: \(name)") }

    // MARK: Weather

    var localTime: String { pick("Местное время", "Local time") }
    var feelsLike: String { pick("Ощущается как", "Feels like") }
    var clouds: String { pick("Облачность", "Clouds") }
    var wind: String { pick("Ветер", "Wind") }
    var calm: String { pick("штиль", "calm") }
    func gusts(_ speed: String) -> String { pick("порывы до \(speed)", "gusts up to \(speed)") }
    var humidity: String { pick("Влажность", "Humidity") }
    var pressure: String { pick("Давление", "Pressure") }
    var pressureUnit: String { pick("мм рт. ст.", "hPa") }
    var speedUnit: String { pick("м/с", "m/s") }
    var millimetres: String { pick("мм", "mm") }
    var precipitationNow: String { pick("Осадки", "Precipitation") }
    var perHour: String { pick("мм/ч", "mm/h") }
    var sunrise: String { pick("Восход", "Sunrise") }
    var sunset: String { pick("Закат", "Sunset") }
    func dataAsOf(_ time: String) -> String { pick("данные на \(time)", "data as of \(time)") }
    var hourlyTitle: String { pick("по часам", "by the hour") }
    var everyThreeHours: String { pick("каждые 3 ч", "every 3 h") }
    var cloudsShort: String { pick("обл.", "cl.") }
    var hourlyLegend: String {
        pick("ветер м/с · давление мм рт. ст. · влажность · облачность · вероятность осадков",
             "wind m/s · pressure hPa · humidity · clouds · chance of precipitation")
    }
    var noHours: String { pick("Почасового прогноза сейчас нет.", "No hourly forecast is available now.") }
    /// «на 7 дней», or as many days as the forecast has.
    func dailyTitle(_ count: Int) -> String {
        pick("на \(count) \(Self.russianPlural(count, "день", "дня", "дней"))", "for \(count) \(count == 1 ? "day" : "days")")
    }
    func onlyDays(_ count: Int) -> String {
        pick("Дальше чем на \(count) \(Self.russianPlural(count, "день", "дня", "дней")) прогноза для этого места сейчас нет.",
             "There is no forecast beyond \(count) \(count == 1 ? "day" : "days") for this place now.")
    }
    func moreAlerts(_ count: Int) -> String {
        pick("…и ещё \(count) \(Self.russianPlural(count, "предупреждение", "предупреждения", "предупреждений"))", "…and \(count) more")
    }
    var dayTime: String { pick("днём", "day") }
    var nightTime: String { pick("ночью", "night") }
    var today: String { pick("Сегодня", "Today") }
    var tomorrow: String { pick("Завтра", "Tomorrow") }
    var weekdays: [String] { language == .ru ? ["Вс", "Пн", "Вт", "Ср", "Чт", "Пт", "Сб"] : ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] }
    var months: [String] {
        language == .ru
            ? ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"]
            : ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    }
    /// Where the wind blows from, in 16 points starting at north.
    var windPoints: [String] {
        language == .ru
            ? ["С", "ССВ", "СВ", "ВСВ", "В", "ВЮВ", "ЮВ", "ЮЮВ", "Ю", "ЮЮЗ", "ЮЗ", "ЗЮЗ", "З", "ЗСЗ", "СЗ", "ССЗ"]
            : ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
    }
    var nowButton: String { pick("Сейчас", "Now") }
    var hourlyButton: String { pick("По часам", "Hourly") }
    var dailyButton: String { pick("На 7 дней", "7 days") }
    var refreshButton: String { pick("🔄 Обновить", "🔄 Refresh") }
    var chartButton: String { pick("📈 График", "📈 Chart") }
    var chartHoursButton: String { pick("48 часов", "48 hours") }
    var chartWeekButton: String { pick("Неделя", "Week") }
    var chartHoursTitle: String { pick("48 часов", "48 hours") }
    var chartWeekTitle: String { pick("неделя", "week") }
    public var chartTemperature: String { pick("Температура", "Temperature") }
    public var chartFeelsLike: String { pick("Ощущается", "Feels like") }
    public var chartPrecipitation: String { pick("Осадки", "Precipitation") }
    public var chartPrecipitationChance: String { pick("Вероятность осадков", "Chance of precipitation") }
    public var chartDayAndNight: String { pick("Днём и ночью", "Day and night") }
    public var chartHour: String { pick("ч", "h") }
    public var chartMillimetres: String { millimetres }
    public var chartWeekdays: [String] { weekdays }
    public var chartDecimalMark: String { pick(",", ".") }
    /// The chart's subtitle: «48 часов · данные на 14:05 (UTC+3)».
    public func chartSubtitle(_ view: ChartRequest.View, dataTime: String) -> String {
        "\(view == .hours ? chartHoursButton : chartWeekButton) · \(dataAsOf(dataTime))"
    }
    var previousDayButton: String { pick("◀ Сегодня", "◀ Today") }
    var nextDayButton: String { pick("Завтра ▶", "Tomorrow ▶") }
    /// The default city's hint in a group, where a typed name must answer the bot's message.
    var defaultCityHintInGroup: String {
        pick("Это погода в городе по умолчанию. Чтобы выбрать город чата, ответьте на это сообщение его названием, а если это он, нажмите «📍 Сделать моим городом».",
             "This is the weather in the default city. To choose the chat's city, reply to this message with its name, or if this is it, press “📍 Make it my city”.")
    }
    var defaultCityHint: String {
        pick("Это погода в городе по умолчанию. Напишите название своего города или отправьте геолокацию, а если это ваш город, нажмите «📍 Сделать моим городом».",
             "This is the weather in the default city. Type your city's name or share your location, or if this is your city, press “📍 Make it my city”.")
    }
    var makeCityButton: String { pick("📍 Сделать моим городом", "📍 Make it my city") }
    func cityMade(_ name: String) -> String { pick("📍 Теперь ваш город: \(name)", "📍 Your city is now \(name)") }
    func weatherFailed(_ reason: String) -> String {
        pick("Не удалось получить погоду: \(reason).", "Could not get the weather: \(reason).")
    }
    var retryButton: String { pick("🔄 Повторить", "🔄 Retry") }

    // MARK: Favorites

    var addFavoriteButton: String { pick("⭐ В избранное", "⭐ Add to favorites") }
    var savedFavoriteButton: String { pick("★ В избранном", "★ In favorites") }
    var favoriteAdded: String { pick("⭐ Добавлено в избранное", "⭐ Added to favorites") }
    var ownCityIsFirst: String { pick("Это ваш город — в /fav он и так первый", "This is your city: it is always first in /fav") }
    var favoriteRemoved: String { pick("☆ Убрано из избранного", "☆ Removed from favorites") }
    func favoritesFull(_ limit: Int) -> String {
        pick("В избранном уже \(limit) \(Self.russianPlural(limit, "место", "места", "мест")) — это максимум. Удалите одно: /del",
             "Favorites already hold \(limit) places, the most allowed. Delete one: /del")
    }

    /// The Russian noun form for a count: 1 место, 2 места, 5 мест, 21 место, 22 места, 11 мест.
    static func russianPlural(_ count: Int, _ one: String, _ few: String, _ many: String) -> String {
        let tens = abs(count) % 100
        let units = abs(count) % 10
        if (11...14).contains(tens) { return many }
        if units == 1 { return one }
        if (2...4).contains(units) { return few }
        return many
    }
    var favoritesTitle: String { pick("⭐ <b>Избранное</b>", "⭐ <b>Favorites</b>") }
    var noCurrentCity: String { pick("📍 Город не выбран — /start", "📍 No city chosen yet — /start") }
    var noFavorites: String {
        pick("Избранных мест пока нет. Найдите город через /search и нажмите «⭐ В избранное».",
             "No favorites yet. Find a city with /search and press “⭐ Add to favorites”.")
    }
    var noFavoritesToChange: String {
        pick("В избранном пока ничего нет — удалять и переставлять нечего. Найдите город через /search и нажмите «⭐ В избранное».",
             "Favorites are empty: there is nothing to delete or move. Find a city with /search and press “⭐ Add to favorites”.")
    }
    var noPrecipitation: String { pick("без осадков", "no precipitation") }
    var unavailable: String { pick("нет данных", "no data") }
    var deleteModeButton: String { pick("🗑 Удалить", "🗑 Delete") }
    var moveModeButton: String { pick("↕️ Переставить", "↕️ Reorder") }
    var doneButton: String { pick("« Готово", "« Done") }
    var chooseToDelete: String { pick("Выберите, что удалить:", "Choose what to delete:") }
    var chooseToMove: String { pick("Переставьте места кнопками ⬆️ и ⬇️:", "Move places with ⬆️ and ⬇️:") }
    func deleted(_ name: String) -> String { pick("🗑 Удалено: \(name)", "🗑 Deleted: \(name)") }
    func moved(_ name: String, _ position: Int) -> String { pick("↕️ \(name) теперь №\(position)", "↕️ \(name) is now #\(position)") }
    func notMoved(_ name: String, _ position: Int) -> String {
        pick("\(name) и так №\(position) — ничего не переставлено.", "\(name) is #\(position) already: nothing moved.")
    }
    func dailyStays(_ times: String) -> String {
        pick("Ежедневный прогноз для этого места (\(times)) остаётся; отменить: /daily", "The daily forecast for this place (\(times)) stays; to cancel it: /daily")
    }
    var alreadyFirst: String { pick("Это место и так первое", "This place is first already") }
    var alreadyLast: String { pick("Это место и так последнее", "This place is last already") }
    func validRange(_ count: Int, usage: String) -> String {
        count == 0
            ? pick("В избранном пока ничего нет.", "Favorites are empty.")
            : pick("Укажите номер от 1 до \(count), например: \(usage)", "Give a number from 1 to \(count), for example: \(usage)")
    }
    func moveUsage(example: String) -> String {
        pick("Укажите два номера: откуда и куда, например: \(example)", "Give two numbers, from and to, for example: \(example)")
    }

    // MARK: Daily forecasts

    var dailyUsage: String {
        pick("Чтобы получать прогноз каждый день: <code>/daily 8:00</code> — для вашего города, <code>/daily 8:00 2</code> — для места №2 из /fav, <code>/daily 8:00 график</code> — вместе с графиком на 48 часов (<code>/daily 8:00 без графика</code> — без него). Время — местное для места. <code>/daily off</code> — отменить все.",
             "To get a forecast every day: <code>/daily 8:00</code> for your city, <code>/daily 8:00 2</code> for place #2 in /fav, <code>/daily 8:00 chart</code> with the 48-hour chart (<code>/daily 8:00 no chart</code> without it). The time is the place's local time. <code>/daily off</code> cancels them all.")
    }
    var dailyWithChart: String { pick("📈 С графиком на 48 часов.", "📈 With the 48-hour chart.") }
    var withChartMark: String { pick("📈 с графиком", "📈 with chart") }
    func dailyChartChanged(_ place: String, _ time: String, withChart: Bool) -> String {
        withChart
            ? pick("📈 Прогноз в \(time) (\(place)) теперь приходит с графиком.", "📈 The \(time) forecast for \(place) now comes with the chart.")
            : pick("Прогноз в \(time) (\(place)) теперь приходит без графика.", "The \(time) forecast for \(place) now comes without the chart.")
    }
    var dailyListTitle: String { pick("🗓 <b>Ежедневные прогнозы</b>", "🗓 <b>Daily forecasts</b>") }
    var noDaily: String { pick("Подписок пока нет.", "No subscriptions yet.") }
    func badTime(_ text: String) -> String {
        pick("Не понимаю время «\(text)». Укажите часы и минуты, например: /daily 8:00", "I can't read the time “\(text)”. Give hours and minutes, for example: /daily 8:00")
    }
    var dailyNeedsCity: String {
        pick("Сначала выберите город: напишите /city и его название, например /city Казань, или отправьте геолокацию.",
             "Choose your city first: type /city and its name, for example /city London, or share your location.")
    }
    func dailyLimit(_ limit: Int) -> String {
        pick("Можно не больше \(limit) ежедневных прогнозов. Отмените один: /daily", "At most \(limit) daily forecasts. Cancel one: /daily")
    }
    var dailyDuplicate: String { pick("Такой прогноз уже есть.", "That forecast is already set.") }
    func dailyDuplicateWithChart(_ time: String) -> String {
        pick("Такой прогноз уже есть, с графиком. Без графика: <code>/daily \(time) без графика</code>",
             "That forecast is already set, with the chart. Without it: <code>/daily \(time) no chart</code>")
    }
    /// The time is the place's own: said with the time there now, so nobody mistakes it for theirs.
    func subscribed(_ place: String, _ time: String, nowThere: String) -> String {
        pick("✅ Каждый день в \(time) по времени места пришлю прогноз: \(place). Сейчас там \(nowThere).",
             "✅ Every day at \(time) local time there I'll send the forecast for \(place). It is \(nowThere) there now.")
    }
    func dailyCancelled(_ count: Int) -> String {
        count == 0 ? noDaily : pick("Ежедневные прогнозы отменены: \(count).", "Daily forecasts cancelled: \(count).")
    }
    var dailyCancelledOne: String { pick("Прогноз отменён", "Forecast cancelled") }
    var cancelButton: String { pick("❌ Отменить", "❌ Cancel") }
    var forecastForToday: String { pick("Прогноз на сегодня", "Today's forecast") }
    var morning: String { pick("Утро", "Morning") }
    var afternoon: String { pick("День", "Day") }
    var evening: String { pick("Вечер", "Evening") }
    var night: String { pick("Ночь", "Night") }
    func precipitationChance(_ amount: String, _ chance: Int) -> String {
        pick("Осадки: \(amount) мм, вероятность \(chance)%", "Precipitation: \(amount) mm, \(chance)% chance")
    }
    var umbrellaSummary: String { pick("Возьмите зонт — осадки вероятны.", "Take an umbrella: precipitation is likely.") }
    var snowSummary: String { pick("Одевайтесь теплее — возможен снег.", "Dress warmly: snow is possible.") }
    var drySummary: String { pick("Осадков не ожидается.", "No precipitation expected.") }
    func rangeSummary(_ low: String, _ high: String) -> String { pick("Температура от \(low) до \(high).", "Temperatures from \(low) to \(high).") }
    var noDayForecast: String { pick("Прогноза на этот день нет.", "There is no forecast for this day.") }

    // MARK: Reset

    var resetQuestion: String {
        pick("Удалить всё, что бот знает об этом чате: город, избранное и ежедневные прогнозы? Это нельзя отменить.",
             "Delete everything the bot knows about this chat: the city, favorites and daily forecasts? This cannot be undone.")
    }
    var resetConfirmButton: String { pick("🗑 Да, удалить всё", "🗑 Yes, delete everything") }
    var resetCancelButton: String { pick("Отмена", "Cancel") }
    var resetDone: String { pick("Всё удалено. Чтобы начать заново, нажмите /start", "Everything is deleted. To start again, press /start") }
    var resetCancelled: String { pick("Ничего не удалено.", "Nothing was deleted.") }

    // MARK: Buttons and commands

    /// The short hint in a group, where only a reply or a mention reaches the bot.
    var shortHintInGroup: String {
        pick("Ответьте на это сообщение названием города — покажу погоду. Все команды: /help",
             "Reply to this message with a city's name, and I'll show the weather. All commands: /help")
    }
    var shortHint: String {
        pick("Напишите название города или отправьте геолокацию — покажу погоду. Все команды: /help",
             "Type a city's name or share your location, and I'll show the weather. All commands: /help")
    }
    var coordinatesOutOfRange: String {
        pick("Таких координат нет: широта — от −90 до 90, долгота — от −180 до 180, минуты и секунды — меньше 60. Например: 55.75, 37.62",
             "Those coordinates are off the globe: latitude runs from −90 to 90, longitude from −180 to 180, minutes and seconds below 60. For example: 55.75, 37.62")
    }
    var unsupported: String {
        pick("Я понимаю геолокацию, названия городов, координаты и команды. Список команд — /help",
             "I understand locations, city names, coordinates and commands. See /help")
    }
    var refreshed: String { pick("🔄 Обновлено", "🔄 Refreshed") }
    func alreadyFresh(minutes: Int) -> String {
        minutes < 1
            ? pick("Данные свежие: получены меньше минуты назад", "Already up to date: fetched under a minute ago")
            : pick("Данные свежие: получены \(minutes) мин назад", "Already up to date: fetched \(minutes) min ago")
    }
    var retryFailed: String { pick("Снова не удалось — попробуйте чуть позже", "Failed again: try a little later") }
    var refreshFailed: String { pick("Обновить не удалось — показаны последние данные", "Could not refresh: showing the latest data") }
    var notYourButton: String {
        pick("Эту кнопку может нажать тот, кто её вызвал, или администратор чата.", "Only the member who asked, or an administrator of the chat, can press this.")
    }
    var staleButton: String { pick("Эта кнопка уже неактуальна", "This button is no longer current") }
    var unknownButton: String { pick("Эта кнопка больше не работает", "This button no longer works") }
    public var couldNotHandle: String {
        pick("😔 Не получилось обработать ваше последнее сообщение. Попробуйте ещё раз или загляните в /help",
             "😔 Sorry, I could not handle your last message. Please try again, or see /help")
    }
    func unknownCommand(_ name: String) -> String {
        pick("Не знаю команды /\(name). Список команд — /help", "I don't know the command /\(name). See /help")
    }
    var help: String {
        pick(
            """
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
            /reset — забыть всё об этом чате
            /help — эта справка

            Можно просто отправить геолокацию, координаты или ссылку на карту, или написать название города: «погода в Казани завтра».
            Кнопка «📈 График» под погодой присылает график на 48 часов и на неделю.
            В группе отвечайте на мои сообщения или упоминайте меня.
            """,
            """
            I show the weather for your city.

            /start — get started
            /weather — the weather in your city
            /city London — choose your city
            /search London — look a place up and see its weather
            /fav — favorite places
            /del N — delete place N from favorites
            /move N M — move place N to position M
            /chart — a weather chart of the next 48 hours (/chart week for the week)
            /daily 8:00 — a forecast every day at 8:00 (/daily 8:00 2 for place #2)
            /daily 8:00 chart — the same with the 48-hour chart
            /daily — your daily forecasts; /daily off cancels them all
            /reset — forget everything about this chat
            /help — this help

            You can also just share your location, coordinates or a map link, or type a city's name: “weather in London tomorrow”.
            The “📈 Chart” button under the weather sends a chart of the next 48 hours and of the week.
            In a group, reply to my messages or mention me.
            """)
    }

    /// The command menu (setMyCommands) in this language.
    public var menu: [(command: String, description: String)] {
        [
            ("weather", pick("Погода в вашем городе", "The weather in your city")),
            ("chart", pick("График погоды на 48 часов", "A weather chart of the next 48 hours")),
            ("city", pick("Выбрать свой город", "Choose your city")),
            ("search", pick("Найти город по названию", "Find a city by name")),
            ("fav", pick("Избранные места", "Favorite places")),
            ("del", pick("Удалить место из избранного", "Delete a favorite")),
            ("move", pick("Переставить место в избранном", "Reorder favorites")),
            ("daily", pick("Прогноз каждый день", "A forecast every day")),
            ("reset", pick("Забыть всё об этом чате", "Forget everything about this chat")),
            ("start", pick("Начало работы", "Get started")),
            ("help", pick("Справка", "Help")),
        ]
    }

    // MARK: Failures, in plain words

    var reasonInvalidKey: String { pick("сервис погоды не принял ключ доступа бота", "the weather service rejected the bot's access key") }
    var reasonRateLimited: String { pick("слишком много запросов, попробуйте через минуту", "too many requests, try again in a minute") }
    var reasonServer: String { pick("сервис погоды временно недоступен", "the weather service is temporarily unavailable") }
    var reasonNetwork: String { pick("нет связи с сервисом погоды", "the weather service cannot be reached") }
    var reasonUndecodable: String { pick("сервис погоды ответил что-то непонятное", "the weather service gave an unreadable answer") }
    var reasonNotFound: String { pick("место не найдено", "the place was not found") }
}
