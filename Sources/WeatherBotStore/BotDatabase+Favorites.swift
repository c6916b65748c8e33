public import Foundation
import GRDB

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

    /// Applies one change inside the caller's transaction. Every statement names the chat, so an id
    /// from another chat changes nothing.
    static func apply(_ change: ChatChange, chatID: Int64, _ db: Database, now: Date) throws {
        switch change {
        case .subscribe(var subscription, let limit):
            let existing = try Subscription.filter(Subscription.Columns.chatId == chatID).fetchAll(db)
            guard existing.count < limit,
                !existing.contains(where: { $0.place.isSamePlace(as: subscription.place) && $0.hour == subscription.hour && $0.minute == subscription.minute })
            else { return }
            subscription.chatId = chatID
            try subscription.insert(db)
            return
        case .unsubscribe(let id):
            _ = try Subscription.filter(Subscription.Columns.chatId == chatID && Subscription.Columns.id == id).deleteAll(db)
            return
        case .setChart(let id, let withChart):
            try db.execute(sql: "UPDATE subscription SET withChart = ? WHERE id = ? AND chatId = ?", arguments: [withChart, id, chatID])
            return
        case .unsubscribeAll:
            _ = try Subscription.filter(Subscription.Columns.chatId == chatID).deleteAll(db)
            return
        case .resumeSubscriptions:
            try db.execute(sql: "UPDATE subscription SET isActive = 1 WHERE chatId = ? AND isActive = 0", arguments: [chatID])
            return
        case .addFavorite, .deleteFavorite, .moveFavorite, .forgetChat:
            break
        }
        let before = try favorites(chatID, db)
        let after = FavoriteList.applying(change, to: before, chatID: chatID, now: now)
        let kept = Set(after.compactMap(\.id))
        for favorite in before where !kept.contains(favorite.id ?? -1) {
            _ = try Favorite.filter(Favorite.Columns.chatId == chatID && Favorite.Columns.id == favorite.id).deleteAll(db)
        }
        let positions = Dictionary(uniqueKeysWithValues: before.compactMap { favorite in favorite.id.map { ($0, favorite.position) } })
        for favorite in after {
            if let id = favorite.id {
                if positions[id] != favorite.position {
                    try db.execute(
                        sql: "UPDATE favorite SET position = ? WHERE id = ? AND chatId = ?", arguments: [favorite.position, id, chatID])
                }
            } else {
                try favorite.insert(db)
            }
        }
        if change == .forgetChat {
            _ = try Subscription.filter(Subscription.Columns.chatId == chatID).deleteAll(db)
            try db.execute(sql: "DELETE FROM messageTag WHERE chatId = ?", arguments: [chatID])
            _ = try OutboxItem.filter(OutboxItem.Columns.chatId == chatID).deleteAll(db)
            _ = try ChatRecord.filter(ChatRecord.Columns.id == chatID).deleteAll(db)
        }
    }
}

/// The rules of a chat's favorites list, shared by the store and the conversation.
public enum FavoriteList {
    /// The list after `change`, numbered 1…n in order. Ids that are not in the list change nothing.
    public static func applying(_ change: ChatChange, to list: [Favorite], chatID: Int64, now: Date = Date()) -> [Favorite] {
        var list = list.sorted { ($0.position, $0.id ?? .max) < ($1.position, $1.id ?? .max) }
        switch change {
        case .addFavorite(let place, let limit):
            if list.count < limit, !list.contains(where: { $0.place.isSamePlace(as: place) }) {
                list.append(Favorite(chatId: chatID, position: list.count + 1, place: place, createdAt: now))
            }
        case .deleteFavorite(let id):
            list.removeAll { $0.id == id }
        case .moveFavorite(let id, let position):
            if let from = list.firstIndex(where: { $0.id == id }) {
                let moved = list.remove(at: from)
                list.insert(moved, at: min(max(position - 1, 0), list.count))
            }
        case .forgetChat:
            list = []
        case .subscribe, .unsubscribe, .setChart, .unsubscribeAll, .resumeSubscriptions:
            break
        }
        for index in list.indices { list[index].position = index + 1 }
        return list
    }
}
