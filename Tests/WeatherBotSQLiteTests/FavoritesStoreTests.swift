import Foundation
import TelegramBotAPI
import Testing
@testable import WeatherBotSQLite
import WeatherBotStore

@Suite struct FavoritesStoreTests {
    func place(_ index: Int) -> Place {
        Place(name: "Place \(index)", latitude: Double(index), longitude: Double(index))
    }

    /// Commits `changes` for a chat as one handled update would.
    func commit(_ database: BotDatabase, chat: Int64, _ changes: [ChatChange]) async throws {
        let item = try await database.receive([(updateID: Int64.random(in: 1...Int64.max / 2), chatID: chat, payload: Data())], lastUpdateID: 0).first
        try await database.commitStep(
            chat: database.chat(chat) ?? ChatRecord(id: chat, language: .ru, state: .idle), handled: item?.seq ?? -1,
            changes: changes, replies: [], followUps: [])
    }

    func names(_ database: BotDatabase, _ chat: Int64) throws -> [String] {
        try database.favorites(chatID: chat).map(\.place.name)
    }

    func assertGapFree(_ database: BotDatabase, _ chat: Int64) throws {
        let positions = try database.favorites(chatID: chat).map(\.position)
        #expect(positions == (0..<positions.count).map { $0 + 1 })
    }

    @Test func addMoveAndDeleteKeepTheUsersOrderGapFree() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await commit(database, chat: 1, (1...4).map { .addFavorite(place($0), limit: 20) })
        #expect(try names(database, 1) == ["Place 1", "Place 2", "Place 3", "Place 4"])
        let ids = try database.favorites(chatID: 1).map { $0.id! }
        try await commit(database, chat: 1, [.moveFavorite(id: ids[3], to: 1)])
        #expect(try names(database, 1) == ["Place 4", "Place 1", "Place 2", "Place 3"])
        try await commit(database, chat: 1, [.deleteFavorite(id: ids[1])])
        #expect(try names(database, 1) == ["Place 4", "Place 1", "Place 3"])
        try await commit(database, chat: 1, [.moveFavorite(id: ids[0], to: 99)])
        #expect(try names(database, 1) == ["Place 4", "Place 3", "Place 1"])
        try assertGapFree(database, 1)
        // The same place again, or past the limit: nothing.
        try await commit(database, chat: 1, [.addFavorite(place(4), limit: 20), .addFavorite(place(9), limit: 3)])
        #expect(try names(database, 1).count == 3)
    }

    @Test func randomSequencesMatchASimpleModel() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        var model: [String] = []
        var generator = SystemRandomNumberGenerator()
        for step in 0..<300 {
            let stored = try database.favorites(chatID: 5)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let candidate = place(Int.random(in: 0..<30, using: &generator))
                try await commit(database, chat: 5, [.addFavorite(candidate, limit: 8)])
                if model.count < 8 && !model.contains(candidate.name) { model.append(candidate.name) }
            case 1 where !stored.isEmpty:
                let index = Int.random(in: 0..<stored.count, using: &generator)
                try await commit(database, chat: 5, [.deleteFavorite(id: stored[index].id!)])
                model.remove(at: index)
            case 2 where !stored.isEmpty:
                let from = Int.random(in: 0..<stored.count, using: &generator)
                let to = Int.random(in: 1...stored.count, using: &generator)
                try await commit(database, chat: 5, [.moveFavorite(id: stored[from].id!, to: to)])
                model.insert(model.remove(at: from), at: to - 1)
            default:
                break
            }
            #expect(try names(database, 5) == model, "after step \(step)")
        }
        try assertGapFree(database, 5)
    }

    @Test func twoUpdatesOfOneChatAtOnceLeaveAConsistentList() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await commit(database, chat: 3, (1...6).map { .addFavorite(place($0), limit: 20) })
        let ids = try database.favorites(chatID: 3).map { $0.id! }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<20 {
                group.addTask { try await commit(database, chat: 3, [.moveFavorite(id: ids[round % 6], to: (round * 5) % 6 + 1)]) }
                group.addTask { try await commit(database, chat: 3, [.addFavorite(place(100 + round), limit: 20)]) }
            }
            try await group.waitForAll()
        }
        let list = try database.favorites(chatID: 3)
        #expect(list.count == 20)
        #expect(Set(list.map(\.place.name)).count == 20)
        try assertGapFree(database, 3)
    }

    @Test func idsFromAnotherChatChangeNothing() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await commit(database, chat: 1, [.addFavorite(place(1), limit: 20), .addFavorite(place(2), limit: 20)])
        try await commit(database, chat: 2, [.addFavorite(place(3), limit: 20)])
        let theirs = try database.favorites(chatID: 1).map { $0.id! }
        // Chat 2 replays chat 1's ids.
        try await commit(database, chat: 2, [.deleteFavorite(id: theirs[0]), .moveFavorite(id: theirs[1], to: 1)])
        #expect(try names(database, 1) == ["Place 1", "Place 2"])
        #expect(try names(database, 2) == ["Place 3"])
    }

    @Test func forgettingAChatRemovesOnlyThatChat() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await commit(database, chat: 1, [.addFavorite(place(1), limit: 20)])
        try await commit(database, chat: 2, [.addFavorite(place(2), limit: 20)])
        let item = try await database.receive([(updateID: 900, chatID: 1, payload: Data())], lastUpdateID: 900)[0]
        try await database.commitStep(
            chat: ChatRecord(id: 1, language: .ru, state: .idle), handled: item.seq!, changes: [.forgetChat],
            replies: [.sendMessage(chatID: 1, text: "bye")], followUps: [])
        #expect(try database.favorites(chatID: 1).isEmpty)
        #expect(try database.chat(1)?.currentPlace == nil)
        #expect(try names(database, 2) == ["Place 2"])
        // The step's own reply survives the reset.
        #expect(try database.outboxBacklog() == 1)
    }
}

