import Foundation
import Prometheus
import Testing
import WeatherBotHTTP
import WeatherBotService
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// One chat sending far faster than it is answered stops no one else.
    @Suite(.serialized) struct FloodEndToEndTests {
        /// 2,000 names from one chat at once, each a look-up at OpenWeather, then one message from
        /// each of five other chats: the others are answered while the flooder's first names are
        /// still being looked up, the flooder is told once that it is answered on its latest
        /// messages, and what was dropped is counted.
        @Test(arguments: StoreEngine.available, Intake.allCases)
        func aChatsFloodHoldsUpNoOtherChat(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let flooder: Int64 = 7
            for number in 1...2_000 { telegram.sendText("погода в Флудбург\(number)", from: flooder) }
            let others: [Int64] = [101, 102, 103, 104, 105]
            for chat in others { telegram.sendText("/help", from: chat) }
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)), registry: registry)

            try await telegram.waitUntil(timeout: .seconds(120), "every other chat answered") { state in
                Set(state.sent.map(\.chatID)).isSuperset(of: others)
            }
            // The names looked up by then: behind a queue of the flooder's, the others would have
            // waited for a thousand of them or more.
            let looked = Self.floodNamesLookedUp(loopback.weather)
            #expect(looked < 300, "\(looked) of the flooder's names looked up before the other chats were answered")
            for chat in others {
                #expect(telegram.state.withLock { $0.sent.filter { $0.chatID == chat }.count } == 1)
            }

            // The flooder: polled, its updates come a hundred at a time, far faster than a name is
            // looked up, and all but its latest are dropped; told once, before the first answer.
            // Posted to a webhook, they come one at a time as each is stored, and are dropped
            // only if they come faster than they are handled.
            try await telegram.waitUntil(timeout: .seconds(30), "the flooder answered") { state in
                state.sent.contains { $0.chatID == flooder }
            }
            try await Task.sleep(for: .seconds(3))
            let flooded = telegram.state.withLock { $0.sent.filter { $0.chatID == flooder } }
            let dropped = prometheusSamples(registry.emitToString())[#"weatherbot_updates_dropped_total{reason="flood"}"#] ?? 0
            let notices = flooded.filter { $0.text == "✋ Слишком много сообщений подряд, отвечаю на последние" }
            if intake == .polling {
                #expect(dropped >= 1_500, "\(dropped) dropped")
                #expect(notices.count == 1 && flooded.first == notices.first, "\(flooded.prefix(3).map(\.text))")
            } else {
                // Dropped, if at all, midway: the notice comes after the answers queued before it.
                #expect(notices.count <= 1)
                if dropped == 0 { #expect(notices.isEmpty) }
            }
            try await bot.stop()
            // Nothing dropped is left in the inbox to come back after a restart: at most the
            // flooder's share of fifty waits, or (by webhook) what Telegram had posted of it.
            if intake == .polling { #expect(try await bot.database.pendingInbox().count <= 50) }
            await loopback.shutdown()
        }

        /// 1,000 presses of one card's button at once: those dropped as a flood are answered all
        /// the same, with a short toast in the presser's language, so no button spins.
        @Test func pressesDroppedInAFloodAreAnswered() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let chat: Int64 = 8
            let bot = try await loopback.startBot()
            telegram.sendText("/search Казань", from: chat, language: "en")
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.chatID == chat && $0.text.contains("Feels like") } }
            let card = try #require(telegram.screen(chat).last)
            try await bot.stop()
            // Pressed while the bot was down: they come all at once.
            for _ in 0..<1_000 { try telegram.press("Hourly", on: card.messageID, in: chat, language: "en") }
            let again = try await loopback.startBot()
            try await telegram.waitUntil(timeout: .seconds(60), "every press answered") { state in state.answers.count >= 1_000 }
            let toasts = telegram.state.withLock { $0.answerTexts.filter { $0 == "✋ Too many presses in a row; the latest one counts" } }
            // Polled a hundred at a time, all but the chat's latest fifty of each batch are dropped.
            #expect(toasts.count >= 500, "\(toasts.count) toasts")
            #expect(Set(telegram.state.withLock { $0.answers }).count == 1_000)
            try await again.stop()
            await loopback.shutdown()
        }

        /// The distinct «Флудбург N» names OpenWeather was asked to find.
        static func floodNamesLookedUp(_ weather: FakeOpenWeather) -> Int {
            Set(
                weather.server.requests.compactMap { request -> String? in
                    guard request.path == "/geo/1.0/direct", let name = request.query["q"], name.hasPrefix("Флудбург") else { return nil }
                    return String(name.drop { !$0.isNumber })
                }
            ).count
        }
    }
}
