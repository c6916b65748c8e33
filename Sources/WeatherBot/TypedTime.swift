import Foundation

// What people type instead of pressing buttons is read by pure functions with no I/O: any text,
// however long or odd, gives an answer or nil and never a crash.

/// Reads the time a user types after `/daily`: «7:30», «8 утра», «20 ч», «7 pm».
enum TypedTime {
    /// Reads a time at the start of `text` and returns what follows it, trimmed: in «/daily 7:30 am 2»
    /// the rest is «2», a favorite's number. Accepts «7», «07», «7:30», «7.30», «20ч», «20 часов»,
    /// «8ч30», «8 утра», «8 вечера» (20:00), «3 дня» (15:00), «12 ночи» (0:00), «7:30 am», «7pm»,
    /// «7 p.m.», «12 am» (0:00), «12 pm» (12:00), in any case. Nil when the text does not begin with a
    /// valid time: «24:00», «7:60», «13 pm» and «0 am» are not times.
    /// Also «в 8», «at 7 pm» (the preposition goes) and the named hours «полдень», «noon»,
    /// «полночь», «midnight».
    static func leading(_ text: String) -> (hour: Int, minute: Int, rest: String)? {
        let trimmed = withoutPreposition(text)
        if let (hour, length) = namedHour(trimmed) {
            let rest = trimmed.dropFirst(length).drop { $0.isWhitespace || $0 == "," || $0 == ";" }
            return (hour, 0, String(rest).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let characters = Array(trimmed.prefix(48))
        guard let (hour, minute, end) = read(characters) else { return nil }
        let rest = trimmed.dropFirst(end).drop { $0.isWhitespace || $0 == "," || $0 == ";" }
        return (hour, minute, String(rest).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether the first word is an attempt at a time, valid or not («25:00», «7:75», «99 pm», «8 утра»),
    /// so that a wrong time is answered about the time, not as a wrong favorite's number. A bare
    /// number («2», «25») is not: it may be a favorite's number.
    static func isTimeLike(_ text: String) -> Bool {
        let characters = Array(withoutPreposition(text).prefix(48))
        let count = TypedScan.digitRun(characters, from: 0)
        guard count > 0 else { return false }
        if count < characters.count, characters[count] == ":" || characters[count] == "." {
            return count + 1 < characters.count && TypedScan.isDigit(characters[count + 1])
        }
        if count < characters.count, TypedScan.matches(characters, at: count, "ч") || TypedScan.matches(characters, at: count, "h"),
            count + 1 < characters.count, TypedScan.isDigit(characters[count + 1])
        {
            return true
        }
        let next = TypedScan.skipSpaces(characters, from: count)
        return word(characters, at: next, among: hourWords) != nil || clock(characters, at: next) != nil
    }

    /// The text trimmed, without a leading «в», «во» or «at»: «в 8» is «8».
    static func withoutPreposition(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for preposition in ["в ", "во ", "at "] where trimmed.lowercased().hasPrefix(preposition) {
            return String(trimmed.dropFirst(preposition.count)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return trimmed
    }

    /// Hours people name by a word, and how many characters the word took.
    static func namedHour(_ text: String) -> (hour: Int, length: Int)? {
        let lowered = text.lowercased()
        for (word, hour) in [("полдень", 12), ("полночь", 0), ("noon", 12), ("midday", 12), ("midnight", 0)] where lowered.hasPrefix(word) {
            let after = lowered.dropFirst(word.count).first
            if after == nil || after!.isWhitespace || after == "," || after == ";" { return (hour, word.count) }
        }
        return nil
    }

    /// Which half of the day a word after the number names.
    enum Clock { case am, pm, morning, afternoon, evening, night }

    /// Words that only say «o'clock».
    static let hourWords = ["часов", "часа", "час", "ч.", "ч", "h"]
    static let minuteWords = ["мин.", "мин", "м.", "м", "min", "m"]
    static let clockWords: [(String, Clock)] = [
        ("a.m.", .am), ("a.m", .am), ("am", .am), ("p.m.", .pm), ("p.m", .pm), ("pm", .pm),
        ("утра", .morning), ("дня", .afternoon), ("вечера", .evening), ("ночи", .night),
    ]

    /// The hour, minute and how many characters they took.
    static func read(_ characters: [Character]) -> (Int, Int, Int)? {
        let hourDigits = TypedScan.digitRun(characters, from: 0)
        guard (1...2).contains(hourDigits) else { return nil }
        var hour = TypedScan.value(characters, 0..<hourDigits)
        var minute = 0
        var index = hourDigits
        var minutesWritten = false
        if index < characters.count, characters[index] == ":" || characters[index] == "." {
            guard TypedScan.digitRun(characters, from: index + 1) == 2 else { return nil }
            minute = TypedScan.value(characters, (index + 1)..<(index + 3))
            index += 3
            minutesWritten = true
        } else if index < characters.count, TypedScan.matches(characters, at: index, "ч") || TypedScan.matches(characters, at: index, "h"),
            TypedScan.digitRun(characters, from: index + 1) == 2
        {
            // «8ч30», «8h30»: the hour word sits between hours and minutes.
            minute = TypedScan.value(characters, (index + 1)..<(index + 3))
            index += 3
            minutesWritten = true
            if let end = word(characters, at: index, among: minuteWords) { index = end }
        }
        var half: Clock?
        if !minutesWritten || characters.indices.contains(index) && characters[index].isWhitespace,
            let end = word(characters, at: TypedScan.skipSpaces(characters, from: index), among: hourWords)
        {
            index = end
        }
        if let (found, end) = clock(characters, at: TypedScan.skipSpaces(characters, from: index)) {
            half = found
            index = end
        }
        guard boundary(characters, index), (0...59).contains(minute) else { return nil }
        switch half {
        case nil:
            guard (0...23).contains(hour) else { return nil }
        case .am:
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12
        case .pm:
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + 12
        case .morning:
            guard (1...11).contains(hour) else { return nil }
        case .afternoon:
            // «3 дня» is 15:00, «12 дня» noon, «15 часов дня» as written.
            switch hour {
            case 1...6: hour += 12
            case 12...18: break
            default: return nil
            }
        case .evening:
            switch hour {
            case 4...11: hour += 12
            case 16...23: break
            default: return nil
            }
        case .night:
            // «12 ночи» is midnight, «2 ночи» 2:00, «11 ночи» 23:00.
            switch hour {
            case 0, 12: hour = 0
            case 1...5: break
            case 9...11: hour += 12
            case 21...23: break
            default: return nil
            }
        }
        return (hour, minute, index)
    }

    /// The end of one of `words` written at `index` and ending there.
    static func word(_ characters: [Character], at index: Int, among words: [String]) -> Int? {
        for candidate in words where TypedScan.matches(characters, at: index, candidate) {
            let end = index + candidate.count
            if boundary(characters, end) { return end }
        }
        return nil
    }

    static func clock(_ characters: [Character], at index: Int) -> (Clock, Int)? {
        for (candidate, half) in clockWords where TypedScan.matches(characters, at: index, candidate) {
            let end = index + candidate.count
            if boundary(characters, end) { return (half, end) }
        }
        return nil
    }

    /// A time ends at the end of the text, at a space, or at a comma or semicolon before the rest.
    static func boundary(_ characters: [Character], _ index: Int) -> Bool {
        index >= characters.count || characters[index].isWhitespace || characters[index] == "," || characters[index] == ";"
    }
}
