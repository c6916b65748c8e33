import Foundation
import GRDB
public import WeatherBotStore
import WeatherBotStoreSQL

extension BotDatabase {
    /// The chat's favorites in its order.
    public func favorites(chatID: Int64) throws -> [Favorite] {
        // One statement reads a consistent list: no transaction needed around it.
        try writer.unsafeRead { db in try Self.fetch(Self.sql.favorites(chatID: chatID), db) }
    }

    /// Applies one change inside the caller's transaction: the chat's rows it reads, then the
    /// statements the store decides for them.
    static func apply(_ change: ChatChange, chatID: Int64, _ db: Database, now: Date) throws {
        let reads = change.reads
        let favorites = reads.favorites ? try fetch(sql.favorites(chatID: chatID), db) : []
        let subscriptions = reads.subscriptions ? try fetch(sql.subscriptions(chatID: chatID), db) : []
        _ = try run(sql.statements(for: change, chatID: chatID, favorites: favorites, subscriptions: subscriptions, at: now), db)
    }
}
