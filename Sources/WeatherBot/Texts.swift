public import OpenWeather
public import WeatherBotStore

/// Every sentence the bot says, in one language: the catalog each language fills in whole, one file
/// a language (`Texts+Russian.swift`, `Texts+English.swift`), so the compiler refuses a language
/// that leaves a text out. These are Telegram HTML written by hand (no user text in them); views
/// escape every value they insert. A text with a count chooses its noun's form by the language's
/// `pluralCategory`.
public struct Texts: Sendable {
    /// The language every text here is in.
    public let language: Language
    /// The chat's units and clock, which every number said follows (`Texts+Units.swift`).
    public internal(set) var settings = ChatSettings.defaults
    /// The CLDR plural category of a whole number in this language.
    let pluralCategory: @Sendable (Int) -> PluralCategory

    /// The texts of `language`; in a group, the city is the chat's («Это город чата?»), not the reader's own.
    public static func `for`(_ language: Language, inGroup: Bool = false, settings: ChatSettings = .defaults) -> Texts {
        var texts = inGroup ? language.groupTexts : language.texts
        texts.settings = settings
        return texts
    }

    /// The menu button's label, one for every chat whatever its language.
    public static let menuAppButton = "📱 Приложение · App"

    /// The reply-keyboard button texts that mean «choose a city by name», in every language.
    static let manualChoiceButtons: Set<String> = Set(Language.allCases.map { Texts.for($0).chooseManuallyKeyboardButton })

    // MARK: Onboarding

    let greeting: String
    let groupGreeting: String
    /// `again`: ``sendAgain``, which asks for the point again the way it came.
    let locationLookupFailed: @Sendable (_ reason: String, _ again: String) -> String
    /// «Отправьте координаты ещё раз чуть позже»: what the chat sent, asked for again. `when`:
    /// ``aLittleLater``, or ``afterTheDayTurns`` when the day's budget is spent.
    let sendAgain: @Sendable (_ sent: PointSource, _ when: String) -> String
    let shareLocationButton: String
    let chooseManuallyKeyboardButton: String
    let inputPlaceholder: String

    // MARK: The city dialogue

    let locating: String
    /// Said otherwise to a group: see ``inGroup``.
    var isThisYourCity: String
    /// In a group with a city, a member's location: the question left to the administrators, beside the weather there.
    let cityForAdministrators: String
    let yesButton: String
    let noButton: String
    /// The third answer when the chat has a city: the weather at the point, the city untouched.
    let justWeatherButton: String
    let locationFailed: String
    let locationFailedExplanation: String
    /// A short map link that could not be followed to its point.
    let mapLinkFailed: String
    let mapLinkFailedExplanation: String
    /// The link's host did not answer in time: worth trying again.
    let mapLinkUnreachableExplanation: String
    /// A user (or chat) followed their share of new short map links this minute; in a chat and
    /// above inline results.
    let mapLinksTooMany: String
    let chooseManuallyButton: String
    /// Cities people of this language know, the first of them not turned down shown as the example
    /// of ``askOwnCity(notNamed:)``.
    let ownCityExamples: [String]
    /// Said otherwise to a group: see ``inGroup``.
    var ownCityPrompt: @Sendable (_ example: String) -> String
    let askPlaceToFind: String
    /// What the question shows once answered.
    let answeredNo: String
    let answeredJustWeather: String
    let nothingFound: @Sendable (_ query: String) -> String
    /// A list of places for the chat's own city, and one to look a place up: what a pick will do.
    /// Said otherwise to a group: see ``inGroup``.
    var severalFoundOwnCity: String
    let severalFoundPlace: String
    /// A text too long to be a place's name, not sent to the geocoder.
    let nameTooLong: String
    /// A sentence with no place's name that can be told from it: nothing of it is searched or quoted.
    let noPlaceInText: String
    /// A list of places found for a chart: a pick sends that place's chart.
    let severalFoundForChart: String
    /// What a list for the chat's first city shows once a place is picked from it.
    let picked: @Sendable (_ name: String) -> String
    let searchFailed: @Sendable (_ reason: String, _ when: String) -> String
    /// Said otherwise to a group: see ``inGroup``.
    var citySaved: @Sendable (_ name: String) -> String

