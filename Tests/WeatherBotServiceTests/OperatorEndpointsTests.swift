import Foundation
import HTTPTransport
import Hummingbird
import Logging
import Prometheus
import Synchronization
import Testing
@testable import WeatherBotHTTP
@testable import WeatherBotService
import TelegramBotAPI
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

extension LoopbackTests {
    /// `/healthz` and `/metrics` of the real worker, served by Hummingbird on loopback and read
    /// over HTTP while chats write.
    @Suite(.serialized) struct OperatorEndpointsTests {
        @Test func metricsMoveWithTheTrafficAndHealthSaysWhenTelegramFallsSilent() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let registry = PrometheusCollectorRegistry()
            let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
            let bot = try await loopback.startBot(metrics: metrics)
            let endpoints = OperatorEndpoints(registry: registry, metrics: metrics, store: bot.database, window: .seconds(60))
            let server = try await Server.start(endpoints)

            try await waitUntil("the first poll") { metrics.lastHeardFromTelegram != nil }
            let quiet = try await server.metrics()
            #expect(quiet["weatherbot_updates_received_total"] ?? 0 == 0)

            // Three chats ask for help; Telegram asks the bot to slow down once.
            telegram.state.withLock { $0.failures["sendMessage"] = [OutboxSenderTests.error(429, "Too Many Requests: retry after 1", retryAfter: 1)] }
            for chat: Int64 in 1...3 { telegram.sendText("/help", from: chat) }
            try await telegram.waitUntil("three answers") { $0.sent.count == 3 }
            // Counted once Telegram's answers came and the deliveries were recorded.
            try await waitUntil("the counts") {
                let samples = try await server.metrics()
                return samples["weatherbot_updates_handled_total"] == 3 && samples[#"weatherbot_replies_total{method="sendMessage",result="ok"}"#] == 3
                    && samples[#"weatherbot_outbox_backlog{lane="interactive"}"#] == 0
            }
            let busy = try await server.metrics()
            #expect(busy["weatherbot_updates_received_total"] == 3)
            #expect(busy[#"weatherbot_replies_total{method="sendMessage",result="ok"}"#] == 3, "\(busy)")
            #expect(busy[#"weatherbot_replies_total{method="sendMessage",result="rate_limited"}"#] == 1, "\(busy)")
            #expect(busy["weatherbot_telegram_rate_limited_total"] == 1)
            #expect(busy["weatherbot_step_duration_seconds_count"] == 3)
            #expect(busy[#"weatherbot_outbox_backlog{lane="interactive"}"#] == 0)
            #expect(busy[#"weatherbot_outbox_backlog{lane="bulk"}"#] == 0)
            #expect(busy[#"weatherbot_outbox_oldest_age_seconds{lane="interactive"}"#] == 0)

            // A city and its weather: a reverse geocoding and a forecast from OpenWeather, then
            // the same weather again from the cache.
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: 4)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(4).last).messageID, in: 4)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            telegram.sendText("/weather", from: 4)
            try await telegram.waitUntil("the second card") { state in state.sent.filter { $0.text.contains("Ощущается как") }.count == 2 }
            try await waitUntil("the second card counted") { try await server.metrics()["weatherbot_weather_cache_hits_total"] == 1 }
            let weather = try await server.metrics()
            #expect(weather[#"weatherbot_openweather_calls_total{endpoint="reverse"}"#] == 1, "\(weather)")
            #expect(weather[#"weatherbot_openweather_calls_total{endpoint="forecast"}"#] == 1, "\(weather)")
            #expect(weather[#"weatherbot_openweather_requests_total{endpoint="reverse"}"#] == 1, "\(weather)")
            #expect(weather[#"weatherbot_openweather_requests_total{endpoint="onecall"}"#] == 1, "\(weather)")
            #expect(weather["weatherbot_weather_cache_misses_total"] == 1, "\(weather)")

            let healthy = try await server.get("healthz")
            #expect(healthy.status == 200)
            #expect(String(decoding: healthy.body, as: UTF8.self).hasPrefix(#"{"status":"ok","telegram_seconds_ago":"#))

            // A minute and more later without a poll's answer, the verdict changes.
            let later = await endpoints.health(at: .now + .seconds(90))
            #expect(later.status == .serviceUnavailable)

