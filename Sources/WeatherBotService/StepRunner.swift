import BotClock
import Foundation
import Logging
import TelegramBotAPI
import WeatherBot
import WeatherBotStore

/// Handles one inbox item: decodes its event, runs the conversation's step and commits it in one
/// transaction (state, inbox removal, replies, follow-ups), then hands the replies to the sender.
/// An item that failed ``maximumAttempts`` times is set aside, its chat told so.
struct StepRunner: Sendable {
    let database: any BotStore
    let conversation: Conversation
    let activity: (any ChatActivity)?
    let outbox: OutboxSender?
    /// Told of each committed chat, so notices follow a change at once.
    let notices: NoticeChecker?
    let logger: Logger
    /// The time commits are stamped with.
    let clock: any WallClock
    /// Counts the steps and times them.
    let metrics: BotMetrics
    /// Whether the workers stop: a failing commit is not tried again then.
    let isStopping: @Sendable () -> Bool

    private var faults: StoreFaults { StoreFaults(metrics: metrics, logger: logger) }

    /// Handling an item is given up after this many attempts, counted across restarts: it is set
    /// aside, so that no single item can stop its chat or, crashing the process, the bot.
    static let maximumAttempts = 5

    /// The database file is damaged: the step stopped, and so must the workers.
    struct Damaged: Error {
        let error: any Error
    }

    /// Handles `queued`; returns the follow-ups its step committed, for the end of its chat's queue.
    func handle(_ queued: QueuedItem, botUsername: String?) async throws(Damaged) -> [InboxItem] {
        let item = queued.item
        // Made only when something is logged: most steps log nothing at the usual levels.
        lazy var logger = Self.logger(self.logger, for: item)
        // An item of a batch not stored yet has no inbox item until its step is offered to the batch.
        let receipt = item.seq == nil ? queued.receipt : nil
        guard item.seq != nil || receipt != nil else { return [] }

        guard let event = Self.event(of: item, update: queued.update, botUsername: botUsername) else {
            logger.notice("inbox item dropped: nothing to handle in it")
            var seq = item.seq
            if let receipt, let updateID = item.updateID { seq = await receipt.skip(updateID) }
            if let seq { await loggingFailure(logger) { try await database.discardInboxItem(seq: seq, chatID: item.chatID) } }
            return []
        }
        if item.attempts >= Self.maximumAttempts,
            await setAside(item, event, attempts: item.attempts, error: "the worker stopped while handling it, \(item.attempts) times", logger: logger)
        {
            return []
        }
        var backoff = Backoff()
        var failures = 0
        var followUps: [InboxItem] = []
        var damage: (any Error)?
        let started = ContinuousClock.now
        // The item as stored: an item of a batch stored after its step came learns its `seq` then.
        var stored = item
        // Gives up (thrown by `failed`) when the item is set aside, the file is damaged or the workers stop.
        try? await backoff.retry {
            let chat = try await database.chat(item.chatID)
            // OpenWeather's calls for this step are the chat's, counted against its share: the
            // conversation pays each with the chat it handles.
            let step = await conversation.handle(event, chat: chat)
            defer { activity?.settled(in: item.chatID) }
            var replies = step.replies.map { $0.request(chatID: item.chatID) }
            if queued.tellsOfFlood {
                // The chat's oldest waiting updates were dropped: said once, before this answer.
                let language = Self.language(of: event, stored: step.chat.language)
                replies.insert(Reply.send(text: Texts.for(language).tooManyMessages).request(chatID: item.chatID), at: 0)
            }
            let encoder = JSONEncoder()
            let encodedFollowUps = try step.followUps.map { try encoder.encode($0) }
            var written: CommittedStep?
            if let receipt, stored.seq == nil, let updateID = item.updateID {
                let offered = ReceivedStep(updateID: updateID, chat: step.chat, changes: step.changes, replies: replies, followUps: encodedFollowUps)
                switch await receipt.offer(offered) {
                case .committed(let committed): written = committed
                case .stored(let seq): stored.seq = seq
                case .dropped:
                    // Not stored, so not confirmed: Telegram sends the update again.
                    self.logger.debug("handled, but its batch was not stored: nothing sent", metadata: Self.metadata(of: item))
                    return
                }
            }
            if written == nil, let seq = stored.seq {
                written = try await database.commitStep(
                    chat: step.chat, handled: seq, changes: step.changes, replies: replies, followUps: encodedFollowUps, at: clock.date)
            }
            guard let written else { return }
            faults.committed()
            metrics.handled(took: ContinuousClock.now - started)
            self.logger.debug(
                "handled",
                metadata: Self.metadata(of: item).merging(["replies": "\(replies.count)", "followUps": "\(encodedFollowUps.count)"]) { $1 })
            outbox?.committed(
                zip(written.replyIDs, replies).map { QueuedReply(id: $0, chatID: item.chatID, lane: .interactive, request: $1) },
                emptying: step.changes.contains(.forgetChat) ? item.chatID : nil)
            notices?.chatCommitted(before: chat, after: step.chat, forgotten: step.changes.contains(.forgetChat))
            followUps = written.followUps
        } failed: { error, delay in
            // Only the database can fail here; the item stays in the inbox and is tried again,
            // up to its last attempt. A damaged file, or a replica's lost lease, stops the bot
            // instead, said as what it is.
            if database.isDamage(error) {
                logger.critical("stopping: \(database.describe(error))")
                damage = error
                throw error
            }
            // Only a commit refused for what the step wrote counts against the item; a full
            // disk or a busy database is waited out, as long as it takes.
            if database.isRejection(error) { failures += 1 }
            if item.attempts + failures >= Self.maximumAttempts,
                await setAside(stored, event, attempts: item.attempts + failures, error: database.describe(error), logger: logger)
            {
                throw error
            }
            if database.isRejection(error) {
                logger.error("the database refused a step; trying again", metadata: ["error": "\(database.describe(error))", "retry.in": "\(delay.logDescription)"])
            } else {
                faults.failed(database.describe(error), "a step", retryIn: delay)
            }
            if isStopping() { throw CancellationError() }
        }
        if let damage { throw Damaged(error: damage) }
        return followUps
    }

