import Foundation
import GRDB
import HTTPTransport
import Prometheus
import Testing
import WeatherBotHTTP
import WeatherBotPostgres
import WeatherBotService
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Webhook mode: the real worker's HTTP server takes the updates the fake Bot API posts, and
    /// requests sent to it directly, over loopback.
    @Suite(.serialized) struct WebhookTests {
        /// A text message from a private chat, as Telegram posts it.
        static func update(_ id: Int, text: String, chat: Int64) -> Data {
            Data(
                #"{"update_id":\#(id),"message":{"message_id":\#(id),"date":1700000000,"chat":{"id":\#(chat),"type":"private"},"from":{"id":\#(chat),"is_bot":false,"first_name":"U","language_code":"en"},"text":"\#(text)"}}"#
                    .utf8)
        }

        static let secretHeader = "X-Telegram-Bot-Api-Secret-Token"

        @Test(arguments: StoreEngine.available)
        func theWebhookIsSetOnceTheServerListensAndPollingAgainRemovesIt(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, intake: .webhook)
            let telegram = loopback.telegram
            let registry = PrometheusCollectorRegistry()
            let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
            let bot = try await loopback.startBot(metrics: metrics, registry: registry)
            let url = try await bot.webhookURL()
            try await telegram.waitUntil("the webhook") { $0.webhook != nil }
            let hook = try #require(telegram.state.withLock { $0.webhook })
            #expect(hook.url == url)
            #expect(hook.secret == Intake.secret)
            #expect(hook.allowedUpdates == Poller.allowedUpdates)
            #expect(hook.maxConnections == 8)

            telegram.sendText("/help", from: 1, language: "en")
            try await telegram.waitUntil("the answer") { $0.sent.contains { $0.chatID == 1 } }
            #expect(telegram.state.withLock { $0.posts.map(\.status) } == [200])
            // /metrics, on the same server, counts what came by the webhook.
            let transport = NIOHTTPTransport()
            let metricsURL = url.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("metrics")
            try await waitUntil("the answer counted") {
                let samples = prometheusSamples(String(decoding: try await loopbackGET(metricsURL, through: transport).body, as: UTF8.self))
                return samples[#"weatherbot_webhook_requests_total{result="accepted"}"#] == 1 && samples["weatherbot_updates_handled_total"] == 1
                    && samples[#"weatherbot_replies_total{method="sendMessage",result="ok"}"#] == 1
            }
            try await bot.stop()
            // The webhook stays while the bot is stopped: Telegram keeps the updates for it.
            #expect(telegram.state.withLock { $0.webhookCalls } == [url.absoluteString])

            // Started again polling, the bot removes the webhook and takes updates by getUpdates.
            let polling = try await BotHarness(
                store: loopback.postgres.map { .postgres(url: $0.url) } ?? .file(loopback.folder.databasePath), telegramURL: telegram.url,
                weatherURL: loopback.weather.url, intake: .polling)
            #expect(telegram.state.withLock { $0.webhookCalls } == [url.absoluteString, ""])
            telegram.sendText("/help", from: 1, language: "en")
            try await telegram.waitUntil("the answer to a poll") { $0.sent.filter { $0.chatID == 1 }.count == 2 }
            #expect(telegram.state.withLock { $0.posts.count } == 1)
            try await polling.stop()
            try await transport.shutdown()
            await loopback.shutdown()
        }

        @Test func aWebhookTelegramRefusesStopsTheBotSayingWhy() async throws {
            let loopback = try await Loopback(intake: .webhook)
            loopback.telegram.state.withLock {
                $0.failures["setWebhook"] = [
                    .json(["ok": false, "error_code": 400, "description": "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"], status: 400)
                ]
            }
            let bot = try await loopback.startBot()
            do {
                try await bot.running.value
                Issue.record("the bot ran on without its webhook")
            } catch let refused as WebhookReceiver.Refused {
                #expect(refused.description.contains("ports 80, 88, 443 or 8443"))
                #expect(refused.description.contains(Intake.path))
                #expect(!refused.description.contains(FakeTelegram.token))
            }
            await loopback.shutdown()
        }

        /// Another deployment, or a database started afresh, set the same URL with another secret:
        /// the bot refuses Telegram's posts, sees it in getWebhookInfo, and sets its own again.
        @Test func aWebhookSetElsewhereWithAnotherSecretIsSetAgain() async throws {
            let loopback = try await Loopback(intake: .webhook)
            let telegram = loopback.telegram
            let registry = PrometheusCollectorRegistry()
            let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
            let bot = try await loopback.startBot(metrics: metrics, registry: registry)
            try await telegram.waitUntil("the webhook") { $0.webhook != nil }
            telegram.state.withLock { $0.webhook?.secret = "another-deployments-secret" }
            telegram.sendText("/help", from: 5, language: "en")
            try await telegram.waitUntil("a refused post") { $0.posts.contains { $0.status == 401 } }
            try await telegram.waitUntil(timeout: .seconds(15), "the answer after the webhook was set again") { $0.sent.contains { $0.chatID == 5 } }
            #expect(telegram.state.withLock { $0.webhookCalls.count } == 2)
            #expect(telegram.state.withLock { $0.webhook?.secret } == Intake.secret)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func aRequestWithoutTheSecretOrWithAWrongOneIsRefusedAndNothingIsStored() async throws {
            let loopback = try await Loopback(intake: .webhook)
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)), registry: registry)
            let url = try await bot.webhookURL()
            let transport = NIOHTTPTransport()
            let body = Self.update(1, text: "/help", chat: 7)
            var wrong = Intake.secret
            wrong.removeLast()
            for headers in [[:], [Self.secretHeader: ""], [Self.secretHeader: wrong], [Self.secretHeader: wrong + "1"], [Self.secretHeader: Intake.secret + "x"]] {
                let answer = try await loopbackPOST(url, body: body, headers: headers, through: transport)
                #expect(answer.status == 401, "\(headers)")
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await bot.database.pendingInbox().isEmpty)
            #expect(loopback.telegram.state.withLock { $0.sent.isEmpty })
            #expect(try await bot.database.chat(7) == nil)
            // The right secret: taken.
            let right = try await loopbackPOST(url, body: body, headers: [Self.secretHeader: Intake.secret], through: transport)
            #expect(right.status == 200)
            try await loopback.telegram.waitUntil("the answer") { $0.sent.contains { $0.chatID == 7 } }
            var emitted: [UInt8] = []
            registry.emit(into: &emitted)
            let samples = prometheusSamples(String(decoding: emitted, as: UTF8.self))
            #expect(samples[#"weatherbot_webhook_requests_total{result="unauthorized"}"#] == 5)
            #expect(samples[#"weatherbot_webhook_requests_total{result="accepted"}"#] == 1)
            try await bot.stop()
            try await transport.shutdown()
            await loopback.shutdown()
        }

        @Test func aBodyOverOneMebibyteIsRefusedAndABodyThatIsNoUpdateIsABadRequest() async throws {
            let loopback = try await Loopback(intake: .webhook)
            let bot = try await loopback.startBot()
            let url = try await bot.webhookURL()
            let transport = NIOHTTPTransport()
            let headers = [Self.secretHeader: Intake.secret, "Content-Type": "application/json"]
            // A message of text just over the limit.
            let padding = String(repeating: "a", count: OperatorEndpoints.webhookBodyLimit)
            let large = try await loopbackPOST(url, body: Self.update(1, text: padding, chat: 7), headers: headers, through: transport)
            #expect(large.status == 413)
            let noUpdate = try await loopbackPOST(url, body: Data(#"{"hello":"world"}"#.utf8), headers: headers, through: transport)
            #expect(noUpdate.status == 400)
            let notJSON = try await loopbackPOST(url, body: Data("update".utf8), headers: headers, through: transport)
            #expect(notJSON.status == 400)
            // An update of a kind the bot does not read is answered and dropped, as in polling.
            let unknown = try await loopbackPOST(url, body: Data(#"{"update_id":5,"poll":{"id":"1"}}"#.utf8), headers: headers, through: transport)
            #expect(unknown.status == 200)
            #expect(try await bot.database.pendingInbox().isEmpty)
            // The server still takes what fits.
            let small = try await loopbackPOST(url, body: Self.update(2, text: "/help", chat: 7), headers: headers, through: transport)
            #expect(small.status == 200)
            try await loopback.telegram.waitUntil("the answer") { $0.sent.contains { $0.chatID == 7 } }
            try await bot.stop()
            try await transport.shutdown()
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available)
        func anUpdatePostedAgainIsAnsweredAndHandledOnce(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, intake: .webhook)
            let bot = try await loopback.startBot()
            let url = try await bot.webhookURL()
            let transport = NIOHTTPTransport()
            let headers = [Self.secretHeader: Intake.secret]
            let body = Self.update(41, text: "/help", chat: 9)
            // Telegram posts again when its first request timed out: twice at once, and once more later.
            async let first = loopbackPOST(url, body: body, headers: headers, through: transport)
            async let second = loopbackPOST(url, body: body, headers: headers, through: transport)
            #expect(try await [first.status, second.status] == [200, 200])
            try await loopback.telegram.waitUntil("the answer") { $0.sent.contains { $0.chatID == 9 } }
            #expect(try await loopbackPOST(url, body: body, headers: headers, through: transport).status == 200)
            try await Task.sleep(for: .milliseconds(500))
            #expect(loopback.telegram.state.withLock { $0.sent.filter { $0.chatID == 9 }.count } == 1)
            try await bot.stop()
            // And after a restart.
            let again = try await loopback.startBot()
            #expect(try await loopbackPOST(try await again.webhookURL(), body: body, headers: headers, through: transport).status == 200)
            try await Task.sleep(for: .milliseconds(500))
            #expect(loopback.telegram.state.withLock { $0.sent.filter { $0.chatID == 9 }.count } == 1)
            try await again.stop()
            try await transport.shutdown()
            await loopback.shutdown()
        }

        /// The store refuses writes for a while (read-only): the update's post is answered 500,
        /// Telegram posts it again, and once the store writes again it is taken and answered once.
        @Test func anUpdateThatCouldNotBeStoredIsPostedAgainAndAnsweredOnce() async throws {
            let loopback = try await Loopback(intake: .webhook)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            try await telegram.waitUntil("the webhook") { $0.webhook != nil }
            try await bot.file.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = ON") }
            telegram.sendText("/help", from: 3, language: "en")
            try await telegram.waitUntil("two refused posts") { $0.posts.filter { $0.status == 500 }.count >= 2 }
            #expect(telegram.state.withLock { $0.sent.isEmpty })
            try await bot.file.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = OFF") }
            try await telegram.waitUntil("the answer") { $0.sent.contains { $0.chatID == 3 } }
            try await Task.sleep(for: .milliseconds(300))
            let posts = telegram.state.withLock { $0.posts }
            #expect(posts.last?.status == 200)
            #expect(posts.filter { $0.status == 200 }.count == 1)
            #expect(telegram.state.withLock { $0.sent.filter { $0.chatID == 3 }.count } == 1)
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
