import Foundation
import HTTPTransport
import Logging
import PostgresNIO
import Testing
import WeatherBotPostgres
import WeatherBotTesting

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

        /// In webhook mode the reverse proxy spreads Telegram's posts over the replicas: the standby
        /// stores what it gets in the shared inbox and the active one answers it; killed, the
        /// active one leaves what it stored to the standby that takes over.
        @Test(.enabled(if: serverURL != nil && FileManager.default.isExecutableFile(atPath: executable.path)))
        func inWebhookModeEveryReplicaTakesPostsAndTheActiveOneAnswersThem() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let database = try await ScratchDatabase.create(on: try #require(Self.serverURL), prefix: "weatherbot_webhook_replicas")
            let ports = [try await LoopbackServer.freePort(), try await LoopbackServer.freePort()]
            let urls = ports.map { URL(string: "http://127.0.0.1:\($0)\(Intake.path)")! }
            func start(listening port: Int) throws -> Process {
                try CrashRecoveryTests.start(
                    loopback, database: ["DATABASE_URL": database.url],
                    settings: ["HTTP_LISTEN": "127.0.0.1:\(port)", "TELEGRAM_WEBHOOK_URL": urls[0].absoluteString])
            }
            let first = try start(listening: ports[0])
            try await CrashRecoveryTests.waitUntilActive(first, on: database)
            let second = try start(listening: ports[1])
            let transport = NIOHTTPTransport()
            let health = urls[1].deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("healthz")
            try await waitUntil("the standby's /healthz") {
                let answer = try? await loopbackGET(health, through: transport)
                return answer.map { String(decoding: $0.body, as: UTF8.self) } == #"{"status":"standby"}"#
            }
            // The secret the first replica generated and kept: the standby checks posts with it too.
            let store = PostgresStore(try PostgresLocation(url: database.url), logger: Self.logger)
            let secret = try await withRunning([store.client]) { try await store.webhookSecret(generated: "unused") }
            #expect(secret != "unused")
            let headers = ["X-Telegram-Bot-Api-Secret-Token": secret]

            // Ten chats write twice each, their posts spread over both replicas.
            var id = 5000
            for round in 0..<2 {
                for chat in 1...10 {
                    id += 1
                    let url = urls[(chat + round) % 2]
                    let answer = try await loopbackPOST(url, body: WebhookTests.update(id, text: "/help", chat: Int64(chat)), headers: headers, through: transport)
                    #expect(answer.status == 200, "\(url)")
                }
            }
            try await telegram.waitUntil(timeout: .seconds(20), "every post answered") { state in
                (1...10).allSatisfy { chat in state.sent.filter { $0.chatID == Int64(chat) }.count == 2 }
            }

            // The deliveries recorded, the active replica dies; what the standby takes meanwhile waits
            // for it to take over.
            try await Task.sleep(for: .seconds(1))
            kill(first.processIdentifier, SIGKILL)
            first.waitUntilExit()
            for chat in 11...15 {
                id += 1
                let answer = try await loopbackPOST(urls[1], body: WebhookTests.update(id, text: "/help", chat: Int64(chat)), headers: headers, through: transport)
                #expect(answer.status == 200)
            }
            try await telegram.waitUntil(timeout: .seconds(30), "the posts taken during the takeover answered") { state in
                (11...15).allSatisfy { chat in state.sent.contains { $0.chatID == Int64(chat) } }
            }
            try await CrashRecoveryTests.waitUntilActive(second, on: database)
            try await Task.sleep(for: .seconds(1))
            let sent = telegram.state.withLock { $0.sent }
            #expect(sent.count == 25, "each post answered once: \(Dictionary(grouping: sent, by: \.chatID).mapValues(\.count).filter { $0.value > 1 })")
            second.terminate()
            second.waitUntilExit()
            #expect(second.terminationStatus == 0)
            try await transport.shutdown()
            await database.drop()
            await loopback.shutdown()
        }
    }
}