    /// Gives up on an item: it goes to the table of items set aside, with its error, and its chat
    /// is told that its message could not be handled. False when that could not be written: the
    /// item stays, to be tried again.
    private func setAside(_ item: InboxItem, _ event: Conversation.Event, attempts: Int, error: String, logger: Logger) async -> Bool {
        logger.error("inbox item set aside after failing", metadata: ["attempts": "\(attempts)", "error": "\(error)"])
        let language = Self.language(of: event, stored: (try? await database.chat(item.chatID))??.language)
        let apology = Reply.send(text: Texts.for(language).couldNotHandle).request(chatID: item.chatID)
        do {
            let id = try await database.setAside(item, attempts: attempts, error: error, apology: apology, at: clock.date)
            faults.committed()
            if let id {
                outbox?.committed([QueuedReply(id: id, chatID: item.chatID, lane: .interactive, request: apology)])
            }
            return true
        } catch {
            logger.error("could not set an inbox item aside; trying it again", metadata: ["error": "\(database.describe(error))"])
            return false
        }
    }

    /// The language to tell a chat something outside the conversation in: its sender's, or the
    /// chat's stored one for a follow-up.
    private static func language(of event: Conversation.Event, stored: Language?) -> Language {
        if case .incoming(let incoming) = event { incoming.language } else { stored ?? .ru }
    }

    /// The item's chat and update ids, as log metadata.
    private static func metadata(of item: InboxItem) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["chat.id": "\(item.chatID)"]
        if let updateID = item.updateID { metadata["update.id"] = "\(updateID)" }
        return metadata
    }

    /// The workers' logger with the item's ids as metadata.
    private static func logger(_ base: Logger, for item: InboxItem) -> Logger {
        var logger = base
        for (key, value) in metadata(of: item) { logger[metadataKey: key] = value }
        return logger
    }

    private func loggingFailure(_ logger: Logger, _ body: @Sendable () async throws -> Void) async {
        do { try await body() } catch { logger.error("database error", metadata: ["error": "\(database.describe(error))"]) }
    }

    /// The conversation event an inbox item holds; nil when it holds nothing to answer.
    static func event(of item: InboxItem, update decoded: Update? = nil, botUsername: String?) -> Conversation.Event? {
        switch item.kind {
        case .update:
            guard let update = decoded ?? (try? TelegramJSON.decoder().decode(Update.self, from: item.payload)),
                let incoming = UpdateRouter.route(update, botUsername: botUsername), incoming.chatID == item.chatID
            else { return nil }
            return .incoming(incoming)
        case .followUp:
            guard let followUp = try? JSONDecoder().decode(FollowUp.self, from: item.payload) else { return nil }
            return .followUp(followUp, chatID: item.chatID)
        }
    }
}
