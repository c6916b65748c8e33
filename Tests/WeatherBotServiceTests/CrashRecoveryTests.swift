import Foundation
import GRDB
import PostgresNIO
import Testing
import WeatherBotPostgres
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// The real executable under load, killed with SIGKILL at random points and restarted.
    @Suite(.serialized) struct CrashRecoveryTests {
        static let chats = 60
        /// Each chat: choose a city, confirm it, look a place up, star it, subscribe, and ask for things.
        static func script(_ telegram: FakeTelegram, chat: Int64) {
            telegram.sendText("Саранск", from: chat)
            telegram.pressRaw(data: "cy:1", on: nil, in: chat)
            telegram.sendText("/search Казань", from: chat)
            telegram.pressRaw(data: "fa:n:s1", on: nil, in: chat)
            for text in ["/daily 8:00", "/help", "/weather", "/fav", "/help", "/help"] { telegram.sendText(text, from: chat) }
        }
        static let updatesPerChat = 10
        /// Messages each chat should receive once: the question, the note of its first city (which
        /// takes the location keyboard away), two cards, the confirmation of /daily, /help three
        /// times, /weather and /fav.
        static let messagesPerChat = 10

        /// The weatherbot executable beside the test bundle.
        /// The build's `weatherbot` beside the tests, or the one `WEATHERBOT_EXECUTABLE` names (a
        /// release build, to run these tests against what ships).
        static var executable: URL {
            if let path = ProcessInfo.processInfo.environment["WEATHERBOT_EXECUTABLE"], !path.isEmpty { return URL(fileURLWithPath: path) }
            return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("weatherbot")
        }

        /// In webhook mode every process listens on the same port, under the same public URL, and
        /// keeps the secret it generated in the database.
        func start(_ loopback: Loopback) throws -> Process {
            try Self.start(
                loopback, database: loopback.postgres.map { ["DATABASE_URL": $0.url] } ?? ["DATABASE_PATH": loopback.folder.databasePath],
                settings: loopback.webhookPort.map { port in
                    ["HTTP_LISTEN": "127.0.0.1:\(port)", "TELEGRAM_WEBHOOK_URL": "http://127.0.0.1:\(port)\(Intake.path)"]
                } ?? [:])
        }

        struct NotActive: Error, CustomStringConvertible {
            let pid: Int32
            var description: String { "process \(pid) did not take the lease within 20 s" }
        }

        /// On PostgreSQL a process started after a kill is a standby until the killed one's lease
        /// runs out: the next kill waits until it is active, so that it falls in the middle of work.
        static func waitUntilActive(_ process: Process, on database: ScratchDatabase) async throws {
            let client = PostgresClient(configuration: try PostgresLocation(url: database.url).configuration, backgroundLogger: BotHarness.quiet)
            try await withRunning([client]) {
                let deadline = ContinuousClock.now + .seconds(20)
                // Before the first process migrated, the lease's table is not there yet.
                while (try? await LeaderLease(client: client, logger: BotHarness.quiet).activeProcessID()) != process.processIdentifier {
                    guard ContinuousClock.now < deadline else { throw NotActive(pid: process.processIdentifier) }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        }

        /// The executable against the loopback fakes, on the database `database` names
        /// (`DATABASE_PATH` or `DATABASE_URL`), with `settings` besides; its output discarded, or
        /// its standard error into `errors`.
        static func start(_ loopback: Loopback, database: [String: String], settings: [String: String] = [:], errors: Pipe? = nil) throws -> Process {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["run"]
            process.environment = [
                "TELEGRAM_BOT_TOKEN": FakeTelegram.token, "OPEN_WEATHER_API_KEY": FakeOpenWeather.apiKey,
                "TELEGRAM_API_URL": loopback.telegram.url.absoluteString, "OPEN_WEATHER_API_URL": loopback.weather.url.absoluteString,
                "TELEGRAM_POLL_TIMEOUT": "1", "LOG_LEVEL": "error", "OPEN_METEO_FALLBACK": "false",
                "TELEGRAM_MESSAGES_PER_SECOND": "2000", "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": "200",
            ].merging(database) { $1 }.merging(settings) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors ?? FileHandle.nullDevice
            try process.run()
            return process
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)), arguments: StoreEngine.available, Intake.allCases)
        func killedAgainAndAgainEveryUpdateIsAnsweredAndNothingSavedIsLost(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            for chat in 1...Self.chats { Self.script(telegram, chat: Int64(chat)) }
            let updates = Self.chats * Self.updatesPerChat

            var kills = 0
            for _ in 0..<5 {
                let sentBefore = telegram.state.withLock { $0.sent.count }
                let process = try start(loopback)
                if let postgres = loopback.postgres { try await Self.waitUntilActive(process, on: postgres) }
                // Killed in the middle of work, not before it began: a process killed again and
                // again before it handles anything would have each chat's first item counted
                // against it, and set aside after the fifth time, as a crash loop should.
                try? await telegram.waitUntil(timeout: .seconds(20), "a message from this process") { state in
                    state.sent.count > sentBefore || state.sent.count >= Self.chats * Self.messagesPerChat
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 300...1500)))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                kills += 1
            }
            let last = try start(loopback)
            let expected = Self.chats * Self.messagesPerChat
            try await telegram.waitUntil(timeout: .seconds(120), "every chat answered") { state in
                Set(state.sent.map(\.chatID)).count == Self.chats && state.sent.count >= expected
                    && (1...Self.chats).allSatisfy { chat in state.sent.filter { $0.chatID == Int64(chat) }.count >= Self.messagesPerChat }
            }
            try await Task.sleep(for: .seconds(1))
            // SIGTERM: a graceful stop, exit code 0.
            last.terminate()
            last.waitUntilExit()
            #expect(last.terminationStatus == 0)

            let state = telegram.state.withLock { $0 }
            var duplicates = 0
            var losses = 0
            for chat in 1...Self.chats {
                let received = state.sent.filter { $0.chatID == Int64(chat) }.count
                duplicates += max(0, received - Self.messagesPerChat)
                losses += max(0, Self.messagesPerChat - received)
            }
            let (savedPlacesLost, integrity, inbox, lastUpdateID) = try await loopback.withStore { database in
                var savedPlacesLost = 0
                for chat in 1...Self.chats {
                    let record = try await database.chat(Int64(chat))
                    let favorites = try await database.favorites(chatID: Int64(chat)).map(\.place.name)
                    let subscriptions = try await database.subscriptions(chatID: Int64(chat)).count
                    if record?.currentPlace?.name != "Saransk" || favorites != ["Kazan"] || subscriptions != 1 { savedPlacesLost += 1 }
                }
                // PostgreSQL keeps its own files' health; SQLite's file is checked whole.
                let integrity = try await (database as? BotDatabase)?.writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } ?? "ok"
                return (savedPlacesLost, integrity, try await database.pendingInbox(), try await database.lastUpdateID())
            }
            let failedPosts = state.posts.filter { !(200..<300).contains($0.status) }.count
            print("crash recovery (\(engine), \(intake)): \(updates) updates sent, \(kills) SIGKILLs, \(state.sent.count) messages received for \(expected) expected, \(duplicates) duplicates, \(losses) lost, \(savedPlacesLost) chats missing saved data, deliveries \(state.delivered.count), posts not answered 2xx \(failedPosts), integrity \(integrity)")
            #expect(losses == 0)
            #expect(savedPlacesLost == 0)
            #expect(integrity == "ok")
            #expect(inbox.isEmpty)
            switch intake {
            case .polling:
                #expect(lastUpdateID == Int64(1000 + updates - 1))
            case .webhook:
                // Every update was answered 2xx in the end, each once: a repeat is answered, not taken.
                #expect(state.pendingUpdates == 0)
                #expect(Set(state.delivered) == Set(1000..<(1000 + updates)))
            }
            // At least once: only replies in flight at a kill may come twice, at most one per chat
            // (each chat has one reply in flight at a time) and 32 in all (the sender's concurrency).
            #expect(duplicates <= kills * min(Self.chats, 32))
            for chat in 1...Self.chats {
                #expect(state.sent.filter { $0.chatID == Int64(chat) }.count <= Self.messagesPerChat + kills)
            }
            await loopback.shutdown()
        }
    }
}
