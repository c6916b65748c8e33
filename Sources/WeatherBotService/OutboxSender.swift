public import BotClock
import Foundation
import HTTPTransport
import OpenWeather
public import Logging
public import ServiceLifecycle
import Synchronization
public import TelegramBotAPI
public import WeatherBotStore

/// Sends committed replies within Telegram's limits, in three lanes: answers to chats first,
/// notices next (each dropped past its deadline), bulk messages (daily forecasts) with the rest of
/// the rate and a guaranteed share of it; callback answers at once. ``OutboxQueue`` decides what
/// goes when; this is its I/O.
///
/// The outbox table is the durable record and memory the working queue: each commit hands the
/// replies it wrote over (``committed(_:emptying:)``); the table is read at start, and for a lane
/// whose window in memory overflowed once it has room again.
///
/// A reply leaves the outbox only once Telegram accepted it, so a crash between the two sends it
/// again (at least once). 429 is honoured with `retry_after`; 5xx and network errors are retried
/// with backoff; 403 drops the chat's replies and marks it inactive; «message is not modified» is
/// success; an edit whose message is gone becomes a new message; an answer to a query that is too
/// old is dropped. A photo (a chart) is made or found by `photos` when its turn comes, counts as a
/// message, and is retried with backoff while it cannot be made. On graceful shutdown it keeps
/// sending for up to `drainTimeout`.
public final class OutboxSender: Service, Sendable {
    /// Counts the calls by method and outcome.
    private let metrics: BotMetrics
    private let database: any BotStore
    private let client: TelegramClient
    private let photos: (any PhotoSource)?
    /// Whether this replica may still send (it holds the lease); nil for a single process.
    private let deliveryFence: (@Sendable () -> Bool)?
    private let logger: Logger
    /// Signalled when replies come, a delivery or read ends, or a graceful stop begins.
    private let changes = ChangeSignal()
    private let queue: Mutex<OutboxQueue>
    private let maximumMessagesInFlight: Int
    private let maximumAnswersInFlight: Int
    private let maximumAttempts: Int
    private let drainTimeout: Duration
    /// Dates written to the table (a retry's earliest time) are calendar time; the schedule in
    /// memory runs on the monotonic clock from `started`, so pacing never follows the wall clock.
    private let clock: any WallClock
    private let started = ContinuousClock.now
    /// Chats whose message in flight was delivered and whose removal lingers for a commit to
    /// share; none once a graceful stop begins.
    private let lingering = Mutex(Lingering())
    /// What each message was last edited to: an edit to the same again (the second press of a
    /// double tap) is not made, which Telegram would refuse as not modified.
    private let edited = Mutex(EditedMessages())

    private let completionLinger: Duration
    /// Presses dropped unhandled, to be answered with a short notice (``answerUnhandled(_:)``),
    /// and whether a batch of them is being answered: one at a time.
    private let unhandled = Mutex<(waiting: [UnhandledPress], answering: Bool)>(([], false))

    private struct Lingering {
        var chats: Set<Int64> = []
        var stopping = false
    }

    /// - Parameters:
    ///   - photos: makes the charts; nil fails every photo for good (a setup without charts).
    ///   - deliveryFence: whether this replica may still send; nil for a single process.
    ///   - configuration: the rates, windows, attempts and drain time.
    public init(
        database: any BotStore,
        client: TelegramClient,
        photos: (any PhotoSource)? = nil,
        deliveryFence: (@Sendable () -> Bool)? = nil,
        logger: Logger,
        clock: any WallClock = SystemWallClock(),
        configuration: Configuration = Configuration(),
        metrics: BotMetrics = BotMetrics()
    ) {
        self.metrics = metrics
        self.database = database
        self.client = client
        self.photos = photos
        self.deliveryFence = deliveryFence
        self.logger = logger
        self.queue = Mutex(
            OutboxQueue(
                pacing: Pacing(
                    messagesPerSecond: configuration.messagesPerSecond, messagesPerSecondPerChat: configuration.messagesPerSecondPerChat,
                    bulkShare: configuration.bulkShare),
                capacity: configuration.window, chatShare: configuration.chatShare))
        self.maximumMessagesInFlight = configuration.maximumMessagesInFlight
        self.maximumAnswersInFlight = configuration.maximumAnswersInFlight
        self.maximumAttempts = configuration.maximumAttempts
        self.drainTimeout = configuration.drainTimeout
        self.completionLinger = configuration.completionLinger
        self.clock = clock
    }

