public import Foundation
public import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// What the bot tells a chat unasked about its city, and when: rain or snow about to begin,
/// official warnings, and a day of high pollen. Pure texts and rules; the checker
/// (WeatherBotService) reads, decides with these and commits.
public enum NoticeViews {
    /// The mark of a chat told of its city's rain episode.
    public static let rainKey = "rain"

    /// The mark of a chat told of a high pollen day; its value is the local day told of.
    public static let pollenKey = "pollen"

    /// How long a description of a warning may be in a notice: a few lines, not the bulletin.
    static let descriptionLimit = 600

    // MARK: Rain

    /// «☔ Дождь через 20 минут, около 14:35, примерно на 40 минут.» with the place.
    public static func rain(_ episode: RainWatch.Episode, place: Place, forecast: Forecast, now: Date, texts: Texts) -> String {
        let zone = forecast.timeZone.timeZone
        let hour = forecast.hourly.last { $0.time <= episode.start } ?? forecast.hourly.first
        let kind = Precipitation(condition: hour?.condition, temperature: hour?.temperature ?? forecast.current.temperature)
        let strength = Precipitation.Strength(millimetresPerHour: episode.peak, of: kind)
        let what = texts.precipitationWords[kind.rawValue][strength.rawValue]
        let time = texts.time(episode.start, in: zone)
        let text: String
        if episode.isPrecise {
            // Whole minutes from now, never «через 0 минут»: a notice that late is not sent.
            let minutes = max(1, Int((episode.start.timeIntervalSince(now) / 60).rounded()))
            let duration = episode.end.map { max(1, Int(($0.timeIntervalSince(episode.start) / 60).rounded())) }
            text = texts.rainSoon(what, texts.inMinutes(minutes), time, duration.map(texts.forMinutes))
        } else {
            text = texts.rainAround(what, time)
        }
        return (kind == .rain ? "☔ " : "🌨 ") + text + "\n" + WeatherViews.header(place, texts)
    }

    /// The rain mark's value of an episode kept quiet for the chat's quiet hours: not told, so
    /// never taken for told (``wasTold(_:of:)``).
    public static func quietValue(of episode: RainWatch.Episode) -> String {
        quietPrefix + episode.id
    }

    static let quietPrefix = "quiet:"

    /// Whether a chat told of `told` (its rain mark) was told of `episode`: the same episode, or
    /// the same rain seen again after a restart forgot the episodes (the same cell, a start less
    /// than a dry hour apart). An episode kept quiet (``quietValue(of:)``) was not told.
    public static func wasTold(_ told: String?, of episode: RainWatch.Episode) -> Bool {
        guard let told, !told.hasPrefix(quietPrefix) else { return false }
        if told == episode.id { return true }
        func parts(_ id: String) -> (cell: Substring, start: Double)? {
            guard let at = id.lastIndex(of: "@"), let start = Double(id[id.index(after: at)...]) else { return nil }
            return (id[..<at], start)
        }
        guard let mark = parts(told), let seen = parts(episode.id), mark.cell == seen.cell else { return false }
        return abs(mark.start - seen.start) < RainWatch.dryBetween && abs(mark.start - episode.start.timeIntervalSince1970) < RainWatch.dryBetween
    }

    // MARK: Warnings

    /// A warning a chat is to be told of: new, or changed since it was told.
    public struct DueWarning: Sendable, Hashable {
        /// The entry in the chat's language where the feed has one.
        public var alert: WeatherAlert
        /// The mark kept once the chat is told: the warning's key, its end as the value, kept a day past that end.
        public var mark: NoticeMark
        /// The warning was told before and has changed (a new end): a short update.
        public var isUpdate: Bool
    }

    /// The warnings of `alerts` still in force at `now` that a chat with `marks` was not told of as
    /// they stand: each warning once however many languages the feed lists it in, keyed by the
    /// place cell it was read for and its start and kinds (``warningKey(_:cell:)``), its
    /// end the value (a new end is an update). A chat whose city moves is told the new place's
    /// warnings, even one that reads like the old place's: the feed does not say what area a
    /// warning covers.
    public static func dueWarnings(_ alerts: [WeatherAlert], cell: String, language: Language, marks: [String: String], now: Date) -> [DueWarning] {
        WeatherViews.warnings(alerts.filter { $0.end > now }, in: language).compactMap { alert in
            let key = warningKey(alert, cell: cell)
            let value = warningValue(alert)
            // A warning told under the key that named its sender, before the senders of its
            // languages were known to differ, was told all the same.
            let told = marks[key] ?? marks[senderWarningKey(alert, cell: cell)]
            guard told != value else { return nil }
            // Kept a day past its end: the feed may list it a little longer.
            let mark = NoticeMark(key: key, value: value, expiresAt: alert.end.addingTimeInterval(86_400))
            return DueWarning(alert: alert, mark: mark, isUpdate: told != nil)
        }
    }

    /// `warning:` and a digest of the cell and of what stays the same while a warning is
    /// extended: its start and kinds (its event's words when it has no kinds). Not its sender,
    /// whom the feed names in each language as it does the event («Росгидромет», «Roshydromet»).
    static func warningKey(_ alert: WeatherAlert, cell: String) -> String {
        let kinds = alert.tags.isEmpty ? alert.event : alert.tags.sorted().joined(separator: ",")
        return "warning:" + Digest.fnv1a("\(cell)|\(Int(alert.start.timeIntervalSince1970))|\(kinds)")
    }