    // MARK: Weather

    let localTime: String
    let feelsLike: String
    let clouds: String
    let wind: String
    let calm: String
    let gusts: @Sendable (_ speed: String) -> String
    let humidity: String
    let pressure: String
    /// Each unit's name in this language, as numbers are followed by it.
    let pressureUnits: [ChatSettings.Pressure: String]
    let speedUnits: [ChatSettings.WindSpeed: String]
    /// Precipitation's units: millimetres, or inches for a chat in degrees Fahrenheit
    /// (``Texts/precipitationUnit``); an amount, and an amount per hour.
    let millimetres: String
    let precipitationNow: String
    let perHour: String
    let inches: String
    let inchesPerHour: String
    let sunrise: String
    let sunset: String
    let dataAsOf: @Sendable (_ time: String) -> String
    /// «Данные: Open-Meteo»: the source of weather that is not OpenWeather's.
    let dataFrom: @Sendable (_ source: String) -> String
    /// Under a daily forecast made of the last known weather, while OpenWeather does not answer:
    /// when that weather was fetched («25 ноября 08:00») and how long ago («3 ч»).
    let lastKnownForecast: @Sendable (_ fetched: String, _ age: String) -> String
    /// An age: «40 мин», «3 ч».
    let minutesShort: @Sendable (_ minutes: Int) -> String
    let hoursShort: @Sendable (_ hours: Int) -> String
    /// The decimal mark of «1,2» or «1.2».
    let decimalMark: String
    let hourlyTitle: String
    let everyThreeHours: String
    let cloudsShort: String
    /// What the hour lines' bare numbers are, in the chat's units.
    /// `likely`: the chance from which precipitation is likely (``WeatherViews/likelyPrecipitation``),
    /// which the hour lines show in bold.
    let hourlyLegend: @Sendable (_ speedUnit: String, _ pressureUnit: String, _ likely: Int) -> String
    /// The card's line when precipitation becomes likely within the coming hours: from when, and its chance.
    let precipitationLikely: @Sendable (_ time: String, _ chance: Int) -> String
    let noHours: String
    /// «на 7 дней», or as many days as the forecast has.
    let dailyTitle: @Sendable (_ days: Int) -> String
    let onlyDays: @Sendable (_ days: Int) -> String
    let moreAlerts: @Sendable (_ count: Int) -> String
    let dayTime: String
    let nightTime: String
    let today: String
    let tomorrow: String
    /// Short weekday names from Sunday, as a line starts with them.
    let weekdays: [String]
    /// The same names inside a sentence, after «Сегодня —».
    let weekdaysInSentence: [String]
    /// Month names from January, as a date says them («15 ноября»).
    let months: [String]
    /// Where the wind blows from, in 16 points starting at north.
    let windPoints: [String]
    let nowButton: String
    let hourlyButton: String
    /// «На 7 дней», or as many days as the forecast has.
    let daysButton: @Sendable (_ days: Int) -> String
    let refreshButton: String
    let chartButton: String
    let chartHoursButton: String
    let chartWeekButton: String
    let chartHoursTitle: String
    let chartWeekTitle: String
    /// The chart legend's word for the temperature line (the unit is added after it).
    public let chartTemperature: String
    /// The chart legend's word for the dashed line of how the temperature feels.
    public let chartFeelsLike: String
    /// The chart legend's word for the precipitation bars.
    public let chartPrecipitation: String
    /// The chart legend's word for the chance of precipitation.
    public let chartPrecipitationChance: String
    /// The week chart's label for its band of daytime and night-time temperatures.
    public let chartDayAndNight: String
    /// The short word for hour in the chart's millimetres-per-hour unit.
    public let chartHour: String
    let previousDayButton: String
    let nextDayButton: String
    /// The default city's hint in a group, where a typed name must answer the bot's message.
    let defaultCityHintInGroup: String
    let defaultCityHint: String
    /// Said otherwise to a group: see ``inGroup``.
    var makeCityButton: String
    /// Said otherwise to a group: see ``inGroup``.
    var cityMade: @Sendable (_ name: String) -> String
    let weatherFailed: @Sendable (_ reason: String) -> String
    let retryButton: String
    /// The short names people use for countries whose full names fill a button, by ISO code.
    let shortCountryNames: [String: String]

