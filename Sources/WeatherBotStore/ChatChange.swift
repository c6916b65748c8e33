public import Foundation

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
    /// Forgets everything about the chat: favorites, subscriptions, message tags, replies not yet
    /// sent, the marks of the notices it was sent.
    case forgetChat
}

extension ChatChange {
    /// What a change writes, row by row, decided from the chat's rows as they stand: the rules of
    /// favorites and daily forecasts are here once, and each engine only executes the writes in its
    /// own SQL. Every write names the chat, so an id of another chat's changes nothing.
    public enum Write: Sendable, Hashable {
        case insertFavorite(Favorite)
        case deleteFavorite(id: Int64)
        case moveFavorite(id: Int64, to: Int)
        case insertSubscription(Subscription)
        case deleteSubscription(id: Int64)
        case deleteAllSubscriptions
        case setChart(subscriptionID: Int64, Bool)
        case resumeSubscriptions
        /// The chat's subscriptions, message tags, waiting replies, notice marks and its row go.
        case forgetChat
    }

    /// Which of the chat's rows ``writes(chatID:favorites:subscriptions:now:)`` reads.
    public var reads: (favorites: Bool, subscriptions: Bool) {
        switch self {
        case .addFavorite, .deleteFavorite, .moveFavorite, .forgetChat: (true, false)
        case .subscribe: (false, true)
        case .unsubscribe, .setChart, .unsubscribeAll, .resumeSubscriptions: (false, false)
        }
    }

    /// The writes that carry the change out on the chat's current rows (those ``reads`` names;
    /// the others may be passed empty).
    public func writes(chatID: Int64, favorites: [Favorite], subscriptions: [Subscription], now: Date) -> [Write] {
        switch self {
        case .subscribe(var subscription, let limit):
            guard subscriptions.count < limit,
                !subscriptions.contains(where: {
                    $0.place.isSamePlace(as: subscription.place) && $0.hour == subscription.hour && $0.minute == subscription.minute
                })
            else { return [] }
            subscription.chatID = chatID
            return [.insertSubscription(subscription)]
        case .unsubscribe(let id):
            return [.deleteSubscription(id: id)]
        case .setChart(let id, let withChart):
            return [.setChart(subscriptionID: id, withChart)]
        case .unsubscribeAll:
            return [.deleteAllSubscriptions]
        case .resumeSubscriptions:
            return [.resumeSubscriptions]
        case .addFavorite, .deleteFavorite, .moveFavorite, .forgetChat:
            let after = FavoriteList.applying(self, to: favorites, chatID: chatID, now: now)
            let kept = Set(after.compactMap(\.id))
            var writes: [Write] = favorites.compactMap { favorite in
                favorite.id.flatMap { kept.contains($0) ? nil : .deleteFavorite(id: $0) }
            }
            let positions = Dictionary(favorites.compactMap { favorite in favorite.id.map { ($0, favorite.position) } }, uniquingKeysWith: { first, _ in first })
            for favorite in after {
                if let id = favorite.id {
                    if positions[id] != favorite.position { writes.append(.moveFavorite(id: id, to: favorite.position)) }
                } else {
                    writes.append(.insertFavorite(favorite))
                }
            }
            if self == .forgetChat { writes.append(.forgetChat) }
            return writes
        }
    }
}
