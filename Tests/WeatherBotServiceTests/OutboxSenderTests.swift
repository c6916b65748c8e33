import BotClock
import Foundation
import GRDB
import HTTPTransport
import Logging
import ServiceLifecycle
import TelegramBotAPI
import Testing
import WeatherBot
@testable import WeatherBotService
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotStoreSQL
import WeatherBotTesting

extension LoopbackTests {
    /// The outbox sender against a loopback Bot API that fails the way Telegram does.
    @Suite struct OutboxSenderTests {
        let chatID: Int64 = 42

        /// A database with replies committed for one chat, a fake Telegram, and a sender between them.
        final class Setup {
            let folder: TemporaryFolder
            let database: BotDatabase
            let telegram: FakeTelegram
            let sender: OutboxSender

            init(
                messagesPerSecond: Double = 30, window: Int = 10_000, completionLinger: Duration = .milliseconds(250),
                clock: any WallClock = SystemWallClock()
            ) async throws {
                folder = try TemporaryFolder()
                database = try BotDatabase.open(path: folder.databasePath)
                telegram = try await FakeTelegram()
                var logger = Logger(label: "weatherbot.tests.outbox")
                logger.logLevel = .critical
                let client = TelegramClient(token: FakeTelegram.token, apiURL: telegram.url, transport: NIOHTTPTransport(), requestTimeout: .seconds(15))
                sender = OutboxSender(
                    database: database, client: client, logger: logger, clock: clock,
                    configuration: .init(messagesPerSecond: messagesPerSecond, window: window, completionLinger: completionLinger))
            }

            func commit(_ replies: [Reply], chat: Int64, at now: Date = Date()) async throws {
                let item = try await database.receive([(updateID: Int64.random(in: 1...Int64.max / 2), chatID: chat, payload: Data())], lastUpdateID: 0).first
                try await database.commitStep(
                    chat: database.chat(chat) ?? ChatRecord(id: chat, language: .ru, state: .idle), handled: item?.seq ?? -1,
                    replies: replies.map { $0.request(chatID: chat) }, followUps: [], at: now)
            }

            /// Commits `replies` as the chat workers do on a quiet day, with the update's receipt
            /// (``ReceivesSteps``), handing them over to the sender in memory.
            @discardableResult
            func commitHandingOver(_ replies: [Reply], chat: Int64, changes: [ChatChange] = []) async throws -> [Int64] {
                let requests = replies.map { $0.request(chatID: chat) }
                let updateID = Int64.random(in: 1...Int64.max / 2)
                let step = ReceivedStep(
                    updateID: updateID, chat: try database.chat(chat) ?? ChatRecord(id: chat, language: .ru, state: .idle), changes: changes,
                    replies: requests, followUps: [])
                let receipt = try await database.receive([(updateID: updateID, chatID: chat, payload: Data())], steps: [step], lastUpdateID: 0)
                let written = try #require(receipt.steps[updateID])
                sender.committed(
                    zip(written.replyIDs, requests).map { QueuedReply(id: $0, chatID: chat, lane: .interactive, request: $1) },
                    emptying: changes.contains(.forgetChat) ? chat : nil)
                return written.replyIDs
            }

            /// Makes the stored copy of every waiting reply one the sender cannot make.
            func spoilStoredReplies() throws {
                try database.writer.write { try $0.execute(sql: "UPDATE outbox SET method = 'sendSomethingElse'") }
            }

            /// Delivers until the outbox is empty (or `timeout`).
            func drain(timeout: Duration = .seconds(15)) async throws {
                let running = start()
                defer { running.cancel() }
                try await waitUntil(timeout: timeout, "an empty outbox") { try database.outboxBacklog() == 0 }
            }

            /// Runs the sender until the task is cancelled.
            func start() -> Task<Void, any Error> {
                let sender = sender
                return Task { try await sender.run() }
            }