    // MARK: Favorites

    let addFavoriteButton: String
    let savedFavoriteButton: String
    let favoriteAdded: String
    /// Said otherwise to a group: see ``inGroup``.
    var ownCityIsFirst: String
    let favoriteRemoved: String
    /// A second press of «⭐ В избранное» (a double tap), or of «★ В избранном», before the card showed the first.
    let alreadyFavorite: String
    let alreadyNotFavorite: String
    /// /move with a single favorite.
    let onlyOneFavorite: @Sendable (_ name: String) -> String
    let favoritesFull: @Sendable (_ limit: Int) -> String
    let favoritesTitle: String
    let noCurrentCity: String
    let noFavorites: String
    let noFavoritesToChange: String
    let noPrecipitation: String
    let unavailable: String
    let deleteModeButton: String
    let moveModeButton: String
    let doneButton: String
    let chooseToDelete: String
    let chooseToMove: String
    let deleted: @Sendable (_ name: String) -> String
    let moved: @Sendable (_ name: String, _ position: Int) -> String
    let notMoved: @Sendable (_ name: String, _ position: Int) -> String
    let dailyStays: @Sendable (_ times: String) -> String
    let alreadyFirst: String
    let alreadyLast: String
    let favoritesEmpty: String
    /// The numbers a list has, 1 to `count`; said naturally when there is one.
    let numberInRange: @Sendable (_ count: Int, _ usage: String) -> String
    let moveUsage: @Sendable (_ example: String) -> String

    // MARK: Daily forecasts

    /// Said otherwise to a group: see ``inGroup``.
    var dailyUsage: String
    let dailyWithChart: String
    let withChartMark: String
    let dailyChartAdded: @Sendable (_ place: String, _ time: String) -> String
    let dailyChartRemoved: @Sendable (_ place: String, _ time: String) -> String
    let dailyListTitle: String
    let noDaily: String
    let badTime: @Sendable (_ text: String) -> String
    /// Said before /daily's usage when what followed it was neither a time nor «off».
    let dailyNotUnderstood: @Sendable (_ text: String) -> String
    let dailyNeedsCity: String
    let dailyLimit: @Sendable (_ limit: Int) -> String
    let dailyDuplicate: String
    let dailyDuplicateWithChart: @Sendable (_ time: String) -> String
    /// The time is the place's own: said with the time there now, so nobody mistakes it for theirs.
    /// A daily forecast set: the place, its local time, the time there now, and whether the first comes today.
    let subscribed: @Sendable (_ place: String, _ time: String, _ nowThere: String, _ firstToday: Bool) -> String
    let dailyCancelledCount: @Sendable (_ count: Int) -> String
    let dailyCancelledOne: String
    /// /daily off asks first, as /reset does.
    let dailyOffQuestion: @Sendable (_ count: Int) -> String
    let dailyOffConfirmButton: String
    let dailyOffCancelButton: String
    let dailyOffKept: String
    let cancelButton: String
    let forecastForToday: String
    let morning: String
    let afternoon: String
    let evening: String
    let night: String
    /// `amount` with its unit: «1,3 мм».
    let precipitationChance: @Sendable (_ amount: String, _ chance: Int) -> String
    /// Said when the day's chance reaches ``WeatherViews/likelyPrecipitation``; snow, when it will be snow.
    let umbrellaSummary: String
    let snowSummary: String
    /// Said when some precipitation is forecast, but below the likely chance.
    let possibleSummary: String
    let drySummary: String
    let rangeSummary: @Sendable (_ low: String, _ high: String) -> String
    let noDayForecast: String
    /// Today against yesterday at the same place: `afternoon` compares the days' highest
    /// temperatures («Днём на 4 градуса теплее, чем вчера»), else the nights' lowest.
    let comparedWithYesterday: @Sendable (_ degrees: Int, _ warmer: Bool, _ afternoon: Bool) -> String

