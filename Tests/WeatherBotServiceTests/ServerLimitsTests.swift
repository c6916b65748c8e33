import Foundation
import Logging
import Prometheus
import Synchronization
import TelegramBotAPI
import Testing
@testable import WeatherBotHTTP
import WeatherBotService
import WeatherBotSQLite
import WeatherBotTesting

extension LoopbackTests {
    /// The endpoints' HTTP server keeps any one client from holding it: idle and slow
    /// connections are closed, connections are capped below the process's open files, an
    /// oversized post is refused before its body, and the operator endpoints answer only at
    /// their exact paths.
    @Suite(.serialized) struct ServerLimitsTests {
        static let secret = "limits-secret"

        /// The real server (the webhook's route included) on an ephemeral loopback port.
        struct Running {
            let port: Int
            let service: Task<Void, any Error>
            let folder: TemporaryFolder

            init(_ limits: ServerLimits) async throws {
                folder = try TemporaryFolder()
                let store = try BotDatabase.open(path: folder.databasePath)
                var logger = Logger(label: "weatherbot.tests.http")
                logger.logLevel = .critical
                let metrics = BotMetrics()
                let settings = WebhookReceiver.Settings(url: { URL(string: "http://127.0.0.1:\($0)/hook")! }, secret: ServerLimitsTests.secret)
                let client = TelegramClient(token: FakeTelegram.token, apiURL: URL(string: "http://127.0.0.1:9")!, transport: Unreachable())
                let receiver = WebhookReceiver(settings: settings, client: client, database: store, workers: nil, metrics: metrics, logger: logger)
                let endpoints = OperatorEndpoints(
                    registry: PrometheusCollectorRegistry(), metrics: metrics, store: store, window: .seconds(60), webhook: ("/hook", receiver))
                let port = Mutex<Int?>(nil)
                let server = OperatorServer(endpoints, host: "127.0.0.1", port: 0, limits: limits, logger: logger) { bound in port.withLock { $0 = bound } }
                service = Task { try await server.run() }
                try await waitUntil("the server") { port.withLock { $0 } != nil }
                self.port = port.withLock { $0 }!
            }

            func stop() async {
                service.cancel()
                _ = try? await service.value
            }

            func get(_ path: String, from source: String = "127.0.0.1") async throws -> String? {
                let connection = try RawConnection(port: port, from: source)
                connection.send("GET \(path) HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n")
                return await connection.receive(within: .seconds(5))
            }
        }

