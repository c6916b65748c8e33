public import BotClock
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
/// It only orchestrates: ``ChatQueues`` decides which chat and item go next, ``StepRunner``
/// handles an item. On graceful shutdown the chats in flight finish their current item; what is
/// left stays in the inbox and is handled after the restart.
public actor ChatWorkers: Service {
    private let database: any BotStore
    private let steps: StepRunner
    private let logger: Logger
    private let maximumConcurrentChats: Int
    private let outbox: OutboxSender?

    private var queues: ChatQueues
    private let metrics: BotMetrics
    /// Set by a graceful shutdown or a damaged file; read wherever the workers decide to go on.
    private let stopping = StopFlag()
    /// Why the workers stopped, when the database file is damaged.
    private var damage: (any Error)?
    /// Whether the items left in the inbox by the last run are queued (or the workers stopped
    /// before): the poller commits nothing before, or those items would be read twice.
    private var loaded = false
    /// Signalled whenever the queues, `loaded` or `stopping` change: the run loop and the intake
    /// waiting for the backlog to shrink look again.
    private let changes = ChangeSignal()
    /// This bot's username, once getMe told it: commands for other bots are ignored.
    private let botUsername = Mutex<String?>(nil)

    /// Workers over `database`, handling each item with `conversation`; `chatBacklogLimit` is the most updates one chat may have waiting.
    public init(
        database: any BotStore, conversation: Conversation, activity: (any ChatActivity)? = nil, outbox: OutboxSender?, notices: NoticeChecker? = nil,
        logger: Logger, clock: any WallClock = SystemWallClock(), maximumConcurrentChats: Int = 64, chatBacklogLimit: Int = 50,
        metrics: BotMetrics = BotMetrics()
    ) {
        queues = ChatQueues(chatLimit: chatBacklogLimit)
        self.metrics = metrics
        let stopping = stopping
        self.database = database
        self.steps = StepRunner(
            database: database, conversation: conversation, activity: activity, outbox: outbox, notices: notices, logger: logger, clock: clock,
            metrics: metrics, isStopping: { stopping.isSet })
        self.logger = logger
        self.maximumConcurrentChats = maximumConcurrentChats
        self.outbox = outbox
    }

    /// Tells the workers this bot's username.
    public nonisolated func identify(as username: String?) {
        botUsername.withLock { $0 = username }
    }

    /// Items committed to the inbox and not yet handled.
    public var backlog: Int { queues.backlog }

    /// Queues committed inbox items for their chats. A chat's updates beyond its share are
    /// dropped from the inbox before this returns (``ChatQueues``).
    public func enqueue(_ items: [QueuedItem]) async {
        let queued = queues.enqueue(items, chatsAtOnce: maximumConcurrentChats)
        if queued.any { changes.signal() }
        // A batch not stored yet waits for no step that cannot start at once.
        for behind in queued.behind { if let updateID = behind.item.updateID { behind.receipt?.release(updateID) } }
        await discard(queued.dropped)
    }

    /// Removes the updates a flooding chat had waiting beyond its share from the inbox (or from
    /// the batch not stored yet that brought them), and counts them. One that cannot be removed
    /// stays in the inbox and is handled after a restart.
    /// A press among them is answered with a short notice, so its button stops spinning.
    private func discard(_ dropped: [QueuedItem]) async {
        guard !dropped.isEmpty else { return }
        metrics.droppedForFlood(dropped.count)
        outbox?.answerUnhandled(dropped.compactMap(Self.unhandledPress))
        for queued in dropped { queued.handled?() }
        await withTaskGroup(of: Void.self) { group in
            for queued in dropped {
                let item = queued.item
                if let receipt = queued.receipt, item.seq == nil, let updateID = item.updateID {
                    // Still open while the intake hands the batch over: nothing to remove.
                    group.addTask { [database] in
                        if let seq = await receipt.skip(updateID) { try? await database.discardInboxItem(seq: seq, chatID: item.chatID) }
                    }
                    continue
                }
                guard let seq = item.seq else { continue }
                group.addTask { [database, logger] in
                    do {
                        try await database.discardInboxItem(seq: seq, chatID: item.chatID)
                    } catch {
                        logger.error("could not drop a flooding chat's update", metadata: ["chat.id": "\(item.chatID)", "error": "\(database.describe(error))"])
                    }
                }
            }
        }
    }

    /// The press an update dropped unhandled holds, with its toast in the presser's language.
    private static func unhandledPress(_ queued: QueuedItem) -> OutboxSender.UnhandledPress? {
        guard queued.item.kind == .update else { return nil }
        // Only a press is read back from its stored form.
        if queued.update == nil && queued.item.payload.firstRange(of: Data("callback_query".utf8)) == nil { return nil }
        let update = queued.update ?? (try? TelegramJSON.decoder().decode(Update.self, from: queued.item.payload))
        guard let press = update?.callbackQuery else { return nil }
        return OutboxSender.UnhandledPress(queryID: press.id, text: Texts.for(Language(telegramCode: press.from.languageCode)).tooManyPresses)
    }

    /// Queues the inbox items other replicas took from Telegram's posts into the shared inbox;
    /// returns how many. Each goes to its chat's queue in the order of the inbox.
    @discardableResult
    public func adoptPending() async throws -> Int {
        guard loaded, !isStopping else { return 0 }
        queues.beginAdoption()
        let items: [InboxItem]
        do {
            items = try await database.pendingInbox()
        } catch {
            queues.abandonAdoption()
            throw error
        }
        let (adopted, dropped) = queues.adopt(items)
        if adopted > 0 { changes.signal() }
        await discard(dropped)
        return adopted
    }

    /// Waits until the items the last run left in the inbox are queued. The poller's first batch
    /// waits for it: read by a store on the network, the inbox could otherwise hold that batch
    /// already and queue it twice, or after later updates of the same chats.
    public func waitUntilLoaded() async {
        while !Task.isCancelled {
            let seen = changes.generation
            if loaded || isStopping { return }
            await changes.wait(since: seen)
        }
    }

    /// Waits until the backlog is below `limit`, so the poller does not run far ahead of the chats.
    public func waitForRoom(below limit: Int) async {
        while !Task.isCancelled {
            let seen = changes.generation
            if queues.backlog < limit || isStopping { return }
            await changes.wait(since: seen)
        }
    }

    /// Queues what the last run left in the inbox, then handles chats until a graceful shutdown.
    /// Throws when the database fails at the start, or is found damaged.
    public func run() async throws {
        do {
            try await database.beginRun()
            let left = queues.enqueue(try await database.pendingInbox().map { QueuedItem($0) })
            markLoaded()
            await discard(left.dropped)
        } catch {
            stop()
            markLoaded()
            throw error
        }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while !isStopping && !Task.isCancelled {
                    let seen = changes.generation
                    while let chatID = queues.startNextChat(limit: maximumConcurrentChats) {
                        group.addTask { await self.drain(chatID) }
                    }
                    await changes.wait(since: seen)
                }
            }
        } onGracefulShutdown: {
            self.stop()
        }
        logger.info("chat workers stopped", metadata: ["inbox.left": "\(queues.backlog)"])
        if let damage { throw damage }
        do { try await database.endRun() } catch { logger.error("database error", metadata: ["error": "\(database.describe(error))"]) }
    }

    private func markLoaded() {
        loaded = true
        changes.signal()
    }

    private nonisolated var isStopping: Bool { stopping.isSet }

    private nonisolated func stop() {
        stopping.set()
        changes.signal()
    }

    /// The chat's next item, or nil when it has none or the workers stop.
    private func take(_ chatID: Int64, finished: Int64?, followUps: [InboxItem]) -> QueuedItem? {
        queues.enqueueFollowUps(followUps)
        let next = queues.take(chatID, finished: finished, stopping: isStopping)
        // An item taken makes room for the intake; a chat stopped makes room for another chat.
        changes.signal()
        return next
    }

    private nonisolated func drain(_ chatID: Int64) async {
        var finished: Int64?
        var followUps: [InboxItem] = []
        while let queued = await take(chatID, finished: finished, followUps: followUps) {
            do {
                followUps = try await steps.handle(queued, botUsername: botUsername.withLock { $0 })
            } catch {
                await stop(damaged: error.error)
                followUps = []
            }
            queued.handled?()
            finished = queued.item.seq
        }
    }

    /// The database file is damaged: the workers stop, and their service fails with the error.
    private func stop(damaged error: any Error) {
        damage = error
        stop()
    }
}

/// Whether the workers stop: set once, read by every chat's step.
private final class StopFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