@Suite struct SubscriptionStoreTests {
    func subscription(_ chat: Int64, hour: Int = 8) -> Subscription {
        Subscription(chatID: chat, place: Place(name: "Moscow", latitude: 55.75, longitude: 37.62), timeZone: "Europe/Moscow",
                     hour: hour, minute: 0, nextSendAt: Date(timeIntervalSince1970: 1_763_701_200))
    }

    func setUp(_ database: BotDatabase, chat: Int64, _ changes: [ChatChange]) async throws {
        let item = try await database.receive([(updateID: Int64.random(in: 1...Int64.max / 2), chatID: chat, payload: Data())], lastUpdateID: 0).first
        try await database.commitStep(chat: database.chat(chat) ?? ChatRecord(id: chat, language: .ru, state: .idle), handled: item?.seq ?? -1, changes: changes, replies: [], followUps: [])
    }

    /// The chart is switched on a subscription of the chat only; its schedule stays as it was.
    @Test func theChartIsSwitchedOnTheChatsOwnSubscriptionOnly() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await setUp(database, chat: 1, [.subscribe(subscription(1), limit: 5)])
        let id = try #require(try database.subscriptions(chatID: 1).first?.id)
        try await setUp(database, chat: 2, [.setChart(subscriptionID: id, true)])
        #expect(try database.subscriptions(chatID: 1).map(\.withChart) == [false])
        try await setUp(database, chat: 1, [.setChart(subscriptionID: id, true)])
        let switched = try #require(try database.subscriptions(chatID: 1).first)
        #expect(switched.withChart && switched.nextSendAt == subscription(1).nextSendAt)
    }

    @Test func aBatchCommittedTwiceSendsNothingTwice() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await setUp(database, chat: 1, [.subscribe(subscription(1), limit: 5)])
        let due = try database.dueSubscriptions(at: Date(timeIntervalSince1970: 1_763_701_300))
        #expect(due.count == 1)
        let delivery = DailyDelivery(subscriptionID: due[0].subscription.id!, chatID: 1, day: "2026-11-21", requests: [.sendMessage(chatID: 1, text: "f")], nextSendAt: Date(timeIntervalSince1970: 1_763_787_600))
        #expect(try await database.commitDeliveries([delivery]).joined().count == 1)
        #expect(try await database.commitDeliveries([delivery]) == [[]])
        #expect(try database.outboxBacklog() == 1)
        #expect(try database.dueSubscriptions(at: Date(timeIntervalSince1970: 1_763_701_300)).isEmpty)
    }

    @Test func limitsDuplicatesAndOtherChatsAreRespected() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await setUp(database, chat: 1, (0..<7).map { .subscribe(subscription(1, hour: $0), limit: 5) } + [.subscribe(subscription(1, hour: 0), limit: 5)])
        #expect(try database.subscriptions(chatID: 1).count == 5)
        let theirs = try database.subscriptions(chatID: 1)[0].id!
        try await setUp(database, chat: 2, [.unsubscribe(id: theirs), .unsubscribeAll])
        #expect(try database.subscriptions(chatID: 1).count == 5)
        try await setUp(database, chat: 1, [.unsubscribe(id: theirs)])
        #expect(try database.subscriptions(chatID: 1).count == 4)
    }

    @Test func aBlockedChatsForecastsPauseUntilItWritesAgain() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await setUp(database, chat: 1, [.subscribe(subscription(1), limit: 5)])
        let later = Date(timeIntervalSince1970: 1_763_701_300)
        try await database.deactivateChat(1)
        #expect(try database.dueSubscriptions(at: later).isEmpty)
        try await setUp(database, chat: 1, [.resumeSubscriptions])
        #expect(try database.dueSubscriptions(at: later).count == 1)
    }
}
