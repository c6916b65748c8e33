public import Foundation
public import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// What the bot tells a chat unasked about its city, and when: rain or snow about to begin, and
/// official warnings. Pure texts and rules; the checker (WeatherBotService) reads, decides with
/// these and commits.
public enum NoticeViews {
    /// The mark of a chat told of its city's rain episode.
    public static let rainKey = "rain"

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
