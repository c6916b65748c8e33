import Foundation
import OpenWeather
import Testing
@testable import WeatherBot
import WeatherBotStore

/// Every language's table, read entry by entry: the compiler already refuses a table without an
/// entry; these check what it cannot: that no text is empty, that the HTML is Telegram's and whole,
/// that every inserted value and every command shows in every language, and that counts take the
/// noun form the language's plural rule says.
@Suite struct TextsTests {
    /// One rendered piece of a table: the entry's name, what was inserted into it, and the text.
    struct Piece {
        var entry: String
        var inserted: [String]
        var text: String
    }

    /// The numbers that tell plural rules apart (CLDR's edge cases).
    static let counts = [0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1000]

    /// Every text of `texts`, found by reflection, so an entry added to `Texts` is checked without
    /// being listed here. Entries that insert values are filled in by ``filledIn(_:)``; one that
    /// is missing there, or of a kind this cannot read, is itself a failure.
    static func pieces(_ texts: Texts) -> [Piece] {
        var pieces: [Piece] = []
        var templates: Set<String> = []
        for child in Mirror(reflecting: texts).children {
            let entry = child.label ?? "?"
            switch child.value {
            case is Language, is Double:
                continue
            case let text as String:
                pieces.append(Piece(entry: entry, inserted: [], text: text))
            case let list as [String]:
                pieces += list.enumerated().map { Piece(entry: "\(entry)[\($0.offset)]", inserted: [], text: $0.element) }
            case let table as [[String]]:
                pieces += table.enumerated().flatMap { row in
                    row.element.enumerated().map { Piece(entry: "\(entry)[\(row.offset)][\($0.offset)]", inserted: [], text: $0.element) }
                }
            case let names as [String: String]:
                pieces += names.sorted { $0.key < $1.key }.map { Piece(entry: "\(entry)[\($0.key)]", inserted: [], text: $0.value) }
            case let names as [Language: String]:
                pieces += Language.allCases.map { Piece(entry: "\(entry)[\($0)]", inserted: [], text: names[$0] ?? "") }
            case let names as [ChatSettings.Clock: String]:
                pieces += ChatSettings.Clock.allCases.map { Piece(entry: "\(entry)[\($0)]", inserted: [], text: names[$0] ?? "") }
            case let names as [ChatSettings.WindSpeed: String]:
                pieces += ChatSettings.WindSpeed.allCases.map { Piece(entry: "\(entry)[\($0)]", inserted: [], text: names[$0] ?? "") }
            case let names as [ChatSettings.Pressure: String]:
                pieces += ChatSettings.Pressure.allCases.map { Piece(entry: "\(entry)[\($0)]", inserted: [], text: names[$0] ?? "") }
            case is ChatSettings:
                // The chat's units, not a text.
                break
            case let menu as [(command: String, description: String)]:
                pieces += menu.map { Piece(entry: "\(entry)[\($0.command)]", inserted: [], text: $0.description) }
            // A function is told by its type's name: casting one out of `Any` is not safe here.
            case _ where String(describing: type(of: child.value)).contains("->"):
                if entry != "pluralCategory" { templates.insert(entry) }
            default:
                Issue.record("\(entry): a \(type(of: child.value)) this test cannot read; teach `pieces` its kind")
            }
        }
        let filled = filledIn(texts)
        let missing = templates.subtracting(filled.map { $0.entry.prefix { $0 != "(" } }.map(String.init))
        #expect(missing.isEmpty, "entries with values that `filledIn` does not fill in: \(missing.sorted())")
        return pieces + filled
    }

