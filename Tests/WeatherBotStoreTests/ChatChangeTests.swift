import Foundation
import Testing
import WeatherBotStore

@Suite struct ChatChangeTests {
    let now = Date(timeIntervalSince1970: 1_763_700_000)

    func place(_ n: Int) -> Place { Place(name: "Place \(n)", latitude: 40 + Double(n), longitude: 20) }

    func favorites(_ count: Int) -> [Favorite] {
        (1...count).map { Favorite(id: Int64($0 * 10), chatID: 7, position: $0, place: place($0)) }
    }

    @Test func aFavoriteAddedGoesLastAndOneAlreadySavedOrOverTheLimitWritesNothing() {
        let list = favorites(3)
        #expect(
            ChatChange.addFavorite(place(9), limit: 5).writes(chatID: 7, favorites: list, subscriptions: [], now: now)
                == [.insertFavorite(Favorite(chatID: 7, position: 4, place: place(9), createdAt: now))])
        #expect(ChatChange.addFavorite(place(2), limit: 5).writes(chatID: 7, favorites: list, subscriptions: [], now: now).isEmpty)
        #expect(ChatChange.addFavorite(place(9), limit: 3).writes(chatID: 7, favorites: list, subscriptions: [], now: now).isEmpty)
    }

    @Test func deletingAndMovingRenumberOnlyTheFavoritesWhosePlaceChanged() {
        let list = favorites(4)
        #expect(
            ChatChange.deleteFavorite(id: 20).writes(chatID: 7, favorites: list, subscriptions: [], now: now)
                == [.deleteFavorite(id: 20), .moveFavorite(id: 30, to: 2), .moveFavorite(id: 40, to: 3)])
        #expect(
            ChatChange.moveFavorite(id: 40, to: 2).writes(chatID: 7, favorites: list, subscriptions: [], now: now)
                == [.moveFavorite(id: 40, to: 2), .moveFavorite(id: 20, to: 3), .moveFavorite(id: 30, to: 4)])
        // An id the chat does not have changes nothing.
        #expect(ChatChange.deleteFavorite(id: 99).writes(chatID: 7, favorites: list, subscriptions: [], now: now).isEmpty)
    }

    @Test func aDailyForecastForTheSamePlaceAndTimeOrOverTheLimitIsNotAddedAgain() {
        let morning = Subscription(chatID: 1, place: place(1), timeZone: "UTC", hour: 8, minute: 0, nextSendAt: now)
        let stored = [Subscription(id: 5, chatID: 7, place: place(1), timeZone: "UTC", hour: 8, minute: 0, nextSendAt: now)]
        #expect(ChatChange.subscribe(morning, limit: 5).writes(chatID: 7, favorites: [], subscriptions: stored, now: now).isEmpty)
        var evening = morning
        evening.hour = 20
        var expected = evening
        expected.chatID = 7
        #expect(ChatChange.subscribe(evening, limit: 5).writes(chatID: 7, favorites: [], subscriptions: stored, now: now) == [.insertSubscription(expected)])
        #expect(ChatChange.subscribe(evening, limit: 1).writes(chatID: 7, favorites: [], subscriptions: stored, now: now).isEmpty)
    }

    @Test func forgettingAChatDeletesEveryFavoriteAndThenTheRest() {
        let writes = ChatChange.forgetChat.writes(chatID: 7, favorites: favorites(2), subscriptions: [], now: now)
        #expect(writes == [.deleteFavorite(id: 10), .deleteFavorite(id: 20), .forgetChat])
        #expect(ChatChange.forgetChat.reads == (favorites: true, subscriptions: false))
    }
}
