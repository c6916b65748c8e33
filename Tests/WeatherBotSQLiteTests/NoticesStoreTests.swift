import Foundation
import GRDB
import TelegramBotAPI
import Testing
@testable import WeatherBotSQLite
import WeatherBotStore

/// Notices in the SQLite file: the chat's settings through both ways a chat row is written, an
/// older file, a value that does not read, and the status.
@Suite struct NoticesStoreTests {
    static let moscow = Place(name: "Москва", country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
    static let night = QuietHours(stored: "23:00-07:00")!

    func step(_ database: BotDatabase, _ chat: ChatRecord, update: Int64, changes: [ChatChange] = []) async throws {
        let item = try #require(try await database.receive([(updateID: update, chatID: chat.id, payload: Data())], lastUpdateID: update).first)
        try await database.commitStep(chat: chat, handled: try #require(item.seq), changes: changes, replies: [], followUps: [])
    }

    /// Most steps keep the chat's places, and its row is then written by a shorter statement
    /// (`placesUnchanged`): the settings go with it too.
    @Test func noticeSettingsSurviveEveryWayAChatRowIsWrittenAndAReopen() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        var chat = ChatRecord(id: 5, language: .ru, state: .idle, currentPlace: Self.moscow)
        // The first write of the row: the whole record.
        chat.notices = NoticeSettings(rain: true, warnings: false, quiet: .hours(Self.night), setBy: 99)
        try await step(database, chat, update: 1)
        #expect(try temporary.reopen().chat(5)?.notices == chat.notices)

        // The same places, the settings changed: the short statement.
        chat.notices = NoticeSettings(rain: true, warnings: true, quiet: .off, setBy: nil)
        try await step(database, chat, update: 2)
        #expect(try temporary.reopen().chat(5)?.notices == chat.notices)
        let stored = try #require(try await database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT noticeRain, noticeWarnings, quietHours, noticesSetBy FROM chat WHERE id = 5")
        })
        #expect((stored["noticeRain"] as Bool?) == true && (stored["noticeWarnings"] as Bool?) == true)
        #expect((stored["quietHours"] as String?) == "off" && (stored["noticesSetBy"] as Int64?) == nil)

        chat.notices.quiet = .hours(Self.night)
        try await step(database, chat, update: 3)
        #expect(try await database.writer.read { db in try String.fetchOne(db, sql: "SELECT quietHours FROM chat WHERE id = 5") } == "23:00-07:00")

        // Off again, through the short statement.
        chat.notices = .off
        try await step(database, chat, update: 4)
        #expect(try temporary.reopen().chat(5)?.notices == .off)
        #expect(try await database.writer.read { db in try String.fetchOne(db, sql: "SELECT quietHours FROM chat WHERE id = 5") } == nil)

