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

    // MARK: What narrows a search

    /// What a country or region after a comma asks of a search («Paris, France», «Moscow, Idaho»).
    enum Narrowing: Equatable {
        /// Places in the country of this ISO code.
        case country(String)
        /// Places in the state of the United States of this postal code.
        case state(String)
        /// Places in the region the geocoder names so.
        case region(String)

        /// The geocoder's query for `name` so narrowed: OpenWeather reads «name,country» and
        /// «name,state,US»; a region it cannot be told, so the name is asked alone.
        func query(for name: String) -> String {
            switch self {
            case .country(let code): "\(name),\(code)"
            case .state(let code): "\(name),\(code),US"
            case .region: name
            }
        }

        /// Whether the geocoder's `place` lies where asked: a geocoder that ignores the narrowing
        /// is held to it.
        func admits(_ place: Place) -> Bool {
            switch self {
            case .country(let code): place.country?.uppercased() == code
            case .state(let code):
                place.country?.uppercased() == "US" && (place.region.map { usStates[$0] == code } ?? true)
            case .region(let region):
                // «Республика Мордовия» as well as «Mordovia».
                place.region.map { given in
                    let said = TypedQuery.key(Substring(given))
                    return PlaceWords.names(ofRegion: region).contains { said == $0 || said.hasSuffix(" " + $0) || said.hasPrefix($0 + " ") }
                } ?? false
            }
        }
    }

    /// What `words` may mean after a comma, most likely first: a country («Франция», «FR», «USA»),
    /// a state («Idaho», «Айдахо», «OR»), a region the bot has words for («Татарстан»). Empty when
    /// they name none of them. «Georgia» is the country, then the state.
    static func narrowings(_ words: String) -> [Narrowing] {
        let key = TypedQuery.key(Substring(words))
        guard !key.isEmpty else { return [] }
        var found: [Narrowing] = []
        if let code = countries[key] { found.append(.country(code)) }
        if let code = usStateByName[key] { found.append(.state(code)) }
        if let region = regions[key], usStates[region] == nil { found.append(.region(region)) }
        return found
    }

    /// Countries by every name a user writes: the ISO code, the system's names in each language,
    /// the bot's short names, and a few everyday ones («РФ», «Америка», «Britain»).
    static let countries: [String: String] = {
        var names: [String: String] = [:]
        let codes = Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) }
        for code in codes {
            names[code.lowercased()] = code
            for language in Language.allCases {
                names[TypedQuery.key(Substring(Views.countryName(code, language)))] = code
                if let short = Texts.for(language).shortCountryNames[code] { names[TypedQuery.key(Substring(short))] = code }
            }
        }
        let everyday = [
            "рф": "RU", "америка": "US", "штаты": "US", "сша": "US", "america": "US", "united states of america": "US", "usa": "US",
            "britain": "GB", "great britain": "GB", "uk": "GB", "англия": "GB", "england": "GB", "белоруссия": "BY",
            "голландия": "NL", "holland": "NL", "чехия": "CZ", "czech republic": "CZ", "турция": "TR", "turkey": "TR",
        ]
        for (name, code) in everyday { names[name] = code }
        return names
    }()

    /// The states of the United States and their postal codes, by the geocoder's names.
    static let usStates: [String: String] = [
        "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA", "Colorado": "CO",
        "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID",
        "Illinois": "IL", "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME",
        "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS", "Missouri": "MO",
        "Montana": "MT", "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM",
        "New York": "NY", "North Carolina": "NC", "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR",
        "Pennsylvania": "PA", "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN",
        "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA", "Washington": "WA", "West Virginia": "WV",
        "Wisconsin": "WI", "Wyoming": "WY", "District of Columbia": "DC",
    ]

    /// The states by their names in each language and by their codes.
    static let usStateByName: [String: String] = {
        var names: [String: String] = [:]
        for (name, code) in usStates {
            names[code.lowercased()] = code
            names[TypedQuery.key(Substring(name))] = code
            for table in translated.values { if let said = table[name] { names[TypedQuery.key(Substring(said))] = code } }
        }
        return names
    }()

    /// A region's names as keys: the geocoder's and the bot's words for it.
    static func names(ofRegion region: String) -> [String] {
        [TypedQuery.key(Substring(region))] + translated.values.compactMap { $0[region].map { TypedQuery.key(Substring($0)) } }
    }

    /// Regions by the geocoder's names and by the bot's words for them.
    static let regions: [String: String] = {
        var names: [String: String] = [:]
        for table in translated.values {
            for (region, said) in table {
                names[TypedQuery.key(Substring(region))] = region
                names[TypedQuery.key(Substring(said))] = region
            }
        }
        return names
    }()

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
