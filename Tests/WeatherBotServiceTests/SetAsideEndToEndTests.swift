import Foundation
import GRDB
import Testing
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// The last line of defence: an inbox item that fails again and again is set aside, with its
    /// error where the operator can read it, its chat is told, and the chat goes on.
    @Suite(.serialized) struct SetAsideEndToEndTests {
        let chatID: Int64 = 321

        @Test func anItemThatStoppedTheWorkerFiveTimesIsSetAsideAndItsChatToldOnce() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            // As left by four crashes while handling it, the fifth just happened.
            do {
                let database = try BotDatabase.open(path: loopback.folder.databasePath)
                let update = """
                    {"update_id":1,"message":{"message_id":5,"date":1700000000,"chat":{"id":\(chatID),"type":"private"},\
                    "from":{"id":\(chatID),"is_bot":false,"first_name":"T","language_code":"ru"},"text":"/weather"}}
                    """
                let item = try await database.receive([(updateID: 1, chatID: chatID, payload: Data(update.utf8))], lastUpdateID: 1)[0]
                try await database.writer.write { db in
                    try db.execute(sql: "UPDATE inbox SET attempts = 4 WHERE seq = ?", arguments: [item.seq])
                }
                try await database.beginRun()  // the run that crashed
            }
            let bot = try await loopback.startBot()
            try await telegram.waitUntil("the apology") { $0.sent.contains { $0.chatID == chatID && $0.text.contains("Не получилось обработать") } }
            #expect(try BotStatus.read(path: loopback.folder.databasePath).inboxSetAside == 1)
            #expect(try bot.file.pendingInbox().isEmpty)
            // The chat goes on.
            telegram.sendText("/help", from: chatID)
            try await telegram.waitUntil("the help") { $0.sent.contains { $0.chatID == chatID && $0.text.contains("/search") } }
            #expect(telegram.state.withLock { $0.sent.filter { $0.text.contains("Не получилось обработать") }.count } == 1)
            let status = try BotStatus.read(path: loopback.folder.databasePath)
            #expect(status.inboxSetAside == 1)
            try await bot.stop()
            await loopback.shutdown()
        }

        /// An update that stops the bot while it is handled counts an attempt only once it is in
        /// the inbox, so a run's first batch, which holds whatever a crash cut off, is stored
        /// before it is handled; later quiet batches are stored with their steps, no inbox row.
        @Test func theFirstBatchOfARunIsStoredBeforeItIsHandled() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            do {
                let database = try BotDatabase.open(path: loopback.folder.databasePath)
                try await database.writer.write { db in
                    try db.execute(sql: "CREATE TABLE inboxSeen (updateId INTEGER)")
                    try db.execute(sql: "CREATE TRIGGER inbox_seen AFTER INSERT ON inbox BEGIN INSERT INTO inboxSeen VALUES (NEW.updateId); END")
                }
            }
            let first = Int64(telegram.state.withLock { $0.nextUpdateID })
            telegram.sendText("/help", from: chatID)
            let bot = try await loopback.startBot()
            try await telegram.waitUntil("the first help") { $0.sent.filter { $0.chatID == chatID }.count == 1 }
            telegram.sendText("/help", from: chatID)
            try await telegram.waitUntil("the second help") { $0.sent.filter { $0.chatID == chatID }.count == 2 }
            let seen = try await bot.file.writer.read { db in try Int64.fetchAll(db, sql: "SELECT updateId FROM inboxSeen") }
            #expect(seen == [first])
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func anItemWhoseStepNeverCommitsIsSetAsideAfterFiveTries() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            do {
                // This chat's record cannot be written: every step of it fails at its commit.
                let database = try BotDatabase.open(path: loopback.folder.databasePath)
                try await database.writer.write { db in
                    for event in ["INSERT", "UPDATE"] {
                        try db.execute(sql: """
                            CREATE TRIGGER refuse_\(event.lowercased()) BEFORE \(event) ON chat WHEN NEW.id = \(chatID)
                            BEGIN SELECT RAISE(ABORT, 'refused for the test'); END
                            """)
                    }
                }
            }
            let bot = try await loopback.startBot()
            telegram.sendText("/help", from: chatID, language: "en")
            telegram.sendText("/help", from: 7)
            try await telegram.waitUntil(timeout: .seconds(30), "the apology") {
                $0.sent.contains { $0.chatID == chatID && $0.text.contains("could not handle your last message") }
            }
            // Another chat is not held up.
            #expect(telegram.state.withLock { $0.sent.contains { $0.chatID == 7 } })
            let failure = try bot.file.writer.read { db in
                try Row.fetchOne(db, sql: "SELECT attempts, error, chatId FROM inboxFailure")
            }
            #expect(failure?["attempts"] == 5)
            #expect((failure?["error"] as String?)?.contains("refused for the test") == true)
            #expect(try bot.file.pendingInbox().isEmpty)
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
