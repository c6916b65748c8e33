public import Foundation

/// The rules of a chat's favorites list, shared by the store and the conversation.
public enum FavoriteList {
    /// The list after `change`, numbered 1…n in order. Ids that are not in the list change nothing.
    public static func applying(_ change: ChatChange, to list: [Favorite], chatID: Int64, now: Date = Date()) -> [Favorite] {
        var list = list.sorted { ($0.position, $0.id ?? .max) < ($1.position, $1.id ?? .max) }
        switch change {
        case .addFavorite(let place, let limit):
            if list.count < limit, !list.contains(where: { $0.place.isSamePlace(as: place) }) {
                list.append(Favorite(chatID: chatID, position: list.count + 1, place: place, createdAt: now))
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
