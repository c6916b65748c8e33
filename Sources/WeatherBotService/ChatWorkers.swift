public import BotClock
import DequeModule
import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
import TelegramBotAPI
public import WeatherBot
public import WeatherBotStore

/// Runs the conversation for every chat with work in the inbox: chats concurrently, each chat
/// strictly in order, at most `maximumConcurrentChats` at a time.
///
/// Each item is handled in one step and committed in one transaction (state, inbox removal,
/// replies, follow-ups). On graceful shutdown the chats in flight finish their current item; what
/// is left stays in the inbox and is handled after the restart.
public actor ChatWorkers: Service {
    private let database: any BotStore
    private let conversation: Conversation
    private let activity: (any ChatActivity)?
    private let outbox: OutboxSender?
    private let logger: Logger
    /// The time commits are stamped with.
    private let clock: any WallClock
    private let maximumConcurrentChats: Int
    /// Counts the steps and times them.
    private let metrics: BotMetrics

    private var pending: [Int64: Deque<Work>] = [:]
    /// The inbox items queued or being handled: an item is queued once, however it comes.
    private var known: Set<Int64> = []
    /// While the inbox is read for items other replicas took, the items finished meanwhile: the
    /// read may still see them.
    private var finishedDuringRead: Set<Int64>?
    private var pendingCount = 0
    private var ready = Deque<Int64>()
    private var running: Set<Int64> = []
    /// Set by a graceful shutdown or a damaged file; read wherever the workers decide to go on.
    private let stopping = Mutex(false)
    /// Why the workers stopped, when the database file is damaged.
    private var damage: (any Error)?
    private let wake = WakeSignal()
    private let capacity = WakeSignal()
    /// Whether the items left in the inbox by the last run are queued (or the workers stopped
    /// before): the poller commits nothing before, or those items would be read twice.
    private var loaded = false
    private let loadedSignal = WakeSignal()
    /// This bot's username, once getMe told it: commands for other bots are ignored.
    private let botUsername = Mutex<String?>(nil)

    public init(
        database: any BotStore, conversation: Conversation, activity: (any ChatActivity)? = nil, outbox: OutboxSender?, logger: Logger,
        clock: any WallClock = SystemWallClock(), maximumConcurrentChats: Int = 64, metrics: BotMetrics = BotMetrics()
    ) {
        self.metrics = metrics
        self.database = database
        self.conversation = conversation
        self.activity = activity
        self.outbox = outbox
        self.logger = logger
        self.clock = clock
        self.maximumConcurrentChats = maximumConcurrentChats
    }

    /// Tells the workers this bot's username.
    public nonisolated func identify(as username: String?) {
        botUsername.withLock { $0 = username }
    }

    /// Items committed to the inbox and not yet handled.
    public var backlog: Int { pendingCount }

    /// An inbox item and, when the poller just decoded it, its update, so it is not decoded again.
    struct Work: Sendable {
        var item: InboxItem
        var update: Update?
    }

    /// Queues committed inbox items for their chats.
    public func enqueue(_ items: [InboxItem]) {
        enqueue(items.map { Work(item: $0) })
    }

    /// Queues committed inbox items with the updates they hold.
    func enqueue(_ items: [InboxItem], updates: [Update?]) {
        enqueue(zip(items, updates).map { Work(item: $0, update: $1) })
    }

    private func enqueue(_ items: [Work]) {
        for work in items {
            let item = work.item
            if let seq = item.seq, !known.insert(seq).inserted { continue }
            pending[item.chatId, default: []].append(work)
            pendingCount += 1
            if pending[item.chatId]!.count == 1 && !running.contains(item.chatId) {
                ready.append(item.chatId)
            }
        }
        if !items.isEmpty { wake.signal() }
    }

    private func markLoaded() {
        loaded = true
        loadedSignal.signal()
    }

    /// Queues the inbox items other replicas took from Telegram's posts into the shared inbox;
    /// returns how many. Each goes to its chat's queue in the order of the inbox.
    @discardableResult
    public func adoptPending() async throws -> Int {
        guard loaded, !isStopping else { return 0 }
        finishedDuringRead = []
        defer { finishedDuringRead = nil }
        let items = try await database.pendingInbox()
        let finished = finishedDuringRead ?? []
        var adopted = 0
        for item in items {
            guard let seq = item.seq, !finished.contains(seq), known.insert(seq).inserted else { continue }
            // Before the chat's items queued here that came later (posted to this replica meanwhile).
            let position = pending[item.chatId].map { queue in queue.firstIndex { ($0.item.seq ?? .max) > seq } ?? queue.endIndex } ?? 0
            pending[item.chatId, default: []].insert(Work(item: item), at: position)
            pendingCount += 1
            adopted += 1
            if pending[item.chatId]?.count == 1 && !running.contains(item.chatId) { ready.append(item.chatId) }
        }
        if adopted > 0 { wake.signal() }
        return adopted
    }

    /// Waits until the items the last run left in the inbox are queued. The poller's first batch
    /// waits for it: read by a store on the network, the inbox could otherwise hold that batch
    /// already and queue it twice, or after later updates of the same chats.
    public func waitUntilLoaded() async {
        while !loaded && !isStopping {
            await loadedSignal.wait(timeout: .milliseconds(200))
        }
    }

    /// Waits until the backlog is below `limit`, so the poller does not run far ahead of the chats.
    public func waitForRoom(below limit: Int) async {
        while pendingCount >= limit && !isStopping {
            await capacity.wait(timeout: .milliseconds(200))
        }
    }

    /// Handling an item is given up after this many attempts, counted across restarts: it is set
    /// aside, so that no single item can stop its chat or, crashing the process, the bot.
    static let maximumAttempts = 5

    public func run() async throws {
        do {
            try await database.beginRun()
            enqueue(try await database.pendingInbox())
            markLoaded()
        } catch {
            stop()
            markLoaded()
            throw error
        }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while !isStopping && !Task.isCancelled {
                    while running.count < maximumConcurrentChats, let chatID = nextReadyChat() {
                        running.insert(chatID)
                        group.addTask { await self.drain(chatID) }
                    }
                    await wake.wait(timeout: .seconds(1))
                }
            }
        } onGracefulShutdown: {
            self.stop()
        }
        logger.info("chat workers stopped", metadata: ["inbox.left": "\(pendingCount)"])
        if let damage { throw damage }
        await loggingFailure(logger) { try await database.endRun() }
    }

    /// The database file is damaged: the workers stop, and their service fails with the error.
    private func stop(damaged error: any Error) {
        logger.critical("the database is damaged; stopping", metadata: ["error": "\(error)"])
        damage = error
        stop()
    }

    private nonisolated func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
        capacity.signal()
    }

    private func nextReadyChat() -> Int64? {
        ready.popFirst()
    }

    /// The chat's next item, or nil (and the chat leaves `running`) when it has none or the workers
    /// stop; `finished` is the item handled before, which may now be queued again should it come.
    private func take(_ chatID: Int64, finished: Int64?) -> Work? {
        if let finished {
            known.remove(finished)
            finishedDuringRead?.insert(finished)
        }
        guard !isStopping, let item = pending[chatID]?.popFirst() else {
            running.remove(chatID)
            if pending[chatID]?.isEmpty ?? false { pending[chatID] = nil }
            wake.signal()
            return nil
        }
        pendingCount -= 1
        capacity.signal()
        return item
    }

    private nonisolated func drain(_ chatID: Int64) async {
        var finished: Int64?
        while let work = await take(chatID, finished: finished) {
            await handle(work)
            finished = work.item.seq
        }
    }

    // MARK: One item

    private nonisolated func handle(_ work: Work) async {
        let item = work.item
        // Made only when something is logged: most steps log nothing at the usual levels.
        lazy var logger = Self.logger(self.logger, for: item)
        guard let seq = item.seq else { return }

        guard let event = Self.event(of: item, update: work.update, botUsername: botUsername.withLock { $0 }) else {
            logger.notice("inbox item dropped: nothing to handle in it")
            await loggingFailure(logger) { try await database.discardInboxItem(seq: seq, chatID: item.chatId) }
            return
        }
        if item.attempts >= Self.maximumAttempts,
            await setAside(item, event, attempts: item.attempts, error: "the worker stopped while handling it, \(item.attempts) times", logger: logger)
        {
            return
        }
        var backoff = Backoff()
        var failures = 0
        let started = ContinuousClock.now
        // Gives up (thrown by `failed`) when the item is set aside, the file is damaged or the workers stop.
        try? await backoff.retry {
            let chat = try await database.chat(item.chatId)
            let step = await conversation.handle(event, chat: chat)
            defer { activity?.settled(in: item.chatId) }
            let replies = step.replies.map { $0.request(chatID: item.chatId) }
            let encoder = JSONEncoder()
            let followUps = try step.followUps.map { try encoder.encode($0) }
            let written = try await database.commitStep(
                chat: step.chat, handled: seq, changes: step.changes, replies: replies, followUps: followUps, at: clock.date)
            metrics.handled(took: ContinuousClock.now - started)
            self.logger.debug(
                "handled",
                metadata: Self.metadata(of: item).merging(["replies": "\(replies.count)", "followUps": "\(followUps.count)"]) { $1 })
            outbox?.committed(
                zip(written.replyIDs, replies).map { QueuedReply(id: $0, chatID: item.chatId, lane: .interactive, request: $1) },
                emptying: step.changes.contains(.forgetChat) ? item.chatId : nil)
            if !written.followUps.isEmpty { await enqueueFollowUps(written.followUps) }
        } failed: { error, delay in
            // Only the database can fail here; the item stays in the inbox and is tried again,
            // up to its last attempt. A damaged file stops the bot instead.
            if database.isDamage(error) {
                await stop(damaged: error)
                throw error
            }
            // Only a commit refused for what the step wrote counts against the item; a full
            // disk or a busy database is waited out, as long as it takes.
            if database.isRejection(error) { failures += 1 }
            if item.attempts + failures >= Self.maximumAttempts,
                await setAside(item, event, attempts: item.attempts + failures, error: database.describe(error), logger: logger)
            {
                throw error
            }
            logger.error("could not commit a step; trying again", metadata: ["error": "\(database.describe(error))", "retry.in": "\(delay.logDescription)"])
            if isStopping { throw CancellationError() }
        }
    }

    private nonisolated var isStopping: Bool { stopping.withLock { $0 } }

    /// Gives up on an item: it goes to the table of items set aside, with its error, and its chat
    /// is told that its message could not be handled. False when that could not be written: the
    /// item stays, to be tried again.
    private nonisolated func setAside(_ item: InboxItem, _ event: Conversation.Event, attempts: Int, error: String, logger: Logger) async -> Bool {
        logger.error("inbox item set aside after failing", metadata: ["attempts": "\(attempts)", "error": "\(error)"])
        let stored = (try? await database.chat(item.chatId))??.language
        let language = if case .incoming(let incoming) = event { incoming.language } else { stored ?? .ru }
        let apology = Reply.send(text: Texts.for(language).couldNotHandle).request(chatID: item.chatId)
        do {
            if let id = try await database.setAside(item, attempts: attempts, error: error, apology: apology, at: clock.date) {
                outbox?.committed([QueuedReply(id: id, chatID: item.chatId, lane: .interactive, request: apology)])
            }
            return true
        } catch {
            logger.error("could not set an inbox item aside; trying it again", metadata: ["error": "\(database.describe(error))"])
            return false
        }
    }

    /// The item's chat and update ids, as log metadata.
    private static func metadata(of item: InboxItem) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["chat.id": "\(item.chatId)"]
        if let updateID = item.updateId { metadata["update.id"] = "\(updateID)" }
        return metadata
    }

    /// The workers' logger with the item's ids as metadata.
    private static func logger(_ base: Logger, for item: InboxItem) -> Logger {
        var logger = base
        for (key, value) in metadata(of: item) { logger[metadataKey: key] = value }
        return logger
    }

    /// Follow-ups go to the end of their chat's queue; the chat is running, so it will reach them.
    private func enqueueFollowUps(_ items: [InboxItem]) {
        for item in items {
            if let seq = item.seq { known.insert(seq) }
            pending[item.chatId, default: []].append(Work(item: item))
            pendingCount += 1
        }
    }

    private nonisolated func loggingFailure(_ logger: Logger, _ body: @Sendable () async throws -> Void) async {
        do { try await body() } catch { logger.error("database error", metadata: ["error": "\(database.describe(error))"]) }
    }

    /// The conversation event an inbox item holds; nil when it holds nothing to answer.
    static func event(of item: InboxItem, update decoded: Update? = nil, botUsername: String?) -> Conversation.Event? {
        switch item.kind {
        case .update:
            guard let update = decoded ?? (try? TelegramJSON.decoder().decode(Update.self, from: item.payload)),
                let incoming = UpdateRouter.route(update, botUsername: botUsername), incoming.chatID == item.chatId
            else { return nil }
            return .incoming(incoming)
        case .followUp:
            guard let followUp = try? JSONDecoder().decode(FollowUp.self, from: item.payload) else { return nil }
            return .followUp(followUp, chatID: item.chatId)
        }
    }
}
