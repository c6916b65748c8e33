import BotClock
public import Foundation
public import TelegramBotAPI

/// What a chat asked to be told unasked about its city: rain or snow within the hour, official
/// warnings, a day of high pollen, and the hours to keep quiet. Kept with the chat; `/reset`
/// forgets it with the chat.
public struct NoticeSettings: Codable, Sendable, Hashable {
    /// «☔ Дождь или снег в ближайший час».
    public var rain: Bool
    /// «⚠️ Предупреждения о непогоде».
    public var warnings: Bool
    /// «🌼 Пыльца: день с высоким уровнем»: told where the city has pollen data; kept, though
    /// unused, while the city has none.
    public var pollen: Bool
    /// The chat's own quiet hours; nil keeps the configured default.
    public var quiet: QuietChoice?
    /// Who turned notices on in a group: they or an administrator change them.
    public var setBy: Int64?

    /// Every notice off and the default quiet hours unless told otherwise.
    public init(rain: Bool = false, warnings: Bool = false, pollen: Bool = false, quiet: QuietChoice? = nil, setBy: Int64? = nil) {
        self.rain = rain
        self.warnings = warnings
        self.pollen = pollen
        self.quiet = quiet
        self.setBy = setBy
    }

    /// No notices, the default quiet hours.
    public static let off = NoticeSettings()

    private enum CodingKeys: String, CodingKey {
        case rain, warnings, pollen, quiet, setBy
    }

    /// Read as written; settings written before pollen was a notice have it off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            rain: try container.decode(Bool.self, forKey: .rain), warnings: try container.decode(Bool.self, forKey: .warnings),
            pollen: try container.decodeIfPresent(Bool.self, forKey: .pollen) ?? false,
            quiet: try container.decodeIfPresent(QuietChoice.self, forKey: .quiet), setBy: try container.decodeIfPresent(Int64.self, forKey: .setBy))
    }

    /// Whether any notice is on.
    public var isOn: Bool { rain || warnings || pollen }

    /// The quiet hours in force, given the configured default.
    public func quietHours(default fallback: QuietHours?) -> QuietHours? {
        switch quiet {
        case nil: fallback
        case .off, .paused: nil
        case .hours(let hours): hours
        }
    }

    /// The hours that turning quiet hours on again brings back: the chat's own, or the default.
    public func resumableQuietHours(default fallback: QuietHours?) -> QuietHours? {
        if case .paused(let hours) = quiet { return hours }
        return fallback
    }

    /// No quiet hours; the chat's own are kept, to come back when it turns them on again.
    public mutating func pauseQuietHours() {
        switch quiet {
        case .hours(let hours): quiet = .paused(hours)
        case .paused: break
        case nil, .off: quiet = .off
        }
    }

    /// Quiet hours again: the chat's own when it had them, else the default.
    public mutating func resumeQuietHours() {
        switch quiet {
        case .paused(let hours): quiet = .hours(hours)
        case .off: quiet = nil
        case nil, .hours: break
        }
    }
}

/// A chat's choice of quiet hours.
public enum QuietChoice: Codable, Sendable, Hashable {
    /// None: notices come at any hour.
    case off
    case hours(QuietHours)
    /// None for now: the chat's own hours, turned off, come back when it turns them on.
    case paused(QuietHours)

    /// As a column holds it: `off`, `23:00-07:00`, or `off 23:00-07:00`.
    public var stored: String {
        switch self {
        case .off: "off"
        case .hours(let hours): hours.description
        case .paused(let hours): "off \(hours)"
        }
    }

    /// Reads the forms ``stored`` writes; nil for anything else, which a chat's record reads as the default.
    public init?(stored: String) {
        if stored == "off" {
            self = .off
        } else if stored.hasPrefix("off "), let hours = QuietHours(stored: stored.dropFirst(4)) {
            self = .paused(hours)
        } else if let hours = QuietHours(stored: stored) {
            self = .hours(hours)
        } else {
            return nil
        }
    }
}

