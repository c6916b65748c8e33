import Foundation
import Prometheus
import TelegramBotAPI
import Testing
import WeatherBotHTTP
import WeatherBotService
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// One chat's replies, sent at that chat's pace of one a second, never fill the sender's
    /// window the other chats' replies need.
    @Suite(.serialized) struct ReplyStormEndToEndTests {
        /// Five other chats send /help: how long until each is answered.
        static func othersAnswered(_ telegram: FakeTelegram, giveUpAfter timeout: Duration) async throws -> Duration {
            let others: [Int64] = [101, 102, 103, 104, 105]
            for chat in others { telegram.sendText("/help", from: chat) }
            let asked = ContinuousClock.now
            try await telegram.waitUntil(timeout: timeout, "every other chat answered") { state in
                Set(state.sent.map(\.chatID)).isSuperset(of: others)
            }
            return ContinuousClock.now - asked
        }

        /// 2,000 presses of a card's view buttons, then one message from each of five other chats,
        /// with a window of 400 replies: the presses' edits collapse into the latest, the others
        /// are answered at once, and the card ends on the view last pressed.
        @Test(arguments: StoreEngine.available, Intake.allCases)
        func aStormOfButtonPressesHoldsUpNoOtherChat(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(
                outbox: .init(window: 400), metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)), registry: registry)
            let stormer: Int64 = 7
            telegram.sendText("/weather", from: stormer)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.chatID == stormer && $0.text.contains("Ощущается как") } }
            let card = try #require(telegram.screen(stormer).last)
            let markup = try #require(card.markup)
            let hourly = try #require(FakeTelegram.callbackData("По часам", in: markup))
            let daily = try #require(FakeTelegram.callbackData("На 7 дней", in: markup))
            // Each press is answered, or dropped as the chat's flood (then Telegram's spinner ends by
            // itself). Pressed forty at a time, as fast as they are answered, none is dropped: every
            // press makes an edit for the outbox.
            func dropped() -> Int { Int(prometheusSamples(registry.emitToString())[#"weatherbot_updates_dropped_total{reason="flood"}"#] ?? 0) }
            for batch in 0..<50 {
                for press in 1...40 { telegram.pressRaw(data: press.isMultiple(of: 2) ? daily : hourly, on: card.messageID, in: stormer) }
                try await telegram.waitUntil(timeout: .seconds(30), "the presses handled") { $0.answers.count + dropped() >= 40 * (batch + 1) }
            }

            // Behind 400 of the stormer's edits, read again only once 200 were sent, the others
            // would wait 200 seconds.
            let waited = try await Self.othersAnswered(telegram, giveUpAfter: .seconds(20))
            #expect(waited < .seconds(10), "the others waited \(waited)")

            // Every press is answered; the card shows the view pressed last, after a few edits.
            try await telegram.waitUntil(timeout: .seconds(60), "every press answered") { $0.answers.count + dropped() == 2_000 }
            try await telegram.waitUntil(timeout: .seconds(30), "the card on the last view") { state in
                state.edits.last { $0.chatID == stormer }?.text.contains("на 7 дней") == true
            }
            try await Task.sleep(for: .seconds(2))
            let edits = telegram.state.withLock { $0.edits.filter { $0.chatID == stormer }.count }
            #expect(edits < 100, "\(edits) edits made of 2,000 presses")
            #expect(telegram.screen(stormer).first { $0.messageID == card.messageID }?.text.contains("на 7 дней") == true)
            // Each press's edit was made, superseded by a later one, or not made: the card showed it already.
            let samples = prometheusSamples(registry.emitToString()).filter { $0.key.hasPrefix("weatherbot_replies_total") }
            let superseded = samples.filter { $0.key.contains(#"result="superseded""#) }.values.reduce(0, +)
            let unchanged = samples.filter { $0.key.contains(#"result="unchanged""#) }.values.reduce(0, +)
            #expect(Int(superseded) + Int(unchanged) + edits >= 1_999 - dropped(), "\(superseded) superseded, \(unchanged) unchanged")
            #expect(try await bot.database.outboxBacklog() == 0)
            try await bot.stop()
            await loopback.shutdown()
        }

        /// 320 messages from one chat, each answered with a new message at that chat's pace, with
        /// a window of 100 and a share of 10 per chat: the others are answered at once, and every
        /// one of the flooder's answers is sent or waits its turn in the table.
        @Test(arguments: StoreEngine.available)
        func aChatsRepliesBeyondItsShareWaitInTheTableWhileTheOthersGo(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(
                outbox: .init(messagesPerSecondPerChat: 2, window: 100, chatShare: 10),
                metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)), registry: registry)
            let flooder: Int64 = 7
            // Sent forty at a time, as fast as they are handled, none is dropped as a flood.
            for batch in 0..<8 {
                for _ in 1...40 { telegram.sendText("/help", from: flooder) }
                let handled = 40 * (batch + 1)
                let deadline = ContinuousClock.now + .seconds(30)
                while try await bot.database.outboxBacklog() + telegram.state.withLock({ $0.sent.count }) < handled {
                    guard ContinuousClock.now < deadline else { throw FakeTelegram.TimedOut(what: "\(handled) of the flooder's messages handled") }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }

            // Behind 100 of the flooder's replies, read again only once 50 were sent at two a
            // second, the others would wait 25 seconds.
            let waited = try await Self.othersAnswered(telegram, giveUpAfter: .seconds(40))
            #expect(waited < .seconds(8), "the others waited \(waited)")
            try await Task.sleep(for: .seconds(6))
            try await bot.stop()

            // Nothing lost: each message handled has its answer sent or waiting in the table.
            let samples = prometheusSamples(registry.emitToString())
            let dropped = Int(samples[#"weatherbot_updates_dropped_total{reason="flood"}"#] ?? 0)
            let sent = telegram.state.withLock { $0.sent.filter { $0.chatID == flooder } }
            let notices = sent.filter { $0.text.hasPrefix("✋") }.count
            let waiting = try await bot.database.outboxItems(lane: .interactive, chatID: flooder, from: .min, limit: 1_000)
            let noticesWaiting = waiting.filter { $0.request.map { String(decoding: $0.parameters, as: UTF8.self).contains("✋") } ?? false }.count
            #expect(sent.count - notices + waiting.count - noticesWaiting == 320 - dropped, "\(sent.count) sent, \(waiting.count) waiting, \(dropped) dropped")
            #expect(sent.count > 20, "the flooder's answers went on at its pace")
            await loopback.shutdown()
        }
    }
}