    // MARK: Notices

    /// «🔔 Уведомления — Казань»: the title of /alerts.
    let alertsTitle: @Sendable (_ place: String) -> String
    let alertsRain: String
    let alertsWarnings: String
    /// Shown only where the chat's city has pollen data.
    let alertsPollen: String
    let alertsOnMark: String
    let alertsOffMark: String
    /// What quiet hours do, or that there are none (nil).
    let alertsQuietLine: @Sendable (_ hours: String?) -> String
    /// The quiet hours' button, pressing which turns them off.
    let alertsQuietButton: @Sendable (_ hours: String) -> String
    /// The button that turns quiet hours on again: the chat's own, or the default.
    let alertsQuietOnButton: @Sendable (_ hours: String) -> String
    /// An argument of /alerts that is none of its words.
    let alertsUnknown: @Sendable (_ text: String) -> String
    let alertsUsage: String
    /// On the free plan rain is told from the 3-hourly forecast.
    let alertsCoarse: String
    /// Said otherwise to a group: see ``inGroup``.
    var alertsNeedCity: String
    /// /alerts while the question about the chat's city is open.
    let alertsAnswerCity: String
    let alertsBadQuiet: @Sendable (_ text: String) -> String
    /// Quiet hours typed with the same start and end («23:00-23:00»): none between them.
    let alertsQuietEmpty: @Sendable (_ time: String) -> String
    let alertsAllOn: String
    /// `/alerts on` where no source tells warnings: rain alone.
    let alertsRainOn: String
    /// Under the switches where no source tells warnings (Open-Meteo alone): why there is no switch for them.
    let alertsNoWarnings: String
    /// ``alertsUsage`` where no source tells warnings.
    let alertsUsageWithoutWarnings: String
    let alertsAllOff: String
    let alertsQuietSet: @Sendable (_ hours: String) -> String
    let alertsQuietOff: String
    /// Told with a change of city while notices are on.
    let alertsFollowCity: String

    // MARK: Settings

    /// Said otherwise to a group: see ``inGroup``.
    var settingsTitle: String
    let settingsTemperature: String
    let settingsWind: String
    let settingsPressure: String
    let settingsLanguage: String
    let settingsClock: String
    /// The language choice that follows each writer's Telegram client.
    let settingsAsInTelegram: String
    /// Each language by its own name.
    let languageNames: [Language: String]
    let clockNames: [ChatSettings.Clock: String]
    /// A line of figures in the chosen units.
    let settingsExample: @Sendable (_ figures: String) -> String
    let settingsSaved: String
    /// «через 20 минут»: in how many minutes rain starts.
    let inMinutes: @Sendable (_ minutes: Int) -> String
    /// «примерно на 40 минут».
    let forMinutes: @Sendable (_ minutes: Int) -> String
    /// «Дождь», «Снег», «Мокрый снег» by strength: `[kind][strength]`, kinds and strengths in
    /// ``Precipitation`` order, starting a sentence.
    let precipitationWords: [[String]]
    /// The rain notice: what (from ``precipitationWords``), in how long, at what time, for how long.
    let rainSoon: @Sendable (_ what: String, _ inMinutes: String, _ time: String, _ duration: String?) -> String
    /// The free plan's notice: «Около 15:00 ожидается дождь».
    let rainAround: @Sendable (_ what: String, _ time: String) -> String
    let warningSender: @Sendable (_ sender: String) -> String
    let warningUpdated: @Sendable (_ event: String, _ period: String) -> String

    // MARK: UV