    /// Every entry that inserts values, with markers or counts inserted, named as the entry.
    static func filledIn(_ texts: Texts) -> [Piece] {
        let a = "⟨a⟩", b = "⟨b⟩", c = "⟨c⟩"
        func one(_ entry: String, _ text: (String) -> String) -> [Piece] { [Piece(entry: entry, inserted: [a], text: text(a))] }
        func two(_ entry: String, _ text: (String, String) -> String) -> [Piece] { [Piece(entry: entry, inserted: [a, b], text: text(a, b))] }
        func counted(_ entry: String, _ text: (Int) -> String) -> [Piece] {
            counts.map { Piece(entry: "\(entry)(\($0))", inserted: ["\($0)"], text: text($0)) }
        }
        func numbered(_ entry: String, _ text: (String, Int) -> String) -> [Piece] { [Piece(entry: entry, inserted: [a, "37"], text: text(a, 37))] }
        return two("locationLookupFailed", texts.locationLookupFailed)
            + [PointSource.location, .coordinates, .link].map { Piece(entry: "sendAgain(\($0))", inserted: [a], text: texts.sendAgain($0, a)) }
            + one("ownCityPrompt", texts.ownCityPrompt)
            + one("nothingFound", texts.nothingFound) + two("searchFailed", texts.searchFailed) + one("citySaved", texts.citySaved)
            + one("retryFailed", texts.retryFailed)
            + one("picked", texts.picked) + one("onlyOneFavorite", texts.onlyOneFavorite) + counted("dailyOffQuestion", texts.dailyOffQuestion)
            + one("gusts", texts.gusts) + one("dataAsOf", texts.dataAsOf) + one("dataFrom", texts.dataFrom)
            + counted("dailyTitle", texts.dailyTitle) + counted("onlyDays", texts.onlyDays) + counted("moreAlerts", texts.moreAlerts)
            + one("cityMade", texts.cityMade) + one("weatherFailed", texts.weatherFailed)
            + counted("favoritesFull", texts.favoritesFull) + one("deleted", texts.deleted)
            + numbered("moved", texts.moved) + numbered("notMoved", texts.notMoved) + one("dailyStays", texts.dailyStays)
            + [Piece(entry: "numberInRange", inserted: ["37", a], text: texts.numberInRange(37, a))] + one("moveUsage", texts.moveUsage)
            + two("dailyChartAdded", texts.dailyChartAdded) + two("dailyChartRemoved", texts.dailyChartRemoved)
            + one("badTime", texts.badTime) + one("dailyNotUnderstood", texts.dailyNotUnderstood) + counted("dailyLimit", texts.dailyLimit) + counted("tooManyCharts", texts.tooManyCharts) + one("dailyDuplicateWithChart", texts.dailyDuplicateWithChart)
            + [Piece(entry: "subscribed", inserted: [a, b, c], text: texts.subscribed(a, b, c, true))]
            + [Piece(entry: "subscribed(tomorrow)", inserted: [a, b, c], text: texts.subscribed(a, b, c, false))]
            + counted("dailyCancelledCount", texts.dailyCancelledCount)
            + [Piece(entry: "precipitationChance", inserted: [a, "37"], text: texts.precipitationChance(a, 37))]
            + two("rangeSummary", texts.rangeSummary) + counted("fetchedMinutesAgo", texts.fetchedMinutesAgo)
            + one("unknownCommand", texts.unknownCommand) + two("lastKnownForecast", texts.lastKnownForecast)
            + counted("minutesShort", texts.minutesShort) + counted("hoursShort", texts.hoursShort)
            + one("alertsTitle", texts.alertsTitle) + one("alertsQuietLine", texts.alertsQuietLine)
            + [Piece(entry: "alertsQuietLine(none)", inserted: [], text: texts.alertsQuietLine(nil))]
            + one("alertsQuietButton", texts.alertsQuietButton) + one("alertsQuietOnButton", texts.alertsQuietOnButton)
            + one("alertsUnknown", texts.alertsUnknown)
            + one("alertsBadQuiet", texts.alertsBadQuiet) + one("alertsQuietSet", texts.alertsQuietSet) + one("alertsQuietEmpty", texts.alertsQuietEmpty)
            + counted("inMinutes", texts.inMinutes) + counted("forMinutes", texts.forMinutes)
            + [Piece(entry: "rainSoon", inserted: [a, b, c, "⟨d⟩"], text: texts.rainSoon(a, b, c, "⟨d⟩"))]
            + [Piece(entry: "rainSoon(no end)", inserted: [a, b, c], text: texts.rainSoon(a, b, c, nil))]
            + [Piece(entry: "rainAround", inserted: [b], text: texts.rainAround(a, b))]
            + one("warningSender", texts.warningSender) + two("warningUpdated", texts.warningUpdated)
            + one("inlineHere", texts.inlineHere) + one("inlineNothingFound", texts.inlineNothingFound) + one("inlineHelp", texts.inlineHelp)
            + one("inlineDefaultCity", texts.inlineDefaultCity)
            + [Piece(entry: "uvNow", inserted: [a, b, c], text: texts.uvNow(a, b, c))]
            + [Piece(entry: "uvDayMaximum", inserted: [a, b, c], text: texts.uvDayMaximum(a, b, c))]
            + [Piece(entry: "hourlyLegend", inserted: [a, b, "37"], text: texts.hourlyLegend(a, b, 37))] + one("settingsExample", texts.settingsExample)
            + [Piece(entry: "precipitationLikely", inserted: [a, "37"], text: texts.precipitationLikely(a, 37))]
            + counted("daysButton", texts.daysButton)
            + [Piece(entry: "numberInRange(1)", inserted: [a], text: texts.numberInRange(1, a))]
            + [Piece(entry: "airNow", inserted: [a, b], text: texts.airNow(a, b)), Piece(entry: "airNow(no particles)", inserted: [a], text: texts.airNow(a, nil))]
            + counted("airParticles", texts.airParticles)
            + PollenReading.Kind.allCases.map { Piece(entry: "pollenKind(\($0))", inserted: [], text: texts.pollenKind($0)) }
            + PollenReading.Level.allCases.map { Piece(entry: "pollenLevel(\($0))", inserted: [], text: texts.pollenLevel($0)) }
            + [Piece(entry: "pollenNow", inserted: [a, b, c, "⟨d⟩"], text: texts.pollenNow([(a, b), (c, "⟨d⟩")]))]
            + [PollenReading.Level.high, .veryHigh].map { Piece(entry: "pollenDay(\($0))", inserted: [a, b], text: texts.pollenDay($0, [(a, b)])) }
            + [true, false].flatMap { afternoon in
                [true, false].flatMap { warmer in counts.map { Piece(entry: "comparedWithYesterday(\($0), \(warmer), \(afternoon))", inserted: ["\($0)"], text: texts.comparedWithYesterday($0, warmer, afternoon)) } }
            }
    }