        @Test func anIdleConnectionAndOneSendingItsHeadSlowlyAreClosed() async throws {
            let server = try await Running(ServerLimits(headTimeout: .seconds(1), bodyTimeout: .seconds(30), maximumConnections: 100))
            let idle = try RawConnection(port: server.port)
            let slow = try RawConnection(port: server.port)
            slow.send("GET /healthz HTTP/1.1\r\n")
            var trickled = 0
            let started = ContinuousClock.now
            // A header line every 300 ms: the head is never done.
            while ContinuousClock.now - started < .seconds(4), slow.send("X-Line-\(trickled): a\r\n") {
                trickled += 1
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(trickled < 12, "the slow head was let in for \(trickled) lines")
            #expect(await idle.isClosed(within: .seconds(1)))
            // A connection that asks something is answered as before.
            #expect(try await server.get("/healthz")?.hasPrefix("HTTP/1.1 200") == true)
            await server.stop()
        }

        @Test func aBodyThatTricklesInIsCutOff() async throws {
            let server = try await Running(ServerLimits(headTimeout: .seconds(30), bodyTimeout: .seconds(1), maximumConnections: 100))
            let slow = try RawConnection(port: server.port)
            slow.send("POST /hook HTTP/1.1\r\nHost: bot\r\nX-Telegram-Bot-Api-Secret-Token: \(Self.secret)\r\nContent-Length: 1000\r\n\r\n")
            var sent = 0
            while sent < 20, slow.send("{\"a\":1}  ") {
                sent += 1
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(sent < 10, "the body trickled in for \(sent) pieces")
            await server.stop()
        }

        @Test func connectionsBeyondTheCapWaitUntilOthersClose() async throws {
            let server = try await Running(ServerLimits(headTimeout: .seconds(30), bodyTimeout: .seconds(30), maximumConnections: 2, operatorConnections: 1))
            // The shared slots and the operator's one.
            var held = [try RawConnection(port: server.port), try RawConnection(port: server.port), try RawConnection(port: server.port)]
            // Let the server take both before the third comes.
            try await Task.sleep(for: .milliseconds(200))
            let third = try RawConnection(port: server.port)
            third.send("GET /healthz HTTP/1.1\r\nHost: bot\r\nConnection: close\r\n\r\n")
            #expect(await third.receive(within: .milliseconds(500)) == nil, "served beyond the cap")
            held.removeAll()
            #expect(await third.receive(within: .seconds(5))?.hasPrefix("HTTP/1.1 200") == true)
            await server.stop()
        }

        @Test func theHealthCheckIsAnsweredOnTheOperatorsSlotsWhileTheOthersAreTaken() async throws {
            let server = try await Running(ServerLimits(headTimeout: .seconds(30), bodyTimeout: .seconds(30), maximumConnections: 2))
            let held = [try RawConnection(port: server.port), try RawConnection(port: server.port)]
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await server.get("/healthz")?.hasPrefix("HTTP/1.1 200") == true)
            #expect(try await server.get("/metrics")?.hasPrefix("HTTP/1.1 200") == true)
            // Anything else on them is sent away at once, and its connection closed.
            let post = try RawConnection(port: server.port)
            post.send("POST /hook HTTP/1.1\r\nHost: bot\r\nX-Telegram-Bot-Api-Secret-Token: \(Self.secret)\r\nContent-Length: 2\r\n\r\n{}")
            let answer = await post.receive(within: .seconds(5))
            #expect(answer?.hasPrefix("HTTP/1.1 503") == true, "\(answer ?? "no answer")")
            #expect(await post.isClosed(within: .seconds(5)))
            withExtendedLifetime(held) {}
            await server.stop()
        }

        @Test func manyIdleConnectionsFromOneAddressLeaveTheServerToOthers() async throws {
            let server = try await Running(
                ServerLimits(headTimeout: .seconds(30), bodyTimeout: .seconds(30), maximumConnections: 8, connectionsPerAddress: 4, operatorConnections: 0))
            let crowd = try (0..<12).map { _ in try RawConnection(port: server.port, from: "127.0.0.2") }
            // All but its address's four are closed as soon as they are taken.
            var closed = Set<Int>()
            let deadline = ContinuousClock.now + .seconds(5)
            while closed.count < 8, ContinuousClock.now < deadline {
                for (index, connection) in crowd.enumerated() where !closed.contains(index) {
                    if await connection.isClosed(within: .milliseconds(1)) { closed.insert(index) }
                }
            }
            #expect(closed.count == 8)
            // Another address is served at once.
            #expect(try await server.get("/healthz", from: "127.0.0.3")?.hasPrefix("HTTP/1.1 200") == true)
            await server.stop()
        }

        /// A post to `path` announcing a body of `announced` bytes, sent as fast as the server
        /// takes it, on a server whose timeouts are far off (a close is the answer's): what the
        /// server said, and whether it closed the connection before it had read the whole body.
        static func post(_ path: String, secret: String?, announcing announced: Int) async throws -> (answer: String, closedUnread: Bool) {
            let server = try await Running(ServerLimits(headTimeout: .seconds(60), bodyTimeout: .seconds(60)))
            let connection = try RawConnection(port: server.port)
            let secretLine = secret.map { "X-Telegram-Bot-Api-Secret-Token: \($0)\r\n" } ?? ""
            connection.send("POST \(path) HTTP/1.1\r\nHost: bot\r\n\(secretLine)Content-Length: \(announced)\r\n\r\n")
            let (answer, closed, sent) = await connection.stream(announced, within: .seconds(10))
            await server.stop()
            return (answer, closed && sent < announced)
        }

        @Test func aPostWithoutTheSecretIsRefusedAndItsConnectionClosedUnread() async throws {
            let (answer, closedUnread) = try await Self.post("/hook", secret: "wrong", announcing: 10_000_000_000)
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(40))")
            #expect(closedUnread)
        }

        @Test func anOversizedBodyIsRefusedAndItsConnectionClosedUnread() async throws {
            let (answer, closedUnread) = try await Self.post("/hook", secret: Self.secret, announcing: 64 << 20)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(40))")
            #expect(closedUnread)
        }

        @Test func aPostAnsweredBeforeItsBodyIsReadClosesItsConnection() async throws {
            let (answer, closedUnread) = try await Self.post("/elsewhere", secret: nil, announcing: 1_000_000_000)
            #expect(answer.hasPrefix("HTTP/1.1 404"), "\(answer.prefix(40))")
            #expect(answer.lowercased().contains("connection: close"), "\(answer)")
            #expect(closedUnread)
        }

        @Test func theCapIsHalfTheOpenFilesWithinBounds() {
            #expect(ServerLimits.connectionsAllowed(openFiles: 1_024) == 512)
            #expect(ServerLimits.connectionsAllowed(openFiles: 20) == 16)
            #expect(ServerLimits.connectionsAllowed(openFiles: 1_048_576) == 1_000)
            #expect(ServerLimits().maximumConnections <= ServerLimits.openFilesAllowed / 2 || ServerLimits().maximumConnections == 16)
        }

        @Test func anOversizedPostIsRefusedBeforeItsBodyIsSent() async throws {
            let server = try await Running(ServerLimits())
            let connection = try RawConnection(port: server.port)
            connection.send(
                "POST /hook HTTP/1.1\r\nHost: bot\r\nX-Telegram-Bot-Api-Secret-Token: \(Self.secret)\r\nContent-Length: 50000000\r\nExpect: 100-continue\r\n\r\n")
            let answer = try #require(await connection.receive(within: .seconds(3)))
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
            await server.stop()
        }

        @Test func theOperatorEndpointsAnswerOnlyAtTheirExactPaths() async throws {
            let server = try await Running(ServerLimits())
            #expect(try await server.get("/metrics")?.hasPrefix("HTTP/1.1 200") == true)
            for path in ["/metrics/", "//metrics", "/metrics/x", "/healthz/", "//healthz"] {
                let answer = try await server.get(path) ?? ""
                #expect(answer.hasPrefix("HTTP/1.1 404"), "\(path): \(answer.prefix(40))")
            }
            await server.stop()
        }
    }
}
