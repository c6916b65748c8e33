import Foundation
import WeatherBotStore

/// The words for a place's region and country in a reader's language.
///
/// OpenWeather's geocoder names a place's region in English only. A Russian line says the
/// well-known ones in Russian («Татарстан», «Техас», «Иль-де-Франс») and leaves out the others
/// rather than set «Ile-de-France» beside «Франция»; a list keeps an untranslated region only
/// where it is all that tells two places of one name apart.
enum PlaceWords {
    /// The region, or nil when it says nothing the reader can use: none, the place's own name
    /// again («Москва, Moscow»), or one in another script that `needed` does not call for.
    static func region(of place: Place, _ language: Language, needed: Bool = false) -> String? {
        guard let region = place.region?.trimmingCharacters(in: .whitespaces), !region.isEmpty else { return nil }
        let said = translated[language]?[region] ?? region
        let name = place.name(in: language.rawValue)
        if said == name || region == place.name { return nil }
        if said == region, language == .ru, !needed, !region.contains(where: isCyrillic) { return nil }
        return said
    }

    /// The country as buttons and cards both say it: the short form people use («США», «ОАЭ»),
    /// else the system's name of the region code.
    static func country(of place: Place, _ texts: Texts) -> String? {
        guard let code = place.country, !code.isEmpty else { return nil }
        return texts.shortCountryNames[code.uppercased()] ?? Views.countryName(code, texts.language)
    }

    static func isCyrillic(_ character: Character) -> Bool {
        character.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
    }

