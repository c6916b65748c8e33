import Foundation
import WeatherBotStore

/// Reads free text as a place search: «погода в Казани завтра» is a search for «Казани», for tomorrow.
enum TypedQuery {
    struct Reading: Equatable {
        /// The place as the user wrote it, words around it taken away.
        var query: String
        var tomorrow: Bool
        /// Nominative guesses for a Russian name in another case («Казани» → «Казань»), best first,
        /// for when the geocoder finds nothing for the name as written.
        var alternatives: [String] = []
    }

    /// What a typed text is, read for a place.
    enum Parsed: Equatable {
        /// A place's name among the words around it.
        case place(Reading)
        /// Only words around a place («погода», «по часам», «weather tomorrow»): the chat's own.
        case nothing
        /// A sentence with no place's name that can be told from it: nothing of it is sent to the
        /// geocoder nor quoted back.
        case sentence
    }

    /// The most words a place's name has: «Santa Cruz de la Sierra».
    static let mostNameWords = 5

    /// Nil when nothing is left of the text after the words around a place («погода», «weather
    /// tomorrow»), or when what is left is no place's name (``Parsed/sentence``).
    static func read(_ text: String) -> Reading? {
        if case .place(let reading) = parse(text) { return reading }
        return nil
    }

    /// Reads the text: a place's name as typed, the words around it taken away; nothing but
    /// those words; or a sentence whose words are no place's name (a name that would begin with
    /// «где», «when», or run longer than any name).
    static func parse(_ text: String) -> Parsed {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        let keys = words.map(key)
        let viewWords = viewWordMarks(keys)
        func goesBefore(_ index: Int) -> Bool { leadingWords.contains(keys[index]) || viewWords[index] }
        func goesAfter(_ index: Int) -> Bool { keys[index].isEmpty || trailingWords.contains(keys[index]) || viewWords[index] }
        var start = 0
        var end = words.count
        var tomorrow = false
        while start < end {
            let current = keys[start]
            if current == "the" {
                // «the weather in the Hague»: «the» goes only before another word that goes.
                guard start + 1 < end, keys[start + 1] != "the", goesBefore(start + 1) else { break }
            } else if !current.isEmpty, !goesBefore(start) {
                break
            }
            if tomorrowWords.contains(current) { tomorrow = true }
            start += 1
        }
        // «…в городе Казань потому что я собираюсь…»: a name ends where a clause begins.
        // Its «завтра» still counts: «…в Казани, потому что завтра еду».
        if let clause = (start + 1..<max(end, start + 1)).first(where: { clauseWords.contains(keys[$0]) }) {
            if keys[clause..<end].contains(where: tomorrowWords.contains) { tomorrow = true }
            end = clause
        }
        while end > start {
            guard goesAfter(end - 1) else { break }
            if tomorrowWords.contains(keys[end - 1]) { tomorrow = true }
            end -= 1
        }
        // «…там, где живёт моя бабушка…»: no name begins with a clause's word, and none is a
        // dozen words long; such a text is answered with the hint, never searched or quoted.
        if start < end, clauseWords.contains(keys[start]) || keys[start..<end].filter({ !$0.isEmpty }).count > mostNameWords {
            return .sentence
        }
        var query = Substring(words[start..<end].joined(separator: " "))
        while let last = query.last, "?!.,;:…»”\"".contains(last) { query = query.dropLast() }
        while let first = query.first, "«“„\"".contains(first) { query = query.dropFirst() }
        let place = query.trimmingCharacters(in: .whitespaces)
        guard place.contains(where: { $0.isLetter || $0.isNumber }) else { return .nothing }
        return .place(Reading(query: place, tomorrow: tomorrow, alternatives: nominatives(of: place)))
    }

    /// What the text asks to see, as the buttons under a card name it: «по часам», «завтра», «на
    /// неделю», «график» (of the week with «на неделю»), else the weather now.
    static func asked(_ text: String) -> Asked {
        let keys = text.split(whereSeparator: { $0.isWhitespace }).map(key)
        let week = keys.contains(where: weekWords.contains) || keys.indices.contains { daysPair(keys, at: $0) }
        if keys.contains(where: chartWords.contains) { return .chart(week ? .week : .hours) }
        if week { return .week }
        if keys.contains(where: tomorrowWords.contains) { return .tomorrow }
        if keys.contains(where: hourWords.contains) { return .hours }
        return .now
    }

