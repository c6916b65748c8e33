import Foundation
import PostgresNIO
import TelegramBotAPI
import Testing
@testable import WeatherBotPostgres
import WeatherBotStore
import WeatherBotStoreSQL

/// What every store engine must do, run on each (``Engine/available``): the same calls, the same
/// answers.
@Suite struct StoreContractTests {
    static let moscow = Place(name: "Москва", localNames: ["en": "Moscow"], country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
    static let kazan = Place(name: "Казань", latitude: 55.79, longitude: 49.12)
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func update(_ id: Int64, chat: Int64?) -> (updateID: Int64, chatID: Int64?, payload: Data) {
        (id, chat, Data(#"{"update_id":\#(id)}"#.utf8))
    }

    static func chat(_ id: Int64, place: Place? = nil) -> ChatRecord {
        ChatRecord(id: id, language: .ru, state: .idle, currentPlace: place, createdAt: now, updatedAt: now)
    }

    @Test(arguments: Engine.available)
    func updatesAreTakenOnceInOrderAndTheOffsetCoversTheDroppedOnes(_ engine: Engine) async throws {
        try await engine.withStore { store in
            #expect(try await store.lastUpdateID() == nil)
            let first = try await store.receive([Self.update(10, chat: 1), Self.update(11, chat: nil), Self.update(12, chat: 2)], lastUpdateID: 12, rebasing: false, at: Self.now)
            #expect(first.map(\.updateID) == [10, 12])
            #expect(first.allSatisfy { $0.seq != nil && $0.kind == .update && $0.attempts == 0 })
            #expect(try await store.lastUpdateID() == 12)
            // The same batch again (Telegram re-sent it) is not taken twice.
            #expect(try await store.receive([Self.update(12, chat: 2), Self.update(13, chat: 1)], lastUpdateID: 13, rebasing: false, at: Self.now).map(\.updateID) == [13])
            let pending = try await store.pendingInbox()
            #expect(pending.map(\.updateID) == [10, 12, 13])
            #expect(pending.first?.payload == Data(#"{"update_id":10}"#.utf8))
            // After a quiet week Telegram starts lower: re-based, the ids are taken and the offset moves down.
            #expect(try await store.receive([Self.update(5, chat: 3)], lastUpdateID: 5, rebasing: true, at: Self.now).map(\.updateID) == [5])
            #expect(try await store.lastUpdateID() == 5)
            try await store.discardInboxItem(seq: try #require(pending.first?.seq), chatID: 99)
            #expect(try await store.pendingInbox().count == 4, "another chat's id removes nothing")
            try await store.discardInboxItem(seq: try #require(pending.first?.seq), chatID: 1)
            #expect(try await store.pendingInbox().map(\.updateID) == [12, 13, 5])
        }
    }

    @Test(arguments: Engine.available)
    func aPostedUpdateIsTakenOnceUntilItsIDIsForgotten(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let first = try #require(try await store.receivePosted(Self.update(20, chat: 1), forgettingBefore: nil, at: Self.now))
            #expect(first.map(\.updateID) == [20])
            #expect(first.first?.seq != nil)
            // Posted again (Telegram had no answer in time): answered, not taken.
            #expect(try await store.receivePosted(Self.update(20, chat: 1), forgettingBefore: nil, at: Self.now.addingTimeInterval(60)) == nil)
            // Out of order, as concurrent posts for different chats come, and one of no chat.
            #expect(try await store.receivePosted(Self.update(19, chat: 2), forgettingBefore: nil, at: Self.now)?.map(\.updateID) == [19])
            #expect(try await store.receivePosted(Self.update(21, chat: nil), forgettingBefore: nil, at: Self.now) == [])
            #expect(try await store.receivePosted(Self.update(21, chat: nil), forgettingBefore: nil, at: Self.now) == nil)
            #expect(try await store.pendingInbox().map(\.updateID) == [20, 19])
            // The polling offset is not the webhook's business.
            #expect(try await store.lastUpdateID() == nil)
            // Two days on, the ids of then are forgotten: after a quiet week Telegram may use them anew.
            let later = Self.now.addingTimeInterval(3 * 24 * 3600)
            #expect(try await store.receivePosted(Self.update(22, chat: 3), forgettingBefore: later.addingTimeInterval(-2 * 24 * 3600), at: later)?.count == 1)
            #expect(try await store.receivePosted(Self.update(20, chat: 1), forgettingBefore: nil, at: later)?.count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func postsArrivingTogetherAreEachTakenOnce(_ engine: Engine) async throws {
        try await engine.withStore { store in
            // 60 posts of 40 updates at once: 20 of them posted twice, as Telegram does when a
            // request timed out; every tenth of no chat.
            let taken = try await withThrowingTaskGroup(of: (Int64, [InboxItem]?).self) { group in
                for post in 0..<60 {
                    let id = Int64(100 + post % 40)
                    group.addTask {
                        (id, try await store.receivePosted(Self.update(id, chat: id % 10 == 0 ? nil : id % 7 + 1), forgettingBefore: nil, at: Self.now))
                    }
                }
                var taken: [(Int64, [InboxItem])] = []
                for try await (id, items) in group { if let items { taken.append((id, items)) } }
                return taken
            }
            #expect(taken.count == 40)
            #expect(Set(taken.map(\.0)) == Set(100..<140))
            let items = taken.flatMap(\.1)
            #expect(items.count == 36)
            #expect(items.allSatisfy { $0.chatID == $0.updateID! % 7 + 1 })
            let pending = try await store.pendingInbox()
            #expect(pending.count == 36)
            #expect(Set(pending.compactMap(\.seq)) == Set(items.compactMap(\.seq)))
        }
    }

    @Test(arguments: Engine.available)
    func theWebhookSecretIsGeneratedOnceAndKept(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let first = try await store.webhookSecret(generated: "first-secret")
            let second = try await store.webhookSecret(generated: "second-secret")
            #expect(first == "first-secret")
            #expect(second == "first-secret", "another start, or another replica, gets the secret kept")
        }
    }

    @Test(arguments: Engine.available)
    func aStepCommitsTheChatItsChangesRepliesAndFollowUpsTogether(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let item = try #require(try await store.receive([Self.update(1, chat: 7)], lastUpdateID: 1, rebasing: false, at: Self.now).first)
            var chat = Self.chat(7, place: Self.moscow)
            chat.recentPlaces = [RecentPlace(id: 1, place: Self.kazan)]
            chat.placeSeq = 1
            chat.questionSeq = 4
            chat.lastMessageID = 77
            let replies: [BotRequest] = [
                .sendMessage(chatID: 7, text: "🔎 Определяем город…", tag: "locate-1"),
                .sendPhoto(chatID: 7, photo: "chart", caption: "📈"),
            ]
            let written = try await store.commitStep(
                chat: chat, handled: try #require(item.seq), changes: [.addFavorite(Self.kazan, limit: 20)], replies: replies,
                followUps: [Data("follow".utf8)], at: Self.now)
            #expect(written.replyIDs.count == 2 && written.replyIDs[0] < written.replyIDs[1])
            #expect(written.followUps.map(\.kind) == [.followUp] && written.followUps.first?.payload == Data("follow".utf8))

            let stored = try #require(try await store.chat(7))
            #expect(stored.currentPlace == Self.moscow && stored.recentPlaces == chat.recentPlaces)
            #expect(stored.state == chat.state && stored.questionSeq == 4 && stored.placeSeq == 1 && stored.lastMessageID == 77)
            #expect(abs(stored.updatedAt.timeIntervalSince(Self.now)) < 0.001)
            #expect(try await store.chat(8) == nil)
            #expect(try await store.pendingInbox().map(\.kind) == [.followUp], "the update's item went with the step")
            #expect(try await store.favorites(chatID: 7).map(\.place) == [Self.kazan])
            let outbox = try await store.outboxItems(lane: .interactive, chatID: nil, from: .min, limit: 10)
            #expect(outbox.map(\.id) == written.replyIDs)
            #expect(outbox.map(\.request) == replies)
            #expect(try await store.outboxBacklog() == 2)
            #expect(try await store.outboxBacklog(lane: .bulk) == 0)
            #expect(abs(try #require(try await store.oldestOutboxItem(lane: .interactive)).timeIntervalSince(Self.now)) < 0.001)
            #expect(try await store.oldestOutboxItem(lane: .bulk) == nil)
        }
    }

    @Test(arguments: Engine.available)
    func aChatKeepsADaysShortLivedTagsAndEveryOtherTag(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let day = MessageTags.shortLivedFor
            // No outbox row is needed: a tag is remembered with the message id it names.
            try await store.completeOutbox(id: 1_000_001, chatID: 7, tag: "card", messageID: 10, at: Self.now)
            try await store.completeOutbox(id: 1_000_002, chatID: 7, tag: "locate-1", messageID: 11, at: Self.now)
            try await store.completeOutbox(id: 1_000_003, chatID: 8, tag: "locate-2", messageID: 12, at: Self.now)
            try await store.completeOutbox(id: 1_000_004, chatID: 7, tag: "locate-3", messageID: 13, at: Self.now.addingTimeInterval(day / 2))
            #expect(try await store.messageID(chatID: 7, tag: "locate-1") == 11)
            try await store.completeOutbox(id: 1_000_005, chatID: 7, tag: "locate-4", messageID: 14, at: Self.now.addingTimeInterval(day + 60))
            #expect(try await store.messageID(chatID: 7, tag: "locate-1") == nil, "older than a day")
            #expect(try await store.messageID(chatID: 7, tag: "locate-3") == 13)
            #expect(try await store.messageID(chatID: 7, tag: "locate-4") == 14)
            #expect(try await store.messageID(chatID: 7, tag: "card") == 10, "a lasting tag stays")
            #expect(try await store.messageID(chatID: 8, tag: "locate-2") == 12, "another chat's stay")
        }
    }

    @Test(arguments: Engine.available)
    func oneChatsWaitingRepliesAreReadApartFromTheOthers(_ engine: Engine) async throws {
        try await engine.withStore { store in
            var ids: [Int64: [Int64]] = [:]
            for (index, chat) in [7, 8, 7, 8, 7].enumerated() {
                let items = try await store.receive([Self.update(Int64(index + 1), chat: Int64(chat))], lastUpdateID: Int64(index + 1), rebasing: false, at: Self.now)
                let written = try await store.commitStep(
                    chat: try await store.chat(Int64(chat)) ?? Self.chat(Int64(chat)), handled: try #require(items.first?.seq), changes: [],
                    replies: [.sendMessage(chatID: Int64(chat), text: "\(index)")], followUps: [], at: Self.now)
                ids[Int64(chat), default: []] += written.replyIDs
            }
            let seven = try #require(ids[7])
            #expect(try await store.outboxItems(lane: .interactive, chatID: 7, from: .min, limit: 10).map(\.id) == seven)
            #expect(try await store.outboxItems(lane: .interactive, chatID: 7, from: seven[1], limit: 1).map(\.id) == [seven[1]])
            #expect(try await store.outboxItems(lane: .interactive, chatID: 8, from: .min, limit: 10).map(\.id) == ids[8])
            #expect(try await store.outboxItems(lane: .bulk, chatID: 7, from: .min, limit: 10).isEmpty)
            #expect(try await store.outboxItems(lane: .interactive, chatID: nil, from: .min, limit: 10).count == 5)
        }
    }

    @Test(arguments: Engine.available)
    func favoritesAndForecastsChangeOnlyForTheirOwnChat(_ engine: Engine) async throws {
        try await engine.withStore { store in
            func step(_ chat: Int64, _ changes: [ChatChange]) async throws {
                let items = try await store.receive([Self.update(Int64.random(in: 1...Int64.max / 2), chat: chat)], lastUpdateID: 0, rebasing: true, at: Self.now)
                _ = try await store.commitStep(
                    chat: try await store.chat(chat) ?? Self.chat(chat), handled: try #require(items.first?.seq), changes: changes, replies: [],
                    followUps: [], at: Self.now)
            }
            let forecast = Subscription(chatID: 1, place: Self.moscow, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: Self.now)
            try await step(1, [.addFavorite(Self.moscow, limit: 20), .addFavorite(Self.kazan, limit: 20), .subscribe(forecast, limit: 5)])
            try await step(2, [.addFavorite(Self.kazan, limit: 20)])
            let mine = try await store.favorites(chatID: 1)
            let theirs = try await store.favorites(chatID: 2)
            #expect(mine.map(\.place.name) == ["Москва", "Казань"] && mine.map(\.position) == [1, 2])
            // Chat 2 names chat 1's ids: nothing of chat 1 changes.
            let subscription = try #require(try await store.subscriptions(chatID: 1).first)
            try await step(2, [.deleteFavorite(id: try #require(mine.first?.id)), .setChart(subscriptionID: try #require(subscription.id), true),
                               .unsubscribe(id: try #require(subscription.id))])
            #expect(try await store.favorites(chatID: 1) == mine)
            #expect(try await store.subscriptions(chatID: 1).map(\.withChart) == [false])
            try await step(1, [.moveFavorite(id: try #require(mine.last?.id), to: 1), .setChart(subscriptionID: try #require(subscription.id), true)])
            #expect(try await store.favorites(chatID: 1).map(\.place.name) == ["Казань", "Москва"])
            #expect(try await store.subscriptions(chatID: 1).map(\.withChart) == [true])
            // The same forecast twice is one.
            try await step(1, [.subscribe(forecast, limit: 5)])
            #expect(try await store.subscriptions(chatID: 1).count == 1)
            try await step(1, [.forgetChat])
            #expect(try await store.favorites(chatID: 1).isEmpty)
            #expect(try await store.subscriptions(chatID: 1).isEmpty)
            #expect(try await store.favorites(chatID: 2).map(\.id) == theirs.map(\.id))
        }
    }

    @Test(arguments: Engine.available)
    func theOutboxRemembersTaggedMessagesCountsRetriesAndForgetsABlockedChat(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let item = try #require(try await store.receive([Self.update(1, chat: 5)], lastUpdateID: 1, rebasing: false, at: Self.now).first)
            let written = try await store.commitStep(
                chat: Self.chat(5), handled: try #require(item.seq), changes: [],
                replies: [.sendMessage(chatID: 5, text: "раз", tag: "t"), .sendMessage(chatID: 5, text: "два")], followUps: [], at: Self.now)
            try await store.retryOutbox(id: written.replyIDs[1], chatID: 5, notBefore: Self.now.addingTimeInterval(30))
            try await store.retryOutbox(id: written.replyIDs[1], chatID: 6, notBefore: Self.now.addingTimeInterval(90))
            let retried = try #require(try await store.outboxItems(lane: .interactive, chatID: nil, from: written.replyIDs[1], limit: 1).first)
            #expect(retried.attempts == 1 && abs(retried.notBefore.timeIntervalSince(Self.now) - 30) < 0.001)

            try await store.completeOutbox(id: written.replyIDs[0], chatID: 6, tag: "t", messageID: 1, at: Self.now)
            #expect(try await store.outboxBacklog() == 2, "another chat's id completes nothing")
            #expect(try await store.messageID(chatID: 5, tag: "t") == nil)
            try await store.completeOutbox(id: written.replyIDs[0], chatID: 5, tag: "t", messageID: 501, at: Self.now)
            #expect(try await store.messageID(chatID: 5, tag: "t") == 501)
            #expect(try await store.messageID(chatID: 6, tag: "t") == 1, "each chat's tags are its own")
            #expect(try await store.outboxBacklog() == 1)

            try await store.deactivateChat(5)
            #expect(try await store.outboxBacklog() == 0)
            #expect(try await store.chat(5)?.isActive == false)
        }
    }

    @Test(arguments: Engine.available)
    func aForecastIsQueuedOncePerLocalDateWithItsChatsLanguage(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let item = try #require(try await store.receive([Self.update(1, chat: 3)], lastUpdateID: 1, rebasing: false, at: Self.now).first)
            var chat = Self.chat(3)
            chat.language = .en
            let forecast = Subscription(
                chatID: 3, place: Self.moscow, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: Self.now.addingTimeInterval(-60), withChart: true)
            _ = try await store.commitStep(
                chat: chat, handled: try #require(item.seq), changes: [.subscribe(forecast, limit: 5)], replies: [], followUps: [], at: Self.now)
            #expect(try await store.dueSubscriptions(at: Self.now.addingTimeInterval(-120), limit: 10).isEmpty)
            let due = try await store.dueSubscriptions(at: Self.now, limit: 10)
            #expect(due.map(\.language) == [.en] && due.first?.subscription.place == Self.moscow && due.first?.subscription.withChart == true)
            let delivery = DailyDelivery(
                subscriptionID: try #require(due.first?.subscription.id), chatID: 3, day: "2026-11-18",
                requests: [.sendMessage(chatID: 3, text: "🗓"), .sendPhoto(chatID: 3, photo: "chart", caption: nil)],
                nextSendAt: Self.now.addingTimeInterval(86_400))
            let ids = try await store.commitDeliveries([delivery], at: Self.now)
            #expect(ids.count == 1 && ids[0].count == 2)
            #expect(try await store.commitDeliveries([delivery], at: Self.now) == [[]], "the same date is not sent twice")
            #expect(try await store.outboxItems(lane: .bulk, chatID: nil, from: .min, limit: 10).map(\.id) == ids[0])
            #expect(try await store.dueSubscriptions(at: Self.now, limit: 10).isEmpty)
        }
    }

    /// OpenWeather's calls of a UTC day add up across workers and restarts; another day starts
    /// from nothing, and the earlier day's count goes.
    @Test(arguments: Engine.available)
    func openWeathersCallsAddUpForTheirDayAlone(_ engine: Engine) async throws {
        try await engine.withStore { store in
            #expect(try await store.addOpenWeatherCalls([:], onDay: 20_785) == [:])
            #expect(try await store.addOpenWeatherCalls(["geocode": 12], onDay: 20_785) == ["geocode": 12])
            // Two workers adding at once each see the sum with theirs.
            async let one = store.addOpenWeatherCalls(["geocode": 5, "onecall": 1], onDay: 20_785)
            async let other = store.addOpenWeatherCalls(["onecall": 7, "geocode": 1], onDay: 20_785)
            let (first, second) = try await (one, other)
            let totals = Set([first, second].map { $0.values.reduce(0, +) })
            #expect(totals == [18, 26] || totals == [20, 26])
            #expect(try await store.addOpenWeatherCalls([:], onDay: 20_785) == ["geocode": 18, "onecall": 8])
            #expect(try await store.addOpenWeatherCalls(["reverse": 3], onDay: 20_786) == ["reverse": 3])
            // `weatherbot status` reads it without writing.
            if let postgres = store as? PostgresStore {
                #expect(try await postgres.openWeatherCalls(onDay: 20_786) == ["reverse": 3])
                #expect(try await postgres.openWeatherCalls(onDay: 20_787) == [:])
            }
            // The day before is gone, not added to; a late save of it leaves today's count alone.
            #expect(try await store.addOpenWeatherCalls([:], onDay: 20_785) == [:])
            #expect(try await store.addOpenWeatherCalls([:], onDay: 20_786) == ["reverse": 3])
            // The last minute's calls are kept in place of what was kept.
            #expect(try await store.openWeatherMinute() == [:])
            try await store.keepOpenWeatherMinute([1_795_000_000: 3, 1_795_000_041: 1])
            try await store.keepOpenWeatherMinute([1_795_000_041: 1, 1_795_000_059: 12])
            #expect(try await store.openWeatherMinute() == [1_795_000_041: 1, 1_795_000_059: 12])
        }
    }

    @Test(arguments: Engine.available)
    func aSkippedForecastIsCountedForTheStatusOncePerDate(_ engine: Engine) async throws {
        try await engine.withStore { store in
            func skipped() async throws -> Int { try await store.dailyForecastsSkipped() }
            #expect(try await skipped() == 0)
            let item = try #require(try await store.receive([Self.update(1, chat: 3)], lastUpdateID: 1, rebasing: false, at: Self.now).first)
            let forecasts = [8, 9].map { hour in
                Subscription(chatID: 3, place: Self.moscow, timeZone: "Europe/Moscow", hour: hour, minute: 0, nextSendAt: Self.now.addingTimeInterval(-60))
            }
            _ = try await store.commitStep(
                chat: Self.chat(3), handled: try #require(item.seq), changes: forecasts.map { .subscribe($0, limit: 5) }, replies: [], followUps: [], at: Self.now)
            let due = try await store.dueSubscriptions(at: Self.now, limit: 10)
            #expect(due.count == 2)
            let skips = try due.map { due in
                DailyDelivery(
                    subscriptionID: try #require(due.subscription.id), chatID: 3, day: "2026-11-18", requests: [], nextSendAt: Self.now.addingTimeInterval(86_400))
            }
            #expect(try await store.commitDeliveries(skips, at: Self.now) == [[], []])
            #expect(try await skipped() == 2)
            _ = try await store.commitDeliveries(skips, at: Self.now)
            #expect(try await skipped() == 2, "a date already dealt with is not counted again")
            #expect(try await store.outboxBacklog() == 0)
        }
    }

    @Test(arguments: Engine.available)
    func anUncleanStopCountsAnAttemptAndAnItemSetAsideApologises(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let items = try await store.receive([Self.update(1, chat: 4), Self.update(2, chat: 4)], lastUpdateID: 2, rebasing: false, at: Self.now)
            try await store.beginRun()
            try await store.endRun()
            try await store.beginRun()
            #expect(try await store.pendingInbox().map(\.attempts) == [0, 0], "the last run stopped cleanly")
            try await store.beginRun()
            #expect(try await store.pendingInbox().map(\.attempts) == [1, 0], "a crash counts against each chat's first item")
            let apology = BotRequest.sendMessage(chatID: 4, text: "Не удалось обработать сообщение")
            let id = try await store.setAside(items[0], attempts: 5, error: "boom", apology: apology, at: Self.now)
            #expect(id != nil)
            #expect(try await store.setAside(items[0], attempts: 5, error: "boom", apology: apology, at: Self.now) == nil, "already gone")
            #expect(try await store.pendingInbox().map(\.updateID) == [2])
            #expect(try await store.outboxItems(lane: .interactive, chatID: nil, from: .min, limit: 10).map(\.request) == [apology])
            #expect(try await store.quickCheck() == nil)
        }
    }

    /// Replies of chat `id` of the step below: none to three, the first tagged.
    static func replies(_ id: Int64) -> [BotRequest] {
        (0..<Int(id % 4)).map { BotRequest.sendMessage(chatID: id, text: "\(id)/\($0)", tag: $0 == 0 ? "t" : nil) }
    }

    /// Under load the engines share transactions among steps and sent replies: each step still
    /// gets the ids of its own rows, in order, and a sent reply leaves only its own row.
    @Test(arguments: Engine.available)
    func stepsCommittedTogetherEachGetTheirOwnRowsInOrder(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let chats: [Int64] = Array(1...40)
            let items = try await store.receive(chats.map { Self.update($0, chat: $0) }, lastUpdateID: 40, rebasing: false, at: Self.now)
            let steps = try await withThrowingTaskGroup(of: (Int64, CommittedStep).self) { group in
                for item in items {
                    let chatID = item.chatID
                    group.addTask {
                        var chat = Self.chat(chatID)
                        chat.lastMessageID = chatID % 3 == 0 ? nil : Int(chatID) * 10
                        let replies = Self.replies(chatID)
                        let followUps = chatID % 5 == 0 ? [Data("more \(chatID)".utf8)] : []
                        let step = try await store.commitStep(
                            chat: chat, handled: try #require(item.seq), changes: [], replies: replies, followUps: followUps, at: Self.now)
                        return (chatID, step)
                    }
                }
                return try await group.reduce(into: [Int64: CommittedStep]()) { $0[$1.0] = $1.1 }
            }
            let outbox = try await store.outboxItems(lane: .interactive, chatID: nil, from: .min, limit: 1_000)
            let byID = Dictionary(uniqueKeysWithValues: outbox.map { ($0.id, $0) })
            for chatID in chats {
                let step = try #require(steps[chatID])
                #expect(step.replyIDs.map { byID[$0]?.request } == Self.replies(chatID))
                #expect(step.replyIDs == step.replyIDs.sorted())
                #expect(step.followUps.map(\.payload) == (chatID % 5 == 0 ? [Data("more \(chatID)".utf8)] : []))
                #expect(step.followUps.allSatisfy { $0.chatID == chatID && $0.seq != nil })
                #expect(try await store.chat(chatID)?.lastMessageID == (chatID % 3 == 0 ? nil : Int(chatID) * 10))
            }
            #expect(try await store.pendingInbox().map(\.kind) == Array(repeating: .followUp, count: 8))

            // Sent together, each with another chat's id once: only the right ones leave.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for item in outbox {
                    let id = try #require(item.id)
                    group.addTask {
                        try await store.completeOutbox(id: id, chatID: item.chatID + 1_000, tag: nil, messageID: nil, at: Self.now)
                        try await store.completeOutbox(id: id, chatID: item.chatID, tag: item.request?.tag, messageID: Int(id), at: Self.now)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.outboxBacklog() == 0)
            if let postgres = store as? PostgresStore {
                #expect(await postgres.sharedTransactions > 0, "the writes shared transactions")
            }
            for item in outbox where item.request?.tag == "t" {
                #expect(try await store.messageID(chatID: item.chatID, tag: "t") == item.id.map(Int.init))
            }
        }
    }
}

/// The PostgreSQL engine writes a group's rows one statement per kind, with the effect of writing
/// them one by one in order.
@Suite struct PostgresGroupWriteTests {
    @Test(.enabled(if: Engine.serverURL != nil))
    func aResetInAGroupComesBetweenTheSentRepliesBeforeAndAfterIt() async throws {
        try await Engine.postgres.withStore { store in
            let postgres = try #require(store as? PostgresStore)
            let now = StoreContractTests.now
            let chat = StoreContractTests.chat(5)
            let step = try await store.commitStep(
                chat: chat, handled: -1, changes: [], replies: [.sendMessage(chatID: 5, text: "a", tag: "t"), .sendMessage(chatID: 5, text: "b", tag: "u")],
                followUps: [], at: now)
            // Sent, reset, sent: the reset forgets the first tag, not the second.
            let writes: [SharedWrite] = [
                .sent(SentReply(id: step.replyIDs[0], chatID: 5, tag: "t", messageID: 10, at: now)),
                .step(chat: chat, handled: -1, changes: [.forgetChat], replies: [.sendMessage(chatID: 5, text: "c")], followUps: [Data("f".utf8)], at: now),
                .sent(SentReply(id: step.replyIDs[1], chatID: 5, tag: "u", messageID: 11, at: now)),
            ]
            let results = try await postgres.client.withTransaction(logger: Engine.logger) { connection in
                try await PostgresStore.commit(writes, connection, Engine.logger)
            }
            #expect(results[0] == nil && results[2] == nil)
            let reset = try #require(results[1])
            #expect(try await store.messageID(chatID: 5, tag: "t") == nil)
            #expect(try await store.messageID(chatID: 5, tag: "u") == 11)
            #expect(try await store.outboxItems(lane: .interactive, chatID: nil, from: .min, limit: 10).map(\.id) == reset.replyIDs)
            #expect(try await store.pendingInbox().map(\.seq) == reset.followUps.map(\.seq))
        }
    }
}

/// The PostgreSQL engine's schema: versioned like SQLite's, applied once however often asked.
@Suite(.enabled(if: Engine.serverURL != nil, "TEST_DATABASE_URL names no server")) struct PostgresSchemaTests {
    @Test func migrationsAreAppliedOnceAndRecorded() async throws {
        try await Engine.postgres.withStore { store in
            let postgres = try #require(store as? PostgresStore)
            #expect(try await postgres.migrate().isEmpty, "withStore migrated already")
            let names = try await postgres.client.query("SELECT name FROM schema_migration ORDER BY name").collect().map { try $0.decode(String.self) }
            // The engine's own history, then the changes written once for both engines.
            let expected = PostgresStore.migrations.map(\.name) + StoreSchema.changes.map(\.name)
            #expect(Set(names) == Set(expected) && names.count == expected.count)
        }
    }
}
