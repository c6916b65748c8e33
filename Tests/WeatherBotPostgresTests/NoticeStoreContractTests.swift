import Foundation
import PostgresNIO
import TelegramBotAPI
import Testing
@testable import WeatherBotPostgres
import WeatherBotStore
import WeatherBotTesting

/// What every store engine keeps of notices (`/alerts`), run on each (``Engine/available``): the
/// chats' settings, the chats the checker looks at with their marks, and notices queued once.
@Suite struct NoticeStoreContractTests {
    static let now = StoreContractTests.now
    static let moscow = StoreContractTests.moscow
    static let kazan = StoreContractTests.kazan
    static let night = QuietHours(stored: "23:00-07:00")!

    static func chat(_ id: Int64, place: Place? = moscow, notices: NoticeSettings) -> ChatRecord {
        ChatRecord(id: id, language: .ru, state: .idle, currentPlace: place, createdAt: now, updatedAt: now, notices: notices)
    }

    /// Commits a step of `chat` as the chat workers do, for an update of its own.
    static func step(_ store: any BotStore, _ chat: ChatRecord, changes: [ChatChange] = []) async throws {
        let items = try await store.receive(
            [(updateID: Int64.random(in: 1...Int64.max / 2), chatID: chat.id, payload: Data("{}".utf8))], lastUpdateID: 0, rebasing: true, at: now)
        _ = try await store.commitStep(chat: chat, handled: try #require(items.first?.seq), changes: changes, replies: [], followUps: [], at: now)
    }

    static func delivery(_ chat: Int64, key: String = "rain", value: String, expiresIn: TimeInterval = 3_600, texts: [String] = ["☔"]) -> NoticeDelivery {
        NoticeDelivery(
            chatID: chat, mark: NoticeMark(key: key, value: value, expiresAt: now.addingTimeInterval(expiresIn)),
            requests: texts.map { BotRequest.sendMessage(chatID: chat, text: $0) }, deadline: now.addingTimeInterval(1_200))
    }

    @Test(arguments: Engine.available)
    func aChatsNoticeSettingsAreStoredWithItAndReadBackFromItsRow(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let settings: [Int64: NoticeSettings] = [
                1: NoticeSettings(rain: true, warnings: false, quiet: .hours(Self.night), setBy: 42),
                2: NoticeSettings(rain: false, warnings: true, quiet: .paused(QuietHours(start: 23 * 60, end: 7 * 60)!)),
                3: NoticeSettings(rain: true, warnings: true),
                4: NoticeSettings(rain: false, warnings: false, quiet: .hours(Self.night), setBy: 7),
            ]
            for (id, notices) in settings.sorted(by: { $0.key < $1.key }) {
                try await Self.step(store, Self.chat(id, notices: notices))
            }
            for (id, notices) in settings {
                #expect(try await store.chat(id)?.notices == notices)
            }
            // The checker reads the rows themselves, not the records the store keeps in memory.
            let checked = try await store.noticeChats(at: Self.now)
            #expect(checked.map(\.chatID) == [1, 2, 3])
            #expect(checked.map(\.settings) == [settings[1], settings[2], settings[3]])
            #expect(checked.first?.settings.quietHours(default: .night) == Self.night)
            #expect(checked.dropFirst().first?.settings.quietHours(default: .night) == nil, "quiet hours off, the chat's own kept")
            #expect(checked.last?.settings.quietHours(default: .night) == .night, "the default")

            // Turned off again, by the same kind of step.
            var off = Self.chat(1, notices: .off)
            off.questionSeq = 1
            try await Self.step(store, off)
            #expect(try await store.chat(1)?.notices == .off)
            #expect(try await store.noticeChats(at: Self.now).map(\.chatID) == [2, 3])
        }
    }