            try await bot.stop()
            await server.stop()
            await loopback.shutdown()
        }

        /// A port already taken stops the bot at once with one line naming the address and
        /// HTTP_LISTEN, not NIO's error alone; the token appears nowhere.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashRecoveryTests.executable.path)))
        func aPortAlreadyTakenStopsTheBotWithOneLineNamingHTTPListen() async throws {
            let loopback = try await Loopback()
            // The fake Telegram's own port is taken.
            let taken = try #require(loopback.telegram.url.port)
            let errors = Pipe()
            let process = try CrashRecoveryTests.start(
                loopback, database: ["DATABASE_PATH": loopback.folder.databasePath], settings: ["HTTP_LISTEN": "127.0.0.1:\(taken)"], errors: errors)
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 1, "\(output)")
            #expect(output.contains("the HTTP endpoints cannot listen on 127.0.0.1:\(taken) (HTTP_LISTEN)"), "\(output)")
            #expect(!output.contains(FakeTelegram.token))
            await loopback.shutdown()
        }

        @Test func requestsThatGetNoAnswerAreCountedByKind() async throws {
            let registry = PrometheusCollectorRegistry()
            let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
            let transport = CountingTransport(Unreachable(), metrics: metrics)
            for _ in 0..<2 {
                await #expect(throws: TransportError.self) { _ = try await loopbackSend(through: transport) }
            }
            #expect(registry.emitToString().contains(#"weatherbot_http_client_errors_total{kind="timedOut"} 2"#), "\(registry.emitToString())")
        }

        @Test func withoutAPollSinceTheStartHealthIsUnavailableOnceTheWindowPasses() async throws {
            let started = ContinuousClock.now
            let folder = try TemporaryFolder()
            let endpoints = OperatorEndpoints(
                registry: PrometheusCollectorRegistry(), metrics: BotMetrics(), store: try BotDatabase.open(path: folder.databasePath),
                window: .seconds(30), started: started)
            #expect(await endpoints.health(at: started + .seconds(10)).status == .ok)
            let late = await endpoints.health(at: started + .seconds(45))
            #expect(late.status == .serviceUnavailable)
        }

        /// A chat's answer left waiting over a minute (a stuck or swamped sender) turns the
        /// verdict, though Telegram is heard from.
        @Test func anAnswerWaitingOverAMinuteMakesTheBotUnhealthy() async throws {
            let folder = try TemporaryFolder()
            let store = try BotDatabase.open(path: folder.databasePath)
            let metrics = BotMetrics()
            let endpoints = OperatorEndpoints(registry: PrometheusCollectorRegistry(), metrics: metrics, store: store, window: .seconds(600))
            _ = try await store.receive([(updateID: 1, chatID: 5, payload: Data(#"{"update_id":1}"#.utf8))], lastUpdateID: 1, rebasing: false, at: Date())
            let item = try #require(try await store.pendingInbox().first)
            let chat = ChatRecord(id: 5, language: .ru, state: .idle, createdAt: Date(), updatedAt: Date())
            _ = try await store.commitStep(
                chat: chat, handled: try #require(item.seq), changes: [], replies: [.sendMessage(chatID: 5, text: "Погода")], followUps: [], at: Date())
            metrics.heardFromTelegram()
            #expect(await endpoints.health(at: .now + .seconds(30)).status == .ok)
            let (status, body) = await endpoints.verdict(at: .now + .seconds(90))
            #expect(status == .serviceUnavailable)
            #expect(body.contains("the oldest answer to a chat has waited 8") || body.contains("the oldest answer to a chat has waited 9"), "\(body)")
        }

        /// In webhook mode an unhealthy verdict gives Telegram's reason when it cannot post; a
        /// standby is well as long as it runs.
        @Test func webhookHealthSaysWhyTelegramCannotPostAndAStandbyIsWell() async throws {
            let started = ContinuousClock.now
            let folder = try TemporaryFolder()
            let store = try BotDatabase.open(path: folder.databasePath)
            let metrics = BotMetrics()
            let telegram = TelegramClient(token: "1:x", apiURL: URL(string: "http://127.0.0.1:9")!, transport: Unreachable())
            let receiver = WebhookReceiver(
                settings: .init(url: { _ in URL(string: "https://bot.example.com/telegram")! }, secret: "s"), client: telegram, database: store,
                workers: nil, metrics: metrics, logger: Logger(label: "test"))
            let endpoints = OperatorEndpoints(
                registry: PrometheusCollectorRegistry(), metrics: metrics, store: store, window: .seconds(30), webhook: ("/telegram", receiver),
                started: started)
            metrics.webhookFailing(#"Wrong response from the webhook: 502 "Bad Gateway""#)
            let (status, body) = await endpoints.verdict(at: started + .seconds(45))
            #expect(status == .serviceUnavailable)
            #expect(body.contains(#"Telegram cannot post to the webhook: Wrong response from the webhook: 502 \"Bad Gateway\""#), "\(body)")
            #expect((try? JSONSerialization.jsonObject(with: Data(body.utf8))) != nil, "\(body)")

            let standby = OperatorEndpoints(
                registry: PrometheusCollectorRegistry(), metrics: metrics, store: store, window: .seconds(30), standby: true, started: started)
            #expect(await standby.health(at: started + .seconds(45)).status == .ok)
        }
    }

    /// The endpoints served on an ephemeral loopback port.
    struct Server {
        let url: URL
        let task: Task<Void, any Error>
        let transport = NIOHTTPTransport()

        static func start(_ endpoints: OperatorEndpoints) async throws -> Server {
            let port = Mutex<Int?>(nil)
            var logger = Logger(label: "weatherbot.tests.http")
            logger.logLevel = .critical
            let app = Application(
                router: endpoints.router(), configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }, logger: logger)
            let task = Task { try await app.run() }
            try await waitUntil("the server") { port.withLock { $0 } != nil }
            return Server(url: URL(string: "http://127.0.0.1:\(port.withLock { $0 }!)/")!, task: task)
        }

        func get(_ path: String) async throws -> (status: Int, body: Data) {
            try await loopbackGET(url.appendingPathComponent(path), through: transport)
        }

        /// `/metrics` read as the Prometheus text format: each sample's name with its labels, and its value.
        func metrics() async throws -> [String: Double] {
            let response = try await get("metrics")
            #expect(response.status == 200)
            return prometheusSamples(String(decoding: response.body, as: UTF8.self))
        }

        func stop() async {
            task.cancel()
            _ = try? await task.value
            try? await transport.shutdown()
        }
    }
}

/// Prometheus's text format read back: each sample's name with its labels, and its value.
func prometheusSamples(_ text: String) -> [String: Double] {
    var samples: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
        samples[String(line[..<space])] = value
    }
    return samples
}