            /// Queues `count` daily forecasts for chats from 100,000 on, as the scheduler does.
            func commitForecasts(_ count: Int) async throws {
                try await database.writer.write { db in
                    for chat in Int64(100_000)..<Int64(100_000 + count) {
                        _ = try BotDatabase.run(BotDatabase.sql.insertChats([ChatRecord(id: chat, language: .ru, state: .idle)]), db)
                        try Subscription(
                            chatID: chat, place: Place(name: "X", latitude: 1, longitude: 2), timeZone: "UTC", hour: 8, minute: 0, nextSendAt: .distantPast
                        ).insert(db)
                    }
                }
                try await database.commitDeliveries(try database.dueSubscriptions(at: Date(), limit: count).map {
                    DailyDelivery(
                        subscriptionID: $0.subscription.id!, chatID: $0.subscription.chatID, day: "2026-11-23",
                        requests: [.sendMessage(chatID: $0.subscription.chatID, text: "🗓 Прогноз на сегодня")], nextSendAt: .distantFuture)
                })
            }

            func fail(_ method: String, with responses: [LoopbackResponse]) {
                telegram.state.withLock { $0.failures[method, default: []] += responses }
            }
        }

        static func error(_ code: Int, _ description: String, retryAfter: Int? = nil) -> LoopbackResponse {
            var body: [String: Any] = ["ok": false, "error_code": code, "description": description]
            if let retryAfter { body["parameters"] = ["retry_after": retryAfter] }
            return .json(body, status: code)
        }

        @Test func aRateLimitIsWaitedOutAndTheMessageDeliveredOnce() async throws {
            let setup = try await Setup()
            setup.fail("sendMessage", with: [Self.error(429, "Too Many Requests: retry after 1", retryAfter: 1)])
            try await setup.commit([.send(text: "раз"), .send(text: "два")], chat: chatID)
            let started = ContinuousClock.now
            try await setup.drain()
            #expect(ContinuousClock.now - started >= .seconds(1))
            let texts = setup.telegram.state.withLock { $0.sent.map(\.text) }
            #expect(texts == ["раз", "два"])  // once each, in order
            await setup.telegram.server.shutdown()
        }

        @Test func serverErrorsAreRetriedWithoutDuplicates() async throws {
            let setup = try await Setup()
            setup.fail("sendMessage", with: [Self.error(502, "Bad Gateway"), Self.error(500, "Internal Server Error")])
            try await setup.commit([.send(text: "после сбоя")], chat: chatID)
            try await setup.drain(timeout: .seconds(20))
            #expect(setup.telegram.state.withLock { $0.sent.map(\.text) } == ["после сбоя"])
            await setup.telegram.server.shutdown()
        }

        @Test func aBlockedChatIsMarkedInactiveItsRepliesDroppedAndForecastsPaused() async throws {
            let setup = try await Setup()
            try await setup.commit([], chat: chatID)
            let item = try await setup.database.receive([(updateID: 77, chatID: chatID, payload: Data())], lastUpdateID: 77)[0]
            try await setup.database.commitStep(
                chat: try #require(try setup.database.chat(chatID)), handled: item.seq!,
                changes: [.subscribe(Subscription(chatID: chatID, place: Place(name: "X", latitude: 1, longitude: 2), timeZone: "UTC+00:00", hour: 8, minute: 0, nextSendAt: .distantPast), limit: 5)],
                replies: [], followUps: [])
            setup.fail("sendMessage", with: [Self.error(403, "Forbidden: bot was blocked by the user")])
            try await setup.commit([.send(text: "1"), .send(text: "2"), .send(text: "3")], chat: chatID)
            try await setup.drain()
            try await setup.commit([.send(text: "другому")], chat: 7)
            try await setup.drain()
            #expect(setup.telegram.state.withLock { $0.sent.map(\.text) } == ["другому"])
            #expect(try setup.database.chat(chatID)?.isActive == false)
            #expect(try setup.database.dueSubscriptions(at: Date()).isEmpty)
            await setup.telegram.server.shutdown()
        }