        // Written as a record (a restore, the benchmark's seed).
        let restored = ChatRecord(id: 6, currentPlace: Self.moscow, notices: NoticeSettings(warnings: true, quiet: .hours(.night), setBy: 7))
        try await database.insert(chats: [restored])
        #expect(try temporary.reopen().chat(6)?.notices == restored.notices)
    }

    @Test func quietHoursThatDoNotReadAreTheDefaultAndTheChatStillReads() async throws {
        let temporary = try TemporaryDatabase()
        try await step(temporary.database, ChatRecord(id: 5, currentPlace: Self.moscow, notices: NoticeSettings(rain: true, quiet: .off)), update: 1)
        try await temporary.database.writer.write { db in
            try db.execute(sql: "UPDATE chat SET quietHours = 'after lunch' WHERE id = 5")
        }
        let database = try temporary.reopen()
        #expect(try database.chat(5)?.notices == NoticeSettings(rain: true, quiet: nil))
        #expect(try await database.noticeChats(at: Date()).map(\.settings) == [NoticeSettings(rain: true, quiet: nil)])
    }

    /// A file of the version before notices: its chats open with notices off, its waiting replies
    /// without a deadline, and its status, read before the worker migrates it, counts none.
    @Test func aFileFromBeforeNoticesOpensWithEveryChatOff() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        let old = try DatabaseQueue(path: path)
        try BotDatabase.migrator.migrate(old, upTo: "v10: updates posted to the webhook")
        let place = String(decoding: try JSONEncoder().encode(Self.moscow), as: UTF8.self)
        let reply = BotRequest.sendMessage(chatID: 5, text: "🗓")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO chat (id, language, state, currentPlace, questionSeq, isActive, createdAt, updatedAt)
                    VALUES (5, 'ru', ?, ?, 3, 1, '2026-11-01 10:00:00.000', '2026-11-01 10:00:00.000')
                    """, arguments: [ChatState.idle.stored, place])
            try db.execute(
                sql: "INSERT INTO outbox (chatId, lane, method, parameters, attempts, notBefore, createdAt) VALUES (5, 1, 'sendMessage', ?, 0, 0, 0)",
                arguments: [reply.parameters])
        }
        try old.close()
        #expect(try BotStatus.read(path: path).noticeChats == 0)

        let database = try BotDatabase.open(path: path)
        let chat = try #require(try database.chat(5))
        #expect(chat.notices == .off && chat.currentPlace == Self.moscow && chat.questionSeq == 3)
        let waiting = try #require(try database.outboxItems(lane: .bulk, from: .min, limit: 10).first)
        #expect(waiting.deadline == nil && waiting.request == reply)
        #expect(try await database.noticeChats(at: Date()).isEmpty)
        #expect(try BotStatus.read(path: path).noticeChats == 0)
    }

    /// A file of the version before pollen notices: its chats open with pollen off and the rest as
    /// they were, and the checker's index reads pollen too. The status reads none before the
    /// worker migrates it, as before notices.
    @Test func aFileFromBeforePollenOpensWithPollenOffAndTheRestKept() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        let old = try DatabaseQueue(path: path)
        try BotDatabase.migrator.migrate(old, upTo: "v13: each place cell's lowest and highest temperature of the last days")
        let place = String(decoding: try JSONEncoder().encode(Self.moscow), as: UTF8.self)
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO chat (id, language, state, currentPlace, questionSeq, isActive, createdAt, updatedAt, noticeRain, quietHours)
                    VALUES (5, 'ru', ?, ?, 3, 1, '2026-11-01 10:00:00.000', '2026-11-01 10:00:00.000', 1, '23:00-07:00')
                    """, arguments: [ChatState.idle.stored, place])
        }
        try old.close()
        #expect(try BotStatus.read(path: path).noticeChats == 0)

        let database = try BotDatabase.open(path: path)
        #expect(try database.chat(5)?.notices == NoticeSettings(rain: true, pollen: false, quiet: .hours(Self.night)))
        #expect(try await database.noticeChats(at: Date()).map(\.chatID) == [5])
        let index = try await database.writer.read { db in try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'chat_notices'") }
        #expect(index?.contains("noticePollen") == true, "\(index ?? "no index")")
        #expect(try BotStatus.read(path: path).noticeChats == 1)

        // Pollen alone on is a chat the checker reads, through the short statement too.
        var chat = try #require(try database.chat(5))
        chat.notices = NoticeSettings(pollen: true)
        try await step(database, chat, update: 1)
        #expect(try await database.writer.read { db in try Bool.fetchOne(db, sql: "SELECT noticePollen FROM chat WHERE id = 5") } == true)
        #expect(try await database.noticeChats(at: Date()).map(\.settings) == [NoticeSettings(pollen: true)])
    }

    @Test func theStatusCountsActiveChatsWithACityAndANoticeOn() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        try await step(database, ChatRecord(id: 1, currentPlace: Self.moscow, notices: NoticeSettings(rain: true)), update: 1)
        try await step(database, ChatRecord(id: 2, currentPlace: Self.moscow, notices: NoticeSettings(warnings: true)), update: 2)
        try await step(database, ChatRecord(id: 3, currentPlace: nil, notices: NoticeSettings(rain: true)), update: 3)
        try await step(database, ChatRecord(id: 4, currentPlace: Self.moscow), update: 4)
        try await step(database, ChatRecord(id: 5, currentPlace: Self.moscow, notices: NoticeSettings(rain: true)), update: 5)
        try await database.deactivateChat(5)
        let status = try BotStatus.read(path: temporary.path)
        #expect(status.noticeChats == 2)
        #expect(status.chats == 5)
    }

    /// What moving to another engine copies holds the settings, the marks and the deadlines.
    @Test func theFilesContentsHoldTheSettingsTheMarksAndTheDeadlines() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let settings = NoticeSettings(rain: true, quiet: .hours(Self.night), setBy: 3)
        try await step(database, ChatRecord(id: 1, currentPlace: Self.moscow, notices: settings), update: 1)
        let mark = NoticeMark(key: "rain", value: "e1", expiresAt: now.addingTimeInterval(3_600))
        let ids = try await database.commitNotices(
            [NoticeDelivery(chatID: 1, mark: mark, requests: [.sendMessage(chatID: 1, text: "☔")], deadline: now.addingTimeInterval(1_200))], at: now)
        #expect(ids.map(\.count) == [1])

        let contents = try StoreContents(readingFileAt: temporary.path)
        #expect(contents.chats.map(\.notices) == [settings])
        #expect(contents.noticeMarks == [ChatNoticeMark(chatID: 1, mark: mark)])
        #expect(contents.rowCounts["noticeMark"] == 1)
        #expect(contents.outbox.map(\.lane) == [.notice] && contents.outbox.map(\.deadline) == [now.addingTimeInterval(1_200)])
    }

    /// The checker reads every chat with a notice on each round: a hundred thousand chats, most
    /// of them in a few cities, and their marks, in two statements.
    @Test func aHundredThousandChatsAreReadForTheCheckerAtOnce() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let cities = (0..<50).map { Place(name: "City \($0)", latitude: Double($0), longitude: Double($0)) }
        let chats = (Int64(1)...100_000).map { id in
            ChatRecord(
                id: id, currentPlace: cities[Int(id) % cities.count], createdAt: now, updatedAt: now,
                notices: id % 4 == 0 ? .off : NoticeSettings(rain: true, warnings: id % 2 == 0))
        }
        try await database.insert(chats: chats)
        try await database.writer.write { db in
            for id in stride(from: Int64(1), through: 100_000, by: 3) {
                try db.execute(
                    sql: "INSERT INTO noticeMark (chatId, key, value, expiresAt) VALUES (?, 'rain', 'e1', ?)",
                    arguments: [id, now.addingTimeInterval(id % 2 == 0 ? 600 : -600)])
            }
        }
        let started = ContinuousClock.now
        let checked = try await database.noticeChats(at: now)
        let took = ContinuousClock.now - started
        #expect(checked.count == 75_000)
        #expect(checked.map(\.chatID) == checked.map(\.chatID).sorted())
        #expect(checked.filter { !$0.marks.isEmpty }.allSatisfy { $0.chatID % 3 == 1 && $0.chatID % 2 == 0 })
        #expect(checked.first { $0.chatID == 4 } == nil && checked.first { $0.chatID == 10 }?.marks == ["rain": "e1"])
        // Seconds would mean a statement per chat, or a city decoded per chat.
        #expect(took < .seconds(5), "\(took)")
    }
}