    @Test(arguments: Language.allCases) func everyLanguageHasItsOwnTable(_ language: Language) {
        #expect(Texts.for(language).language == language)
    }

    @Test(arguments: Language.allCases) func noTextIsEmpty(_ language: Language) {
        let pieces = Self.pieces(.for(language))
        #expect(pieces.count > 150)
        for piece in pieces {
            #expect(!piece.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(language) \(piece.entry) is empty")
        }
    }

    @Test(arguments: Language.allCases) func everyInsertedValueIsShown(_ language: Language) {
        for piece in Self.pieces(.for(language)) {
            for value in piece.inserted {
                #expect(piece.text.contains(value), "\(language) \(piece.entry) leaves out \(value): \(piece.text)")
            }
        }
    }

    @Test(arguments: Language.allCases) func htmlIsTelegramsAndBalanced(_ language: Language) {
        for piece in Self.pieces(.for(language)) {
            #expect(Self.htmlProblem(piece.text) == nil, "\(language) \(piece.entry): \(Self.htmlProblem(piece.text) ?? "")")
        }
    }

    /// The same entries in the same shape: lists as long, the same commands named in each text,
    /// the same HTML tags.
    @Test func everyLanguageMatchesRussian() {
        let russian = Self.pieces(.for(.ru))
        for language in Language.allCases where language != .ru {
            let other = Self.pieces(.for(language))
            let otherByEntry = Dictionary(other.map { ($0.entry, $0) }, uniquingKeysWith: { first, _ in first })
            // The short country names differ by language: a name is short in one and not in another.
            let compared = russian.filter { !$0.entry.hasPrefix("shortCountryNames[") }
            #expect(compared.map(\.entry) == other.filter { !$0.entry.hasPrefix("shortCountryNames[") }.map(\.entry), "\(language)")
            for piece in compared {
                guard let translated = otherByEntry[piece.entry] else { continue }
                #expect(Self.commands(in: translated.text).sorted() == Self.commands(in: piece.text).sorted(), "\(language) \(piece.entry)")
                #expect(Self.tags(in: translated.text).sorted() == Self.tags(in: piece.text).sorted(), "\(language) \(piece.entry)")
            }
        }
    }

