public import Logging
import Synchronization
public import TelegramBotAPI
public import WeatherBot

/// Shows «typing…» in a chat whose answer is slow, without making the conversation wait for it.
///
/// The indicator is only sent when the chat's step is still running after `delay`: most answers
/// come from the weather cache within milliseconds, and an indicator would only cost a Bot API
/// call (and could linger after the answer).
public final class TelegramChatActivity: ChatActivity, Sendable {
    private struct Pending {
        var id: Int
        var task: Task<Void, Never>
    }

    let client: TelegramClient
    let logger: Logger
    let delay: Duration
    private let pending = Mutex<(nextID: Int, byChat: [Int64: Pending])>((0, [:]))

    public init(client: TelegramClient, logger: Logger, delay: Duration = .milliseconds(500)) {
        self.client = client
        self.logger = logger
        self.delay = delay
    }

    public func typing(in chatID: Int64) async {
        pending.withLock { pending in
            guard pending.byChat[chatID] == nil else { return }
            pending.nextID += 1
            let id = pending.nextID
            let task = Task { [client, logger, delay] in
                guard (try? await Task.sleep(for: delay)) != nil else { return }
                do {
                    try await client.sendChatAction(chatID: chatID, action: .typing)
                } catch {
                    logger.debug("typing indicator not shown", metadata: ["chat.id": "\(chatID)", "error": "\(error)"])
                }
                self.forget(chatID, id: id)
            }
            pending.byChat[chatID] = Pending(id: id, task: task)
        }
    }

    /// The chat's step is done: an indicator not sent yet is not needed any more.
    public func settled(in chatID: Int64) {
        pending.withLock { $0.byChat.removeValue(forKey: chatID) }?.task.cancel()
    }

    private func forget(_ chatID: Int64, id: Int) {
        pending.withLock { pending in
            if pending.byChat[chatID]?.id == id { pending.byChat[chatID] = nil }
        }
    }
}
