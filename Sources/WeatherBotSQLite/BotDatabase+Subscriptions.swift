public import Foundation
import GRDB
import WeatherBotStoreSQL
public import WeatherBotStore

extension BotDatabase {
    /// The chat's subscriptions, in the order they were made.
    public func subscriptions(chatID: Int64) throws -> [Subscription] {
        try writer.read { db in try Self.fetch(Self.sql.subscriptions(chatID: chatID), db) }
    }

    /// Active subscriptions due at or before `now`, earliest first.
    public func dueSubscriptions(at now: Date, limit: Int = 10_000) throws -> [DueSubscription] {
        try writer.read { db in try Self.fetch(Self.sql.dueSubscriptions(at: now, limit: limit), db) }
    }

    /// Commits a batch of deliveries in one transaction, shared with the chats' steps and the
    /// sender: each subscription is marked sent for its local date and rescheduled, and its
    /// forecast goes to the outbox's bulk lane, unless that date was already sent (a batch
    /// committed twice sends nothing twice).
    ///
    /// - Returns: for each delivery, the outbox ids of its messages; none when nothing was queued.
    @discardableResult
    public func commitDeliveries(_ deliveries: [DailyDelivery], at now: Date = Date()) async throws -> [[Int64]] {
        let plans = Self.sql.commitDeliveries(deliveries, at: now)
        return try await group.submit { db in try Self.run(plans, db) }
    }
}
