import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TelegramBotAPI
import WeatherBot
import WeatherBotStore

/// Sends committed replies: each chat's in order, chats concurrently, within Telegram's limits.
///
/// A reply leaves the outbox only once Telegram accepted it, so a crash between the two sends it
/// again (at least once). 429 is honoured with `retry_after`; 5xx and network errors are retried
/// with backoff; 403 drops the chat's replies and marks it inactive; «message is not modified» is
/// success; an edit whose message is gone becomes a new message; an answer to a query that is too
/// old is dropped. On graceful shutdown it keeps sending for up to `drainTimeout`.
public final class OutboxSender: Service, Sendable {
    private let database: BotDatabase
    private let client: TelegramClient
    private let logger: Logger
    private let pacer: DeliveryPacer
    private let wakeSignal = WakeSignal()
    private let queue = Mutex(SenderState())
    private let maximumConcurrentChats: Int
    private let maximumAttempts: Int
    private let drainTimeout: Duration

    public init(
        database: BotDatabase,
        client: TelegramClient,
        logger: Logger,
        messagesPerSecond: Double = 30,
        messagesPerSecondPerChat: Double = 1,
        maximumConcurrentChats: Int = 32,
        maximumAttempts: Int = 10,
        drainTimeout: Duration = .seconds(10)
    ) {
        self.database = database
        self.client = client
        self.logger = logger
        self.pacer = DeliveryPacer(messagesPerSecond: messagesPerSecond, messagesPerSecondPerChat: messagesPerSecondPerChat)
        self.maximumConcurrentChats = maximumConcurrentChats
        self.maximumAttempts = maximumAttempts
        self.drainTimeout = drainTimeout
    }

    /// Hands over replies just committed to the outbox under `ids`, so that sending them needs no
    /// reading back and decoding. Replies not handed over (or not kept, beyond `keptReplies`) are
    /// read from the outbox when their turn comes.
    public func committed(_ replies: [Reply], ids: [Int64], chatID: Int64) {
        queue.withLock { state in
            // The sender often reads a reply from the outbox before it is handed over (another
            // chat's commit woke it). That reply is kept while it still waits in the window; one
            // sent meanwhile is not, or it would never be let go.
            for (id, reply) in zip(ids, replies) where state.replies.count < Self.keptReplies {
                if id > state.queue.lastID || state.queue.holds(id, chatID: chatID) {
                    state.replies[id] = KeptReply(chatID: chatID, reply: reply)
                }
            }
        }
    }

    /// Forgets the replies handed over for a chat: its outbox was emptied (reset).
    public func forgetReplies(chatID: Int64) {
        queue.withLock { $0.forgetReplies(chatID: chatID) }
    }

    /// How many committed replies are kept in memory at most.
    static let keptReplies = 10_000

    /// How many replies handed over are held now.
    var keptReplyCount: Int { queue.withLock { $0.replies.count } }

    /// Tells the sender that new replies were committed.
    public func wake() {
        queue.withLock { $0.fresh = true }
        wakeSignal.signal()
    }

