import OpenWeather
import WeatherBotStore

extension Texts {
    /// The plural category of a whole number in English, per CLDR: 1 → one; everything else,
    /// 0 included → other.
    static func englishPluralCategory(_ count: Int) -> PluralCategory {
        count.magnitude == 1 ? .one : .other
    }

    /// Every text in English.
    static let english = Texts(
        language: .en,
        pluralCategory: englishPluralCategory,

        // MARK: Onboarding

        greeting: "👋 Hi! I show the weather in your city.\n\nTo begin, share your location and I'll find your city. Or choose a city manually.",
        groupGreeting:
            "👋 Hi! I show the weather for this chat.\n\nTo choose the chat's city, write <code>/city London</code> or reply to this message with a city's name. Weather: /weather; all commands: /help.",
        locationLookupFailed: { "Could not find the city: \($0). \($1), or choose a city manually." },
        sendAgain: { sent, when in
            switch sent {
            case .location: "Share your location again \(when)"
            case .coordinates: "Send the coordinates again \(when)"
            case .link: "Send the link again \(when)"
            }
        },
        shareLocationButton: "📍 Share location",
        chooseManuallyKeyboardButton: "🔎 Choose city manually",
        inputPlaceholder: "City name",

        // MARK: The city dialogue

        locating: "🔎 Finding the city…",
        isThisYourCity: "Is this your city?",
        cityForAdministrators: "Make this place the chat's city? The administrators decide.",
        yesButton: "✅ Yes, that's right",
        noButton: "No, choose another",
        justWeatherButton: "🌦 Just the weather here",
        locationFailed: "Could not determine the city",
        locationFailedExplanation: "No town was found near this point. Choose the city by name.",
        mapLinkFailed: "Could not open the map link",
        mapLinkFailedExplanation: "It led to no point. Share a location, send coordinates (for example 55.75, 37.62) or type a city's name.",
        mapLinkUnreachableExplanation: "The map's site did not answer. Try again later, or share a location, send coordinates (for example 55.75, 37.62) or type a city's name.",
        mapLinksTooMany: "⏳ Too many links, try again in a minute",
        chooseManuallyButton: "Choose city manually",
        ownCityExamples: ["London", "Madrid", "Toronto"],
        ownCityPrompt: { "Type the name of your city, for example: <i>\($0)</i>" },
        askPlaceToFind: "Which place shall I look up? Type the name of a city or town.",
        answeredNo: "Answer: no, another city",
        answeredJustWeather: "Answer: just the weather here, the city stays",
        nothingFound: { "Nothing found for “\($0)”. Check the name and type it again, in English or in the local language." },
        severalFoundOwnCity: "Several places match. Choose your city:",
        severalFoundPlace: "Several places match. Tap any of them to see its weather.",
        nameTooLong: "That is too long for a place's name. Type just the city's name, for example: <i>London</i>",
        noPlaceInText: "I couldn't find a place's name in that. Type just the city's name, for example: <i>London</i> or <i>London tomorrow</i>",
        severalFoundForChart: "Several places match. Tap any of them to get its chart.",
        picked: { "Chosen: \($0)" },
        searchFailed: { "The search failed: \($0). Press “🔄 Retry” \($1)." },
        citySaved: { "📍 Your city: \($0)" },

        // MARK: Weather

        localTime: "Local time",
        feelsLike: "Feels like",
        clouds: "Clouds",
        wind: "Wind",
        calm: "calm",
        gusts: { "gusts up to \($0)" },
        humidity: "Humidity",
        pressure: "Pressure",
        pressureUnits: [.millimetresOfMercury: "mmHg", .hectopascals: "hPa", .inchesOfMercury: "inHg"],
        speedUnits: [.metresPerSecond: "m/s", .kilometresPerHour: "km/h", .milesPerHour: "mph"],
        millimetres: "mm",
        precipitationNow: "Precipitation",
        perHour: "mm/h",
        inches: "in",
        inchesPerHour: "in/h",
        sunrise: "Sunrise",
        sunset: "Sunset",
        dataAsOf: { "data as of \($0)" },
        dataFrom: { "Data: \($0)" },
        lastKnownForecast: { "The weather service is not answering now, so this is the last known forecast: from \($0), \($1) ago" },
        minutesShort: { "\($0) min" },
        hoursShort: { "\($0) h" },
        decimalMark: ".",
        hourlyTitle: "by the hour",
        everyThreeHours: "every 3 h",
        cloudsShort: "cl.",
        hourlyLegend: { "wind \($0) · pressure \($1) · humidity · clouds · chance of precipitation (likely from \($2)%, in bold)" },
        precipitationLikely: { "☔ Precipitation likely from \($0), \($1)%" },
        noHours: "No hourly forecast is available now.",
        dailyTitle: { "for \($0) \(plural($0, one: "day", other: "days"))" },
        onlyDays: { "There is no forecast beyond \($0) \(plural($0, one: "day", other: "days")) for this place now." },
        moreAlerts: { "…and \($0) more" },
        dayTime: "day",
        nightTime: "night",
        today: "Today",
        tomorrow: "Tomorrow",
        weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        weekdaysInSentence: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        windPoints: ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"],
        nowButton: "Now",
        hourlyButton: "Hourly",
        daysButton: { "\($0) \(plural($0, one: "day", other: "days"))" },
        refreshButton: "🔄 Refresh",
        chartButton: "📈 Chart",
        chartHoursButton: "48 hours",
        chartWeekButton: "Week",
        chartHoursTitle: "48 hours",
        chartWeekTitle: "week",
        chartTemperature: "Temperature",
        chartFeelsLike: "Feels like",
        chartPrecipitation: "Precipitation",
        chartPrecipitationChance: "Chance of precipitation",
        chartDayAndNight: "Day and night",
        chartHour: "h",
        previousDayButton: "◀ Today",
        nextDayButton: "Tomorrow ▶",
        defaultCityHintInGroup:
            "This is the weather in the default city. To choose the chat's city, reply to this message with its name, or if this is it, press “📍 Make it the chat's city”.",
        defaultCityHint:
            "This is the weather in the default city. Type your city's name or share your location, or if this is your city, press “📍 Make it my city”.",
        makeCityButton: "📍 Make it my city",
        cityMade: { "📍 Your city is now \($0)" },
        weatherFailed: { "Could not get the weather: \($0)." },
        retryButton: "🔄 Retry",
        shortCountryNames: [
            "US": "USA", "GB": "UK", "AE": "UAE", "CF": "CAR", "CD": "DR Congo", "VC": "St Vincent", "KN": "St Kitts and Nevis",
        ],

        // MARK: Favorites

        addFavoriteButton: "⭐ Add to favorites",
        savedFavoriteButton: "★ In favorites",
        favoriteAdded: "⭐ Added to favorites",
        ownCityIsFirst: "This is your city: it is always first in /fav",
        favoriteRemoved: "☆ Removed from favorites",
        alreadyFavorite: "★ Already in favorites",
        alreadyNotFavorite: "☆ Already removed from favorites",
        onlyOneFavorite: { "There is one place in favorites (\($0)): nothing to move." },
        favoritesFull: { "Favorites already hold \($0) \(plural($0, one: "place", other: "places")), the most allowed. Delete one: /del" },
        favoritesTitle: "⭐ <b>Favorites</b>",
        noCurrentCity: "📍 No city chosen yet — /start",
        noFavorites: "No favorites yet. Find a city with /search and press “⭐ Add to favorites”.",
        noFavoritesToChange: "Favorites are empty: there is nothing to delete or move. Find a city with /search and press “⭐ Add to favorites”.",
        noPrecipitation: "no precipitation",
        unavailable: "no data",
        deleteModeButton: "🗑 Delete",
        moveModeButton: "↕️ Reorder",
        doneButton: "« Done",
        chooseToDelete: "Choose what to delete:",
        chooseToMove: "Move places with ⬆️ and ⬇️:",
        deleted: { "🗑 Deleted: \($0)" },
        moved: { "↕️ \($0) is now #\($1)" },
        notMoved: { "\($0) is #\($1) already: nothing moved." },
        dailyStays: { "The daily forecast for this place (\($0)) stays; to cancel it: /daily" },
        alreadyFirst: "This place is first already",
        alreadyLast: "This place is last already",
        favoritesEmpty: "Favorites are empty.",
        numberInRange: { $0 == 1 ? "There is one place in the list, number 1: \($1)" : "Give a number from 1 to \($0), for example: \($1)" },
        moveUsage: { "Give two numbers, from and to, for example: \($0)" },

        // MARK: Daily forecasts

        dailyUsage:
            "To get a forecast every day: <code>/daily 8:00</code> for your city, <code>/daily 8:00 2</code> for place #2 in /fav, <code>/daily 8:00 chart</code> with the 48-hour chart (<code>/daily 8:00 no chart</code> without it). The time is the place's local time. <code>/daily off</code> cancels them all.",
        dailyWithChart: "📈 With the 48-hour chart.",
        withChartMark: "📈 with chart",
        dailyChartAdded: { place, time in "📈 The \(time) forecast for \(place) now comes with the chart." },
        dailyChartRemoved: { place, time in "The \(time) forecast for \(place) now comes without the chart." },
        dailyListTitle: "🗓 <b>Daily forecasts</b>",
        noDaily: "No subscriptions yet.",
        badTime: { "I can't read the time “\($0)”. Give hours and minutes, for example: /daily 8:00" },
        dailyNotUnderstood: { "I don't understand “\($0)”: /daily needs a time." },
        dailyNeedsCity: "Choose your city first: type /city and its name, for example /city London, or share your location.",
        dailyLimit: { "At most \($0) daily \(plural($0, one: "forecast", other: "forecasts")). Cancel one: /daily" },
        dailyDuplicate: "That forecast is already set.",
        dailyDuplicateWithChart: { "That forecast is already set, with the chart. Without it: <code>/daily \($0) no chart</code>" },
        subscribed: { place, time, nowThere, firstToday in
            "✅ Every day at \(time) local time (\(place)) I'll send the forecast. It is \(nowThere) there now; the first comes \(firstToday ? "today" : "tomorrow")."
        },
        dailyCancelledCount: { "Daily forecasts cancelled: \($0)." },
        dailyCancelledOne: "Forecast cancelled",
        dailyOffQuestion: { "Cancel all daily forecasts (\($0))?" },
        dailyOffConfirmButton: "🗑 Yes, cancel them all",
        dailyOffCancelButton: "No, keep them",
        dailyOffKept: "The daily forecasts stay.",
        cancelButton: "❌ Cancel",
        forecastForToday: "Today's forecast",
        morning: "Morning",
        afternoon: "Day",
        evening: "Evening",
        night: "Night",
        precipitationChance: { "Precipitation: \($0), \($1)% chance" },
        umbrellaSummary: "Take an umbrella: precipitation is likely.",
        snowSummary: "Dress warmly: snow is likely.",
        possibleSummary: "Precipitation is possible, though unlikely.",
        drySummary: "No precipitation expected.",
        rangeSummary: { "Temperatures from \($0) to \($1)." },
        noDayForecast: "No forecast for this day.",
        comparedWithYesterday: { degrees, warmer, afternoon in
            "\(degrees) \(plural(degrees, one: "degree", other: "degrees")) \(warmer ? "warmer" : "colder") than \(afternoon ? "yesterday this afternoon" : "last night")"
        },

        // MARK: Notices

        alertsTitle: { "🔔 <b>Notices</b> — \($0)" },
        alertsRain: "☔ Rain or snow within the hour",
        alertsWarnings: "⚠️ Official weather warnings",
        alertsPollen: "🌼 Pollen: a high pollen day",
        alertsOnMark: "✅",
        alertsOffMark: "☐",
        alertsQuietLine: { hours in
            guard let hours else { return "🌙 No quiet hours: notices come at any time." }
            return "🌙 Quiet hours: \(hours) local time. No notice of rain that begins then; warnings come silently, and those starting later come when the quiet hours end."
        },
        alertsQuietButton: { "🌙 Quiet hours: \($0) — turn off" },
        alertsQuietOnButton: { "🌙 Turn on quiet hours \($0)" },
        alertsUnknown: { "I don't understand “\($0)”." },
        alertsUsage:
            "<code>/alerts on</code> turns rain and warnings on, <code>/alerts off</code> everything off, <code>/alerts quiet 23:00-07:00</code> sets your quiet hours, <code>/alerts quiet off</code> removes them.",
        alertsCoarse: "Rain is told from the 3-hourly forecast, roughly: minute-by-minute notices need a One Call 3.0 subscription at OpenWeather.",
        alertsNeedCity: "Notices come for your city. Choose it first: type /city and its name, for example /city London, or share your location.",
        alertsAnswerCity: "First answer the question above about the city: notices come for the city you choose.",
        alertsBadQuiet: { "I don't understand the hours “\($0)”. Give a start and an end, for example: <code>/alerts quiet 23:00-07:00</code>" },
        alertsQuietEmpty: {
            "Quiet hours from \($0) to \($0) are no hours at all. Give a different start and end, for example <code>/alerts quiet 23:00-07:00</code>; to have no quiet hours, <code>/alerts quiet off</code>."
        },
        alertsAllOn: "Notices are on: rain within the hour and official weather warnings.",
        alertsRainOn: "Notices are on: rain within the hour.",
        alertsNoWarnings: "The weather source has no official weather warnings, so none are told.",
        alertsUsageWithoutWarnings:
            "<code>/alerts on</code> turns rain on, <code>/alerts off</code> everything off, <code>/alerts quiet 23:00-07:00</code> sets your quiet hours, <code>/alerts quiet off</code> removes them.",
        alertsAllOff: "Notices are off.",
        alertsQuietSet: { "Quiet hours set: \($0)." },
        alertsQuietOff: "Quiet hours are off.",
        alertsFollowCity: "🔔 Notices now come for this city.",

        // MARK: Settings

        settingsTitle: "⚙️ <b>Settings</b>",
        settingsTemperature: "Temperature",
        settingsWind: "Wind",
        settingsPressure: "Pressure",
        settingsLanguage: "Language",
        settingsClock: "Time",
        settingsAsInTelegram: "As in Telegram",
        languageNames: [.ru: "Русский", .en: "English"],
        clockNames: [.twentyFourHour: "24-hour", .twelveHour: "12-hour"],
        settingsExample: { "For example: \($0)" },
        settingsSaved: "✅ Saved",
        inMinutes: { "in \($0) \(plural($0, one: "minute", other: "minutes"))" },
        forMinutes: { "for about \($0) \(plural($0, one: "minute", other: "minutes"))" },
        precipitationWords: [
            ["Light rain", "Rain", "Heavy rain"],
            ["Light snow", "Snow", "Heavy snow"],
            ["Light sleet", "Sleet", "Heavy sleet"],
        ],
        rainSoon: { what, inMinutes, time, duration in
            "\(what) \(inMinutes), at about \(time)" + (duration.map { ", \($0)" } ?? "") + "."
        },
        rainAround: { what, time in "\(what) expected around \(time)." },
        warningSender: { "From: \($0)" },
        warningUpdated: { event, period in "⚠️ The “\(event)” warning has changed: now \(period)." },
        uvLevels: [
            ["moderate", "seek shade around midday"], ["high", "sunscreen and a hat needed"],
            ["very high", "SPF 30+, avoid the midday sun"], ["extreme", "stay in the shade, SPF 50+"],
        ],
        uvNow: { index, level, advice in "UV \(index), \(level): \(advice)" },
        uvDayMaximum: { index, level, advice in "UV up to \(index) today, \(level): \(advice)" },
        airLevels: ["good", "fair", "moderate", "poor", "very poor"],
        airNow: { level, particles in "Air: \(level)" + (particles.map { ", \($0)" } ?? "") },
        airParticles: { "PM2.5 \($0) µg/m³" },
        airWarnings: [
            "The air will be poor today: spend less time outdoors, children and older people especially.",
            "The air will be very poor today: stay indoors if you can, with the windows shut.",
        ],
        pollenKind: { kind in
            switch kind {
            case .alder: "alder"
            case .birch: "birch"
            case .grass: "grass"
            case .mugwort: "mugwort"
            case .olive: "olive"
            case .ragweed: "ragweed"
            }
        },
        pollenLevel: { level in
            switch level {
            case .none: "none"
            case .low: "low"
            case .moderate: "moderate"
            case .high: "high"
            case .veryHigh: "very high"
            }
        },
        pollenNow: { levels in "Pollen: " + levels.map { "\($0.kind) — \($0.level)" }.joined(separator: ", ") },
        pollenDay: { level, levels in
            let words = level == .veryHigh ? "Very high" : "High"
            return "🌼 \(words) pollen today: " + levels.map { "\($0.kind) — \($0.level)" }.joined(separator: ", ") + "."
        },
        shareButton: "↗️ Share",
        openAppButton: "📱 Open app",
        appHelp: "“📱 Open app” under the weather, or the 📱 button beside the message field, opens the app: the weather now, by the hour and for the week, the chart, favorites and settings.",
        appWeatherTab: "Weather",
        appFavoritesTab: "Favorites",
        appSearchTab: "Search",
        appSettingsTab: "Settings",
        appSearchPlaceholder: "City or place",
        appSearchButton: "Search",
        appMyLocation: "📍 My location",
        appLocationDenied: "No access to your location. Allow it for Telegram, or find the place by name.",
        appQuietLabel: "Quiet hours:",
        appDailyLabel: "A forecast every day at (and a favorite’s number):",
        appSave: "Save",
        appAdd: "Add",
        appDeleteLabel: "Remove from favorites",
        appPlaceGone: "This place is no longer among your favorites.",
        appChooseCity: "This is the weather in the default city. To choose your city, find it under “Search” and press “📍 Make it my city”.",
        appNoCity: "📍 No city chosen yet: find it under “Search”.",
        appNoFavorites: "No favorites yet. Find a place under “Search” and press “⭐ Add to favorites”.",
        appOwnCity: "This is your city: it is always first among your favorites.",
        appAlertsNeedCity: "Notices come for your city. Choose it first: find it under “Search” and press “📍 Make it my city”.",
        inlineChooseCityButton: "Choose your city",
        inlineHere: { "📍 Here: \($0)" },
        inlineNothingFound: { "Nothing found for “\($0)”. Search in the chat with me" },
        inlineFailed: "⚠️ The weather is unavailable now. Open the chat with me",
        inlineDefaultCity: { "\($0) — the default city" },
        inlineHelp: {
            "In any chat, type <code>@\($0) London</code> and pick the place: its weather goes to that chat. <code>@\($0)</code> and a space: your city and favorites from your private chat with me."
        },

        // MARK: Reset

        resetQuestion: "Delete everything the bot knows about this chat: the city, favorites, daily forecasts, notices and settings? This cannot be undone.",
        resetConfirmButton: "🗑 Yes, delete everything",
        resetCancelButton: "Cancel",
        resetDone: "Everything is deleted. To start again, press /start",
        resetCancelled: "Nothing was deleted.",

        // MARK: Buttons and commands

        shortHintInGroup: "Reply to this message with a city's name, and I'll show the weather. All commands: /help",
        shortHint: "Type a city's name or share your location, and I'll show the weather. All commands: /help",
        coordinatesOutOfRange:
            "Those coordinates are off the globe: latitude runs from −90 to 90, longitude from −180 to 180, minutes and seconds below 60. For example: 55.75, 37.62",
        unsupported: "I understand locations, city names, coordinates and commands. See /help",
        refreshed: "🔄 Refreshed",
        alreadyShown: "Already shown",
        fetchedUnderAMinuteAgo: "Already up to date: fetched under a minute ago",
        // «min» is short for «minute» and «minutes» alike.
        fetchedMinutesAgo: { "Already up to date: fetched \($0) min ago" },
        retryFailed: { "Failed again: try \($0)" },
        aLittleLater: "a little later",
        afterTheDayTurns: "after 00:00 UTC",
        refreshFailed: "Could not refresh: showing the latest data",
        administratorsOnly:
            "In a group, only its administrators change what it shares: the city, favorites, daily forecasts, notices, /settings and /reset. Anyone may ask for the weather.",
        staleButton: "This button is out of date",
        unknownButton: "This button no longer works",
        couldNotHandle: "😔 Sorry, I could not handle your last message. Please try again, or see /help",
        tooManyMessages: "✋ Too many messages in a row; I am answering the latest ones",
        tooManyPresses: "✋ Too many presses in a row; the latest one counts",
        unknownCommand: { "I don't know the command /\($0). See /help" },
        help: """
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
            /alerts — notices: rain within the hour and official weather warnings
            /settings — units (°C/°F, m/s, km/h, mph, pressure), language and clock
            /reset — forget everything about this chat
            /help — this help

            You can also just share your location, coordinates or a map link, or type a city's name: “weather in London tomorrow”.
            The “📈 Chart” button under the weather sends a chart of the next 48 hours and of the week.
            In a group, reply to my messages or mention me.
            """,
        menu: [
            ("weather", "The weather in your city"),
            ("chart", "A weather chart of the next 48 hours"),
            ("city", "Choose your city"),
            ("search", "Find a city by name"),
            ("fav", "Favorite places"),
            ("del", "Delete a favorite"),
            ("move", "Reorder favorites"),
            ("daily", "A forecast every day"),
            ("alerts", "Notices of rain and severe weather"),
            ("settings", "Units, language and clock"),
            ("reset", "Forget everything about this chat"),
            ("start", "Get started"),
            ("help", "Help, and the weather in any chat: @ and my name"),
        ],

        // MARK: Failures, in plain words

        reasonInvalidKey: "the weather service rejected the bot's access key",
        reasonRateLimited: "too many requests, try again in a minute",
        reasonOverloaded: "the weather service is busy right now, try again in a minute",
        reasonTooManyFromChat: "too many requests in a row from this chat, wait a minute",
        reasonDaySpent: "today's requests to the weather service are spent; new ones come after 00:00 UTC",
        reasonChatDaySpent: "this chat has used its share of today's requests to the weather service; places already looked up still answer, new ones come after 00:00 UTC",
        tooManyCharts: { "Too many charts in a row: at most \($0) a minute. Please wait a minute." },
        reasonServer: "the weather service is temporarily unavailable",
        reasonNetwork: "the weather service cannot be reached",
        reasonUndecodable: "the weather service gave an unreadable answer",
        reasonNotFound: "the place was not found")
}