    /// From moderate (3–5) to extreme (11 and more): the level's word, and what to do about it.
    let uvLevels: [[String]]
    /// The card's line in daytime: «УФ 6, высокий: нужен крем и головной убор».
    let uvNow: @Sendable (_ index: String, _ level: String, _ advice: String) -> String
    /// The daily forecast's line: the day's highest.
    let uvDayMaximum: @Sendable (_ index: String, _ level: String, _ advice: String) -> String
    /// OpenWeather's air quality index 1 to 5 in words: «хороший» … «очень плохой».
    let airLevels: [String]
    /// The card's air line: the level, and fine particles from the third level on.
    let airNow: @Sendable (_ level: String, _ particles: String?) -> String
    /// «PM2.5 38 мкг/м³».
    let airParticles: @Sendable (_ micrograms: Int) -> String
    /// The daily forecast's warning for a day whose air reaches level 4 or 5 (the last two of ``airLevels``).
    let airWarnings: [String]

    // MARK: Pollen

    /// A kind of pollen by what people call it: «берёза», «злаки».
    let pollenKind: @Sendable (PollenReading.Kind) -> String
    /// A level above none in words, as the line of kinds says it: «низкий» … «очень высокий».
    let pollenLevel: @Sendable (PollenReading.Level) -> String
    /// The card's and the daily forecast's line: each kind with its level, the highest first.
    let pollenNow: @Sendable (_ levels: [(kind: String, level: String)]) -> String
    /// The notice of a high pollen day: the day's highest level, then each kind with its level.
    let pollenDay: @Sendable (_ level: PollenReading.Level, _ levels: [(kind: String, level: String)]) -> String

    // MARK: Inline mode and sharing

    /// Under a weather view in a private chat: sends the place's card to another chat.
    let shareButton: String
    /// Under a card in a private chat, and the menu button: opens the Mini App.
    let openAppButton: String
    /// /help's line about the Mini App, when there is one.
    let appHelp: String
    /// The Mini App's tabs: the weather, favorites, search and settings.
    let appWeatherTab: String
    let appFavoritesTab: String
    let appSearchTab: String
    let appSettingsTab: String
    /// The app's search field, its button, «📍 Моё местоположение», and what is said when the
    /// location is not given.
    let appSearchPlaceholder: String
    let appSearchButton: String
    let appMyLocation: String
    let appLocationDenied: String
    /// The settings' fields: quiet hours typed, a daily forecast's time typed, and their buttons.
    let appQuietLabel: String
    let appDailyLabel: String
    let appSave: String
    let appAdd: String
    /// The label a screen reader gives a favorite's delete button.
    let appDeleteLabel: String
    /// The app's weather screen of a favorite deleted meanwhile.
    let appPlaceGone: String
    /// Under the default city's weather in the app, for a chat without a city.
    let appChooseCity: String
    /// The app's words where the chat's would name a command: no city, no favorites, the city
    /// found again, notices without a city.
    let appNoCity: String
    let appNoFavorites: String
    let appOwnCity: String
    let appAlertsNeedCity: String
    /// Above the empty query's results for a sender with no city: opens the private chat at choosing one.
    let inlineChooseCityButton: String
    /// The title of the weather where the sender stands.
    let inlineHere: @Sendable (_ place: String) -> String
    /// Above no results: the query (plain text) found nothing; opens the private chat to search.
    let inlineNothingFound: @Sendable (_ query: String) -> String
    /// Above no results: the weather could not be had.
    let inlineFailed: String
    /// The title of the default city, listed to a sender with no city.
    let inlineDefaultCity: @Sendable (_ place: String) -> String
    /// The end of /help: how to use the bot in any chat, with its username.
    let inlineHelp: @Sendable (_ username: String) -> String

    // MARK: Reset

    let resetQuestion: String
    let resetConfirmButton: String
    let resetCancelButton: String
    let resetDone: String
    let resetCancelled: String

    // MARK: Buttons and commands

