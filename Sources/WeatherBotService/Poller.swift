public import BotClock
import Foundation
public import Logging
public import ServiceLifecycle
public import TelegramBotAPI
public import WeatherBotStore

/// Long-polls getUpdates and commits each batch to the inbox before asking for the next.
///
/// The offset it sends is always the last update id committed to SQLite + 1, so updates are
/// confirmed to Telegram only once they are stored: a crash re-delivers instead of losing.
public struct Poller: Service {
    /// The update kinds the bot asks for.
    public static let allowedUpdates = ["message", "edited_message", "callback_query", "inline_query"]
    /// Updates asked for at once: Telegram's largest batch.
    static let batchLimit = 100

    let client: TelegramClient
    let database: any BotStore
    let workers: ChatWorkers
    let logger: Logger
    /// Counts the updates, and notes each answer of Telegram for the health check.
    let metrics: BotMetrics
    /// Seconds Telegram holds a getUpdates open.
    let pollTimeout: Int
    /// The poller waits while this many items are queued for the chats.
    let maximumBacklog: Int
    /// The time batches and polls are stored with.
    let clock: any WallClock
    /// Answers inline queries and presses under inline messages; nil: they are skipped.
    let inline: InlineResponder?

    /// A poller over `database` feeding `workers`; `pollTimeout` is in seconds.
    public init(
        client: TelegramClient, database: any BotStore, workers: ChatWorkers, logger: Logger, pollTimeout: Int, maximumBacklog: Int = 1000,
        clock: any WallClock = SystemWallClock(), metrics: BotMetrics = BotMetrics(), inline: InlineResponder? = nil
    ) {
        self.inline = inline
        self.clock = clock
        self.metrics = metrics
        self.client = client
        self.database = database
        self.workers = workers
        self.logger = logger
        self.pollTimeout = pollTimeout
        self.maximumBacklog = maximumBacklog
    }

    /// Waits for the workers to queue what the last run left, then polls until a graceful shutdown.
    /// Throws when Telegram refuses the token or the database is damaged.
    public func run() async throws {
        _ = try await cancelWhenGracefulShutdown {
            await workers.waitUntilLoaded()
            try await pollUntilCancelled()
        }
        logger.info("polling stopped")
    }

