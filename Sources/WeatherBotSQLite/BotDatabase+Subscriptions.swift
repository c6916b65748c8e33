public import Foundation
import GRDB
public import WeatherBotStore

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
                    SELECT subscription.*, chat.language AS chatLanguage, chat.settings AS chatSettings FROM subscription
                    JOIN chat ON chat.id = subscription.chatId
                    WHERE subscription.isActive = 1 AND subscription.nextSendAt <= ?
                    ORDER BY subscription.nextSendAt LIMIT ?
                    """,
                arguments: [now, limit])
            return try rows.map { row in
                DueSubscription(
                    subscription: try Subscription(row: row), language: (row["chatLanguage"] as String?).flatMap(Language.init(rawValue:)) ?? .ru,
                    settings: ChatSettings(stored: row["chatSettings"]))
            }
        }
    }

    /// Commits a batch of deliveries in one transaction, shared with the chats' steps and the
    /// sender: each subscription is marked sent for its local date and rescheduled, and its
    /// forecast goes to the outbox's bulk lane, unless that date was already sent (a batch
    /// committed twice sends nothing twice).
    ///
    /// - Returns: for each delivery, the outbox ids of its messages; none when nothing was queued.
    @discardableResult
    public func commitDeliveries(_ deliveries: [DailyDelivery], at now: Date = Date()) async throws -> [[Int64]] {
        try await group.submit { db in try Self.write(deliveries, now: now, db) }
    }

    private static func write(_ deliveries: [DailyDelivery], now: Date, _ db: Database) throws -> [[Int64]] {
        let mark = try db.cachedStatement(
            sql: """
                UPDATE subscription SET lastSentDay = ?, nextSendAt = ?
                WHERE id = ? AND chatId = ? AND (lastSentDay IS NULL OR lastSentDay <> ?)
                """)
        var skipped = 0
        let ids = try deliveries.map { delivery in
            try mark.execute(arguments: [delivery.day, delivery.nextSendAt, delivery.subscriptionID, delivery.chatID, delivery.day])
            guard db.changesCount == 1 else { return [Int64]() }
            if delivery.requests.isEmpty { skipped += 1 }
            return try delivery.requests.map { request in try queue(request, chatID: delivery.chatID, lane: .bulk, now: now, db) }
        }
        if skipped > 0 {
            try db.execute(
                sql: """
                    INSERT INTO workerFact (key, value) VALUES (?, ?)
                    ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER)
                    """, arguments: [WorkerFact.Key.dailyForecastsSkipped.rawValue, String(skipped)])
        }
        return ids
    }
}