    /// A view a text asks for.
    enum Asked: Equatable {
        case now, hours, tomorrow, week
        case chart(ChartRequest.View)

        /// The card's view that shows it; nil for a chart.
        var weatherView: WeatherView? {
            switch self {
            case .now: .now
            case .hours: .hourly(page: 0)
            case .tomorrow: .hourly(page: 1)
            case .week: .daily
            case .chart: nil
            }
        }
    }

    /// Whether the text asks for tomorrow («погода завтра», «weather tomorrow»), with or without a
    /// place: a word of its own, so «послезавтра» does not count.
    static func asksForTomorrow(_ text: String) -> Bool { mentions(tomorrowWords, in: text) }
    static func asksForChart(_ text: String) -> Bool { mentions(chartWords, in: text) }
    static func asksForWeek(_ text: String) -> Bool { [.week, .chart(.week)].contains(asked(text)) }

    private static func mentions(_ words: Set<String>, in text: String) -> Bool {
        text.split(whereSeparator: { $0.isWhitespace }).contains { words.contains(key($0)) }
    }

    /// Words that name a view only beside another: «7» and «дней» of «на 7 дней», «7 days».
    static func viewWordMarks(_ keys: [String]) -> [Bool] {
        var marks = Array(repeating: false, count: keys.count)
        for index in keys.indices where daysPair(keys, at: index) {
            marks[index] = true
            marks[index + 1] = true
        }
        return marks
    }

    /// Whether a number of days starts at `index`: «7 дней», «семь дней», «10 days».
    static func daysPair(_ keys: [String], at index: Int) -> Bool {
        guard index + 1 < keys.count, dayWords.contains(keys[index + 1]) else { return false }
        let number = keys[index]
        return numberWords.contains(number) || (1...2).contains(number.count) && number.allSatisfy(TypedScan.isDigit)
    }