    private func pollUntilCancelled() async throws {
        var backoff = Backoff()
        var conflictBackoff = Backoff(initial: .seconds(5), maximum: .seconds(60))
        var lastNoted: ContinuousClock.Instant?
        // Only this loop moves the stored id, so it is read once and then followed in memory.
        var lastUpdateID: Int64?
        var knowsLastUpdateID = false
        // The first batch of a run is stored before it is handled: it holds whatever update a
        // crash cut off, whose attempts count only once it is in the inbox (`beginRun`), so an
        // update that stops the bot is set aside after a few starts instead of stopping every one.
        var storedABatch = false
        // Halved while answers are too large or unreadable; doubled back after each good one.
        var limit = Self.batchLimit
        while !Task.isCancelled {
            await workers.waitForRoom(below: maximumBacklog)
            do {
                if !knowsLastUpdateID {
                    lastUpdateID = try await database.lastUpdateID()
                    knowsLastUpdateID = true
                }
                // An id at the very top of the range is confirmed by asking from itself on.
                let offset = lastUpdateID.map { $0 == .max ? $0 : $0 + 1 }
                let updates = try await client.getUpdates(offset: offset, limit: limit, timeout: pollTimeout, allowedUpdates: Self.allowedUpdates)
                limit = min(limit * 2, Self.batchLimit)
                backoff.reset()
                conflictBackoff.reset()
                // Telegram chooses the next id at random after a week without updates: a batch wholly
                // below the stored id starts new ids, which are taken, not dropped as seen.
                let rebasing = lastUpdateID.map { stored in !updates.isEmpty && updates.allSatisfy { $0.updateID < stored } } ?? false
                if rebasing {
                    logger.notice(
                        "Telegram started update ids anew (it does after a quiet week); following the new ids",
                        metadata: ["update.id.stored": "\(lastUpdateID ?? 0)", "update.id": "\(updates.map(\.updateID).max() ?? 0)"])
                }
                let committed = try await commit(updates, after: lastUpdateID, rebasing: rebasing, handingOverFirst: storedABatch, lastNoted: &lastNoted)
                // Healthy is answered and stored: a batch the database refuses comes again and again.
                metrics.heardFromTelegram()
                if let last = committed {
                    StoreFaults(metrics: metrics, logger: logger).committed()
                    storedABatch = true
                    // Only updates already stored (the very last id, which no offset can confirm):
                    // asking again at once would spin.
                    if !rebasing, let stored = lastUpdateID, last <= stored { try? await Task.sleep(for: .seconds(1)) }
                    lastUpdateID = rebasing ? last : max(lastUpdateID ?? last, last)
                }
            } catch let error as TelegramError {
                if Task.isCancelled { return }
                if error.isUnreadableAnswer {
                    if limit > 1 {
                        limit /= 2
                        logger.warning("getUpdates answer could not be read whole; asking for fewer", metadata: ["limit": "\(limit)", "error": "\(error)"])
                        continue
                    }
                    // One update alone cannot be read: it is skipped, so that it stops no one else.
                    if let unreadable = error.firstUpdateID, unreadable > (lastUpdateID ?? .min), await skip(unreadable) {
                        lastUpdateID = unreadable
                        continue
                    }
                }
                if error.isUnauthorized {
                    logger.critical("Telegram rejected the bot token; stopping")
                    throw error
                }
                let delay: Duration
                if error.isConflict {
                    delay = conflictBackoff.next()
                    logger.error(
                        "getUpdates conflict: another instance of the bot is polling, or a webhook is set; backing off",
                        metadata: ["retry.in": "\(delay.logDescription)", "error": "\(error)"])
                } else if error.isRateLimited, let retryAfter = error.retryAfter {
                    delay = .seconds(retryAfter)
                    logger.warning("getUpdates rate limited", metadata: ["retry.in": "\(delay.logDescription)"])
                } else {
                    delay = backoff.next()
                    logger.warning("getUpdates failed; backing off", metadata: ["retry.in": "\(delay.logDescription)", "error": "\(error)"])
                }
                // A shutdown during the wait ends polling as gracefully as one during a poll.
                try? await Task.sleep(for: delay)
            } catch is CancellationError {
                return
            } catch {
                // A damaged file stops the bot: polling on would confirm updates no step can store.
                if database.isDamage(error) { throw error }
                // The database could not commit the batch: nothing was confirmed, so Telegram re-sends it.
                let delay = backoff.next()
                StoreFaults(metrics: metrics, logger: logger).failed(database.describe(error), "updates", retryIn: delay)
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Confirms an update that cannot be read by moving the stored id past it; false when that
    /// could not be stored.
    private func skip(_ updateID: Int64) async -> Bool {
        logger.error("an update could not be read; skipped", metadata: ["update.id": "\(updateID)"])
        do {
            _ = try await database.receive([], lastUpdateID: updateID, rebasing: false, at: clock.date)
            return true
        } catch {
            logger.error("could not record a skipped update", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// How long a batch waits for the steps of its updates before it is stored without the rest:
    /// a step that needs no call is made in microseconds; one that waits for OpenWeather commits
    /// after the batch.
    static let stepsWait: Duration = .milliseconds(10)

    /// Commits a batch; returns the last update id it covered, nil for an empty batch. `stored` is
    /// the last update id stored before; `handingOverFirst` lets the chats step it before it is
    /// stored, when the store can keep the steps with it.
    private func commit(
        _ updates: [Update], after stored: Int64?, rebasing: Bool, handingOverFirst: Bool, lastNoted: inout ContinuousClock.Instant?
    ) async throws -> Int64? {
        guard let last = updates.map(\.updateID).max() else {
            // An empty poll only refreshes the health mark, at most twice a minute.
            if lastNoted.map({ ContinuousClock.now - $0 > .seconds(30) }) ?? true {
                try await database.notePoll(at: clock.date)
                StoreFaults(metrics: metrics, logger: logger).committed()
                lastNoted = .now
            }
            return nil
        }
        lastNoted = .now
        // Inline mode's go to be answered before the batch is stored, and are not stored: an
        // answer is useful for seconds, and one after a restart for none.
        if let inline {
            for update in updates where update.isInline { inline.take(update) }
        }
        let kept = updates.filter { $0.chatID != nil }
        let rows = kept.map { update in (updateID: update.updateID, chatID: update.chatID, payload: update.jsonData) }
        let decoded = Dictionary(kept.map { ($0.updateID, $0) }, uniquingKeysWith: { first, _ in first })
        let items: [InboxItem]
        // On a quiet day the chats get the batch before it is stored, and the steps made meanwhile
        // are stored with it: one commit for an update and its answer. Behind a backlog the batch
        // is stored first, and each step commits when its turn comes.
        if handingOverFirst, let store = database as? any ReceivesSteps {
            let fresh = rows.filter { row in rebasing || row.updateID > (stored ?? .min) }
            let receipt = PendingReceipt(updateIDs: fresh.map(\.updateID))
            await workers.enqueue(
                fresh.map { row in
                    var queued = QueuedItem(InboxItem(chatID: row.chatID ?? 0, updateID: row.updateID, kind: .update, payload: row.payload), update: decoded[row.updateID])
                    queued.receipt = receipt
                    return queued
                })
            await receipt.waitForSteps(atMost: Self.stepsWait)
            let (steps, skipping) = receipt.close()
            do {
                let stored: Receipt
                do {
                    stored = try await store.receive(rows, steps: steps, skipping: skipping, lastUpdateID: last, rebasing: rebasing, at: clock.date)
                } catch where !steps.isEmpty && database.isRejection(error) {
                    // A step the store refuses must not keep the batch out: the batch is stored
                    // without the steps, which then commit on their own, each failing alone. A
                    // full disk or a database out of reach refuses the batch alone as well.
                    logger.warning("a batch could not be stored with its steps; storing it alone", metadata: ["error": "\(database.describe(error))"])
                    stored = try await store.receive(rows, steps: [], skipping: skipping, lastUpdateID: last, rebasing: rebasing, at: clock.date)
                }
                receipt.end(stored)
                items = stored.items
                logger.debug("updates committed with their steps", metadata: ["updates": "\(updates.count)", "steps": "\(stored.steps.count)", "update.id": "\(last)"])
            } catch {
                receipt.end(nil)
                throw error
            }
        } else {
            items = try await database.receive(rows, lastUpdateID: last, rebasing: rebasing, at: clock.date)
            logger.debug("updates committed", metadata: ["updates": "\(updates.count)", "inbox": "\(items.count)", "update.id": "\(last)"])
            await workers.enqueue(items.map { QueuedItem($0, update: $0.updateID.flatMap { decoded[$0] }) })
        }
        metrics.received(updates.count)
        return last
    }
}
