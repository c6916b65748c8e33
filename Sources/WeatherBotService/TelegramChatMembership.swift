import Foundation
public import Logging
import Synchronization
public import TelegramBotAPI
public import WeatherBot

/// Tells a group's administrators with `getChatMember`, each answer remembered for a minute: a
/// member pressing buttons in turn costs one request, not one each, and a promotion or a demotion
/// counts within the minute.
public final class TelegramChatMembership: ChatMembership, Sendable {
    private struct Key: Hashable {
        var chatID: Int64
        var userID: Int64
    }

    private let client: TelegramClient
    private let logger: Logger
    private let memory: Duration
    private let answers = Mutex<[Key: (isAdministrator: Bool, until: ContinuousClock.Instant)]>([:])

    /// Membership asked with `client`, each answer trusted for `memory`.
    public init(client: TelegramClient, logger: Logger, memory: Duration = .seconds(60)) {
        self.client = client
        self.logger = logger
        self.memory = memory
    }

    /// Whether the member administers the group; false when Telegram could not say, and the next press asks again.
    public func isAdministrator(_ userID: Int64, of chatID: Int64) async -> Bool {
        let key = Key(chatID: chatID, userID: userID)
        let now = ContinuousClock.now
        if let known = answers.withLock({ $0[key] }), known.until > now { return known.isAdministrator }
        do {
            let isAdministrator = try await client.getChatMember(chatID: chatID, userID: userID).isAdministrator
            answers.withLock { answers in
                // Old answers go when the map grows; it holds only members who pressed lately.
                if answers.count > 10_000 { answers = answers.filter { $0.value.until > now } }
                answers[key] = (isAdministrator, now + memory)
            }
            return isAdministrator
        } catch {
            // Unknown is not an administrator; the next press asks again.
            logger.warning("getChatMember failed", metadata: ["chat.id": "\(chatID)", "error": "\(error)"])
            return false
        }
    }
}