    /// Emoji, punctuation, a greeting, thanks or one of the bot's own keyboard buttons: no place to
    /// look for, and a search would only answer «nothing found».
    static func isChatter(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if keyboardLabels.contains(trimmed) { return true }
        var words: [String] = []
        var word = ""
        for character in trimmed {
            if isWordCharacter(character) {
                word += character.lowercased()
            } else if !word.isEmpty, character == "'" || character == "’" {
                word += "'"
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return true }
        guard words.count <= 4 else { return false }
        let phrase = words.map { $0.replacingOccurrences(of: "ё", with: "е") }.joined(separator: " ")
        return courtesies.contains(phrase)
    }

    /// The reply keyboard's own buttons, in every language, when a client sends them as text.
    static let keyboardLabels: Set<String> = Texts.manualChoiceButtons.union(Language.allCases.map { Texts.for($0).shareLocationButton })

    static let courtesies: Set<String> = [
        "привет", "приветик", "приветствую", "здравствуйте", "здравствуй", "здрасте", "здрасьте", "хай", "салют",
        "добрый день", "доброе утро", "добрый вечер", "доброй ночи", "спокойной ночи",
        "спасибо", "спасибо большое", "большое спасибо", "спасибочки", "спс", "пасиб", "пасибо", "благодарю",
        "пока", "до свидания", "ок", "окей", "ок спасибо", "хорошо", "ладно", "понятно", "ясно", "отлично", "супер", "класс",
        "круто", "да", "нет", "ага", "угу",
        "hi", "hello", "hey", "hi there", "hey there", "good morning", "good afternoon", "good evening", "good night",
        "thanks", "thank you", "thank you very much", "thanks a lot", "thx", "ty", "ok", "okay", "ok thanks", "great", "cool",
        "bye", "goodbye", "yes", "no", "yep", "nope",
    ]

    static let tomorrowWords: Set<String> = ["завтра", "завтрашний", "завтрашняя", "завтрашнюю", "завтрашнее", "tomorrow", "tomorrow's"]
    /// «график», «chart»: the chart rather than the card.
    static let chartWords: Set<String> = [
        "график", "графика", "графиком", "графики", "графике", "диаграмма", "диаграмму", "диаграммой", "chart", "charts", "graph", "graphs",
    ]
    /// «на неделю», «for the week», «7-дневный»: the week rather than now.
    static let weekWords: Set<String> = [
        "неделя", "неделю", "неделе", "недели", "недельный", "недельная", "недельную", "7-дневный", "7-дневная", "7-дневную",
        "семидневный", "семидневная", "семидневную", "послезавтра", "выходные", "выходных", "week", "weekly", "week's", "7-day",
        "seven-day", "weekend",
    ]
    /// «по часам», «почасовой», «hourly», «вечером», «tonight»: the hours rather than now. «часов» and «час» are not
    /// among them, being parts of names («Часов Яр»).
    static let hourWords: Set<String> = [
        "часам", "почасовой", "почасовая", "почасовую", "почасовое", "почасовые", "почасово", "почасовка", "почасовку", "ежечасный",
        "ежечасно", "утром", "днем", "вечером", "ночью", "hourly", "hours", "hour", "hour-by-hour", "tonight", "morning", "afternoon",
        "evening",
    ]
    /// «дней» of «на 7 дней», «days» of «7 days».
    static let dayWords: Set<String> = ["дней", "дня", "days", "day"]
    static let numberWords: Set<String> = ["семь", "пять", "десять", "seven", "five", "ten"]
    /// «сейчас», «right now»: the card.
    static let nowWords: Set<String> = [
        "сейчас", "сегодня", "текущая", "текущую", "текущей", "now", "today", "today's", "current", "currently", "right",
    ]
    /// Words of any view's name, which stand before or after a place alike.
    static let viewNames: Set<String> = tomorrowWords.union(chartWords).union(weekWords).union(hourWords).union(nowWords).union([
        "по", "на", "by", "the", "next", "следующую", "следующие", "ближайшие", "ближайшую", "ближайшая", "вперед", "температура",
        "температуры", "температуру", "temperature", "temperatures", "прогноз", "прогноза", "прогнозом", "forecast", "погода", "погоду",
        "погоды", "weather",
    ])

    /// Words that may stand before a place: «какая погода сейчас в …», «what's the weather like in …».
    static let leadingWords: Set<String> = ([
        "погода", "погоду", "погоды", "погодка", "погодку", "прогноз", "прогноза", "какая", "какой", "какую", "как", "там",
        "сейчас", "сегодня", "завтра", "будет", "в", "во", "на", "для", "по", "покажи", "покажите", "скажи", "скажите",
        "подскажи", "подскажите", "пожалуйста", "плиз", "а", "ну", "мне", "город", "городе", "города", "г", "пришли", "пришлите",
        "дай", "дайте", "хочу", "узнать", "знать", "нужен", "нужна", "нужно", "две", "и", "что", "насчет", "про",
        "weather", "forecast", "what's", "whats", "what", "is", "will", "be", "how's", "hows", "how", "like", "show", "tell",
        "me", "please", "in", "at", "for", "today", "now", "tomorrow", "tomorrow's", "current", "send", "give", "get", "of", "and",
        "about",
    ] as Set<String>).union(viewNames.subtracting(["the"]))

    /// Words that begin a clause, which no place's name has in it: the name ends before them.
    static let clauseWords: Set<String> = [
        "потому", "поскольку", "так", "чтобы", "что", "если", "когда", "где", "который", "которая", "хочу", "хотим", "собираюсь",
        "собираемся", "еду", "едем", "лечу", "летим", "because", "since", "so", "when", "if", "where", "which", "i", "we", "i'm",
    ]

    /// Words that may stand after a place: «Москва завтра», «London weather for tomorrow».
    static let trailingWords: Set<String> = ([
        "погода", "погоду", "погоды", "прогноз", "сейчас", "сегодня", "завтра", "на", "будет", "пожалуйста", "плиз",
        "weather", "forecast", "today", "now", "tomorrow", "for", "please", "the", "this", "in", "of",
    ] as Set<String>).union(viewNames)

    /// A word as compared with the lists: lowercased, «ё» as «е», without punctuation at its ends.
    static func key(_ word: Substring) -> String {
        let inner = word.drop { !isWordCharacter($0) }.reversed().drop { !isWordCharacter($0) }.reversed()
        return String(inner).lowercased().replacingOccurrences(of: "ё", with: "е").replacingOccurrences(of: "’", with: "'")
    }

    /// A letter or a plain digit; a digit in an emoji sequence («1️⃣») is a picture.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber && character.unicodeScalars.count == 1
    }

    // MARK: What people call places

    /// The city a short name or nickname stands for («Питер», «СПб», «Мск», «Екб», «Нью Йорк»),
    /// asked of the geocoder before the name as written, which may be a village of that name.
    static func nickname(_ name: String) -> String? {
        nicknames[nicknameKey(name)]
    }

