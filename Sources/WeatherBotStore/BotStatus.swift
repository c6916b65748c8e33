public import Foundation

/// How the worker is doing, read from its database by another process (`weatherbot status`), or
/// from the report the running worker keeps beside a database it holds.
public struct BotStatus: Sendable, Hashable, Codable {
    /// One lane of the outbox: how many replies wait, and since when the oldest.
    public struct Lane: Sendable, Hashable, Codable {
        /// How many replies wait in the lane, those backing off after a failure included.
        public var backlog: Int
        /// When the oldest waiting reply was committed; nil when none waits.
        public var oldest: Date?

        /// A lane's figures; the defaults are an empty lane.
        public init(backlog: Int = 0, oldest: Date? = nil) {
            self.backlog = backlog
            self.oldest = oldest
        }
    }

    /// When Telegram last answered, by a poll or a webhook request; nil when it never has.
    public var lastSuccessfulPoll: Date?
    /// Updates and follow-ups waiting to be handled, set-aside ones not counted.
    public var inboxBacklog: Int
    /// Inbox items given up after failing again and again, kept in `inboxFailure`.
    public var inboxSetAside: Int
    /// Each lane's backlog; a lane with nothing waiting may be missing (``lane(_:)`` reads it as empty).
    public var lanes: [OutboxLane: Lane]
    /// Daily forecasts stored, those of chats that blocked the bot included.
    public var subscriptions: Int
    /// Daily forecasts still sent: those of chats that have not blocked the bot.
    public var activeSubscriptions: Int
    /// Every chat the bot has a row for, blocked ones included.
    public var chats: Int
    /// Active chats with a city and a notice on: those the notice checker looks at each round.
    public var noticeChats: Int
    /// What the notice checker's last round did; nil before the first.
    public var noticeRound: NoticeRound?
    /// Daily forecasts skipped, missed for longer than the grace period, since the database began.
    public var dailyForecastsSkipped: Int
    /// The engine's check of its storage: nil when sound, else its first complaint.
    public var damage: String?
    /// OpenWeather's calls in the UTC day so far by endpoint, as the workers last stored them.
    public var openWeatherCallsToday: [String: Int]
    /// OpenWeather's calls of the last minute the worker kept, by second since 1970.
    public var openWeatherLastMinute: [Int: Int]
    /// When the running worker wrote this in its report, when it was read from there (the
    /// database was held by the worker); nil when read from the database.
    public var reportedAt: Date?

    /// Replies waiting in every lane together.
    public var outboxBacklog: Int { lanes.values.map(\.backlog).reduce(0, +) }

    /// The figures of `lane`, empty when nothing waits there.
    public func lane(_ lane: OutboxLane) -> Lane { lanes[lane] ?? Lane() }

    /// A status as an engine reads it; the figures added later default to none, so an engine that does not read them may leave them out.
    public init(
        lastSuccessfulPoll: Date?, inboxBacklog: Int, inboxSetAside: Int, lanes: [OutboxLane: Lane], subscriptions: Int,
        activeSubscriptions: Int, chats: Int, dailyForecastsSkipped: Int, damage: String?, openWeatherCallsToday: [String: Int] = [:],
        openWeatherLastMinute: [Int: Int] = [:], noticeChats: Int = 0, noticeRound: NoticeRound? = nil
    ) {
        self.noticeChats = noticeChats
        self.noticeRound = noticeRound
        self.lastSuccessfulPoll = lastSuccessfulPoll
        self.inboxBacklog = inboxBacklog
        self.inboxSetAside = inboxSetAside
        self.lanes = lanes
        self.subscriptions = subscriptions
        self.activeSubscriptions = activeSubscriptions
        self.chats = chats
        self.dailyForecastsSkipped = dailyForecastsSkipped
        self.damage = damage
        self.openWeatherCallsToday = openWeatherCallsToday
        self.openWeatherLastMinute = openWeatherLastMinute
    }
}