    public func run() async throws {
        let deadline = Mutex<ContinuousClock.Instant?>(nil)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    refill()
                    let (started, left) = queue.withLock { state in
                        var started: [OutboxEntry] = []
                        while state.queue.inFlight < maximumConcurrentChats, let entry = state.queue.next(now: Date()) {
                            started.append(entry)
                        }
                        return (started, state.queue.count)
                    }
                    if let deadline = deadline.withLock({ $0 }), left == 0 || ContinuousClock.now >= deadline { break }
                    for entry in started {
                        group.addTask {
                            await self.deliver(entry)
                            self.wakeSignal.signal()
                        }
                    }
                    await wakeSignal.wait(timeout: nextWait())
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            deadline.withLock { $0 = ContinuousClock.now + self.drainTimeout }
            self.wake()
        }
        logger.info("outbox sender stopped", metadata: ["outbox.left": "\((try? database.outboxBacklog()) ?? -1)"])
    }

    /// Reads the replies committed since the last read, when there may be some and there is room:
    /// after a wake-up, when the window ran full, and once a second in case a wake-up was missed.
    private func refill() {
        let (after, room) = queue.withLock { state -> (Int64, Int) in
            let now = ContinuousClock.now
            guard state.fresh || state.queue.wantsMore || now - state.lastRead >= .seconds(1), state.queue.room > 0 else { return (0, 0) }
            state.fresh = false
            state.lastRead = now
            return (state.queue.lastID, state.queue.room)
        }
        guard room > 0 else { return }
        do {
            let entries = try database.outboxEntries(after: after, limit: room)
            queue.withLock { $0.queue.add(entries, truncated: entries.count == room) }
        } catch {
            queue.withLock { $0.fresh = true }
            logger.error("could not read the outbox", metadata: ["error": "\(error)"])
        }
    }

    /// How long to sleep when nothing is due: until the next retry, at most a second.
    private func nextWait() -> Duration {
        guard let due = queue.withLock({ $0.queue.nextRetry }) else { return .seconds(1) }
        let seconds = due.timeIntervalSinceNow
        return .milliseconds(Int(min(max(seconds, 0.01), 1) * 1000))
    }

    // MARK: One reply

    func deliver(_ entry: OutboxEntry) async {
        var logger = logger
        logger[metadataKey: "chat.id"] = "\(entry.chatId)"
        let reply: Reply
        if let kept = queue.withLock({ $0.replies[entry.id] }), kept.chatID == entry.chatId {
            reply = kept.reply
        } else {
            let payload: Data?
            do {
                payload = try database.outboxPayload(id: entry.id, chatID: entry.chatId)
            } catch {
                logger.error("could not read a reply from the outbox; will retry", metadata: ["error": "\(error)"])
                queue.withLock { $0.queue.retry(entry, notBefore: Date().addingTimeInterval(1)) }
                return
            }
            guard let payload else {
                // The chat was reset or blocked the bot since: the reply is no longer wanted.
                queue.withLock { $0.finish(entry) }
                return
            }
            guard let decoded = try? JSONDecoder().decode(Reply.self, from: payload) else {
                logger.error("undecodable reply dropped from the outbox")
                await complete(entry, logger: logger)
                return
            }
            reply = decoded
        }
        if reply.isMessage { await pacer.waitForTurn(chatID: entry.chatId) }
        do {
            let sent: (tag: String?, messageID: Int?)
            do {
                defer { if reply.isMessage { pacer.answered() } }
                sent = try await send(reply, chatID: entry.chatId, logger: logger)
            }
            await complete(entry, tag: sent.tag, messageID: sent.messageID, logger: logger)
        } catch {
            handle(error, entry: entry, logger: logger)
            if error.isRateLimited { pacer.pause(for: Double(error.retryAfter ?? 1)) }
        }
    }

    /// Removes a reply from the outbox; the chat's next reply waits until that is committed, so a
    /// crash repeats at most the one reply per chat that was in flight.
    private func complete(_ entry: OutboxEntry, tag: String? = nil, messageID: Int? = nil, logger: Logger) async {
        var backoff = Backoff()
        while true {
            do {
                try await database.completeDelivered(id: entry.id, chatID: entry.chatId, tag: tag, messageID: messageID)
                break
            } catch {
                let delay = backoff.next()
                logger.error("could not record a delivered reply; trying again", metadata: ["error": "\(error)", "retry.in": "\(delay.logDescription)"])
                if Task.isCancelled { break }
                try? await Task.sleep(for: delay)
            }
        }
        queue.withLock { $0.finish(entry) }
    }

    /// Performs one reply; returns the tag and id of a message it sent, to remember for edits.
    private func send(_ reply: Reply, chatID: Int64, logger: Logger) async throws(TelegramError) -> (tag: String?, messageID: Int?) {
        switch reply {
        case .send(let text, let markup, let tag):
            let message = try await client.sendMessage(chatID: chatID, text: HTML.fitting(text), replyMarkup: markup)
            return (tag, message.messageId)
        case .edit(let target, let text, let keyboard):
            if let messageID = messageID(of: target, chatID: chatID) {
                do {
                    try await client.editMessageText(chatID: chatID, messageID: messageID, text: HTML.fitting(text), replyMarkup: keyboard)
                    return (nil, nil)
                } catch where error.isMessageNotModified {
                    return (nil, nil)
                } catch where error.isMessageUneditable {
                    logger.info("message to edit is gone; sending a new one")
                }
            }
            let message = try await client.sendMessage(chatID: chatID, text: HTML.fitting(text), replyMarkup: keyboard.map(ReplyMarkup.inline))
            if case .tag(let tag) = target { return (tag, message.messageId) }
            return (nil, message.messageId)
        case .editKeyboard(let target, let keyboard):
            guard let messageID = messageID(of: target, chatID: chatID) else { return (nil, nil) }
            do {
                try await client.editMessageReplyMarkup(chatID: chatID, messageID: messageID, replyMarkup: keyboard)
            } catch where error.isMessageNotModified || error.isMessageUneditable {
                logger.debug("buttons left as they were", metadata: ["error": "\(error)"])
            }
            return (nil, nil)
        case .answer(let queryID, let text, let showAlert):
            do {
                try await client.answerCallbackQuery(id: queryID, text: text, showAlert: showAlert)
            } catch where error.isQueryTooOld {
                logger.debug("callback query too old to answer")
            }
            return (nil, nil)
        }
    }

    /// The id of the message an edit applies to; nil when a tagged message was never delivered.
    private func messageID(of target: MessageTarget, chatID: Int64) -> Int? {
        switch target {
        case .id(let id): id
        case .tag(let tag): try? database.messageID(chatID: chatID, tag: tag)
        }
    }

    private func handle(_ error: TelegramError, entry: OutboxEntry, logger: Logger) {
        if error.isForbidden {
            logger.notice("the bot may not write to this chat; its replies are dropped", metadata: ["error": "\(error)"])
            record { try database.deactivateChat(entry.chatId) }
            queue.withLock { state in
                state.queue.drop(chatID: entry.chatId)
                state.forgetReplies(chatID: entry.chatId)
            }
        } else if error.isRateLimited {
            let wait = Double(error.retryAfter ?? 1)
            logger.warning("Telegram asked to slow down", metadata: ["retry.after": "\(wait)"])
            retry(entry, after: wait)
        } else if error.isTransient && entry.attempts + 1 < maximumAttempts {
            let delay = Backoff.delay(afterFailures: entry.attempts + 1, initial: .seconds(1), maximum: .seconds(300))
            logger.warning("reply not sent; will retry", metadata: ["error": "\(error)", "retry.in": "\(delay.logDescription)"])
            retry(entry, after: delay.timeInterval)
        } else {
            logger.error("reply dropped", metadata: ["error": "\(error)", "attempts": "\(entry.attempts + 1)"])
            record { try database.completeOutbox(id: entry.id, chatID: entry.chatId) }
            queue.withLock { $0.finish(entry) }
        }
    }

    private func retry(_ entry: OutboxEntry, after seconds: TimeInterval) {
        let notBefore = Date().addingTimeInterval(seconds)
        record { try database.retryOutbox(id: entry.id, chatID: entry.chatId, notBefore: notBefore) }
        queue.withLock { $0.queue.retry(entry, notBefore: notBefore) }
    }

    private func record(_ body: () throws -> Void) {
        do { try body() } catch { logger.error("database error in the outbox", metadata: ["error": "\(error)"]) }
    }
}

/// A committed reply handed over in memory.
private struct KeptReply {
    var chatID: Int64
    var reply: Reply
}

/// The sender's schedule, whether replies were committed since it last read the outbox, and the
/// replies handed over in memory by id.
private struct SenderState {
    var queue = OutboxQueue()
    var fresh = true
    var lastRead = ContinuousClock.now
    var replies: [Int64: KeptReply] = [:]

    /// The reply left the outbox (delivered or given up).
    mutating func finish(_ entry: OutboxEntry) {
        queue.finish(entry)
        replies[entry.id] = nil
    }

    mutating func forgetReplies(chatID: Int64) {
        replies = replies.filter { $0.value.chatID != chatID }
    }
}