    /// The country of the one city a nickname means («Мск»: Moscow in Russia, never Moscow in
    /// Idaho); nil for a name that is only another spelling («Нью Йорк», «Ростов»), whose
    /// namesakes stay.
    static func nicknameCountry(_ name: String) -> String? {
        oneCity[nicknameKey(name)]
    }

    private static func nicknameKey(_ name: String) -> String {
        name.split(whereSeparator: { $0.isWhitespace || $0 == "-" }).map { key($0) }.joined(separator: " ")
    }

    static let nicknames: [String: String] = [
        "питер": "Санкт-Петербург", "спб": "Санкт-Петербург", "санкт петербург": "Санкт-Петербург", "петербург": "Санкт-Петербург",
        "мск": "Москва", "екб": "Екатеринбург", "ебург": "Екатеринбург", "екат": "Екатеринбург", "нск": "Новосибирск",
        "новосиб": "Новосибирск", "нн": "Нижний Новгород", "нижний": "Нижний Новгород", "ростов": "Ростов-на-Дону",
        "ростов на дону": "Ростов-на-Дону", "краснодар": "Краснодар", "влад": "Владивосток", "владик": "Владивосток",
        "чебы": "Чебоксары", "челяба": "Челябинск", "кениг": "Калининград",
        "нью йорк": "New York", "ньюйорк": "New York", "нью-йорк": "New York", "ny": "New York", "nyc": "New York",
        "new york city": "New York", "la": "Los Angeles", "лос анджелес": "Los Angeles", "sf": "San Francisco",
        "st petersburg": "Saint Petersburg", "spb": "Saint Petersburg", "msk": "Moscow",
    ]

    /// The nicknames that mean one city, with its country: no namesake elsewhere is offered.
    static let oneCity: [String: String] = [
        "питер": "RU", "спб": "RU", "мск": "RU", "екб": "RU", "ебург": "RU", "екат": "RU", "нск": "RU", "новосиб": "RU", "нн": "RU",
        "влад": "RU", "владик": "RU", "чебы": "RU", "челяба": "RU", "кениг": "RU", "spb": "RU", "msk": "RU",
        "ny": "US", "nyc": "US", "new york city": "US", "la": "US", "sf": "US",
    ]

