import Foundation
import Logging
import ServiceLifecycle
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
        self.pacer = DeliveryPacer(
            globalRate: messagesPerSecond, globalBurst: max(1, Int(messagesPerSecond)),
            chatRate: messagesPerSecondPerChat, chatBurst: 3)
        self.maximumConcurrentChats = maximumConcurrentChats
        self.maximumAttempts = maximumAttempts
        self.drainTimeout = drainTimeout
    }

    /// Tells the sender that new replies were committed.
    public func wake() {
        wakeSignal.signal()
    }

    public func run() async throws {
        let state = SenderState()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    if let deadline = await state.deadline {
                        let backlog = (try? database.outboxBacklog()) ?? 0
                        if backlog == 0 || ContinuousClock.now >= deadline { break }
                    }
                    let busy = await state.busy
                    let room = maximumConcurrentChats - busy.count
                    let heads = room > 0 ? ((try? database.dueOutboxHeads(excluding: busy, limit: room)) ?? []) : []
                    for item in heads {
                        await state.begin(item.chatId)
                        group.addTask {
                            await self.deliver(item)
                            await state.end(item.chatId)
                            self.wakeSignal.signal()
                        }
                    }
                    if heads.isEmpty || room <= heads.count {
                        await wakeSignal.wait(timeout: await nextWait())
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            let deadline = ContinuousClock.now + self.drainTimeout
            Task { await state.setDeadline(deadline); self.wakeSignal.signal() }
        }
        logger.info("outbox sender stopped", metadata: ["outbox.left": "\((try? database.outboxBacklog()) ?? -1)"])
    }

    /// How long to sleep when nothing is due: until the next retry, at most a second.
    private func nextWait() async -> Duration {
        guard let due = try? database.nextOutboxDue() else { return .seconds(1) }
        let seconds = due.timeIntervalSinceNow
        return .milliseconds(Int(min(max(seconds, 0.01), 1) * 1000))
    }

    // MARK: One reply

    func deliver(_ item: OutboxItem) async {
        guard let id = item.id else { return }
        var logger = logger
        logger[metadataKey: "chat.id"] = "\(item.chatId)"
        guard let reply = try? JSONDecoder().decode(Reply.self, from: item.payload) else {
            logger.error("undecodable reply dropped from the outbox")
            record { try database.completeOutbox(id: id, chatID: item.chatId) }
            return
        }
        if case .answer = reply {} else {
            let wait = await pacer.reserve(chatID: item.chatId)
            if wait > .zero { try? await Task.sleep(for: wait) }
        }
        do {
            let sent = try await send(reply, chatID: item.chatId, logger: logger)
            record { try database.completeOutbox(id: id, chatID: item.chatId, tag: sent.tag, messageID: sent.messageID) }
        } catch {
            handle(error, item: item, id: id, logger: logger)
            if error.isRateLimited { await pacer.pause(for: Double(error.retryAfter ?? 1)) }
        }
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

    private func handle(_ error: TelegramError, item: OutboxItem, id: Int64, logger: Logger) {
        if error.isForbidden {
            logger.notice("the bot may not write to this chat; its replies are dropped", metadata: ["error": "\(error)"])
            record { try database.deactivateChat(item.chatId) }
        } else if error.isRateLimited {
            let wait = Double(error.retryAfter ?? 1)
            logger.warning("Telegram asked to slow down", metadata: ["retry.after": "\(wait)"])
            record { try database.retryOutbox(id: id, chatID: item.chatId, notBefore: Date().addingTimeInterval(wait)) }
        } else if error.isTransient && item.attempts + 1 < maximumAttempts {
            let delay = Backoff.delay(afterFailures: item.attempts + 1, initial: .seconds(1), maximum: .seconds(300))
            logger.warning("reply not sent; will retry", metadata: ["error": "\(error)", "retry.in": "\(delay.logDescription)"])
            record { try database.retryOutbox(id: id, chatID: item.chatId, notBefore: Date().addingTimeInterval(delay.timeInterval)) }
        } else {
            logger.error("reply dropped", metadata: ["error": "\(error)", "attempts": "\(item.attempts + 1)"])
            record { try database.completeOutbox(id: id, chatID: item.chatId) }
        }
    }

    private func record(_ body: () throws -> Void) {
        do { try body() } catch { logger.error("database error in the outbox", metadata: ["error": "\(error)"]) }
    }
}

/// Which chats have a reply in flight, and when a graceful shutdown must end.
private actor SenderState {
    var busy: Set<Int64> = []
    var deadline: ContinuousClock.Instant?

    func begin(_ chatID: Int64) { busy.insert(chatID) }
    func end(_ chatID: Int64) { busy.remove(chatID) }
    func setDeadline(_ instant: ContinuousClock.Instant) { deadline = instant }
}