    /// Sends a message that is not stored (an inline message's edit, `key` naming what it edits)
    /// within the same pacing as the lanes' messages: the overall rate and a chat's pace for the
    /// key, waiting for its slot. A 429 pauses every message for its `retry_after` and is thrown
    /// to the caller, whose next try waits for the pause.
    public func sendUnstored<Result: Sendable>(
        key: String, _ call: @Sendable () async throws(TelegramError) -> Result
    ) async throws(TelegramError) -> Result {
        while let slot = queue.withLock({ $0.takeSlot(for: key, at: now()) }) {
            do {
                try await Task.sleep(until: instant(at: slot), clock: .continuous)
            } catch {
                throw TelegramError(code: .transport, method: "editMessageText", description: "stopped while waiting for a slot")
            }
        }
        do {
            let result = try await call()
            queue.withLock { $0.answered(key, at: now()) }
            return result
        } catch {
            queue.withLock { queue in
                queue.answered(key, at: now())
                if error.isRateLimited { queue.pause(for: Double(error.retryAfter ?? 1), at: now()) }
            }
            if error.isRateLimited {
                logger.warning("Telegram asked to slow down", metadata: ["retry.after": "\(error.retryAfter ?? 1)"])
                changes.signal()
            }
            throw error
        }
    }

    /// A press that is not handled, and the toast it is answered with.
    struct UnhandledPress: Sendable, Hashable {
        var queryID: String
        var text: String
    }

    /// Answers presses dropped unhandled (a flood beyond its share) with a short toast, soon and
    /// nothing stored: a press never answered leaves its button spinning, and Telegram does not
    /// limit the rate of answers. At most the newest ten thousand wait; older ones are past
    /// answering anyway.
    func answerUnhandled(_ presses: [UnhandledPress]) {
        guard !presses.isEmpty else { return }
        unhandled.withLock { unhandled in
            unhandled.waiting += presses
            if unhandled.waiting.count > 10_000 { unhandled.waiting.removeFirst(unhandled.waiting.count - 10_000) }
        }
        changes.signal()
    }

    private func answer(_ presses: [UnhandledPress]) async {
        // A few at a time: the answers share the connections with the messages.
        for start in stride(from: 0, to: presses.count, by: maximumAnswersInFlight) {
            await withDiscardingTaskGroup { group in
                for press in presses[start..<min(start + maximumAnswersInFlight, presses.count)] {
                    group.addTask {
                        do throws(TelegramError) {
                            _ = try await self.client.perform(.answerCallbackQuery(id: press.queryID, text: press.text, showAlert: false))
                            self.metrics.replySent(method: "answerCallbackQuery", result: "unhandled")
                        } catch {
                            self.logger.debug("could not answer a press dropped in a flood", metadata: ["error": "\(error)"])
                        }
                    }
                }
            }
        }
    }

    /// Hands over the replies one commit wrote to the outbox, so they are sent without reading them
    /// back. `emptying`: that commit first deleted the chat's waiting replies (a reset).
    public func committed(_ replies: [QueuedReply], emptying chatID: Int64? = nil) {
        guard !replies.isEmpty || chatID != nil else { return }
        queue.withLock { $0.accept(replies, emptying: chatID) }
        // A chat's next message waits for the removal of the one before: it lingers no more.
        if lingering.withLock({ lingering in replies.contains { lingering.chats.contains($0.chatID) } }) { database.hurryCompletions() }
        changes.signal()
    }

    /// Replies held in memory, per lane.
    func held(_ lane: OutboxLane) -> Int { queue.withLock { $0.count(lane) } }

