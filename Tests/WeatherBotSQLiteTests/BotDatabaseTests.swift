import BotClock
import Foundation
import GRDB
import TelegramBotAPI
import Testing
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotStoreSQL

@Suite struct BotDatabaseTests {
    func payload(_ text: String) -> Data { Data(text.utf8) }
    /// A reply of `text`: the store keeps its parameters as they are.
    func reply(_ text: String) -> BotRequest { .sendMessage(chatID: 1, text: text) }

    @Test func migratesAFreshFileAndOpensItAgain() async throws {
        let temporary = try TemporaryDatabase()
        let tables = try await temporary.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for table in ["chat", "inbox", "outbox", "messageTag", "noticeMark", "workerFact", "grdb_migrations"] {
            #expect(tables.contains(table))
        }
        _ = try temporary.reopen()
        let mode = try await temporary.database.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func repliesWaitingInTheOutboxGetTheBotAPIsKeyboardKeysWhenTheFileIsOpened() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        // A file of the version before, with a question and a card still waiting to be sent.
        let old = try DatabaseQueue(path: path)
        try BotDatabase.migrator.migrate(old, upTo: "v6: the message a chat's latest step answered")
        let question = #"{"send":{"text":"Город?","markup":{"forceReply":true,"selective":true,"inputFieldPlaceholder":"Город","replyTo":41}}}"#
        let card = #"{"edit":{"_0":{"id":{"_0":7}},"text":"inlineKeyboard","keyboard":{"inlineKeyboard":[[{"text":"Да","callbackData":"cy:1"}]]}}}"#
        let plain = #"{"answer":{"callbackQueryID":"q","showAlert":false}}"#
        try await old.write { db in
            for payload in [question, card, plain] {
                try db.execute(
                    sql: "INSERT INTO outbox (chatId, lane, payload, attempts, notBefore, createdAt) VALUES (1, 0, ?, 0, 0, 0)",
                    arguments: [Data(payload.utf8)])
            }
        }
        try BotDatabase.migrator.migrate(old, upTo: "v7: keyboards in the outbox under the Bot API's names")
        let payloads = try await old.read { db in try Data.fetchAll(db, sql: "SELECT payload FROM outbox ORDER BY id") }
        try old.close()
        let objects = try payloads.map { try #require(try JSONSerialization.jsonObject(with: $0) as? NSDictionary) }
        #expect(objects[0] == (try JSONSerialization.jsonObject(with: Data(
            #"{"send":{"text":"Город?","markup":{"force_reply":true,"selective":true,"input_field_placeholder":"Город","reply_to":41}}}"#.utf8)) as? NSDictionary))
        // Keys are renamed, never values: the text «inlineKeyboard» stays as it was.
        #expect(objects[1] == (try JSONSerialization.jsonObject(with: Data(
            #"{"edit":{"_0":{"id":{"_0":7}},"text":"inlineKeyboard","keyboard":{"inline_keyboard":[[{"text":"Да","callback_data":"cy:1"}]]}}}"#.utf8)) as? NSDictionary))
        #expect(payloads[2] == Data(plain.utf8))

        // Opened by this version, the same rows go on to become the Bot API calls that make them.
        let database = try BotDatabase.open(path: path)
        let requests = try database.outboxItems(lane: .interactive, from: .min, limit: 10).map(\.request)
        let expected: [BotRequest?] = [
            .sendMessage(chatID: 1, text: "Город?", replyMarkup: .forceReply(ForceReply(selective: true, inputFieldPlaceholder: "Город", replyTo: 41))),
            .editMessageText(
                chatID: 1, target: .id(7), text: "inlineKeyboard",
                replyMarkup: InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "Да", callbackData: "cy:1")]])),
            .answerCallbackQuery(id: "q"),
        ]
        #expect(requests == expected)
    }

    /// A v8 file opened by this version: its subscriptions come without the chart, its waiting
    /// replies without a photo, and both read as before.
    @Test func aFileOfTheVersionBeforeChartsKeepsItsForecastsAndReplies() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        let old = try DatabaseQueue(path: path)
        try BotDatabase.migrator.migrate(old, upTo: "v8: the outbox keeps Bot API calls")
        let reply = BotRequest.sendMessage(chatID: 5, text: "🗓 Прогноз на сегодня")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO subscription (chatId, place, timeZone, hour, minute, nextSendAt, isActive, createdAt)
                    VALUES (5, ?, 'Europe/Moscow', 8, 0, 0, 1, 0)
                    """,
                arguments: [String(decoding: try JSONEncoder().encode(Place(name: "Москва", latitude: 55.75, longitude: 37.62)), as: UTF8.self)])
            try db.execute(
                sql: "INSERT INTO outbox (chatId, lane, method, parameters, attempts, notBefore, createdAt) VALUES (5, 1, 'sendMessage', ?, 0, 0, 0)",
                arguments: [reply.parameters])
        }
        try old.close()

        let database = try BotDatabase.open(path: path)
        let subscription = try #require(try database.subscriptions(chatID: 5).first)
        #expect(subscription.place.name == "Москва" && subscription.hour == 8 && !subscription.withChart)
        let item = try #require(try database.outboxItems(lane: .bulk, from: .min, limit: 10).first)
        #expect(item.photo == nil && item.request == reply)
    }

    @Test func repliesWaitingInTheOutboxBecomeTheBotAPICallsThatMakeThemWhenTheFileIsOpened() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        // A file of the version before, with one reply of each kind waiting, and one unreadable.
        let old = try DatabaseQueue(path: path)
        try BotDatabase.migrator.migrate(old, upTo: "v7: keyboards in the outbox under the Bot API's names")
        let keyboard = #"{"inline_keyboard":[[{"text":"Да","callback_data":"cy:1"}]]}"#
        let stored = [
            #"{"send":{"text":"🔎 Определяем город…","tag":"locate:7"}}"#,
            #"{"send":{"text":"Город?","markup":{"force_reply":true,"selective":true,"reply_to":41}}}"#,
            #"{"edit":{"_0":{"tag":{"_0":"locate:7"}},"text":"Это ваш город?","keyboard":"# + keyboard + "}}",
            #"{"editKeyboard":{"_0":{"id":{"_0":12}}}}"#,
            #"{"answer":{"callbackQueryID":"q1","text":"⭐","showAlert":true}}"#,
            "not a reply",
        ]
        try await old.write { db in
            for (index, payload) in stored.enumerated() {
                try db.execute(
                    sql: "INSERT INTO outbox (chatId, lane, payload, attempts, notBefore, createdAt) VALUES (?, 1, ?, 2, 0, 0)",
                    arguments: [index == 4 ? 9 : -100, Data(payload.utf8)])
            }
        }
        try old.close()

        let database = try BotDatabase.open(path: path)
        let items = try database.outboxItems(lane: .bulk, from: .min, limit: 10)
        #expect(items.count == 6)
        #expect(items.allSatisfy { $0.attempts == 2 && $0.lane == .bulk })
        let requests = items.map(\.request)
        let expected: [BotRequest?] = [
            .sendMessage(chatID: -100, text: "🔎 Определяем город…", tag: "locate:7"),
            .sendMessage(chatID: -100, text: "Город?", replyMarkup: .forceReply(ForceReply(selective: true, replyTo: 41))),
            .editMessageText(
                chatID: -100, target: .tag("locate:7"), text: "Это ваш город?",
                replyMarkup: InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "Да", callbackData: "cy:1")]])),
            .editMessageReplyMarkup(chatID: -100, target: .id(12), replyMarkup: nil),
            .answerCallbackQuery(id: "q1", text: "⭐", showAlert: true),
            nil,
        ]
        #expect(requests == expected)
        let question = try #require(try JSONSerialization.jsonObject(with: items[1].parameters) as? [String: Any])
        #expect((question["reply_parameters"] as? [String: Any])?["message_id"] as? Int == 41)
    }

    @Test func theFileIsReadableByItsOwnerOnly() async throws {
        let temporary = try TemporaryDatabase()
        let attributes = try FileManager.default.attributesOfItem(atPath: temporary.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func theFileAndItsLogAreTheOwnersOnly() async throws {
        let temporary = try TemporaryDatabase()
        for file in [temporary.path, temporary.path + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(file)")
        }
    }

    @Test func itemsSetAsideLongerAgoThanTheyAreKeptAreForgottenWithTheNextOne() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let updates = (Int64(1)...3).map { (updateID: $0, chatID: Int64?(4), payload: Data(#"{"update_id":\#($0)}"#.utf8)) }
        let items = try await database.receive(updates, lastUpdateID: 3, rebasing: false, at: start)
        let apology = BotRequest.sendMessage(chatID: 4, text: "Не удалось обработать сообщение")
        _ = try await database.setAside(items[0], attempts: 10, error: "boom", apology: apology, at: start)
        _ = try await database.setAside(items[1], attempts: 10, error: "boom", apology: apology, at: start.addingTimeInterval(SetAside.keptFor / 2))
        func kept() async throws -> [Int64] {
            try await database.writer.read { db in try Int64.fetchAll(db, sql: "SELECT seq FROM inboxFailure ORDER BY seq") }
        }
        #expect(try await kept() == [items[0].seq, items[1].seq].compactMap { $0 })
        _ = try await database.setAside(items[2], attempts: 10, error: "boom", apology: apology, at: start.addingTimeInterval(SetAside.keptFor + 60))
        #expect(try await kept() == [items[1].seq, items[2].seq].compactMap { $0 }, "the oldest is forgotten, the others are kept")
    }

    @Test func aNewFileIsToldFromOneOpenedAgain() throws {
        let temporary = try TemporaryDatabase()
        #expect(temporary.database.isNew)
        #expect(try !temporary.reopen().isNew)
    }

    @Test func theWatchOnTheFileStopsWhenItIsDeletedOrReplaced() async throws {
        let temporary = try TemporaryDatabase()
        // Left as it is, the watch goes on.
        let database = temporary.database
        let watching = Task { try await database.watchFile(every: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(200))
        watching.cancel()
        await #expect(throws: CancellationError.self) { try await watching.value }

        // Another database of this bot's renamed over the path, as a careless restore does.
        let other = try TemporaryDatabase()
        #expect(rename(other.path, temporary.path) == 0)
        await #expect(throws: BotDatabase.FileReplaced(path: temporary.path, deleted: false)) {
            try await temporary.database.watchFile(every: .milliseconds(20))
        }
        // Deleted.
        let deleted = try TemporaryDatabase()
        try FileManager.default.removeItem(atPath: deleted.path)
        await #expect(throws: BotDatabase.FileReplaced(path: deleted.path, deleted: true)) {
            try await deleted.database.watchFile(every: .milliseconds(20))
        }
    }

    @Test func theFileIsMarkedAsThisBotsAndAnotherProgramsIsRefusedUntouched() async throws {
        let temporary = try TemporaryDatabase()
        let mark = try await temporary.database.writer.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
        #expect(mark == BotDatabase.applicationID)

        // Another program's database renamed over the path: refused, and left as it was.
        let other = temporary.folder.appendingPathComponent("other.sqlite").path
        let queue = try DatabaseQueue(path: other)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')") }
        try queue.close()
        #expect(throws: BotDatabase.NotThisBotsDatabase.self) { try BotDatabase.open(path: other) }
        let check = try DatabaseQueue(path: other)
        let tables = try await check.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(tables == ["notes"])
        #expect(try await check.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") } == 0)

        // One with another program's mark, whatever its tables.
        let marked = temporary.folder.appendingPathComponent("marked.sqlite").path
        let markedQueue = try DatabaseQueue(path: marked)
        try await markedQueue.write { db in try db.execute(sql: "PRAGMA application_id = 1234") }
        try markedQueue.close()
        #expect(throws: BotDatabase.NotThisBotsDatabase.self) { try BotDatabase.open(path: marked) }
    }

    @Test func aFileOfThisBotWrittenBeforeTheMarkIsMarkedAndOpens() async throws {
        let temporary = try TemporaryDatabase()
        try await temporary.database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 0") }
        let reopened = try temporary.reopen()
        let mark = try await reopened.writer.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
        #expect(mark == BotDatabase.applicationID)
    }

    @Test func theWriterSyncsEachCommitInFullInWALMode() async throws {
        let temporary = try TemporaryDatabase()
        let (synchronous, journal) = try await temporary.database.writer.write { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        // 2 is FULL: a commit survives power loss once it returned, as confirming updates assumes.
        #expect(synchronous == 2)
        #expect(journal == "wal")
    }

    @Test func receivingCommitsTheInboxAndTheOffsetTogetherAndSkipsRedelivery() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        #expect(try database.lastUpdateID() == nil)
        let items = try await database.receive(
            [(updateID: 100, chatID: 1, payload: payload("a")), (updateID: 101, chatID: nil, payload: payload("b")),
             (updateID: 102, chatID: 2, payload: payload("c"))],
            lastUpdateID: 102)
        #expect(items.map(\.updateID) == [100, 102])
        #expect(try database.lastUpdateID() == 102)
        #expect(try database.lastSuccessfulPoll() != nil)

        // The same batch again (Telegram re-sent it): nothing new.
        let again = try await database.receive([(updateID: 102, chatID: 2, payload: payload("c"))], lastUpdateID: 102)
        #expect(again.isEmpty)
        #expect(try database.pendingInbox().count == 2)
        #expect(try temporary.reopen().lastUpdateID() == 102)
    }

    @Test func commitStoresStateRemovesTheItemAndQueuesRepliesInOneGo() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let item = try #require(try await database.receive([(updateID: 1, chatID: 7, payload: payload("u"))], lastUpdateID: 1).first)
        let place = Place(name: "Saransk", localNames: ["ru": "Саранск"], region: "Mordovia", country: "RU", latitude: 54.18, longitude: 45.17, timeZone: "Europe/Moscow")
        let chat = ChatRecord(id: 7, language: .ru, state: .idle, currentPlace: place, questionSeq: 3)
        let followUps = try await database.commitStep(chat: chat, handled: item.seq!, replies: [reply("r1"), reply("r2")], followUps: [payload("f")])

        let reopened = try temporary.reopen()
        let stored = try #require(try reopened.chat(7))
        #expect(stored.currentPlace == place)
        #expect(stored.questionSeq == 3)
        #expect(stored.state == .idle)
        #expect(try reopened.pendingInbox().map(\.payload) == [payload("f")])
        #expect(followUps.followUps.map(\.kind) == [.followUp])
        #expect(try reopened.outboxBacklog() == 2)
        let entries = try reopened.outboxItems(lane: .interactive, from: .min, limit: 10)
        #expect(entries.map(\.chatID) == [7, 7])
        #expect(entries.map(\.parameters) == [reply("r1").parameters, reply("r2").parameters])
    }

    @Test func aChatRowIsWrittenAndRewrittenWithEveryField() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try await database.receive(
            [(updateID: 1, chatID: 4, payload: payload("")), (updateID: 2, chatID: 4, payload: payload(""))], lastUpdateID: 2)
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        var chat = ChatRecord(id: 4, language: .en, state: .locating, createdAt: created)
        let paris = Place(name: "Paris", region: "Ile-de-France", country: "FR", latitude: 48.85, longitude: 2.35)
        _ = chat.remember(paris)
        try await database.commitStep(chat: chat, handled: items[0].seq!, replies: [], followUps: [])
        #expect(try database.chat(4)?.recentPlaces == [RecentPlace(id: 1, place: paris)])
        #expect(try database.chat(4)?.currentPlace == nil)

        chat.currentPlace = paris
        chat.state = .awaitingCityName(.setCity)
        chat.isActive = false
        try await database.commitStep(chat: chat, handled: items[1].seq!, replies: [], followUps: [])
        let stored = try #require(try database.chat(4))
        #expect(stored.currentPlace == paris)
        #expect(stored.state == .awaitingCityName(.setCity))
        #expect(stored.isActive == false)
        #expect(stored.placeSeq == 1)
        #expect(stored.language == .en)
        #expect(stored.createdAt == created)
        // The row holds what the cache holds (the file keeps times to the millisecond).
        var fromFile = try #require(try temporary.reopen().chat(4))
        #expect(abs(fromFile.updatedAt.timeIntervalSince(stored.updatedAt)) < 0.001)
        fromFile.updatedAt = stored.updatedAt
        #expect(fromFile == stored)
    }

    @Test func aStepThatKeepsThePlacesStillWritesTheRestAndARemovedRowComesBack() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try await database.receive((1...3).map { (updateID: Int64($0), chatID: Int64?(4), payload: payload("")) }, lastUpdateID: 3)
        let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], country: "RU", latitude: 55.79, longitude: 49.12)
        var chat = ChatRecord(id: 4, language: .ru, state: .locating, currentPlace: kazan)
        _ = chat.remember(kazan)
        try await database.commitStep(chat: chat, handled: items[0].seq!, replies: [], followUps: [])

        // Same places: the other columns still change.
        chat.state = .awaitingCityName(.setCity)
        chat.questionSeq = 5
        chat.language = .en
        try await database.commitStep(chat: chat, handled: items[1].seq!, replies: [], followUps: [])
        var stored = try #require(try temporary.reopen().chat(4))
        #expect(stored.state == .awaitingCityName(.setCity))
        #expect(stored.questionSeq == 5)
        #expect(stored.language == .en)
        #expect(stored.currentPlace == kazan)
        #expect(stored.recentPlaces == [RecentPlace(id: 1, place: kazan)])

        // The step's own change removed the row (a reset): the record is written whole again.
        try await database.commitStep(chat: chat, handled: items[2].seq!, changes: [.forgetChat], replies: [], followUps: [])
        stored = try #require(try temporary.reopen().chat(4))
        #expect(stored.currentPlace == kazan)
        #expect(stored.recentPlaces == [RecentPlace(id: 1, place: kazan)])
        #expect(stored.state == .awaitingCityName(.setCity))
    }

    @Test func eachLaneIsReadInIdOrderFromAnIdWhateverTheOtherHolds() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try await database.receive(
            [(updateID: 1, chatID: 1, payload: payload("")), (updateID: 2, chatID: 2, payload: payload(""))], lastUpdateID: 2)
        try await database.commitStep(chat: ChatRecord(id: 1, language: .ru, state: .idle), handled: items[0].seq!, replies: [reply("1a"), reply("1b")], followUps: [])
        // A broadcast committed between the two chats' steps.
        try await database.writer.write { db in
            for chat in Int64(100)..<300 {
                _ = try BotDatabase.run(BotDatabase.sql.insertChats([ChatRecord(id: chat, language: .ru, state: .idle)]), db)
                try Subscription(chatID: chat, place: Place(name: "X", latitude: 1, longitude: 2), timeZone: "UTC", hour: 8, minute: 0, nextSendAt: .distantPast).insert(db)
            }
        }
        let due = try database.dueSubscriptions(at: Date())
        let ids = try await database.commitDeliveries(due.map {
            DailyDelivery(subscriptionID: $0.subscription.id!, chatID: $0.subscription.chatID, day: "2026-11-23", requests: [reply("f")], nextSendAt: .distantFuture)
        })
        #expect(ids.joined().count == 200)
        try await database.commitStep(chat: ChatRecord(id: 2, language: .ru, state: .idle), handled: items[1].seq!, replies: [reply("2a")], followUps: [])

        let first = try database.outboxItems(lane: .interactive, from: .min, limit: 2)
        #expect(first.map(\.chatID) == [1, 1])
        let rest = try database.outboxItems(lane: .interactive, from: first[1].id! + 1, limit: 10)
        #expect(rest.map(\.chatID) == [2])
        #expect(rest.map(\.parameters) == [reply("2a").parameters])
        let bulk = try database.outboxItems(lane: .bulk, from: .min, limit: 1_000)
        #expect(bulk.count == 200 && bulk.allSatisfy { $0.lane == .bulk && $0.parameters == reply("f").parameters })
        #expect(bulk.map(\.id) == ids.joined().map { $0 })
        #expect(try database.outboxBacklog(lane: .bulk) == 200)
        #expect(try database.outboxBacklog(lane: .interactive) == 3)

        try await database.completeOutbox(id: first[0].id!, chatID: 1, tag: "locate-1", messageID: 555)
        #expect(try database.messageID(chatID: 1, tag: "locate-1") == 555)
        #expect(try database.messageID(chatID: 2, tag: "locate-1") == nil)
        #expect(try database.outboxItems(lane: .interactive, from: .min, limit: 10).map(\.id) == [first[1].id, rest[0].id])

        try await database.retryOutbox(id: first[1].id!, chatID: 1, notBefore: Date().addingTimeInterval(60))
        let retried = try #require(try database.outboxItems(lane: .interactive, from: .min, limit: 10).first)
        #expect(retried.attempts == 1)
        #expect(retried.notBefore > Date())
    }

    @Test func deliveredRepliesCompletedTogetherAllLeaveTheOutbox() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        for chat in Int64(1)...50 {
            let item = try #require(try await database.receive([(updateID: chat, chatID: chat, payload: payload(""))], lastUpdateID: chat).first)
            try await database.commitStep(chat: ChatRecord(id: chat, language: .ru, state: .idle), handled: item.seq!, replies: [reply("r")], followUps: [])
        }
        let entries = try database.outboxItems(lane: .interactive, from: .min, limit: 100)
        try await withThrowingTaskGroup { group in
            for entry in entries {
                group.addTask { try await database.completeOutbox(id: entry.id!, chatID: entry.chatID, tag: "t", messageID: Int(entry.chatID) * 10) }
            }
            try await group.waitForAll()
        }
        #expect(try database.outboxBacklog() == 0)
        #expect(try database.messageID(chatID: 17, tag: "t") == 170)
    }

    @Test func aBlockedChatLosesItsRepliesAndIsMarkedInactive() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try await database.receive([(updateID: 1, chatID: 9, payload: payload(""))], lastUpdateID: 1)
        try await database.commitStep(chat: ChatRecord(id: 9, language: .en, state: .idle), handled: items[0].seq!, replies: [reply("x"), reply("y")], followUps: [])
        try await database.deactivateChat(9)
        #expect(try database.outboxBacklog() == 0)
        #expect(try database.chat(9)?.isActive == false)
    }

    @Test func queriesOfOneChatNeverTouchAnother() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try await database.receive(
            [(updateID: 1, chatID: 1, payload: payload("")), (updateID: 2, chatID: 2, payload: payload(""))], lastUpdateID: 2)
        try await database.commitStep(chat: ChatRecord(id: 1, language: .ru, state: .idle), handled: items[0].seq!, replies: [reply("mine")], followUps: [])
        let other = try #require(try database.outboxItems(lane: .interactive, from: .min, limit: 10).first?.id)
        // Chat 2 naming chat 1's reply or inbox item changes nothing.
        try await database.completeOutbox(id: other, chatID: 2)
        try await database.retryOutbox(id: other, chatID: 2, notBefore: .distantFuture)
        try await database.discardInboxItem(seq: items[1].seq! - 1, chatID: 2)
        #expect(try database.outboxBacklog() == 1)
        let mine = try #require(try database.outboxItems(lane: .interactive, from: .min, limit: 10).first)
        #expect(mine.attempts == 0)
        #expect(mine.parameters == reply("mine").parameters)
        #expect(try database.pendingInbox().first { $0.chatID == 2 }?.seq == items[1].seq)
    }
}

@Suite struct BotStatusTests {
    @Test func statusIsReadWithoutWritingAnything() async throws {
        let temporary = try TemporaryDatabase()
        var status = try BotStatus.read(path: temporary.path)
        #expect(status.lastSuccessfulPoll == nil)
        let polledAt = Date(timeIntervalSince1970: 1_795_000_000)
        let items = try await temporary.database.receive([(updateID: 5, chatID: 1, payload: Data())], lastUpdateID: 5, at: polledAt)
        try await temporary.database.commitStep(chat: ChatRecord(id: 1, language: .ru, state: .idle), handled: items[0].seq!, replies: [.sendMessage(chatID: 1, text: "r")], followUps: [Data("f".utf8)])
        status = try BotStatus.read(path: temporary.path)
        #expect(status.lastSuccessfulPoll == polledAt)
        #expect(status.outboxBacklog == 1)
        #expect(status.lane(.interactive).backlog == 1)
        #expect(status.lane(.interactive).oldest.map { abs($0.timeIntervalSinceNow) < 60 } == true)
        #expect(status.lane(.bulk) == BotStatus.Lane())
        #expect(status.inboxBacklog == 1)
        #expect(status.chats == 1)
        #expect(status.subscriptions == 0)
        #expect(status.openWeatherCallsToday == [:])
        // Today's OpenWeather calls as stored; yesterday's are not today's.
        _ = try await temporary.database.addOpenWeatherCalls(["onecall": 9], onDay: CivilDate.utcDay(of: Date()) - 1)
        _ = try await temporary.database.addOpenWeatherCalls(["onecall": 17, "geocode": 20], onDay: CivilDate.utcDay(of: Date()))
        #expect(try BotStatus.read(path: temporary.path).openWeatherCallsToday == ["onecall": 17, "geocode": 20])
    }
}
