import BotClock
import Foundation
public import WeatherBot
public import WeatherBotStore

/// Makes the changes the Mini App asks for. Each is a follow-up of the user's private chat: put in
/// the chat's inbox and handled by the chat's worker in order with its messages, through the same
/// conversation, so the chat and the app never disagree and the chat hears of it as after the
/// command. The app's answer waits until the step is handled, then shows what the chat now holds.
public struct AppChanges: Sendable {
    let database: any BotStore
    let workers: ChatWorkers

    /// Changes made over `database` and handled by `workers`.
    public init(database: any BotStore, workers: ChatWorkers) {
        self.database = database
        self.workers = workers
    }

    /// Asks for `action` in the private chat `chatID` of a user who reads `language` in Telegram;
    /// true once it was handled, false when it was not within `patience` (it is still in the
    /// inbox and will be: the screen shows the chat as it is meanwhile). Throws when it could not
    /// be stored.
    public func make(_ action: AppAction, chatID: Int64, language: Language, patience: Duration = .seconds(10)) async throws -> Bool {
        let payload = try JSONEncoder().encode(FollowUp.app(action, language: language))
        let item = try await database.enqueueFollowUp(payload, chatID: chatID)
        let (handled, told) = AsyncStream<Void>.makeStream()
        await workers.enqueue([
            QueuedItem(item) {
                told.yield()
                told.finish()
            }
        ])
        let done = try? await Deadline.within(patience) {
            for await _ in handled { return true }
            return false
        }
        return done ?? false
    }
}