/// The English noun form for `count`: «1 day», «0 days», «7 days».
private func plural(_ count: Int, one: String, other: String) -> String {
    Texts.englishPluralCategory(count) == .one ? one : other
}


extension Texts {
    /// English spoken to a group: the city, its weather and its favorites are the chat's.
    static let englishInGroup: Texts = {
        var texts = Texts.english
        texts.isThisYourCity = "Is this the chat's city?"
        texts.citySaved = { "📍 The chat's city: \($0)" }
        texts.makeCityButton = "📍 Make it the chat's city"
        texts.cityMade = { "📍 The chat's city is now \($0)" }
        texts.ownCityIsFirst = "This is the chat's city: it comes first in /fav anyway"
        texts.severalFoundOwnCity = "Several places match. Choose the chat's city:"
        texts.dailyUsage =
            "To get a forecast every day: <code>/daily 8:00</code> for the chat's city, <code>/daily 8:00 2</code> for place #2 in /fav, <code>/daily 8:00 chart</code> with the 48-hour chart (<code>/daily 8:00 no chart</code> without it). The time is the place's local time. <code>/daily off</code> cancels them all."
        texts.ownCityPrompt = { "Type the name of the chat's city, for example: <i>\($0)</i>" }
        texts.alertsNeedCity = "Notices come for the chat's city. Choose it first: type /city and its name, for example /city London."
        texts.settingsTitle = "⚙️ <b>The chat's settings</b>, for all its members; administrators change them"
        texts.help = """
            I show the weather for this chat's city.

            /start — get started
            /weather — the weather in the chat's city
            /city London — choose the chat's city
            /search London — look a place up and see its weather
            /fav — the chat's favorite places
            /del N — delete place N from favorites
            /move N M — move place N to position M
            /chart — a weather chart of the next 48 hours (/chart week for the week)
            /daily 8:00 — a forecast every day at 8:00 (/daily 8:00 2 for place #2)
            /daily 8:00 chart — the same with the 48-hour chart
            /daily — the chat's daily forecasts; /daily off cancels them all
            /alerts — notices: rain within the hour and official weather warnings
            /settings — units (°C/°F, m/s, km/h, mph, pressure), language and clock
            /reset — forget everything about this chat
            /help — this help

            The chat's city, favorites, daily forecasts, notices and settings are changed by the group's administrators; any member may choose the first city.
            You can share a location, coordinates or a map link, or type a city's name: “weather in London tomorrow”.
            The “📈 Chart” button under the weather sends a chart of the next 48 hours and of the week.
            In a group, reply to my messages or mention me.
            """
        return texts
    }()
}
