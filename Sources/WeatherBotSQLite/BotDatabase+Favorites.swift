import Foundation
import GRDB
public import WeatherBotStore

extension BotDatabase {
    /// The chat's favorites in its order.
    public func favorites(chatID: Int64) throws -> [Favorite] {
        // One statement reads a consistent list: no transaction needed around it.
        try writer.unsafeRead { db in try Self.favorites(chatID, db) }
    }

    static func favorites(_ chatID: Int64, _ db: Database) throws -> [Favorite] {
        try Favorite.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM favorite WHERE chatId = ? ORDER BY position, id"), arguments: [chatID])
    }

    /// Applies one change inside the caller's transaction, with the writes ``ChatChange`` decides.
    static func apply(_ change: ChatChange, chatID: Int64, _ db: Database, now: Date) throws {
        let reads = change.reads
        let favorites = reads.favorites ? try favorites(chatID, db) : []
        let subscriptions = reads.subscriptions ? try Subscription.filter(Subscription.Columns.chatId == chatID).fetchAll(db) : []
        for write in change.writes(chatID: chatID, favorites: favorites, subscriptions: subscriptions, now: now) {
            try execute(write, chatID: chatID, db)
        }
    }

    /// One write of a change; every statement names the chat.
    private static func execute(_ write: ChatChange.Write, chatID: Int64, _ db: Database) throws {
        switch write {
        case .insertFavorite(var favorite):
            favorite.chatId = chatID
            try favorite.insert(db)
        case .deleteFavorite(let id):
            try db.execute(sql: "DELETE FROM favorite WHERE id = ? AND chatId = ?", arguments: [id, chatID])
        case .moveFavorite(let id, let position):
            try db.execute(sql: "UPDATE favorite SET position = ? WHERE id = ? AND chatId = ?", arguments: [position, id, chatID])
        case .insertSubscription(var subscription):
            subscription.chatId = chatID
            try subscription.insert(db)
        case .deleteSubscription(let id):
            try db.execute(sql: "DELETE FROM subscription WHERE id = ? AND chatId = ?", arguments: [id, chatID])
        case .deleteAllSubscriptions:
            try db.execute(sql: "DELETE FROM subscription WHERE chatId = ?", arguments: [chatID])
        case .setChart(let id, let withChart):
            try db.execute(sql: "UPDATE subscription SET withChart = ? WHERE id = ? AND chatId = ?", arguments: [withChart, id, chatID])
        case .resumeSubscriptions:
            try db.execute(sql: "UPDATE subscription SET isActive = 1 WHERE chatId = ? AND isActive = 0", arguments: [chatID])
        case .forgetChat:
            for table in ["subscription", "messageTag", "outbox", "noticeMark"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE chatId = ?", arguments: [chatID])
            }
            try db.execute(sql: "DELETE FROM chat WHERE id = ?", arguments: [chatID])
        }
    }
}