    /// The key marks were kept under before: with the sender of the entry told.
    static func senderWarningKey(_ alert: WeatherAlert, cell: String) -> String {
        let kinds = alert.tags.isEmpty ? alert.event : alert.tags.sorted().joined(separator: ",")
        return "warning:" + Digest.fnv1a("\(cell)|\(alert.sender)|\(Int(alert.start.timeIntervalSince1970))|\(kinds)")
    }

    /// What can change in a warning told already: its end.
    static func warningValue(_ alert: WeatherAlert) -> String {
        String(Int(alert.end.timeIntervalSince1970))
    }

    /// The warning as a notice: the event, when, who says so, and its description cut short.
    public static func warning(_ due: DueWarning, place: Place, zone: TimeZone, texts: Texts) -> String {
        let alert = due.alert
        let event = HTML.escape(HTML.truncate(alert.event, maximumCharacters: 80))
        let period = WeatherViews.period(alert.start, alert.end, zone, texts)
        if due.isUpdate {
            return texts.warningUpdated(event, period) + "\n" + WeatherViews.header(place, texts)
        }
        var lines = ["⚠️ <b>\(event)</b>", period]
        if !alert.sender.isEmpty {
            lines.append(texts.warningSender(HTML.escape(HTML.truncate(alert.sender, maximumCharacters: 80))))
        }
        let description = alert.description.trimmingCharacters(in: .whitespacesAndNewlines)
        if !description.isEmpty {
            lines.append("")
            lines.append(HTML.escape(HTML.truncate(description, maximumCharacters: descriptionLimit)))
        }
        lines.append("")
        lines.append(WeatherViews.header(place, texts))
        return lines.joined(separator: "\n")
    }

    // MARK: Pollen

    /// The local hour from which a high pollen day is told: the morning, before people go out.
    static let pollenMorning = 7
    /// The local hour from which it is no longer told that day: little of the day is left.
    static let pollenEvening = 19

    /// The day's highest level of each kind over `readings`' hours of `day` (`yyyy-MM-dd`, local
    /// to the place) when some kind reaches ``PollenReading/Level/high``; nil for a day below
    /// that, or none of whose hours is known.
    public static func highPollen(_ readings: [PollenReading], day: String, zone: TimeZone) -> PollenReading? {
        let peak = DailyForecastView.dayPollen(readings, day: day, zone: zone)
        guard let peak, let top = peak.levels.first, top.level >= .high else { return nil }
        return peak
    }

    /// «🌼 Сегодня высокий уровень пыльцы: берёза — высокий, злаки — низкий.» with the place:
    /// every kind above none, the highest first.
    public static func pollen(_ peak: PollenReading, place: Place, texts: Texts) -> String {
        let levels = peak.levels
        let words = levels.map { (kind: texts.pollenKind($0.kind), level: texts.pollenLevel($0.level)) }
        return texts.pollenDay(levels.first?.level ?? .high, words) + "\n" + WeatherViews.header(place, texts)
    }

    /// A high pollen day is told from the morning (``pollenMorning``) and outside the quiet hours:
    /// before either ends it is held until then; from ``pollenEvening``, or when the quiet hours
    /// last until then, it is not told that day at all.
    public static func pollenTiming(at now: Date, quiet: QuietHours?, zone: TimeZone) -> Timing {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let morning = calendar.date(bySettingHour: pollenMorning, minute: 0, second: 0, of: now),
            let evening = calendar.date(bySettingHour: pollenEvening, minute: 0, second: 0, of: now)
        else { return .dropped }
        var due = max(now, morning)
        if let quiet { due = quiet.end(after: due, in: zone) }
        guard due < evening else { return .dropped }
        return due <= now ? .now(silent: false) : .held(until: due)
    }

    /// When the notice of a high day seen at `now` is no longer of use: the evening of that day.
    static func pollenDeadline(at now: Date, zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(bySettingHour: pollenEvening, minute: 0, second: 0, of: now) ?? now.addingTimeInterval(12 * 3600)
    }

    // MARK: When

    /// When a notice goes, given the chat's quiet hours.
    public enum Timing: Sendable, Hashable {
        case now(silent: Bool)
        /// Held until the quiet hours end: the next check after then sends it.
        case held(until: Date)
        /// Not sent at all.
        case dropped
    }

    /// Rain that begins in the quiet hours is not told; rain due after they end is told when
    /// they do (the next check after their end), if it is still ahead then.
    public static func rainTiming(start: Date, at now: Date, quiet: QuietHours?, zone: TimeZone) -> Timing {
        guard let quiet, quiet.contains(now, in: zone) else { return .now(silent: false) }
        let end = quiet.end(after: now, in: zone)
        return start < end ? .dropped : .held(until: end)
    }

    /// A warning in quiet hours goes at once without a sound when it starts before they end;
    /// otherwise it waits for their end.
    public static func warningTiming(start: Date, at now: Date, quiet: QuietHours?, zone: TimeZone) -> Timing {
        guard let quiet, quiet.contains(now, in: zone) else { return .now(silent: false) }
        let end = quiet.end(after: now, in: zone)
        return start < end ? .now(silent: true) : .held(until: end)
    }
}

/// A short stable digest of a string, the same in every run (Swift's `Hasher` is seeded per run).
enum Digest {
    /// FNV-1a, 64 bits, as 16 hex digits.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
