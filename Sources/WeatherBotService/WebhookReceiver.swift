import BotClock
public import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
public import TelegramBotAPI
public import WeatherBotStore

/// Takes the updates Telegram posts to the webhook, in place of the poller: once the HTTP server
/// listens it sets the webhook, and while it runs it asks Telegram how the webhook fares.
///
/// Each posted update is committed to the inbox before its request is answered, so Telegram posts
/// again whatever was not stored; an update id received before is answered and not taken again.
///
/// With replicas on one PostgreSQL database every replica takes posts (the reverse proxy spreads
/// them): a standby's receiver only stores them, and the active replica's also reads the shared
/// inbox several times a second for what the others stored.
public final class WebhookReceiver: Service, Sendable {
    /// How the webhook is set.
    public struct Settings: Sendable {
        /// The public URL Telegram posts to, given the port the server listens on (a deployment's
        /// URL does not depend on it; a test's on loopback does).
        public var url: @Sendable (_ port: Int) -> URL
        /// Sent by Telegram in `X-Telegram-Bot-Api-Secret-Token` with every update.
        public var secret: String
        /// Requests Telegram makes at once, 1–100.
        public var maxConnections: Int

        /// Settings for `url`, with Telegram's default of 40 connections unless told.
        public init(url: @escaping @Sendable (_ port: Int) -> URL, secret: String, maxConnections: Int = 40) {
            self.url = url
            self.secret = secret
            self.maxConnections = maxConnections
        }
    }

    /// What became of a posted update.
    public enum Outcome: Sendable, Equatable {
        /// Stored (or, belonging to no chat, noted): Telegram may forget it.
        case accepted
        /// Its id was received before: it is not taken again.
        case repeated
        /// The body is no update (it has no update id): Telegram never posts such a thing.
        case unreadable
    }

    /// Telegram would not set the webhook: the URL, or the secret, is not one it takes.
    public struct Refused: Error, CustomStringConvertible {
        /// The URL that was refused, as it was sent.
        public var url: URL
        /// Telegram's own words for why.
        public var reason: String
        /// One line for the log and the operator: the URL and Telegram's reason.
        public var description: String { "Telegram refused the webhook \(url): \(reason)" }
    }

    /// Telegram keeps an update for a day at most: ids older than this are forgotten.
    static let remembered: TimeInterval = 2 * 24 * 3600

    let settings: Settings
    let client: TelegramClient
    let database: any BotStore
    /// Where taken updates are queued; nil on a standby replica, which only stores them.
    let workers: ChatWorkers?
    /// Whether other replicas store posts in the same inbox.
    let sharesInbox: Bool
    let metrics: BotMetrics
    let logger: Logger
    /// How often Telegram is asked how the webhook fares.
    let checkInterval: Duration
    /// Requests wait while this many items are queued for the chats.
    let maximumBacklog: Int
    private let port = Mutex<Int?>(nil)
    private let listening = ChangeSignal()
    /// When the received ids were last pruned.
    private let pruned = Mutex<Date?>(nil)

    /// Answers inline queries and presses under inline messages; nil: they are only noted.
    let inline: InlineResponder?

    /// A receiver storing posts in `database` and queueing them on `workers` (nil on a standby, which only stores).
    public init(
        settings: Settings, client: TelegramClient, database: any BotStore, workers: ChatWorkers?, sharesInbox: Bool = false, metrics: BotMetrics,
        logger: Logger, checkInterval: Duration = .seconds(30), maximumBacklog: Int = 1000, inline: InlineResponder? = nil
    ) {
        self.inline = inline
        self.settings = settings
        self.sharesInbox = sharesInbox
        self.client = client
        self.database = database
        self.workers = workers
        self.metrics = metrics
        self.logger = logger
        self.checkInterval = checkInterval
        self.maximumBacklog = maximumBacklog
    }

    /// The HTTP server listens on `port`: the webhook can be set.
    public func serverListens(on port: Int) {
        self.port.withLock { $0 = port }
        listening.signal()
    }

    // MARK: Requests