        @Test func repliesHandedOverAreSentWithoutReadingThemBack() async throws {
            let setup = try await Setup()
            let running = setup.start()
            defer { running.cancel() }
            try await waitUntil("the table read") { setup.sender.hasReadTheTable }
            try await setup.commitHandingOver([.send(text: "раз"), .send(text: "два")], chat: chatID)
            // Sent from memory: the stored copies are not read (they would be dropped as unknown calls).
            try setup.spoilStoredReplies()
            try await waitUntil("an empty outbox") { try setup.database.outboxBacklog() == 0 }
            #expect(setup.telegram.state.withLock { $0.sent.map(\.text) } == ["раз", "два"])
            #expect(setup.sender.held(.interactive) == 0)
            await setup.telegram.server.shutdown()
        }

        @Test func aStoredCallOfAMethodTheSenderDoesNotMakeIsDroppedAndTheRestSent() async throws {
            let setup = try await Setup()
            try await setup.commit([.send(text: "раз"), .send(text: "два")], chat: chatID)
            try await setup.database.writer.write { db in
                try db.execute(sql: "UPDATE outbox SET method = 'sendSomethingElse' WHERE id = (SELECT MIN(id) FROM outbox)")
            }
            try await setup.drain()
            #expect(setup.telegram.state.withLock { $0.sent.map(\.text) } == ["два"])
            await setup.telegram.server.shutdown()
        }

        /// The wall clock stamps what the table keeps; pacing and retries in memory run on the
        /// monotonic clock. A sender whose wall clock stands still (years behind the machine's)
        /// still paces a chat past its burst and retries a failed message.
        @Test func aChatIsPacedAndRetriedInRealTimeWhateverTheWallClockSays() async throws {
            let clock = ManualClock(Date(timeIntervalSince1970: 1_600_000_000))
            let setup = try await Setup(clock: clock)
            setup.fail("sendMessage", with: [Self.error(502, "Bad Gateway")])
            let texts = (1...5).map { "сообщение \($0)" }
            try await setup.commit(texts.map { .send(text: $0) }, chat: chatID, at: clock.date)
            try await setup.drain(timeout: .seconds(20))
            #expect(setup.telegram.state.withLock { $0.sent.map(\.text) } == texts)
            await setup.telegram.server.shutdown()
        }

        @Test func aResetDropsTheChatsWaitingRepliesAndKeepsOthers() async throws {
            let setup = try await Setup()
            setup.fail("sendMessage", with: [Self.error(429, "Too Many Requests: retry after 2", retryAfter: 2)])
            let running = setup.start()
            defer { running.cancel() }
            try await waitUntil("the table read") { setup.sender.hasReadTheTable }
            try await setup.commitHandingOver([.send(text: "до сброса 1"), .send(text: "до сброса 2")], chat: chatID)
            try await setup.commitHandingOver([.send(text: "другому чату")], chat: 7)
            // The first waits out the 429 when the chat is reset.
            try await setup.telegram.waitUntil("the first attempt") { $0.failures["sendMessage"]?.isEmpty ?? true }
            try await setup.commitHandingOver([.send(text: "всё удалено")], chat: chatID, changes: [.forgetChat])
            try await waitUntil("an empty outbox") { try setup.database.outboxBacklog() == 0 }
            try await Task.sleep(for: .milliseconds(200))
            let texts = setup.telegram.state.withLock { $0.sent.map(\.text) }
            #expect(texts.sorted() == ["всё удалено", "другому чату"])
            await setup.telegram.server.shutdown()
        }

        @Test func aLargeBulkBacklogInTheTableHidesNoNewReplyAfterARestart() async throws {
            // A window of 100 over 3,000 forecasts left from before a restart, and a reply
            // committed after them: it goes out among the first, not behind the broadcast.
            let setup = try await Setup(messagesPerSecond: 100, window: 100)
            try await setup.commitForecasts(3_000)
            try await setup.commit([.send(text: "ответ на /help")], chat: chatID)
            let running = setup.start()
            defer { running.cancel() }
            try await setup.telegram.waitUntil("the answer") { $0.sent.contains { $0.text == "ответ на /help" } }
            let position = setup.telegram.state.withLock { $0.sent.firstIndex { $0.text == "ответ на /help" } }
            #expect((position ?? .max) < 5, "sent after \(position ?? -1) forecasts")
            // And the broadcast goes on.
            try await setup.telegram.waitUntil("300 forecasts") { $0.sent.count > 300 }
            await setup.telegram.server.shutdown()
        }

