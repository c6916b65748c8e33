public import Logging
public import ServiceLifecycle
import Synchronization
public import TelegramBotAPI
public import WeatherBot

/// Shows «typing…» in a chat whose answer is slow, without making the conversation wait for it.
///
/// The indicator is only sent when the chat's step is still running after `delay`: most answers
/// come from the weather cache within milliseconds, and an indicator would only cost a Bot API
/// call (and could linger after the answer). Each wait is a child task of ``run()``, so none
/// outlives the service.
public final class TelegramChatActivity: ChatActivity, Service, Sendable {
    let client: TelegramClient
    let logger: Logger
    let delay: Duration
    /// The chats whose step asked for the indicator and has not settled, each with its request's number.
    private let pending = Mutex<(nextID: Int, byChat: [Int64: Int])>((0, [:]))
    private let requests: AsyncStream<(chatID: Int64, id: Int)>
    private let continuation: AsyncStream<(chatID: Int64, id: Int)>.Continuation

    /// An indicator sent with `client` once a step has run longer than `delay`.
    public init(client: TelegramClient, logger: Logger, delay: Duration = .milliseconds(500)) {
        self.client = client
        self.logger = logger
        self.delay = delay
        (requests, continuation) = AsyncStream.makeStream()
    }

    /// Asks for «печатает…» in the chat, sent only if its step has not settled after the delay; a request while one waits is dropped.
    public func typing(in chatID: Int64) async {
        let id = pending.withLock { pending -> Int? in
            guard pending.byChat[chatID] == nil else { return nil }
            pending.nextID += 1
            pending.byChat[chatID] = pending.nextID
            return pending.nextID
        }
        if let id { continuation.yield((chatID, id)) }
    }

    /// The chat's step is done: an indicator not sent yet is not needed any more.
    public func settled(in chatID: Int64) {
        _ = pending.withLock { $0.byChat.removeValue(forKey: chatID) }
    }

    /// Waits out each request's delay in a child task and shows the indicator where the step is
    /// still running then; ends at a graceful shutdown, once the waits in progress are over.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for await request in requests.cancelOnGracefulShutdown() {
                group.addTask { [self] in
                    guard (try? await Task.sleep(for: delay)) != nil, isPending(request) else { return }
                    do {
                        try await client.sendChatAction(chatID: request.chatID, action: .typing)
                    } catch {
                        logger.debug("typing indicator not shown", metadata: ["chat.id": "\(request.chatID)", "error": "\(error)"])
                    }
                    pending.withLock { pending in
                        if pending.byChat[request.chatID] == request.id { pending.byChat[request.chatID] = nil }
                    }
                }
            }
        }
    }

    private func isPending(_ request: (chatID: Int64, id: Int)) -> Bool {
        pending.withLock { $0.byChat[request.chatID] == request.id }
    }
}