    @Test(arguments: Engine.available)
    func onlyActiveChatsWithACityAndANoticeOnAreCheckedWithTheirMarksNotExpired(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let rain = NoticeSettings(rain: true)
            try await Self.step(store, Self.chat(10, notices: rain))
            try await Self.step(store, Self.chat(11, place: nil, notices: rain))
            try await Self.step(store, Self.chat(12, notices: .off))
            try await Self.step(store, Self.chat(13, place: Self.kazan, notices: NoticeSettings(warnings: true)))
            try await Self.step(store, Self.chat(14, notices: rain))
            try await store.deactivateChat(14)
            var english = Self.chat(15, notices: rain)
            english.language = .en
            try await Self.step(store, english)

            let marked = try await store.commitNotices(
                [
                    Self.delivery(10, key: "rain", value: "episode-1", expiresIn: 60),
                    Self.delivery(10, key: "warning:storm", value: "v1", expiresIn: 3_600),
                    Self.delivery(13, key: "warning:heat", value: "v1", expiresIn: 3_600),
                ], at: Self.now)
            #expect(marked.map(\.count) == [1, 1, 1])

            let checked = try await store.noticeChats(at: Self.now.addingTimeInterval(120))
            #expect(checked.map(\.chatID) == [10, 13, 15])
            #expect(checked.map(\.place) == [Self.moscow, Self.kazan, Self.moscow])
            #expect(checked.map(\.language) == [.ru, .ru, .en])
            #expect(checked.map(\.marks) == [["warning:storm": "v1"], ["warning:heat": "v1"], [:]], "the rain mark expired")
            #expect(try await store.noticeChats(at: Self.now).first?.marks == ["rain": "episode-1", "warning:storm": "v1"])
        }
    }

    @Test(arguments: Engine.available)
    func aNoticeIsQueuedOncePerMarkInTheNoticeLaneWithItsDeadline(_ engine: Engine) async throws {
        try await engine.withStore { store in
            try await Self.step(store, Self.chat(20, notices: NoticeSettings(rain: true)))
            try await Self.step(store, Self.chat(21, notices: NoticeSettings(warnings: true)))
            try await Self.step(store, Self.chat(22, notices: .off))
            try await Self.step(store, Self.chat(23, notices: NoticeSettings(rain: true)))
            try await store.deactivateChat(23)

            let first = Self.delivery(20, value: "episode-1", texts: ["☔ Дождь через 20 минут", "🗺"])
            let ids = try await store.commitNotices(
                [first, Self.delivery(21, key: "warning:storm", value: "v1"), Self.delivery(22, value: "episode-1"), Self.delivery(23, value: "episode-1")],
                at: Self.now)
            #expect(ids.map(\.count) == [2, 1, 0, 0], "a chat with notices off, or inactive, gets nothing")
            #expect(ids[0][0] < ids[0][1] && ids[0][1] < ids[1][0])

            let queued = try await store.outboxItems(lane: .notice, chatID: nil, from: .min, limit: 10)
            #expect(queued.map(\.id) == ids[0] + ids[1])
            #expect(queued.allSatisfy { $0.lane == .notice })
            #expect(queued.map(\.request) == first.requests + [BotRequest.sendMessage(chatID: 21, text: "☔")])
            #expect(queued.allSatisfy { abs(($0.deadline ?? .distantPast).timeIntervalSince(Self.now.addingTimeInterval(1_200))) < 0.001 })
            #expect(try await store.outboxItems(lane: .notice, chatID: 20, from: .min, limit: 10).map(\.id) == ids[0])
            #expect(try await store.outboxItems(lane: .bulk, chatID: nil, from: .min, limit: 10).isEmpty)
            #expect(try await store.outboxBacklog(lane: .notice) == 3)

            // The same delivery again (a checker's round committed twice, or after a crash): nothing.
            #expect(try await store.commitNotices([first], at: Self.now.addingTimeInterval(60)) == [[]])
            // The same value twice in one commit: the first queues, the second does not.
            let storm = Self.delivery(21, key: "warning:storm", value: "v2")
            #expect(try await store.commitNotices([storm, storm], at: Self.now.addingTimeInterval(60)).map(\.count) == [1, 0])
            // A new value under the key (a new rain episode): queued again, and again once.
            let second = Self.delivery(20, value: "episode-2")
            #expect(try await store.commitNotices([second], at: Self.now.addingTimeInterval(120)).map(\.count) == [1])
            #expect(try await store.commitNotices([second], at: Self.now.addingTimeInterval(120)) == [[]])
            #expect(try await store.outboxBacklog(lane: .notice) == 5)

            // Notices turned off after the check: nothing more is queued, nor marked.
            try await Self.step(store, Self.chat(20, notices: .off))
            #expect(try await store.commitNotices([Self.delivery(20, value: "episode-3")], at: Self.now.addingTimeInterval(180)) == [[]])
            try await Self.step(store, Self.chat(20, notices: NoticeSettings(rain: true)))
            #expect(try await store.noticeChats(at: Self.now.addingTimeInterval(180)).first?.marks == ["rain": "episode-2"])
        }
    }

    /// Pollen is a notice of its own: kept with the chat, read by the checker when it is the only
    /// one on, and its day's mark queues it once.
    @Test(arguments: Engine.available)
    func aChatWithPollenAloneOnIsCheckedAndToldOncePerDay(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let pollen = NoticeSettings(pollen: true, quiet: .hours(Self.night), setBy: 5)
            try await Self.step(store, Self.chat(50, notices: pollen))
            try await Self.step(store, Self.chat(51, notices: NoticeSettings(rain: true, warnings: true, pollen: true)))
            try await Self.step(store, Self.chat(52, notices: NoticeSettings(rain: true)))
            #expect(try await store.chat(50)?.notices == pollen)
            #expect(try await store.chat(52)?.notices.pollen == false)
            let checked = try await store.noticeChats(at: Self.now)
            #expect(checked.map(\.chatID) == [50, 51, 52])
            #expect(checked.map(\.settings.pollen) == [true, true, false])

            let day = Self.delivery(50, key: "pollen", value: "2026-11-21", expiresIn: 86_400, texts: ["🌼"])
            #expect(try await store.commitNotices([day], at: Self.now).map(\.count) == [1])
            #expect(try await store.commitNotices([day], at: Self.now.addingTimeInterval(600)) == [[]])
            #expect(try await store.noticeChats(at: Self.now).first?.marks == ["pollen": "2026-11-21"])
            // The next day is news again.
            let next = Self.delivery(50, key: "pollen", value: "2026-11-22", expiresIn: 2 * 86_400, texts: ["🌼"])
            #expect(try await store.commitNotices([next], at: Self.now.addingTimeInterval(86_400)).map(\.count) == [1])
            // Pollen off, nothing else on: not checked, and nothing more queued.
            var off = Self.chat(50, notices: NoticeSettings(quiet: .hours(Self.night)))
            off.questionSeq = 1
            try await Self.step(store, off)
            #expect(try await store.noticeChats(at: Self.now).map(\.chatID) == [51, 52])
            let third = Self.delivery(50, key: "pollen", value: "2026-11-23", expiresIn: 3 * 86_400, texts: ["🌼"])
            #expect(try await store.commitNotices([third], at: Self.now.addingTimeInterval(2 * 86_400)) == [[]])
        }
    }

    @Test(arguments: Engine.available)
    func anExpiredMarkIsForgottenAndItsNoticeMayComeAgain(_ engine: Engine) async throws {
        try await engine.withStore { store in
            try await Self.step(store, Self.chat(30, notices: NoticeSettings(rain: true)))
            let rain = Self.delivery(30, value: "episode-1", expiresIn: 600)
            #expect(try await store.commitNotices([rain], at: Self.now).map(\.count) == [1])
            #expect(try await store.commitNotices([rain], at: Self.now.addingTimeInterval(599)) == [[]])
            // Past its expiry the mark goes, with any commit, and guards against nothing any more.
            #expect(try await store.commitNotices([], at: Self.now.addingTimeInterval(600)) == [])
            #expect(try await store.noticeChats(at: Self.now).first?.marks == [:], "gone, not only unread")
            #expect(try await store.commitNotices([rain], at: Self.now.addingTimeInterval(600)).map(\.count) == [1])
        }
    }

    @Test(arguments: Engine.available)
    func forgettingAChatForgetsItsMarksAndNoOtherChats(_ engine: Engine) async throws {
        try await engine.withStore { store in
            let rain = NoticeSettings(rain: true)
            try await Self.step(store, Self.chat(40, notices: rain))
            try await Self.step(store, Self.chat(41, notices: rain))
            let ids = try await store.commitNotices([Self.delivery(40, value: "e1"), Self.delivery(41, value: "e1")], at: Self.now)
            #expect(ids.map(\.count) == [1, 1])

            // `/reset`: the chat starts over, its settings off, its marks and waiting notices gone.
            try await Self.step(store, ChatRecord(id: 40, language: .ru, state: .idle, createdAt: Self.now, updatedAt: Self.now), changes: [.forgetChat])
            #expect(try await store.chat(40)?.notices == .off)
            #expect(try await store.outboxItems(lane: .notice, chatID: nil, from: .min, limit: 10).map(\.id) == ids[1])
            #expect(try await store.noticeChats(at: Self.now).map(\.chatID) == [41])
            #expect(try await store.noticeChats(at: Self.now).first?.marks == ["rain": "e1"], "another chat's mark stays")
            // Turned on again, the chat is told of the same rain: its mark went with the reset.
            try await Self.step(store, Self.chat(40, notices: rain))
            #expect(try await store.commitNotices([Self.delivery(40, value: "e1"), Self.delivery(41, value: "e1")], at: Self.now).map(\.count) == [1, 0])
        }
    }
}