/// Hours of the local day when notices keep quiet, such as 22:00–08:00 (across midnight) or
/// 13:00–15:00. The start is in, the end is out; a start equal to its end is no quiet hours.
public struct QuietHours: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Minutes since local midnight, 0..<1440.
    public var start: Int
    /// Minutes since local midnight, 0..<1440, where quiet ends (this minute is no longer quiet).
    public var end: Int

    /// Nil when either minute is outside 0..<1440 or both are the same.
    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// The default: from 22:00 to 08:00.
    public static let night = QuietHours(start: 22 * 60, end: 8 * 60)!

    /// Reads the form ``description`` writes, `23:00-07:00`, and nothing else: what people type
    /// is read by the conversation (`QuietHours(typed:)`).
    public init?<S: StringProtocol>(stored text: S) {
        let ends = text.split(separator: "-")
        guard ends.count == 2, let start = Self.minute(stored: ends[0]), let end = Self.minute(stored: ends[1]) else { return nil }
        self.init(start: start, end: end)
    }

    /// `HH:MM` as minutes since midnight.
    private static func minute<S: StringProtocol>(stored text: S) -> Int? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, pieces.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }), let hour = Int(pieces[0]), let minute = Int(pieces[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// `HH:MM-HH:MM`, 24-hour, as columns hold it and ``init(stored:)`` reads it back.
    public var description: String { "\(Self.clock(start))-\(Self.clock(end))" }

    /// `HH:MM`.
    public static func clock(_ minute: Int) -> String {
        let hour = minute / 60, rest = minute % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// Whether the local minute of the day falls in the quiet hours.
    public func contains(minuteOfDay minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    /// Whether `date` falls in the quiet hours in `zone`.
    public func contains(_ date: Date, in zone: TimeZone) -> Bool {
        contains(minuteOfDay: Self.minuteOfDay(date, in: zone))
    }

    /// When the quiet hours that hold `date` end (the next local end time after it), in `zone`;
    /// `date` itself when it is not in quiet hours.
    public func end(after date: Date, in zone: TimeZone) -> Date {
        guard contains(date, in: zone) else { return date }
        // The next showing of the end time, the end of the jump on a day whose clocks skip it;
        // worked out as daily forecasts are, never with `Calendar.nextDate`, which puts it a day
        // late on some spring-forward days.
        return ZoneTime.next(after: date, hour: end / 60, minute: end % 60, in: zone, onceADay: false).date
    }

    static func minuteOfDay(_ date: Date, in zone: TimeZone) -> Int {
        let seconds = Int(date.timeIntervalSince1970) + zone.secondsFromGMT(for: date)
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return day / 60
    }
}

/// An active chat with a city and notices on, as the checker reads it.
public struct NoticeChat: Sendable, Hashable {
    /// The Telegram chat to tell.
    public var chatID: Int64
    /// The language the chat's notices are written in.
    public var language: Language
    /// The chat's city, whose place cell is checked.
    public var place: Place
    /// Which notices are on and the chat's quiet hours.
    public var settings: NoticeSettings
    /// What the chat was told already (``NoticeMark/key`` → ``NoticeMark/value``), marks not expired.
    public var marks: [String: String]
    /// The chat's units and clock (`/settings`).
    public var chatSettings: ChatSettings

    /// A chat as the store reads it; no marks and the default units and clock unless given.
    public init(
        chatID: Int64, language: Language, place: Place, settings: NoticeSettings, marks: [String: String] = [:],
        chatSettings: ChatSettings = .defaults
    ) {
        self.chatSettings = chatSettings
        self.chatID = chatID
        self.language = language
        self.place = place
        self.settings = settings
        self.marks = marks
    }
}

/// What a chat was told: the rain episode of its place (`rain`), or a warning (`warning:…`) as it
/// stood. Committed with the notice, so no notice goes twice, even after a crash.
public struct NoticeMark: Codable, Sendable, Hashable {
    /// What was told: `rain`, or the warning's key. One value per key and chat is kept.
    public var key: String
    /// How it stood when told: the rain episode's id, or the warning's end; a different value is news.
    public var value: String
    /// When the mark may be forgotten: nothing it guards against can come again.
    public var expiresAt: Date

    /// A mark kept until `expiresAt`.
    public init(key: String, value: String, expiresAt: Date) {
        self.key = key
        self.value = value
        self.expiresAt = expiresAt
    }
}

/// A notice for one chat, committed in the notice lane with the mark that says it was sent.
public struct NoticeDelivery: Sendable, Hashable {
    /// The Telegram chat the notice goes to.
    public var chatID: Int64
    /// The mark committed with it; a chat holding the same value already gets nothing.
    public var mark: NoticeMark
    /// The messages, in order; none for rain in quiet hours, only marked.
    public var requests: [BotRequest]
    /// After this a notice is not sent: it would mislead («дождь через 20 минут» once it rains).
    public var deadline: Date

    /// A notice for `chatID`, dropped by the sender if still waiting at `deadline`.
    public init(chatID: Int64, mark: NoticeMark, requests: [BotRequest], deadline: Date) {
        self.chatID = chatID
        self.mark = mark
        self.requests = requests
        self.deadline = deadline
    }
}

/// What the notice checker's last round did, kept for `weatherbot status`.
public struct NoticeRound: Sendable, Hashable, Codable {
    /// When the round began.
    public var at: Date
    /// Chats with notices on, and the place cells they make.
    public var chats = 0
    /// The place cells those chats make: each is one weather fetch.
    public var cells = 0
    /// Cells whose weather came in the round.
    public var checked = 0
    /// Seconds the round took, and since the round before began (the interval achieved).
    public var seconds = 0.0
    /// Seconds from the round before's start to this one's: the interval achieved; 0 when not known.
    public var interval = 0.0
    /// Cells OpenWeather's budget cannot check each interval (the ones with fewest chats wait).
    public var uncovered = 0
    /// Notices queued, rain notices too late to send, rain in quiet hours dropped, warnings held
    /// for the end of quiet hours, and warnings' entries not told again.
    public var queued = 0
    /// Rain notices not sent because the rain was too close to be told in time.
    public var late = 0
    /// Rain in a chat's quiet hours: marked, never sent.
    public var quiet = 0
    /// Warnings held until a chat's quiet hours end.
    public var held = 0
    /// Warnings' entries not told again: other languages of one warning, or told as they stand.
    public var deduplicated = 0

    /// A round beginning at `at`, every count 0.
    public init(at: Date) {
        self.at = at
    }

    /// As the worker's fact holds it: `name=value` pairs, by commas.
    public var stored: String {
        [
            ("at", String(at.timeIntervalSince1970)), ("chats", "\(chats)"), ("cells", "\(cells)"), ("checked", "\(checked)"),
            ("seconds", String(seconds)), ("interval", String(interval)), ("uncovered", "\(uncovered)"), ("queued", "\(queued)"),
            ("late", "\(late)"), ("quiet", "\(quiet)"), ("held", "\(held)"), ("deduplicated", "\(deduplicated)"),
        ].map { "\($0.0)=\($0.1)" }.joined(separator: ",")
    }

    /// Read back; nil without a time. Pairs it does not know are left out.
    public init?(stored: String?) {
        var values: [Substring: Substring] = [:]
        for pair in (stored ?? "").split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let at = values["at"].flatMap({ Double($0) }) else { return nil }
        self.at = Date(timeIntervalSince1970: at)
        func int(_ name: Substring) -> Int { values[name].flatMap { Int($0) } ?? 0 }
        (chats, cells, checked, uncovered) = (int("chats"), int("cells"), int("checked"), int("uncovered"))
        (queued, late, quiet, held, deduplicated) = (int("queued"), int("late"), int("quiet"), int("held"), int("deduplicated"))
        seconds = values["seconds"].flatMap { Double($0) } ?? 0
        interval = values["interval"].flatMap { Double($0) } ?? 0
    }
}

/// What the notice checker needs from storage, whichever engine keeps it.
public protocol NoticeStore: Sendable {
    /// The active chats that have a city and a notice on, each with its marks that have not
    /// expired at `now`.
    func noticeChats(at now: Date) async throws -> [NoticeChat]
    /// In one transaction: for each delivery whose chat's mark under ``NoticeMark/key`` does not
    /// hold ``NoticeMark/value`` already, and whose chat is active with a notice still on, sets the
    /// mark and queues its requests in the notice lane with its deadline; marks expired at `now`
    /// are forgotten. Returns the outbox ids of each delivery, empty for one not queued.
    func commitNotices(_ deliveries: [NoticeDelivery], at now: Date) async throws -> [[Int64]]
    /// Keeps what the last round did, in place of the round before, for `weatherbot status`.
    func keepNoticeRound(_ round: NoticeRound) async throws
    /// The round kept last; nil before the first.
    func noticeRound() async throws -> NoticeRound?
}
