public import Foundation
public import GRDB

/// A place a chat saved, at a position 1…n in the chat's own order.
public struct Favorite: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "favorite"

    public var id: Int64?
    public var chatId: Int64
    /// 1-based, gap-free within a chat.
    public var position: Int
    public var place: Place
    public var createdAt: Date

    public init(id: Int64? = nil, chatId: Int64, position: Int, place: Place, createdAt: Date = Date()) {
        self.id = id
        self.chatId = chatId
        self.position = position
        self.place = place
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let chatId = Column(CodingKeys.chatId)
        public static let position = Column(CodingKeys.position)
    }
}

/// A change to a chat's saved data, committed in the same transaction as the step that decided it.
public enum ChatChange: Sendable, Hashable {
    /// Appends a favorite at the end (nothing when the chat already has it, or has `limit`).
    case addFavorite(Place, limit: Int)
    /// Deletes the chat's favorite with this id; the ones after it move up.
    case deleteFavorite(id: Int64)
    /// Moves the chat's favorite with this id to `position` (clamped to 1…n); the others shift.
    case moveFavorite(id: Int64, to: Int)
    /// Adds a daily forecast (nothing when the chat already has `limit`, or one for the same place and time).
    case subscribe(Subscription, limit: Int)
    /// Cancels the chat's subscription with this id.
    case unsubscribe(id: Int64)
    /// Whether the chat's subscription with this id comes with the chart; its schedule is kept.
    case setChart(subscriptionID: Int64, Bool)
    /// Cancels all the chat's subscriptions.
    case unsubscribeAll
    /// Resumes the chat's paused subscriptions: it wrote again after blocking the bot.
    case resumeSubscriptions
    /// Forgets everything about the chat: favorites, subscriptions, message tags, replies not yet sent.
    case forgetChat
}

extension Place {
    /// Whether two places are the same for saving: within about a kilometre.
    public func isSamePlace(as other: Place) -> Bool {
        abs(latitude - other.latitude) < 0.01 && abs(longitude - other.longitude) < 0.01
    }

    /// Whether two places are one city: the same place, or the same name, country and region
    /// within some 20 km (a location shared in Kazan and Kazan found by name). Two villages of
    /// one name farther apart stay two.
    public func isSameCity(as other: Place) -> Bool {
        if isSamePlace(as: other) { return true }
        guard name == other.name, country == other.country else { return false }
        if let region, let otherRegion = other.region, region != otherRegion { return false }
        return abs(latitude - other.latitude) < 0.2 && abs(longitude - other.longitude) < 0.3
    }
}