    /// Whether a request's secret header is the webhook's: compared in time that does not depend
    /// on where the two differ.
    public func isAuthorized(_ header: String?) -> Bool {
        guard let header else { return false }
        let expected = Array(settings.secret.utf8)
        let given = Array(header.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// Commits a posted update to the inbox and queues it for its chat; returns once it is
    /// stored. A failure to store throws: the request must not be answered as a success.
    public func take(_ body: Data) async throws -> Outcome {
        guard let update = try? Update.posted(body) else {
            metrics.webhookRequest("unreadable")
            return .unreadable
        }
        // Inline mode's are answered at once and never stored: not behind the chats' backlog.
        if update.isInline {
            metrics.heardFromTelegram()
            metrics.webhookRequest("accepted")
            metrics.received(1)
            inline?.take(update)
            return .accepted
        }
        // As the poller: nothing is committed before the items the last run left are queued.
        await workers?.waitUntilLoaded()
        await workers?.waitForRoom(below: maximumBacklog)
        let now = Date()
        let forget = pruned.withLock { last -> Date? in
            guard last.map({ now.timeIntervalSince($0) > 3600 }) ?? true else { return nil }
            last = now
            return now.addingTimeInterval(-Self.remembered)
        }
        let items: [InboxItem]?
        do {
            items = try await database.receivePosted(
                (updateID: update.updateID, chatID: update.chatID, payload: update.jsonData), forgettingBefore: forget, at: now)
        } catch {
            if forget != nil { pruned.withLock { $0 = nil } }
            metrics.webhookRequest("failed")
            logger.error(
                "could not store an update posted to the webhook; Telegram posts it again",
                metadata: ["update.id": "\(update.updateID)", "error": "\(database.describe(error))"])
            throw error
        }
        metrics.heardFromTelegram()
        guard let items else {
            metrics.webhookRequest("repeated")
            logger.debug("an update posted again was taken before", metadata: ["update.id": "\(update.updateID)"])
            return .repeated
        }
        metrics.webhookRequest("accepted")
        metrics.received(1)
        await workers?.enqueue(items.map { QueuedItem($0, update: update) })
        return .accepted
    }

    // MARK: The webhook

    /// Waits for the server to listen, sets the webhook and watches it until a graceful shutdown, which leaves it set.
    /// Throws ``Refused`` when Telegram will not take the webhook.
    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                guard let port = await self.waitForServer() else { return }
                let url = self.settings.url(port)
                try await self.register(url)
                try await withThrowingDiscardingTaskGroup { group in
                    if self.sharesInbox, let workers = self.workers {
                        group.addTask { try await self.adopt(into: workers) }
                    }
                    try await self.watch(url)
                    group.cancelAll()
                }
            }
        } catch is CancellationError {
            // The graceful stop ended the waiting; the webhook stays set for the next run.
        }
        logger.info("webhook intake stopped")
    }

    private func waitForServer() async -> Int? {
        await listening.wait { port.withLock { $0 } != nil }
        return port.withLock { $0 }
    }

    /// Sets the webhook, trying again while Telegram cannot be reached; a rejected token or URL throws.
    private func register(_ url: URL) async throws {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
        try await backoff.retry {
            try await client.setWebhook(
                url: url, secretToken: settings.secret, allowedUpdates: Poller.allowedUpdates, maxConnections: settings.maxConnections)
        } failed: { error, delay in
            guard let refusal = error as? TelegramError, refusal.isTransient else {
                logger.critical("Telegram refused the webhook", metadata: ["url": "\(url)", "error": "\(error)"])
                // A rejected token is said as such; anything else is the webhook's.
                if let refusal = error as? TelegramError, !refusal.isUnauthorized { throw Refused(url: url, reason: refusal.reason) }
                throw error
            }
            logger.warning("could not set the webhook yet; retrying", metadata: ["error": "\(error)", "retry.in": "\(delay.logDescription)"])
        }
        logger.info("webhook set; Telegram posts updates", metadata: ["url": "\(url)", "max.connections": "\(settings.maxConnections)"])
    }

    /// Queues what the other replicas stored, four times a second.
    private func adopt(into workers: ChatWorkers) async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(250))
            do {
                let adopted = try await workers.adoptPending()
                if adopted > 0 { logger.debug("updates another replica took are queued", metadata: ["items": "\(adopted)"]) }
            } catch {
                logger.warning("could not read the shared inbox; trying again", metadata: ["error": "\(database.describe(error))"])
            }
        }
    }

    /// Asks Telegram how the webhook fares every `checkInterval`. An answer counts as contact for
    /// the health check unless Telegram says it cannot post to the webhook while updates wait:
    /// then the health check turns, with Telegram's reason, which is logged when it changes. A
    /// webhook removed or moved elsewhere (by another deployment, or a bot started in polling
    /// mode), or set elsewhere with another secret (this bot answers 401), is set again.
    private func watch(_ url: URL) async throws {
        var registered = Date()
        var logged: String?
        while !Task.isCancelled {
            try await Task.sleep(for: checkInterval)
            do {
                let info = try await client.getWebhookInfo()
                metrics.webhookPending(info.pendingUpdateCount)
                if info.url != url.absoluteString {
                    logger.warning(
                        "the webhook was changed elsewhere; setting it again",
                        metadata: ["url.now": "\(info.url.isEmpty ? "none" : info.url)"])
                    try await register(url)
                    registered = Date()
                    continue
                }
                // Telegram retries a failing post with growing pauses: a failure of the last
                // couple of minutes, since the webhook was set, with updates waiting, is current.
                let recent = Date().addingTimeInterval(-max(2 * checkInterval.timeInterval, 120))
                if let failed = info.lastErrorDate, failed > max(registered, recent), info.pendingUpdateCount > 0 {
                    let reason = info.lastErrorMessage ?? "no reason given"
                    metrics.webhookFailing(reason)
                    if reason != logged {
                        logger.warning("Telegram cannot post to the webhook", metadata: ["error": "\(reason)", "pending": "\(info.pendingUpdateCount)"])
                        logged = reason
                    }
                    if reason.contains("401") {
                        logger.warning("this bot refused Telegram's posts: the webhook was set elsewhere with another secret; setting it again")
                        try await register(url)
                        registered = Date()
                    }
                    continue
                }
                if logged != nil {
                    logger.notice("Telegram posts to the webhook again")
                    logged = nil
                }
                metrics.webhookFailing(nil)
                metrics.heardFromTelegram()
                try? await database.notePoll(at: Date())
            } catch let error as TelegramError {
                if error.isUnauthorized { throw error }
                logger.warning("could not ask Telegram about the webhook", metadata: ["error": "\(error)"])
            }
        }
    }
}