    /// «Paris, France», «Moscow, Idaho», «Париж, Франция»: the name and what narrows it (a country
    /// or a region) at the last comma; nil without one.
    static func narrowed(_ query: String) -> (name: String, by: String)? {
        guard let comma = query.lastIndex(of: ",") else { return nil }
        let name = query[..<comma].trimmingCharacters(in: .whitespaces)
        let by = query[query.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !by.isEmpty, by.contains(where: \.isLetter) else { return nil }
        return (name, by)
    }

    // MARK: Nominative guesses

    /// Guesses for names of one to three words: «в Нижнем Новгороде» → «Нижний Новгород»,
    /// «Ростове-на-Дону» → «Ростов-на-Дону». A guess only; the name as written is asked first.
    static func nominatives(of place: String) -> [String] {
        let words = place.split(separator: " ").map(String.init)
        guard (1...3).contains(words.count), place.count <= 80 else { return [] }
        let several = words.count > 1
        let options = words.enumerated().map { index, word in
            wordGuesses(word, adjective: several && index < words.count - 1)
        }
        return combinations(options, of: words, joinedBy: " ")
    }

    /// A word's guesses; in a hyphenated name, the parts before «на» («Ростове-на-Дону») or each part
    /// («Петропавловске-Камчатском»).
    static func wordGuesses(_ word: String, adjective: Bool) -> [String] {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, parts.count <= 4 else { return adjective ? adjectiveGuesses(word) : nounGuesses(word) }
        let linking: Set<String> = ["на", "над", "под", "у"]
        let declined = parts.firstIndex { linking.contains($0.lowercased()) } ?? parts.count
        let options = parts.enumerated().map { index, part -> [String] in
            guard index < declined else { return [] }
            // «-Камчатском»: a later part with an adjective's ending is an adjective.
            let adjectival = adjectiveGuesses(part)
            if adjective || index > 0 && !adjectival.isEmpty { return adjectival }
            return nounGuesses(part)
        }
        return combinations(options, of: parts, joinedBy: "-")
    }

    /// Every part at its best guess, then each further guess of one part; without the original and
    /// without repeats.
    static func combinations(_ options: [[String]], of originals: [String], joinedBy separator: String) -> [String] {
        let best = zip(options, originals).map { $0.first ?? $1 }
        var found: [String] = [best.joined(separator: separator)]
        for index in options.indices.reversed() {
            for other in options[index].dropFirst() {
                var variant = best
                variant[index] = other
                found.append(variant.joined(separator: separator))
            }
        }
        let original = originals.joined(separator: separator)
        var seen: Set<String> = [original]
        return found.filter { seen.insert($0).inserted }
    }

    static func isCyrillic(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { (0x0400...0x04FF).contains($0.value) }
    }

    static let vowels: Set<Character> = ["а", "е", "ё", "и", "о", "у", "ы", "э", "ю", "я"]
    static let velarsAndSibilants: Set<Character> = ["г", "к", "х", "ж", "ш", "ч", "щ"]

    /// «Казани» → «Казань», «Италии» → «Италия», «москве» → «москва», «Питере» →
    /// «Питер», «Ярославле» → «Ярославль», «Химках» → «Химки».
    static func nounGuesses(_ word: String) -> [String] {
        let lower = Array(word.lowercased())
        guard lower.count >= 3, lower.count == word.count, lower.allSatisfy(isCyrillic) else { return [] }
        let shout = word.count > 1 && word == word.uppercased()
        func ending(_ letters: String, dropping count: Int) -> String {
            String(word.dropLast(count)) + (shout ? letters.uppercased() : letters)
        }
        let last = lower[lower.count - 1]
        let previous = lower[lower.count - 2]
        switch last {
        case "и":
            if previous == "и", lower.count >= 5 { return [ending("я", dropping: 1)] }
            // Locatives of soft feminine names: «Казани», «Перми», «Твери», «Керчи», «Ярославли» is rare.
            guard lower.count >= 5, softBeforeI.contains(previous) else { return [] }
            return [ending("ь", dropping: 1)]
        case "е":
            guard !vowels.contains(previous), previous != "ь", previous != "ъ", previous != "й" else { return [] }
            let stem = String(lower.dropLast())
            let feminine = ending("а", dropping: 1)
            let masculine = String(word.dropLast())
            if previous == "л" { return [ending("ь", dropping: 1), feminine, masculine] }
            if masculineStems.contains(where: { stem.hasSuffix($0) }) { return [masculine, feminine] }
            // «Москв», «Ялт», «Дубн»: a name does not end in such a pair of consonants.
            let beforeLast = lower.count >= 3 ? lower[lower.count - 3] : "а"
            if !vowels.contains(beforeLast), beforeLast != "ь", beforeLast != "й" { return [feminine] }
            return [feminine, masculine]
        case "х":
            guard lower.count >= 5, previous == "а" || previous == "я" else { return [] }
            let beforeEnding = lower[lower.count - 3]
            let plural = previous == "я" || velarsAndSibilants.contains(beforeEnding) ? "и" : "ы"
            return [ending(plural, dropping: 2)]
        default:
            return []
        }
    }

    static let softBeforeI: Set<Character> = ["н", "р", "м", "л", "ч"]

    /// Stems of masculine names: «Омск-е», «Екатеринбург-е», «Ростов-е», «Лондон-е», «Питер-е».
    static let masculineStems = [
        "ск", "цк", "рг", "нт", "ст", "рк", "ов", "ев", "ёв", "ин", "ын", "он", "ер", "ор", "ад", "од", "ан", "ок", "ек", "ж", "ш",
    ]

    /// «Нижнем» → «Нижний», «Великом» → «Великий», «Старом» → «Старый», «Красной» → «Красная»,
    /// «Верхней» → «Верхняя», «Набережных» → «Набережные».
    static func adjectiveGuesses(_ word: String) -> [String] {
        let lower = Array(word.lowercased())
        guard lower.count >= 4, lower.count == word.count, lower.allSatisfy(isCyrillic) else { return [] }
        let shout = word == word.uppercased()
        func ending(_ letters: String) -> String {
            String(word.dropLast(2)) + (shout ? letters.uppercased() : letters)
        }
        let stemLast = lower[lower.count - 3]
        switch String(lower.suffix(2)) {
        case "ом": return [ending(velarsAndSibilants.contains(stemLast) ? "ий" : "ый")]
        case "ем": return [ending("ий")]
        case "ой": return [ending("ая")]
        case "ей": return [ending("яя")]
        case "ых": return [ending("ые")]
        case "их": return [ending("ие")]
        default: return []
        }
    }
}