/// The PostgreSQL engine's notices: rows read by another replica, writes fenced by the lease.
@Suite(.enabled(if: Engine.serverURL != nil, "TEST_DATABASE_URL names no server")) struct PostgresNoticeTests {
    /// Another replica, which has no record in memory, reads the settings a step stored; the
    /// status counts the chats the checker looks at.
    @Test func anotherReplicaReadsTheNoticeSettingsAStepStored() async throws {
        let database = try await ScratchDatabase.create(on: try #require(Engine.serverURL), prefix: "weatherbot_notices")
        do {
            let writer = PostgresStore(try PostgresLocation(url: database.url), logger: Engine.logger)
            let reader = PostgresStore(try PostgresLocation(url: database.url), logger: Engine.logger)
            let third = PostgresStore(try PostgresLocation(url: database.url), logger: Engine.logger)
            try await withRunning([writer.client, reader.client, third.client]) {
                try await writer.migrate()
                let settings = NoticeSettings(rain: true, warnings: true, quiet: .hours(NoticeStoreContractTests.night), setBy: 1_234)
                try await NoticeStoreContractTests.step(writer, NoticeStoreContractTests.chat(1, notices: settings))
                try await NoticeStoreContractTests.step(writer, NoticeStoreContractTests.chat(2, notices: NoticeSettings(warnings: true, quiet: .off)))
                try await NoticeStoreContractTests.step(writer, NoticeStoreContractTests.chat(3, notices: .off))
                #expect(try await reader.chat(1)?.notices == settings)
                #expect(try await reader.chat(2)?.notices == NoticeSettings(warnings: true, quiet: .off))
                #expect(try await reader.chat(3)?.notices == .off)
                #expect(try await reader.noticeChatCount() == 2)

                // Quiet hours a later version wrote, or a hand, read as the default: the chat still reads.
                try await writer.client.query("UPDATE chat SET quiet_hours = 'whenever' WHERE id = 1", logger: Engine.logger)
                #expect(try await third.chat(1)?.notices == NoticeSettings(rain: true, warnings: true, quiet: nil, setBy: 1_234))
                #expect(try await third.noticeChats(at: NoticeStoreContractTests.now).first?.settings.quiet == nil)
            }
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }

    /// A replica that lost the lease marks nothing and queues nothing.
    @Test func noticesUnderALeaseNoLongerHeldAreRefused() async throws {
        try await Engine.postgres.withStore { store in
            let postgres = try #require(store as? PostgresStore)
            try await NoticeStoreContractTests.step(store, NoticeStoreContractTests.chat(1, notices: NoticeSettings(rain: true)))
            let lease = LeaderLease(client: postgres.client, duration: .milliseconds(300), logger: Engine.logger)
            let first = try #require(try await lease.acquire(as: "replica-a"))
            postgres.fence(with: first)
            try await Task.sleep(for: .milliseconds(500))
            _ = try #require(try await lease.acquire(as: "replica-b"))
            await #expect(throws: NotLeading.self) {
                try await postgres.commitNotices([NoticeStoreContractTests.delivery(1, value: "e1")], at: NoticeStoreContractTests.now)
            }
            #expect(try await postgres.outboxBacklog(lane: .notice) == 0)
            #expect(try await postgres.noticeChats(at: NoticeStoreContractTests.now).first?.marks == [:])
        }
    }
}
