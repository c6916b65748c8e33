import Foundation
import Testing
@testable import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Chatting while a broadcast drains, through the real worker over loopback HTTP, at
    /// Telegram's 30 messages a second.
    @Suite(.serialized) struct BroadcastWithChatEndToEndTests {
        let chatID: Int64 = 909
        static let subscribers = 400

        /// Chats subscribed to a forecast due in an hour, in four places.
        func seed(_ loopback: Loopback, dueAt due: Date) async throws {
            try await loopback.withStore { store in
                for id in 1...Self.subscribers {
                    let place = Place(
                        name: "Place \(id % 4)", localNames: ["ru": "Место \(id % 4)"], country: "RU", latitude: 54 + Double(id % 4),
                        longitude: 45, timeZone: "Europe/Moscow")
                    let chat = ChatRecord(id: Int64(10_000 + id), language: .ru, state: .idle, currentPlace: place)
                    let subscription = Subscription(chatID: chat.id, place: place, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: due)
                    _ = try await store.commitStep(chat: chat, handled: -1, changes: [.subscribe(subscription, limit: 1)], replies: [], followUps: [], at: Date())
                }
            }
        }

        static func forecasts(_ state: FakeTelegram.State) -> Int {
            state.sent.filter { $0.text.contains("Прогноз на сегодня") }.count
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func aChatIsAnsweredWithinTwoSecondsWhileABroadcastGoesOut(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            try await seed(loopback, dueAt: Date().addingTimeInterval(3_600))
            let clock = ShiftedClock()
            let bot = try await loopback.startBot(clock: clock, schedulerInterval: .milliseconds(100))

            // The chat's question is waiting for its «Да» when the broadcast starts.
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            let question = try #require(telegram.screen(chatID).last)
            clock.shift(by: 3_601)
            try await telegram.waitUntil("the broadcast under way") { Self.forecasts($0) >= 60 }

            let asked = ContinuousClock.now
            telegram.sendText("/help", from: chatID)
            try telegram.press("Да, всё верно", on: question.messageID, in: chatID)
            try await telegram.waitUntil(timeout: .seconds(2), "the answers") { state in
                state.sent.contains { $0.chatID == chatID && $0.text.contains("/search") }  // /help
                    && state.answers.count == 1  // the button's spinner stops
                    && state.sent.contains { $0.chatID == chatID && $0.text.contains("Ощущается как") }  // the card
            }
            let waited = ContinuousClock.now - asked
            // Still under way: the chat did not wait for the broadcast to finish.
            let delivered = telegram.state.withLock { Self.forecasts($0) }
            #expect(delivered < Self.subscribers, "answered in \(waited) after \(delivered) forecasts")

            // The broadcast finishes at about 30 a second, each subscriber served once.
            try await telegram.waitUntil(timeout: .seconds(30), "every forecast") { Self.forecasts($0) == Self.subscribers }
            try await Task.sleep(for: .milliseconds(300))
            let recipients = telegram.state.withLock { state in state.sent.filter { $0.text.contains("Прогноз на сегодня") }.map(\.chatID) }
            #expect(Set(recipients).count == Self.subscribers && recipients.count == Self.subscribers)
            #expect(try await bot.database.outboxBacklog() == 0)
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
