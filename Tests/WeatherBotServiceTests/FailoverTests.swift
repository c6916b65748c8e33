import Foundation
import Logging
import LoopbackHTTP
import PostgresNIO
import Testing
import WeatherBotPostgres

extension LoopbackTests {
    /// Two replicas of the real executable on one PostgreSQL (`TEST_DATABASE_URL`), the active one
    /// killed with SIGKILL twice while chats write, and started again as a supervisor would.
    @Suite(.serialized) struct FailoverTests {
        static let chats = 50
        static let messagesPerChat = 20
        static var executable: URL { CrashRecoveryTests.executable }
        static let serverURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

        static var logger: Logger {
            var logger = Logger(label: "weatherbot.tests.failover")
            logger.logLevel = .critical
            return logger
        }

        func start(_ loopback: Loopback, databaseURL: String) throws -> Process {
            try CrashRecoveryTests.start(loopback, database: ["DATABASE_URL": databaseURL])
        }

        @Test(.enabled(if: serverURL != nil && FileManager.default.isExecutableFile(atPath: executable.path)))
        func theActiveReplicaKilledTwiceLosesNothingAndAStandbyTakesOver() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let database = try await ScratchDatabase.create(on: try #require(Self.serverURL), prefix: "weatherbot_failover")
            let client = PostgresClient(configuration: try PostgresLocation(url: database.url).configuration, backgroundLogger: Self.logger)
            let pool = Task { await client.run() }
            var replicas = [try start(loopback, databaseURL: database.url)]
            try await Task.sleep(for: .seconds(1))
            replicas.append(try start(loopback, databaseURL: database.url))

            // 50 chats write 20 messages each, /help and /weather in turn, over some 30 seconds: both
            // kills fall while they write.
            let writing = Task {
                for round in 0..<Self.messagesPerChat {
                    for chat in 1...Self.chats { telegram.sendText(round % 2 == 0 ? "/help" : "/weather", from: Int64(chat)) }
                    try await Task.sleep(for: .milliseconds(1500))
                }
            }
            var takeovers: [Double] = []
            for pause in [4, 5] {
                try await Task.sleep(for: .seconds(pause))
                let pid = try #require(try await LeaderLease(client: client, logger: Self.logger).activeProcessID())
                let killed = try #require(replicas.first { $0.processIdentifier == pid })
                kill(pid, SIGKILL)
                let at = Date()
                killed.waitUntilExit()
                // The supervisor starts it again: it waits as the standby.
                replicas.removeAll { $0 === killed }
                replicas.append(try start(loopback, databaseURL: database.url))
                try await telegram.waitUntil(timeout: .seconds(30), "an answer after the kill") { $0.sent.contains { $0.at > at } }
                let first = try #require(telegram.state.withLock { state in state.sent.first { $0.at > at }?.at })
                takeovers.append(first.timeIntervalSince(at))
            }
            try await writing.value
            try await telegram.waitUntil(timeout: .seconds(60), "every message answered") { state in
                (1...Self.chats).allSatisfy { chat in state.sent.filter { $0.chatID == Int64(chat) }.count >= Self.messagesPerChat }
            }
            try await Task.sleep(for: .seconds(1))
            for replica in replicas {
                replica.terminate()
                replica.waitUntilExit()
            }

            let sent = telegram.state.withLock { $0.sent }
            var lost = 0
            var repeats = 0
            for chat in 1...Self.chats {
                let received = sent.filter { $0.chatID == Int64(chat) }.count
                lost += max(0, Self.messagesPerChat - received)
                repeats += max(0, received - Self.messagesPerChat)
            }
            print("failover: takeover after SIGKILL in \(takeovers.map { String(format: "%.1f s", $0) }.joined(separator: ", ")); \(lost) lost, \(repeats) repeated of \(Self.chats * Self.messagesPerChat)")
            #expect(lost == 0)
            // At most the messages in flight when a replica died: one per chat per kill.
            #expect(repeats <= 2 * Self.chats)
            #expect(takeovers.allSatisfy { $0 <= 10 }, "\(takeovers)")
            #expect(replicas.allSatisfy { $0.terminationStatus == 0 })

            pool.cancel()
            await database.drop()
            await loopback.shutdown()
        }
    }
}