    /// The short hint in a group, where only a reply or a mention reaches the bot.
    let shortHintInGroup: String
    let shortHint: String
    let coordinatesOutOfRange: String
    let unsupported: String
    let refreshed: String
    /// A press whose message shows already what it asks for: nothing is edited.
    let alreadyShown: String
    let fetchedUnderAMinuteAgo: String
    let fetchedMinutesAgo: @Sendable (_ minutes: Int) -> String
    let retryFailed: @Sendable (_ when: String) -> String
    /// When to try again after a failure: soon, or when the UTC day's budget starts again.
    let aLittleLater: String
    let afterTheDayTurns: String
    let refreshFailed: String
    /// A group member's change of what the group shares, refused: who may make it.
    let administratorsOnly: String
    let staleButton: String
    let unknownButton: String
    /// The apology a chat gets when its message failed again and again and was set aside.
    public let couldNotHandle: String
    /// A chat sent faster than it is answered: its oldest waiting messages were dropped.
    public let tooManyMessages: String
    /// A press dropped in a flood, answered with this toast: the latest presses are answered.
    public let tooManyPresses: String
    let unknownCommand: @Sendable (_ name: String) -> String
    /// Said otherwise to a group: see ``inGroup``.
    var help: String
    /// The command menu (setMyCommands) in this language.
    public let menu: [(command: String, description: String)]

    // MARK: Failures, in plain words

    let reasonInvalidKey: String
    let reasonRateLimited: String
    /// The bot's own minute budget at OpenWeather is spent.
    let reasonOverloaded: String
    /// One chat asked for more than its share of the minute.
    let reasonTooManyFromChat: String
    /// The day's budget is spent until 00:00 UTC.
    let reasonDaySpent: String
    /// This chat spent its share of the day's calls; the others go on.
    let reasonChatDaySpent: String
    /// One chat asked for more charts than a minute allows (each is drawn and uploaded).
    let tooManyCharts: @Sendable (_ limit: Int) -> String
    let reasonServer: String
    let reasonNetwork: String
    let reasonUndecodable: String
    let reasonNotFound: String
}

// MARK: Texts made of texts, the same in every language

extension Texts {
    /// The prompt for the chat's own city; its example is never the place just turned down.
    func askOwnCity(notNamed rejected: [String]) -> String {
        ownCityPrompt(ownCityExamples.first { !rejected.contains($0) } ?? ownCityExamples[0])
    }

    func validRange(_ count: Int, usage: String) -> String {
        count == 0 ? favoritesEmpty : numberInRange(count, usage)
    }

    func dailyChartChanged(_ place: String, _ time: String, withChart: Bool) -> String {
        withChart ? dailyChartAdded(place, time) : dailyChartRemoved(place, time)
    }

    func dailyCancelled(_ count: Int) -> String {
        count == 0 ? noDaily : dailyCancelledCount(count)
    }

    func alreadyFresh(minutes: Int) -> String {
        minutes < 1 ? fetchedUnderAMinuteAgo : fetchedMinutesAgo(minutes)
    }

    /// The short unit of precipitation amounts, for the chart: millimetres, or inches (``precipitationInInches``).
    public var chartMillimetres: String { precipitationUnit }
    /// How many millimetres make one unit of ``chartMillimetres``.
    public var chartMillimetresPerUnit: Double { precipitationInInches ? 25.4 : 1 }
    /// Each hour of the day as the chart's axis names it, midnight first: ``hour(_:)``.
    public var chartHours: [String] { (0..<24).map(hour) }
    /// Short weekday names from Sunday, for the chart's day labels.
    public var chartWeekdays: [String] { weekdays }
    /// The mark before a number's tenths in this language, for the chart's numbers.
    public var chartDecimalMark: String { decimalMark }

    /// The chart's subtitle: «48 часов · данные на 14:05 (UTC+3)».
    public func chartSubtitle(_ view: ChartRequest.View, dataTime: String) -> String {
        "\(view == .hours ? chartHoursButton : chartWeekButton) · \(dataAsOf(dataTime))"
    }
}

/// The CLDR plural categories (unicode.org/cldr, «Language Plural Rules»): the form a noun takes
/// after a number. Each language uses some of them: Russian one, few and many; English one and
/// other.
enum PluralCategory: Sendable, Hashable, CaseIterable {
    case zero, one, two, few, many, other
}