        @Test func editsThatChangeNothingOrLostTheirMessageAndOldQueriesAreHandled() async throws {
            let setup = try await Setup()
            try await setup.commit([.send(text: "исходное")], chat: chatID)
            try await setup.drain()
            let messageID = try #require(setup.telegram.state.withLock { $0.sent.first?.messageID })
            setup.fail("editMessageText", with: [Self.error(400, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same")])
            setup.fail("answerCallbackQuery", with: [Self.error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")])
            try await setup.commit([
                .edit(.id(messageID), text: "исходное"),  // not modified: success, nothing else sent
                .answer(callbackQueryID: "old"),  // too old: dropped
                .edit(.id(9_999), text: "взамен пропавшего"),  // gone: sent as a new message
                .edit(.tag("never-sent"), text: "по метке"),  // a tag never delivered: a new message
            ], chat: chatID)
            try await setup.drain()
            let texts = setup.telegram.state.withLock { $0.sent.map(\.text) }
            #expect(texts == ["исходное", "взамен пропавшего", "по метке"])
            await setup.telegram.server.shutdown()
        }

        /// The second press of a double tap edits its message to what the first made of it: that
        /// edit is not made again (Telegram would refuse it); an edit to something else is.
        @Test func anEditToWhatTheMessageShowsAlreadyIsNotMadeAgain() async throws {
            let setup = try await Setup()
            try await setup.commit([.send(text: "сейчас")], chat: chatID)
            try await setup.drain()
            let messageID = try #require(setup.telegram.state.withLock { $0.sent.first?.messageID })
            let hours = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "Сейчас", callbackData: "v:n:c1")]])
            // Each after the one before was sent (edits of one message waiting together are merged already).
            for edit in [
                Reply.edit(.id(messageID), text: "по часам", keyboard: hours), .edit(.id(messageID), text: "по часам", keyboard: hours),
                .edit(.id(messageID), text: "по часам", keyboard: nil), .edit(.id(messageID), text: "сейчас"),
                .edit(.id(messageID), text: "по часам", keyboard: hours),
            ] {
                try await setup.commit([edit], chat: chatID)
                try await setup.drain()
            }
            let edits = setup.telegram.state.withLock { $0.edits.map(\.text) }
            #expect(edits == ["по часам", "по часам", "сейчас", "по часам"])
            #expect(setup.telegram.state.withLock { $0.edits.map { $0.markup != nil } } == [true, false, false, true])
            await setup.telegram.server.shutdown()
        }

        @Test func aTaggedMessageIsEditedOnceItsIDIsKnown() async throws {
            let setup = try await Setup()
            try await setup.commit([.send(text: "🔎 Определяем город…", tag: "locate-1"), .edit(.tag("locate-1"), text: "Это ваш город?")], chat: chatID)
            try await setup.drain()
            let state = setup.telegram.state.withLock { $0 }
            #expect(state.sent.count == 1)
            #expect(state.edits.map(\.text) == ["Это ваш город?"])
            #expect(state.edits.first?.messageID == state.sent.first?.messageID)
            await setup.telegram.server.shutdown()
        }

        /// Rows an outbox wrote before it kept typed requests, waiting at an upgrade: an edit names
        /// its message only in its column, a tagged edit by its tag; both reach that message.
        @Test func rowsWaitingInTheEarlierFormEditTheMessagesTheyName() async throws {
            let setup = try await Setup()
            try await setup.commit([.send(text: "🔎 Определяем город…", tag: "locate-1"), .send(text: "карточка")], chat: chatID)
            try await setup.drain()
            let sent = setup.telegram.state.withLock { $0.sent.map(\.messageID) }
            let keyboard = #"{"inline_keyboard":[[{"text":"Да","callback_data":"cy:1"}]]}"#
            try await setup.database.writer.write { db in
                let rows: [(method: String, parameters: String, tag: String?, messageID: Int?)] = [
                    ("editMessageText", #"{"chat_id":\#(chatID),"text":"Это ваш город?","parse_mode":"HTML","link_preview_options":{"is_disabled":true},"reply_markup":\#(keyboard)}"#, "locate-1", nil),
                    ("editMessageText", #"{"chat_id":\#(chatID),"text":"обновлённая","parse_mode":"HTML","link_preview_options":{"is_disabled":true}}"#, nil, sent[1]),
                    ("editMessageReplyMarkup", #"{"chat_id":\#(chatID)}"#, nil, sent[1]),
                ]
                for row in rows {
                    try db.execute(
                        sql: "INSERT INTO outbox (chatId, lane, method, parameters, tag, messageId, attempts, notBefore, createdAt) VALUES (?, 0, ?, ?, ?, ?, 0, 0, 0)",
                        arguments: [chatID, row.method, Data(row.parameters.utf8), row.tag, row.messageID])
                }
            }
            try await setup.drain()
            let state = setup.telegram.state.withLock { $0 }
            #expect(state.sent.count == 2)
            // The buttons' edit keeps the text and takes the buttons off.
            #expect(state.edits.map(\.text) == ["Это ваш город?", "обновлённая", "обновлённая"])
            #expect(state.edits.map(\.messageID) == [sent[0], sent[1], sent[1]])
            #expect(state.edits.map { $0.markup != nil } == [true, false, false])
            #expect(state.edits.first?.markup?.contains("cy:1") == true)
            await setup.telegram.server.shutdown()
        }

        @Test func onAQuietDayADeliveredRepliesRemovalSharesTheNextStepsCommit() async throws {
            let setup = try await Setup(completionLinger: .seconds(600))
            let commits = ServiceGroup(
                configuration: ServiceGroupConfiguration(services: [.init(service: setup.database.commits)], logger: Logger(label: "test")))
            let committing = Task { try await commits.run() }
            while !setup.database.group.isRunning { try await Task.sleep(for: .milliseconds(1)) }
            let sending = setup.start()
            try await setup.commitHandingOver([.send(text: "first")], chat: 1)
            try await waitUntil("the reply delivered, its removal waiting") { setup.database.group.waiting == 1 }
            #expect(try setup.database.outboxBacklog() == 1, "the removal is not committed yet")
            let transactions = setup.database.group.batches
            try await setup.commitHandingOver([.send(text: "second")], chat: 2)
            #expect(setup.database.group.batches == transactions + 1, "one transaction for the update, its step and the removal")
            try await waitUntil("both delivered, nothing lingering") {
                setup.telegram.state.withLock { $0.sent.count } == 2 && setup.database.group.waiting == 1
            }
            // The chat's next reply goes at once, though the removal before it could wait ten minutes.
            try await setup.commitHandingOver([.send(text: "third")], chat: 2)
            try await waitUntil(timeout: .seconds(20), "the chat's next reply") { setup.telegram.state.withLock { $0.sent.count } == 3 }
            #expect(setup.telegram.state.withLock { $0.sent.map(\.text) } == ["first", "second", "third"])
            // Its removal handed to the group commit, to linger there: the sender is cancelled
            // outright below, which a removal not yet handed over would not survive.
            try await waitUntil("the third reply's removal waiting") {
                try setup.database.outboxBacklog() == 1 && setup.database.group.waiting == 1
            }
            sending.cancel()
            await commits.triggerGracefulShutdown()
            try await committing.value
            #expect(try setup.database.outboxBacklog() == 0, "a graceful stop commits the removal still waiting")
            await setup.telegram.server.shutdown()
        }

        @Test func eachChatIsPacedButChatsDoNotWaitForEachOther() async throws {
            let setup = try await Setup()
            for chat in 1...10 { try await setup.commit((1...3).map { .send(text: "\(chat)-\($0)") }, chat: Int64(chat)) }
            let started = ContinuousClock.now
            try await setup.drain()
            // Thirty messages in bursts of three per chat: well under the 30 s they would take in one chat.
            #expect(ContinuousClock.now - started < .seconds(15))
            let sent = setup.telegram.state.withLock { $0.sent }
            for chat in 1...10 {
                #expect(sent.filter { $0.chatID == Int64(chat) }.map(\.text) == (1...3).map { "\(chat)-\($0)" })
            }
            await setup.telegram.server.shutdown()
        }
    }
}