    /// Whether memory holds every waiting reply (the table was read, no lane overflowed).
    var hasReadTheTable: Bool { queue.withLock { queue in OutboxLane.allCases.allSatisfy { queue.isComplete($0) } } }

    /// The time as the queue counts it: seconds since the sender was made, on the monotonic clock.
    private func now() -> Double { (ContinuousClock.now - started).timeInterval }

    /// The instant of a time as the queue counts it; half a millisecond from now at the earliest,
    /// so that a slot due already never spins the loop.
    private func instant(at time: Double) -> ContinuousClock.Instant { started + .seconds(max(time, now() + 0.0005)) }

    /// Reads the table, then sends until graceful shutdown and for up to the drain timeout after it; logs what is left.
    public func run() async throws {
        let deadline = Mutex<ContinuousClock.Instant?>(nil)
        queue.withLock { $0.readAll() }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    let seen = changes.generation
                    let (reads, chatReads, started, superseded, due, events, left) = queue.withLock { queue in
                        let reads = OutboxLane.allCases.compactMap { lane in queue.startRead(lane).map { (lane, $0.from, $0.limit) } }
                        let chatReads = OutboxLane.allCases.flatMap { lane in queue.startChatReads(lane).map { (lane, $0) } }
                        let now = now()
                        var started: [QueuedReply] = []
                        while queue.answersInFlight < maximumAnswersInFlight, let answer = queue.nextAnswer(at: now) {
                            started.append(answer)
                        }
                        var due = queue.nextAnswerDue(inFlightLimit: maximumAnswersInFlight)
                        decide: while queue.messagesInFlight < maximumMessagesInFlight {
                            switch queue.nextMessage(at: now) {
                            case .send(let reply): started.append(reply)
                            case .wait(let until):
                                due = min(due ?? until, until)
                                break decide
                            case .idle: break decide
                            }
                        }
                        return (reads, chatReads, started, queue.takeSuperseded(), due, queue.takeEvents(), queue.count)
                    }
                    for event in events { await log(event) }
                    let draining = deadline.withLock { $0 }
                    if let draining, left == 0 || ContinuousClock.now >= draining { break }
                    for (lane, from, limit) in reads {
                        group.addTask {
                            await self.read(lane, from: from, limit: limit)
                            self.changes.signal()
                        }
                    }
                    for (lane, read) in chatReads {
                        group.addTask {
                            await self.read(lane, chatID: read.chatID, from: read.from, limit: read.limit, serial: read.serial)
                            self.changes.signal()
                        }
                    }
                    for reply in started {
                        group.addTask {
                            await self.deliver(reply)
                            self.changes.signal()
                        }
                    }
                    if !superseded.isEmpty {
                        group.addTask { await self.discard(superseded) }
                    }
                    let presses = unhandled.withLock { unhandled -> [UnhandledPress] in
                        guard !unhandled.answering, !unhandled.waiting.isEmpty else { return [] }
                        defer { unhandled = ([], true) }
                        return unhandled.waiting
                    }
                    if !presses.isEmpty {
                        group.addTask {
                            await self.answer(presses)
                            self.unhandled.withLock { $0.answering = false }
                            self.changes.signal()
                        }
                    }
                    // Asleep until something changes, the next reply's pacing slot comes, or a
                    // graceful stop's time to flush runs out.
                    let wake = [due.map { instant(at: $0) }, draining].compactMap { $0 }.min()
                    if let wake { await changes.wait(since: seen, until: wake) } else { await changes.wait(since: seen) }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            deadline.withLock { $0 = ContinuousClock.now + self.drainTimeout }
            self.lingering.withLock { $0.stopping = true }
            self.database.hurryCompletions()
            self.changes.signal()
        }
        let left = (try? await database.outboxBacklog()) ?? -1
        logger.info("outbox sender stopped", metadata: ["outbox.left": "\(left)"])
    }

    /// Reads a lane's rows from the table into memory. A row whose method the sender does not make
    /// is removed and logged; a failed read is tried again a second later.
    private func read(_ lane: OutboxLane, from: Int64, limit: Int) async {
        guard let (items, rows) = await rows(lane, chatID: nil, from: from, limit: limit) else {
            queue.withLock { $0.readFailed(lane) }
            return
        }
        queue.withLock { $0.finishRead(lane, rows: rows, fetched: items.count, last: items.last?.id) }
    }

    /// Reads the rows of a chat that overflowed its share of the lane, as ``read(_:from:limit:)`` does the lane's.
    private func read(_ lane: OutboxLane, chatID: Int64, from: Int64, limit: Int, serial: Int) async {
        guard let (items, rows) = await rows(lane, chatID: chatID, from: from, limit: limit) else {
            queue.withLock { $0.chatReadFailed(lane, serial: serial, chatID: chatID) }
            return
        }
        queue.withLock { $0.finishChatRead(lane, serial: serial, chatID: chatID, rows: rows, fetched: items.count, last: items.last?.id) }
    }

    /// The rows read, and the replies made of them; nil a second after a failed read.
    private func rows(_ lane: OutboxLane, chatID: Int64?, from: Int64, limit: Int) async -> ([OutboxItem], [QueuedReply])? {
        let items: [OutboxItem]
        do {
            items = try await database.outboxItems(lane: lane, chatID: chatID, from: from, limit: limit)
        } catch {
            logger.error("could not read the outbox; will retry", metadata: ["outbox.lane": "\(lane)", "error": "\(database.describe(error))"])
            try? await Task.sleep(for: .seconds(1))
            return nil
        }
        var rows: [QueuedReply] = []
        rows.reserveCapacity(items.count)
        for item in items {
            guard let id = item.id else { continue }
            guard let request = item.request else {
                logger.error(
                    "a stored reply the sender cannot make was dropped from the outbox", metadata: ["chat.id": "\(item.chatID)", "method": "\(item.method)"])
                await record { try await database.completeOutbox(id: id, chatID: item.chatID, tag: nil, messageID: nil, at: clock.date) }
                continue
            }
            var row = QueuedReply(id: id, chatID: item.chatID, lane: lane, request: request, deadline: item.deadline)
            row.attempts = item.attempts
            row.notBefore = now() + max(item.notBefore.timeIntervalSince(clock.date), 0)
            rows.append(row)
        }
        return (items, rows)
    }

    /// Deletes the rows of edits a later edit of the same message made pointless; each is counted
    /// as `superseded`.
    private func discard(_ superseded: [QueuedReply]) async {
        await withDiscardingTaskGroup { group in
            for reply in superseded {
                group.addTask {
                    do {
                        try await self.database.completeOutbox(id: reply.id, chatID: reply.chatID, tag: nil, messageID: nil, at: self.clock.date)
                    } catch {
                        // Kept out of memory: after a restart it is read, and collapses again or goes.
                        return self.logger.error("database error in the outbox", metadata: ["error": "\(self.database.describe(error))"])
                    }
                    self.metrics.replySent(method: reply.request.method.rawValue, result: "superseded")
                    self.queue.withLock { $0.deletedSuperseded(reply.id) }
                }
            }
        }
    }

    private func log(_ event: OutboxQueue.Event) async {
        switch event {
        case .broadcastStarted(let waiting, let more):
            let total = more ? ((try? await database.outboxBacklog(lane: .bulk)) ?? waiting) : waiting
            // The scheduler may still be queueing the rest: sending starts with its first cell.
            logger.info("broadcast started", metadata: ["broadcast.queued": "\(total)"])
        case .broadcastFinished(let sent, let dropped, let seconds):
            logger.info(
                "broadcast finished",
                metadata: [
                    "broadcast.sent": "\(sent)", "broadcast.dropped": "\(dropped)", "broadcast.seconds": "\(String(format: "%.1f", seconds))",
                ])
        }
    }

    // MARK: One reply

    func deliver(_ queued: QueuedReply) async {
        var logger = logger
        logger[metadataKey: "chat.id"] = "\(queued.chatID)"
        // A replica past its lease sends nothing: the reply waits, for this replica once the lease
        // is renewed, or for the one that takes over, which reads it from the table.
        if let deliveryFence, !deliveryFence() {
            logger.warning("not sent yet: the lease is not renewed")
            await retry(queued, after: 0.5)
            return
        }
        // A notice past its deadline would mislead («дождь через 20 минут» once it rains): it goes
        // unsent, its slot unused.
        if let deadline = queued.deadline, clock.date > deadline {
            queue.withLock { $0.answered(at: now()) }
            logger.info("a notice past its deadline was not sent", metadata: ["outbox.id": "\(queued.id)"])
            metrics.notice(.lateInOutbox)
            await complete(queued, logger: logger)
            return
        }
        do {
            let sent: (tag: String?, messageID: Int?)?
            do {
                defer { if !queued.isAnswer { queue.withLock { $0.answered(at: now()) } } }
                sent =
                    if queued.request.isPhoto {
                        try await sendPhoto(queued.request, chatID: queued.chatID, calls: Self.calls(for: queued), logger: logger)
                    } else {
                        try await send(queued.request, chatID: queued.chatID, logger: logger)
                    }
            }
            metrics.replySent(method: queued.request.method.rawValue, result: sent == nil ? "unchanged" : "ok")
            if queued.lane == .bulk && queued.request.method == .sendMessage { metrics.dailySent() }
            if queued.lane == .notice { metrics.notice(.sent) }
            await complete(queued, tag: sent?.tag, messageID: sent?.messageID, logger: logger)
        } catch let error as TelegramError {
            await handle(error, queued: queued, logger: logger)
        } catch let error as PhotoUnavailable where error.isPermanent {
            await drop(queued, error, logger: logger)
        } catch let error as PhotoUnavailable {
            // A chart not drawn yet holds up the chat's later replies: tried for seconds, not hours.
            await retryOrDrop(queued, error, attempts: min(maximumAttempts, Self.photoAttempts), logger: logger)
        } catch {
            await retryOrDrop(queued, error, logger: logger)
        }
    }

    /// Removes a reply from the outbox; the chat's next message waits until that is committed, so
    /// a crash repeats at most the one message per chat that was in flight. When nothing else is
    /// held, the removal lingers for the next commit (a chat's step) to share; a reply for the
    /// chat handed over meanwhile, or a graceful stop, hurries it.
    private func complete(_ queued: QueuedReply, tag: String? = nil, messageID: Int? = nil, logger: Logger) async {
        let linger = lingering.withLock { lingering -> Duration in
            guard completionLinger > .zero, !lingering.stopping, queue.withLock({ $0.holdsOnlyInFlight }) else { return .zero }
            if !queued.isAnswer { lingering.chats.insert(queued.chatID) }
            return completionLinger
        }
        defer { if linger > .zero, !queued.isAnswer { _ = lingering.withLock { $0.chats.remove(queued.chatID) } } }
        var backoff = Backoff()
        // Cancelled (the sender stops), the row stays and the reply is sent again after a restart.
        try? await backoff.retry {
            try await database.completeOutbox(id: queued.id, chatID: queued.chatID, tag: tag, messageID: messageID, at: clock.date, lingeringUpTo: linger)
            StoreFaults(metrics: metrics, logger: logger).committed()
        } failed: { error, delay in
            StoreFaults(metrics: metrics, logger: logger).failed(database.describe(error), "a delivered reply", retryIn: delay)
        }
        queue.withLock { $0.finish(queued, at: now()) }
    }

    /// Makes one reply's call; returns the tag and id of a message it sent, to remember for edits,
    /// or nil for an edit not made: its message shows that already.
    private func send(_ request: BotRequest, chatID: Int64, logger: Logger) async throws(TelegramError) -> (tag: String?, messageID: Int?)? {
        switch request.method {
        case .sendMessage:
            return (request.tag, try await client.perform(request))
        case .editMessageText:
            if let edit = await addressed(request, chatID: chatID), let messageID = edit.messageID {
                let message = EditedMessages.Key(chatID: chatID, messageID: messageID)
                if edited.withLock({ $0.shows(edit.parameters, message) }) { return nil }
                do {
                    _ = try await client.perform(edit)
                    edited.withLock { $0.note(edit.parameters, message) }
                    return (nil, nil)
                } catch where error.isMessageNotModified {
                    edited.withLock { $0.note(edit.parameters, message) }
                    return (nil, nil)
                } catch where error.isMessageUneditable {
                    edited.withLock { $0.forget(message) }
                    logger.info("message to edit is gone; sending a new one")
                }
            }
            return (request.tag, try await client.perform(request.asNewMessage))
        case .editMessageReplyMarkup:
            guard let edit = await addressed(request, chatID: chatID) else { return (nil, nil) }
            // Its buttons change: what the message shows is no longer known.
            if let messageID = edit.messageID { edited.withLock { $0.forget(EditedMessages.Key(chatID: chatID, messageID: messageID)) } }
            do {
                _ = try await client.perform(edit)
            } catch where error.isMessageNotModified || error.isMessageUneditable {
                logger.debug("buttons left as they were", metadata: ["error": "\(error)"])
            }
            return (nil, nil)
        case .answerCallbackQuery:
            do {
                _ = try await client.perform(request)
            } catch where error.isQueryTooOld {
                logger.debug("callback query too old to answer")
            }
            return (nil, nil)
        case .sendPhoto, .editMessageMedia:
            preconditionFailure("photos are sent by sendPhoto(_:chatID:logger:)")
        }
    }

    /// Who pays for the OpenWeather call a photo of `queued` may need (a chart whose forecast left
    /// the cache): the chat, for an answer to it; scheduled work, nobody's, for a daily forecast's
    /// chart, which is sent unasked.
    static func calls(for queued: QueuedReply) -> CallContext {
        queued.lane == .interactive ? .chat(queued.chatID) : .soon
    }

    /// Makes a photo reply's call with the photo its request names, any OpenWeather call it needs
    /// paid as `calls` says; returns as ``send(_:chatID:logger:)``.
    private func sendPhoto(_ request: BotRequest, chatID: Int64, calls: CallContext, logger: Logger) async throws -> (tag: String?, messageID: Int?) {
        let client = client
        if request.method == .editMessageMedia, let edit = await addressed(request, chatID: chatID) {
            let edited = await Self.result {
                try await self.photo(of: edit, calls) { photo throws(TelegramError) in try await client.perform(edit, photo: photo) }
            }
            switch edited {
            case .success:
                return (nil, nil)
            case .failure(let error as TelegramError) where error.isMessageNotModified:
                return (nil, nil)
            case .failure(let error as TelegramError) where error.isMessageUneditable:
                logger.info("photo to replace is gone; sending a new one")
            case .failure(let error):
                throw error
            }
        }
        let new = request.method == .editMessageMedia ? request.asNewMessage : request
        let sent = try await photo(of: new, calls) { photo throws(TelegramError) in try await client.perform(new, photo: photo) }
        return (request.tag, sent.messageID)
    }

    private static func result<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Makes a photo call with the photo its request names.
    private func photo(
        of request: BotRequest, _ calls: CallContext, _ call: @escaping @Sendable (InputPhoto) async throws(TelegramError) -> SentPhoto
    ) async throws -> SentPhoto {
        guard let photos, let name = request.photo else {
            throw PhotoUnavailable(isPermanent: true, description: "no photo source for \(request.method)")
        }
        return try await photos.send(name, for: calls, with: call)
    }

    /// An edit with the id of the message it applies to: its own, or the one its tag was sent
    /// under; nil when a tagged message was never delivered.
    private func addressed(_ request: BotRequest, chatID: Int64) async -> BotRequest? {
        if request.messageID != nil { return request }
        guard let tag = request.tag, let id = (try? await database.messageID(chatID: chatID, tag: tag)) ?? nil else { return nil }
        var edit = request
        edit.messageID = id
        return edit
    }

    private func handle(_ error: TelegramError, queued: QueuedReply, logger: Logger) async {
        metrics.replySent(method: queued.request.method.rawValue, result: error.isForbidden ? "blocked" : error.isRateLimited ? "rate_limited" : "failed")
        if error.isForbidden {
            logger.notice("the bot may not write to this chat; its replies are dropped", metadata: ["error": "\(error)"])
            await record { try await database.deactivateChat(queued.chatID) }
            queue.withLock { $0.drop(chatID: queued.chatID, failed: queued, at: now()) }
        } else if error.isRateLimited {
            let wait = Double(error.retryAfter ?? 1)
            logger.warning("Telegram asked to slow down", metadata: ["retry.after": "\(wait)"])
            queue.withLock { $0.pause(for: wait, at: now()) }
            await retry(queued, after: wait)
        } else if error.isTransient {
            await retryOrDrop(queued, error, logger: logger)
        } else {
            await drop(queued, error, logger: logger)
        }
    }

    /// A reply whose call failed for now (a network error, a 5xx, a photo not made yet): tried
    /// again with backoff, and dropped after the last attempt.
    private func retryOrDrop(_ queued: QueuedReply, _ error: any Error, attempts: Int? = nil, logger: Logger) async {
        guard queued.attempts + 1 < attempts ?? maximumAttempts else { return await drop(queued, error, logger: logger) }
        let delay = Backoff.delay(afterFailures: queued.attempts + 1, initial: .seconds(1), maximum: .seconds(300))
        logger.warning("reply not sent; will retry", metadata: ["error": "\(error)", "retry.in": "\(delay.logDescription)"])
        await retry(queued, after: delay.timeInterval)
    }

    /// Attempts at a photo that cannot be made: about 15 seconds with the backoff's 1, 2, 4 and 8.
    static let photoAttempts = 5

    private func drop(_ queued: QueuedReply, _ error: any Error, logger: Logger) async {
        logger.error("reply dropped", metadata: ["error": "\(error)", "attempts": "\(queued.attempts + 1)"])
        await record { try await database.completeOutbox(id: queued.id, chatID: queued.chatID, tag: nil, messageID: nil, at: clock.date) }
        queue.withLock { $0.finish(queued, delivered: false, at: now()) }
    }

    private func retry(_ queued: QueuedReply, after seconds: TimeInterval) async {
        await record { try await database.retryOutbox(id: queued.id, chatID: queued.chatID, notBefore: clock.date.addingTimeInterval(seconds)) }
        let now = now()
        queue.withLock { $0.retry(queued, notBefore: now + seconds, at: now) }
    }

    private func record(_ body: () async throws -> Void) async {
        do { try await body() } catch { logger.error("database error in the outbox", metadata: ["error": "\(error)"]) }
    }
}

/// What the sender last edited each message to, as the edit's parameters (its text and buttons),
/// kept by a fingerprint; at most ``capacity`` messages, all forgotten when more come (an edit
/// then repeated costs one call Telegram refuses, as before).
struct EditedMessages {
    struct Key: Hashable {
        var chatID: Int64
        var messageID: Int
    }

    static let capacity = 4096
    private var fingerprints: [Key: Int] = [:]

    /// Whether `message` shows what an edit with `parameters` would make of it.
    func shows(_ parameters: Data, _ message: Key) -> Bool {
        fingerprints[message] == Self.fingerprint(parameters)
    }

    /// `message` now shows what `parameters` made of it.
    mutating func note(_ parameters: Data, _ message: Key) {
        if fingerprints.count >= Self.capacity && fingerprints[message] == nil { fingerprints.removeAll(keepingCapacity: true) }
        fingerprints[message] = Self.fingerprint(parameters)
    }

    /// Every byte counts (`Data`'s own hash reads only a prefix).
    private static func fingerprint(_ parameters: Data) -> Int {
        var hasher = Hasher()
        parameters.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// What `message` shows is no longer known.
    mutating func forget(_ message: Key) {
        fingerprints[message] = nil
    }
}
