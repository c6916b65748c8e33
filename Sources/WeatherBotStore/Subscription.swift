public import Foundation
public import GRDB
public import TelegramBotAPI

/// A daily forecast a chat asked for: a place, a local time there, and when it is next due.
public struct Subscription: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "subscription"

    public var id: Int64?
    public var chatId: Int64
    public var place: Place
    /// The place's zone in the stored form (`Europe/Moscow`, or `UTC+05:45` for a fixed offset).
    public var timeZone: String
    public var hour: Int
    public var minute: Int
    /// The next moment it is due, computed from the local date and time in its zone.
    public var nextSendAt: Date
    /// The local date (`yyyy-MM-dd` in the place's zone) of the last forecast sent, so each date gets one.
    public var lastSentDay: String?
    /// False while the chat has blocked the bot.
    public var isActive: Bool
    public var createdAt: Date
    /// Whether the forecast comes with the 48-hour chart (`/daily 8:00 chart`).
    public var withChart: Bool

    public init(
        id: Int64? = nil, chatId: Int64, place: Place, timeZone: String, hour: Int, minute: Int, nextSendAt: Date,
        lastSentDay: String? = nil, isActive: Bool = true, createdAt: Date = Date(), withChart: Bool = false
    ) {
        self.id = id
        self.chatId = chatId
        self.place = place
        self.timeZone = timeZone
        self.hour = hour
        self.minute = minute
        self.nextSendAt = nextSendAt
        self.lastSentDay = lastSentDay
        self.isActive = isActive
        self.createdAt = createdAt
        self.withChart = withChart
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let chatId = Column(CodingKeys.chatId)
        public static let nextSendAt = Column(CodingKeys.nextSendAt)
        public static let isActive = Column(CodingKeys.isActive)
    }
}

/// A subscription that is due, with the language of its chat.
public struct DueSubscription: Sendable, Hashable {
    public var subscription: Subscription
    public var language: String

    public init(subscription: Subscription, language: String) {
        self.subscription = subscription
        self.language = language
    }
}

/// What the scheduler decided for one due subscription, committed with the others of its batch.
public struct DailyDelivery: Sendable, Hashable {
    public var subscriptionID: Int64
    public var chatID: Int64
    /// The local date the forecast is for.
    public var day: String
    /// The forecast's messages (its text, and its chart when asked for); none when the day was
    /// skipped (missed for too long).
    public var requests: [BotRequest]
    /// When the subscription is due next.
    public var nextSendAt: Date

    public init(subscriptionID: Int64, chatID: Int64, day: String, requests: [BotRequest], nextSendAt: Date) {
        self.subscriptionID = subscriptionID
        self.chatID = chatID
        self.day = day
        self.requests = requests
        self.nextSendAt = nextSendAt
    }
}

extension BotDatabase {
    /// The chat's subscriptions, in the order they were made.
    public func subscriptions(chatID: Int64) throws -> [Subscription] {
        try writer.read { db in
            try Subscription.filter(Subscription.Columns.chatId == chatID).order(Subscription.Columns.id).fetchAll(db)
        }
    }

    /// Active subscriptions due at or before `now`, earliest first.
    public func dueSubscriptions(at now: Date, limit: Int = 10_000) throws -> [DueSubscription] {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT subscription.*, chat.language AS chatLanguage FROM subscription
                    JOIN chat ON chat.id = subscription.chatId
                    WHERE subscription.isActive = 1 AND subscription.nextSendAt <= ?
                    ORDER BY subscription.nextSendAt LIMIT ?
                    """,
                arguments: [now, limit])
            return try rows.map { row in
                DueSubscription(subscription: try Subscription(row: row), language: row["chatLanguage"] ?? "ru")
            }
        }
    }

    /// When the next active subscription is due.
    public func nextSubscriptionDue() throws -> Date? {
        try writer.read { db in
            try Date.fetchOne(db, sql: "SELECT MIN(nextSendAt) FROM subscription WHERE isActive = 1")
        }
    }

    /// Commits a batch of deliveries in one transaction: each subscription is marked sent for its
    /// local date and rescheduled, and its forecast goes to the outbox's bulk lane, unless that date
    /// was already sent (a batch committed twice sends nothing twice).
    ///
    /// - Returns: for each delivery, the outbox ids of its messages; none when nothing was queued.
    @discardableResult
    public func commit(_ deliveries: [DailyDelivery], at now: Date = Date()) throws -> [[Int64]] {
        try writer.write { db in try Self.write(deliveries, now: now, db) }
    }

    /// ``commit(_:at:)`` for the scheduler, sharing commits with the chats' steps and the sender,
    /// so that no thread waits for the database's writer meanwhile.
    public func commitDeliveries(_ deliveries: [DailyDelivery], at now: Date = Date()) async throws -> [[Int64]] {
        try await group.write { db in try Self.write(deliveries, now: now, db) }
    }

    private static func write(_ deliveries: [DailyDelivery], now: Date, _ db: Database) throws -> [[Int64]] {
        let mark = try db.cachedStatement(
            sql: """
                UPDATE subscription SET lastSentDay = ?, nextSendAt = ?
                WHERE id = ? AND chatId = ? AND (lastSentDay IS NULL OR lastSentDay <> ?)
                """)
        return try deliveries.map { delivery in
            try mark.execute(arguments: [delivery.day, delivery.nextSendAt, delivery.subscriptionID, delivery.chatID, delivery.day])
            guard db.changesCount == 1 else { return [] }
            return try delivery.requests.map { request in try queue(request, chatID: delivery.chatID, lane: .bulk, now: now, db) }
        }
    }

    public func subscriptionCount() throws -> Int {
        try writer.read { db in try Subscription.fetchCount(db) }
    }
}