    @Test func theMenuAndTheHelpListTheSameCommandsInEveryLanguage() {
        let russian = Texts.for(.ru)
        let commands = Set(russian.menu.map(\.command))
        #expect(commands.count == russian.menu.count)
        for language in Language.allCases {
            let texts = Texts.for(language)
            #expect(texts.menu.map(\.command) == russian.menu.map(\.command), "\(language)")
            let listed = Set(texts.help.split(separator: "\n").filter { $0.hasPrefix("/") }.flatMap { Self.commands(in: String($0)).prefix(1) })
            #expect(listed == commands, "\(language)")
        }
    }

    // MARK: Plural rules

    @Test func russianPluralCategoriesFollowCLDR() {
        let expected: [PluralCategory] = [.many, .one, .few, .few, .many, .many, .many, .many, .one, .few, .many, .one, .many, .many]
        #expect(Self.counts.map(Texts.for(.ru).pluralCategory) == expected)
        #expect(Texts.for(.ru).pluralCategory(-21) == .one)
    }

    /// The rule over 0–200 by decade: the teens (and 111–114) take «many», else the last digit
    /// decides; the forms it picks read right with a count («21 градус», «112 градусов»).
    @Test func russianPluralsHoldFromZeroToTwoHundred() {
        let ru = Texts.for(.ru)
        let byLastDigit: [PluralCategory] = [.many, .one, .few, .few, .few, .many, .many, .many, .many, .many]
        for count in 0...200 {
            let teens = (11...19).contains(count % 100)
            #expect(ru.pluralCategory(count) == (teens ? .many : byLastDigit[count % 10]), "\(count)")
        }
        let degrees = [0, 1, 2, 4, 5, 11, 12, 14, 15, 20, 21, 22, 25, 101, 111, 112, 121, 200].map { ru.comparedWithYesterday($0, true, true) }
        #expect(degrees.map { $0.split(separator: " ")[3] } == [
            "градусов", "градус", "градуса", "градуса", "градусов", "градусов", "градусов", "градусов", "градусов", "градусов", "градус",
            "градуса", "градусов", "градус", "градусов", "градусов", "градус", "градусов",
        ])
        #expect(ru.inMinutes(1) == "через 1 минуту" && ru.inMinutes(3) == "через 3 минуты" && ru.inMinutes(11) == "через 11 минут")
        #expect(ru.dailyTitle(21) == "на 21 день" && ru.dailyTitle(3) == "на 3 дня" && ru.dailyTitle(7) == "на 7 дней")
        let en = Texts.for(.en)
        #expect(en.comparedWithYesterday(1, false, false) == "1 degree colder than last night")
        #expect(en.comparedWithYesterday(11, true, true) == "11 degrees warmer than yesterday this afternoon")
    }

    @Test func englishPluralCategoriesFollowCLDR() {
        let expected: [PluralCategory] = [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other, .other, .other, .other, .other]
        #expect(Self.counts.map(Texts.for(.en).pluralCategory) == expected)
    }

    @Test func countsTakeTheirNounsForm() {
        let ru = Texts.for(.ru)
        #expect(Self.counts.map(ru.dailyTitle) == [
            "на 0 дней", "на 1 день", "на 2 дня", "на 4 дня", "на 5 дней", "на 11 дней", "на 12 дней", "на 14 дней",
            "на 21 день", "на 22 дня", "на 25 дней", "на 101 день", "на 111 дней", "на 1000 дней",
        ])
        #expect(ru.moreAlerts(1) == "…и ещё 1 предупреждение")
        #expect(ru.moreAlerts(3) == "…и ещё 3 предупреждения")
        #expect(ru.moreAlerts(12) == "…и ещё 12 предупреждений")
        #expect(ru.favoritesFull(21).hasPrefix("В избранном уже 21 место —"))
        #expect(ru.favoritesFull(24).hasPrefix("В избранном уже 24 места —"))
        #expect(ru.dailyLimit(1).hasPrefix("Можно не больше 1 ежедневного прогноза."))
        #expect(ru.dailyLimit(5).hasPrefix("Можно не больше 5 ежедневных прогнозов."))
        let en = Texts.for(.en)
        #expect([0, 1, 2, 21].map(en.dailyTitle) == ["for 0 days", "for 1 day", "for 2 days", "for 21 days"])
        #expect(en.onlyDays(1).contains("beyond 1 day for"))
        #expect(en.favoritesFull(1).hasPrefix("Favorites already hold 1 place,"))
        #expect(en.favoritesFull(20).hasPrefix("Favorites already hold 20 places,"))
        #expect(en.dailyLimit(1).hasPrefix("At most 1 daily forecast."))
        #expect(en.dailyLimit(5).hasPrefix("At most 5 daily forecasts."))
    }

    // MARK: The checks

    /// The tags Telegram's HTML parse mode knows.
    static let telegramTags: Set<String> = [
        "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "tg-emoji", "code", "pre", "blockquote",
    ]

    /// What Telegram would refuse in `text` as HTML: an unknown tag, one closed out of order or left
    /// open, a bare `<`, `>` or `&`; nil when there is nothing.
    static func htmlProblem(_ text: String) -> String? {
        var open: [String] = []
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == ">" || $0 == "&" }) {
            let character = rest[index]
            rest = rest[rest.index(after: index)...]
            if character == ">" { return "a bare >" }
            if character == "&" {
                guard let end = rest.firstIndex(of: ";"), ["lt", "gt", "amp", "quot"].contains(rest[..<end]) else { return "a bare &" }
                rest = rest[rest.index(after: end)...]
                continue
            }
            guard let end = rest.firstIndex(of: ">") else { return "a bare <" }
            let tag = rest[..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                guard open.popLast() == name else { return "</\(name)> closes nothing open" }
            } else {
                let name = String(tag.prefix { $0 != " " })
                guard telegramTags.contains(name) else { return "<\(name)> is not Telegram's" }
                open.append(name)
            }
        }
        return open.isEmpty ? nil : "<\(open.joined(separator: ">, <"))> left open"
    }

    /// The tags of `text`, as written.
    static func tags(in text: String) -> [String] {
        text.split(separator: "<", omittingEmptySubsequences: false).dropFirst().map { String($0.prefix { $0 != ">" }) }
    }

    /// The commands `text` names («/fav», «/daily»).
    static func commands(in text: String) -> [String] {
        var commands: [String] = []
        var previous: Character = " "
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            // A slash after a letter is a unit («м/с»), after «<» a closing tag.
            if character == "/" && !previous.isLetter && !previous.isNumber && previous != "<" {
                let name = text[text.index(after: index)...].prefix { $0.isASCII && $0.isLowercase }
                if !name.isEmpty { commands.append(String(name)) }
            }
            previous = character
            index = text.index(after: index)
        }
        return commands
    }
}
