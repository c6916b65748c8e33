import Foundation
import GRDB
import HTTPTypes
import Prometheus
import Testing
@testable import WeatherBotHTTP
import WeatherBotService
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotStoreSQL
import WeatherBotTesting

extension LoopbackTests {
    /// A damaged database file stops the worker at once with one clear line, and `status` says so.
    @Suite(.serialized) struct DamagedDatabaseTests {
        static var executable: URL { CrashRecoveryTests.executable }

        /// A database with enough rows to span many pages, closed again.
        func database(in folder: TemporaryFolder) throws -> String {
            let path = folder.databasePath
            let database = try BotDatabase.open(path: path)
            try database.writer.write { db in
                for id in Int64(1)...3_000 {
                    _ = try BotDatabase.run(BotDatabase.sql.insertChats([ChatRecord(id: id, language: .ru, state: .idle)]), db)
                }
            }
            try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            return path
        }

        /// Overwrites `count` bytes of the file from `offset` with garbage.
        func damage(_ path: String, at offset: UInt64, count: Int) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
            try handle.close()
        }

        func run(_ arguments: [String], path: String) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = arguments
            process.environment = [
                "TELEGRAM_BOT_TOKEN": FakeTelegram.token, "OPEN_WEATHER_API_KEY": FakeOpenWeather.apiKey,
                // Nothing listens there: a bot that got past its database would only retry.
                "TELEGRAM_API_URL": "http://127.0.0.1:9", "DATABASE_PATH": path, "LOG_LEVEL": "error",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func damagedPagesStopTheBotAtStartWithOneClearLine() throws {
            let folder = try TemporaryFolder()
            let path = try database(in: folder)
            // Pages in the middle of the chat table.
            try damage(path, at: 20 * 4096, count: 3 * 4096)
            let started = try run(["run"], path: path)
            #expect(started.status == 1)
            #expect(started.output.contains("the database is damaged"), "\(started.output)")
            #expect(started.output.contains("restore it from a backup"))
            let status = try run(["status"], path: path)
            #expect(status.status == 1)
            #expect(status.output.contains("unhealthy"), "\(status.output)")
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func aFileThatIsNoDatabaseStopsTheBotWithOneClearLine() throws {
            let folder = try TemporaryFolder()
            let path = try database(in: folder)
            try damage(path, at: 0, count: 100)
            let started = try run(["run"], path: path)
            #expect(started.status == 1)
            #expect(started.output.contains("the database is damaged"), "\(started.output)")
            #expect(try run(["status"], path: path).status == 1)
        }

        /// The running bot holds its file: `status` reads the report it keeps beside it, and a
        /// second bot started on the same file stops with one clear line instead of writing
        /// beside the first.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func aRunningBotsStatusIsItsReportAndASecondBotIsRefused() async throws {
            let loopback = try await Loopback()
            let process = try CrashRecoveryTests.start(loopback, database: ["DATABASE_PATH": loopback.folder.databasePath], settings: ["LOG_LEVEL": "warning"])
            loopback.telegram.sendText("/help", from: 5)
            try await loopback.telegram.waitUntil("the help") { $0.sent.contains { $0.chatID == 5 } }
            // The report is written at the start and every ten seconds: healthy once one shows a poll.
            var status = try run(["status"], path: loopback.folder.databasePath)
            let deadline = Date().addingTimeInterval(25)
            while status.status != 0 && Date() < deadline {
                try await Task.sleep(for: .seconds(1))
                status = try run(["status"], path: loopback.folder.databasePath)
            }
            #expect(status.status == 0, "\(status.output)")
            #expect(status.output.contains("the running bot holds the database"), "\(status.output)")
            // Refused after SQLite's ten seconds of waiting for the file: waited for off the shared
            // pool, which the other tests run on.
            let path = loopback.folder.databasePath
            let second = try await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: Result { try run(["run"], path: path) }) }
            }.get()
            #expect(second.status == 1)
            #expect(second.output.contains("held by another process"), "\(second.output)")
            process.terminate()
            process.waitUntilExit()
            // Stopped, the file is read itself.
            let after = try run(["status"], path: loopback.folder.databasePath)
            #expect(!after.output.contains("holds the database"), "\(after.output)")
            await loopback.shutdown()
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func aNewDatabaseIsSaidLoudlyAndOneDeletedUnderTheRunningBotStopsIt() async throws {
            let loopback = try await Loopback()
            let output = Pipe()
            let process = try CrashRecoveryTests.start(
                loopback, database: ["DATABASE_PATH": loopback.folder.databasePath], settings: ["LOG_LEVEL": "warning"], errors: output)
            // Once the bot polls, the file goes: it notices within its check's ten seconds.
            try await loopback.telegram.waitUntil("the first poll") { $0.firstPoll != nil }
            try FileManager.default.removeItem(atPath: loopback.folder.databasePath)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 1)
            #expect(said.contains("a new, empty database was created"), "\(said)")
            #expect(said.contains("was deleted while the bot ran"), "\(said)")
            await loopback.shutdown()
        }

        /// An existing database in a folder the bot's user cannot write: SQLite cannot create the
        /// journal beside it, and the start says so, naming the folder. As root, the bot runs as
        /// `nobody` (root writes anywhere).
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func aDatabaseInAFolderThatCannotBeWrittenIsSaidForWhatItIs() async throws {
            let folder = try TemporaryFolder()
            let path = try database(in: folder)
            for leftover in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + leftover) }
            var launcher: [String] = []
            if getuid() == 0 {
                let nobody: uid_t = 65534
                #expect(chown(folder.url.path, nobody, gid_t(nobody)) == 0 && chown(path, nobody, gid_t(nobody)) == 0)
                launcher = ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
            }
            #expect(chmod(folder.url.path, 0o555) == 0)
            defer { chmod(folder.url.path, 0o755) }

            let output = StartUpTests.Output()
            let process = try StartUpTests.launch(through: launcher, settings: ["DATABASE_PATH": path, "LOG_LEVEL": "error"], output: output)
            let ended = try await StartUpTests.ends(process, within: .seconds(20))
            if !ended { process.terminate() }
            #expect(ended && process.terminationStatus == 1)
            #expect(output.said.contains("the folder \(folder.url.path) cannot be written by this process"), "\(output.said)")
            #expect(output.said.contains("bot.sqlite-wal and bot.sqlite-shm beside the database"), "\(output.said)")

            // Nothing was lost: writable again, the database has every chat.
            chmod(folder.url.path, 0o755)
            #expect(try StoreContents(readingFileAt: path).chats.count == 3_000)
        }

        /// The disk fills under a running bot: the fault is logged once as it begins and once as
        /// it ends, the health check fails while it lasts, the commits are retried with backoff
        /// (a few tries, not several a second) and every message is answered once there is room.
        @Test func aFullDiskIsToldOnceAndItsEndOnceAndTheHealthCheckFailsMeanwhile() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let log = CapturedLog()
            let registry = PrometheusCollectorRegistry()
            let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
            let bot = try await loopback.startBot(metrics: metrics, logger: log.logger())
            let database = try #require(bot.database as? BotDatabase)
            telegram.sendText("/help", from: 1)
            try await telegram.waitUntil("the first answer") { $0.sent.count == 1 }
            let endpoints = OperatorEndpoints(registry: registry, metrics: metrics, store: bot.database, window: .seconds(60))
            #expect(await endpoints.verdict(at: .now).0.code == 200)

            // No page more for the file: every commit that needs one fails as on a full disk.
            try await database.writer.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            for chat: Int64 in 2...21 { telegram.sendText("/search Казань", from: chat) }
            try await waitUntil(timeout: .seconds(10), "the fault said") { log.lines.contains { $0.contains("the database cannot commit") } }
            let (status, body) = await endpoints.verdict(at: .now)
            #expect(status.code == 503 && body.contains("full"), "\(body)")
            try await Task.sleep(for: .seconds(6))
            let failing = log.lines.filter { $0.hasPrefix("error") || $0.hasPrefix("warning") }
            #expect(failing.count == 1, "\(failing)")
            // Backed off: the tries in six seconds are a few per chat, not a dozen.
            let tries = log.lines.filter { $0.contains("could not commit") }.count
            #expect(tries < 20 * 8, "\(tries) tries")

            try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
            try await telegram.waitUntil(timeout: .seconds(60), "every chat answered") { state in
                (2...21).allSatisfy { chat in state.sent.contains { $0.chatID == chat } }
            }
            try await waitUntil(timeout: .seconds(10), "the end said") { log.lines.contains { $0.contains("the database commits again") } }
            #expect(log.lines.filter { $0.contains("the database cannot commit") }.count == 1)
            #expect(await endpoints.verdict(at: .now).0.code == 200)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func damageIsToldFromPassingFailures() {
            #expect(BotDatabase.isDamage(DatabaseError(resultCode: .SQLITE_CORRUPT)))
            #expect(BotDatabase.isDamage(DatabaseError(resultCode: .SQLITE_NOTADB)))
            #expect(BotDatabase.isDamage(DatabaseError(resultCode: .SQLITE_CORRUPT_INDEX)))
            #expect(!BotDatabase.isDamage(DatabaseError(resultCode: .SQLITE_BUSY)))
            #expect(!BotDatabase.isDamage(DatabaseError(resultCode: .SQLITE_FULL)))
            #expect(!BotDatabase.isDamage(CancellationError()))
            // What counts against an item: being refused for what it wrote, not a full disk.
            #expect(BotDatabase.isRejection(DatabaseError(resultCode: .SQLITE_CONSTRAINT_TRIGGER)))
            #expect(!BotDatabase.isRejection(DatabaseError(resultCode: .SQLITE_FULL)))
            #expect(!BotDatabase.isRejection(DatabaseError(resultCode: .SQLITE_BUSY)))
            #expect(!BotDatabase.isRejection(DatabaseError(resultCode: .SQLITE_IOERR_WRITE)))
        }
    }
}