    /// Regions as OpenWeather's geocoder writes them, in the languages that say them otherwise.
    static let translated: [Language: [String: String]] = [
        .ru: [
            // Russia
            "Moscow": "Москва", "Moscow Oblast": "Московская область", "Saint Petersburg": "Санкт-Петербург",
            "St.-Petersburg": "Санкт-Петербург", "Leningrad Oblast": "Ленинградская область", "Tatarstan": "Татарстан",
            "Bashkortostan": "Башкортостан", "Mordovia": "Мордовия", "Chuvashia": "Чувашия", "Udmurtia": "Удмуртия",
            "Dagestan": "Дагестан", "Chechnya": "Чечня", "Yakutia": "Якутия", "Sakha": "Якутия", "Buryatia": "Бурятия",
            "Karelia": "Карелия", "Komi": "Коми", "Mari El": "Марий Эл", "Adygea": "Адыгея", "Kalmykia": "Калмыкия",
            "Khakassia": "Хакасия", "Tuva": "Тыва", "Altai Republic": "Республика Алтай", "Altai Krai": "Алтайский край",
            "Krasnodar Krai": "Краснодарский край", "Krasnoyarsk Krai": "Красноярский край", "Perm Krai": "Пермский край",
            "Primorsky Krai": "Приморский край", "Stavropol Krai": "Ставропольский край", "Khabarovsk Krai": "Хабаровский край",
            "Sverdlovsk Oblast": "Свердловская область", "Novosibirsk Oblast": "Новосибирская область",
            "Nizhny Novgorod Oblast": "Нижегородская область", "Samara Oblast": "Самарская область", "Rostov Oblast": "Ростовская область",
            "Chelyabinsk Oblast": "Челябинская область", "Omsk Oblast": "Омская область", "Voronezh Oblast": "Воронежская область",
            "Volgograd Oblast": "Волгоградская область", "Saratov Oblast": "Саратовская область", "Tyumen Oblast": "Тюменская область",
            "Irkutsk Oblast": "Иркутская область", "Kemerovo Oblast": "Кемеровская область", "Orenburg Oblast": "Оренбургская область",
            "Penza Oblast": "Пензенская область", "Ulyanovsk Oblast": "Ульяновская область", "Yaroslavl Oblast": "Ярославская область",
            "Tver Oblast": "Тверская область", "Tula Oblast": "Тульская область", "Kaluga Oblast": "Калужская область",
            "Ryazan Oblast": "Рязанская область", "Vladimir Oblast": "Владимирская область", "Kaliningrad Oblast": "Калининградская область",
            "Murmansk Oblast": "Мурманская область", "Arkhangelsk Oblast": "Архангельская область", "Tomsk Oblast": "Томская область",
            "Kirov Oblast": "Кировская область", "Belgorod Oblast": "Белгородская область", "Kursk Oblast": "Курская область",
            "Smolensk Oblast": "Смоленская область", "Pskov Oblast": "Псковская область", "Novgorod Oblast": "Новгородская область",
            "Vologda Oblast": "Вологодская область", "Astrakhan Oblast": "Астраханская область", "Kaliningrad": "Калининград",
            "Khanty-Mansi Autonomous Okrug": "Ханты-Мансийский АО", "Yamalo-Nenets Autonomous Okrug": "Ямало-Ненецкий АО",
            // Neighbours and elsewhere
            "Minsk": "Минск", "Minsk Region": "Минская область", "Kyiv": "Киев", "Kyiv City": "Киев", "Almaty": "Алматы",
            "Tbilisi": "Тбилиси", "Yerevan": "Ереван", "Tashkent": "Ташкент",
            "England": "Англия", "Scotland": "Шотландия", "Wales": "Уэльс", "Northern Ireland": "Северная Ирландия",
            "Ile-de-France": "Иль-де-Франс", "Île-de-France": "Иль-де-Франс", "Provence-Alpes-Côte d'Azur": "Прованс",
            "Bavaria": "Бавария", "Berlin": "Берлин", "Hamburg": "Гамбург", "Saxony": "Саксония", "Lazio": "Лацио",
            "Lombardy": "Ломбардия", "Tuscany": "Тоскана", "Catalonia": "Каталония", "Andalusia": "Андалусия",
            "Community of Madrid": "Мадрид", "Ontario": "Онтарио", "Quebec": "Квебек", "British Columbia": "Британская Колумбия",
            "New South Wales": "Новый Южный Уэльс", "Victoria": "Виктория",
            // The United States
            "Alabama": "Алабама", "Alaska": "Аляска", "Arizona": "Аризона", "Arkansas": "Арканзас", "California": "Калифорния",
            "Colorado": "Колорадо", "Connecticut": "Коннектикут", "Delaware": "Делавэр", "Florida": "Флорида", "Georgia": "Джорджия",
            "Hawaii": "Гавайи", "Idaho": "Айдахо", "Illinois": "Иллинойс", "Indiana": "Индиана", "Iowa": "Айова", "Kansas": "Канзас",
            "Kentucky": "Кентукки", "Louisiana": "Луизиана", "Maine": "Мэн", "Maryland": "Мэриленд", "Massachusetts": "Массачусетс",
            "Michigan": "Мичиган", "Minnesota": "Миннесота", "Mississippi": "Миссисипи", "Missouri": "Миссури", "Montana": "Монтана",
            "Nebraska": "Небраска", "Nevada": "Невада", "New Hampshire": "Нью-Гэмпшир", "New Jersey": "Нью-Джерси",
            "New Mexico": "Нью-Мексико", "New York": "Нью-Йорк", "North Carolina": "Северная Каролина", "North Dakota": "Северная Дакота",
            "Ohio": "Огайо", "Oklahoma": "Оклахома", "Oregon": "Орегон", "Pennsylvania": "Пенсильвания", "Rhode Island": "Род-Айленд",
            "South Carolina": "Южная Каролина", "South Dakota": "Южная Дакота", "Tennessee": "Теннесси", "Texas": "Техас",
            "Utah": "Юта", "Vermont": "Вермонт", "Virginia": "Виргиния", "Washington": "Вашингтон", "West Virginia": "Западная Виргиния",
            "Wisconsin": "Висконсин", "Wyoming": "Вайоминг", "District of Columbia": "Округ Колумбия",
        ],
    ]
}
