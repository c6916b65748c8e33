import Foundation
import HTTPTransport
import Logging
import TelegramBotAPI
import Testing
@testable import WeatherBotService
import WeatherBotTesting

extension LoopbackTests {
    /// «typing…» is shown only while a step is slow.
    @Suite struct TelegramChatActivityTests {
        func activity(_ telegram: FakeTelegram) -> TelegramChatActivity {
            let client = TelegramClient(token: FakeTelegram.token, apiURL: telegram.url, transport: NIOHTTPTransport())
            return TelegramChatActivity(client: client, logger: Logger(label: "weatherbot.tests.activity"), delay: .milliseconds(200))
        }

        /// Runs the activity's service around `body`, and stops it after.
        func running(_ activity: TelegramChatActivity, _ body: () async throws -> Void) async throws {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await activity.run() }
                try await body()
                group.cancelAll()
            }
        }

        @Test func aStepThatSettlesQuicklyShowsNoTyping() async throws {
            let telegram = try await FakeTelegram()
            let activity = activity(telegram)
            try await running(activity) {
                await activity.typing(in: 5)
                activity.settled(in: 5)
                try await Task.sleep(for: .milliseconds(500))
                #expect(telegram.state.withLock { $0.chatActions }.isEmpty)
            }
            await telegram.server.shutdown()
        }

        @Test func aSlowStepShowsTypingOnceInItsOwnChat() async throws {
            let telegram = try await FakeTelegram()
            let activity = activity(telegram)
            try await running(activity) {
                await activity.typing(in: 5)
                await activity.typing(in: 5)  // the same step asking again
                await activity.typing(in: 6)
                activity.settled(in: 6)
                try await waitUntil("typing in chat 5") { telegram.state.withLock { $0.chatActions } == [5] }
                activity.settled(in: 5)
                try await Task.sleep(for: .milliseconds(300))
                #expect(telegram.state.withLock { $0.chatActions } == [5])
            }
            await telegram.server.shutdown()
        }

        @Test func aStepThatSettlesAndAsksAgainIsShownTypingOnceForItsNewWait() async throws {
            let telegram = try await FakeTelegram()
            let activity = activity(telegram)
            try await running(activity) {
                await activity.typing(in: 5)
                activity.settled(in: 5)
                await activity.typing(in: 5)  // the chat's next step, while the first wait still sleeps
                try await waitUntil("typing in chat 5") { telegram.state.withLock { $0.chatActions } == [5] }
                try await Task.sleep(for: .milliseconds(300))
                #expect(telegram.state.withLock { $0.chatActions } == [5])
            }
            await telegram.server.shutdown()
        }
    }
}
