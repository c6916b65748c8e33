public import Foundation

/// A place a chat saved, at a position 1…n in the chat's own order.
public struct Favorite: Codable, Sendable, Hashable {
    /// The row's id, which the favorites' buttons name; nil until the store inserts it.
    public var id: Int64?
    /// The Telegram chat it belongs to (negative for groups).
    public var chatID: Int64
    /// 1-based, gap-free within a chat.
    public var position: Int
    /// The saved place, with the name it was saved under.
    public var place: Place
    /// When it was saved.
    public var createdAt: Date

    /// A favorite to store or as read; `id` stays nil until the store gives one.
    public init(id: Int64? = nil, chatID: Int64, position: Int, place: Place, createdAt: Date = Date()) {
        self.id = id
        self.chatID = chatID
        self.position = position
        self.place = place
        self.createdAt = createdAt
    }
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
