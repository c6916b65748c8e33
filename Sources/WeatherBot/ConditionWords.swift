import OpenWeather
import WeatherBotStore

/// OpenWeather's condition codes in the bot's own words: one forecast, fetched once, is worded
/// in each reader's language. A code the table lacks is said in OpenWeather's words.
enum ConditionWords {
    static func text(_ condition: Condition, _ language: Language) -> String {
        condition.id.flatMap { table[language]?[$0] } ?? condition.description
    }

    /// Every code OpenWeather documents, in the phrasing its own answers use.
    static let table: [Language: [Int: String]] = [
        .ru: [
            200: "гроза с небольшим дождём", 201: "гроза с дождём", 202: "гроза с сильным дождём", 210: "небольшая гроза",
            211: "гроза", 212: "сильная гроза", 221: "местами грозы", 230: "гроза с небольшой моросью", 231: "гроза с моросью",
            232: "гроза с сильной моросью",
            300: "небольшая морось", 301: "морось", 302: "сильная морось", 310: "небольшой моросящий дождь",
            311: "моросящий дождь", 312: "сильный моросящий дождь", 313: "ливень с моросью", 314: "сильный ливень с моросью",
            321: "моросящий ливень",
            500: "небольшой дождь", 501: "дождь", 502: "сильный дождь", 503: "очень сильный дождь", 504: "проливной дождь",
            511: "ледяной дождь", 520: "небольшой ливень", 521: "ливень", 522: "сильный ливень", 531: "местами ливни",
            600: "небольшой снег", 601: "снег", 602: "сильный снег", 611: "мокрый снег", 612: "небольшой мокрый снег",
            613: "ливневый мокрый снег", 615: "небольшой дождь со снегом", 616: "дождь со снегом", 620: "небольшой снегопад",
            621: "снегопад", 622: "сильный снегопад",
            701: "дымка", 711: "дым", 721: "мгла", 731: "песчаные и пыльные вихри", 741: "туман", 751: "песок", 761: "пыль",
            762: "вулканический пепел", 771: "шквалы", 781: "смерч",
            800: "ясно", 801: "небольшая облачность", 802: "переменная облачность", 803: "облачно с прояснениями",
            804: "пасмурно",
        ],
        .en: [
            200: "thunderstorm with light rain", 201: "thunderstorm with rain", 202: "thunderstorm with heavy rain",
            210: "light thunderstorm", 211: "thunderstorm", 212: "heavy thunderstorm", 221: "ragged thunderstorm",
            230: "thunderstorm with light drizzle", 231: "thunderstorm with drizzle", 232: "thunderstorm with heavy drizzle",
            300: "light drizzle", 301: "drizzle", 302: "heavy drizzle", 310: "light drizzle rain", 311: "drizzle rain",
            312: "heavy drizzle rain", 313: "shower rain and drizzle", 314: "heavy shower rain and drizzle", 321: "shower drizzle",
            500: "light rain", 501: "moderate rain", 502: "heavy rain", 503: "very heavy rain", 504: "extreme rain",
            511: "freezing rain", 520: "light shower rain", 521: "shower rain", 522: "heavy shower rain", 531: "ragged shower rain",
            600: "light snow", 601: "snow", 602: "heavy snow", 611: "sleet", 612: "light shower sleet", 613: "shower sleet",
            615: "light rain and snow", 616: "rain and snow", 620: "light shower snow", 621: "shower snow", 622: "heavy shower snow",
            701: "mist", 711: "smoke", 721: "haze", 731: "sand and dust whirls", 741: "fog", 751: "sand", 761: "dust",
            762: "volcanic ash", 771: "squalls", 781: "tornado",
            800: "clear sky", 801: "few clouds", 802: "scattered clouds", 803: "broken clouds", 804: "overcast clouds",
        ],
    ]
}
