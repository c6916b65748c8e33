public import Foundation
public import TelegramBotAPI

/// What the bot's runtime needs from storage, whichever engine keeps it: the inbox and the
/// update offset, chat steps with their replies, the outbox, the daily forecasts, and facts about
/// runs. `BotDatabase` (WeatherBotSQLite) is the embedded engine, `PostgresStore`
/// (WeatherBotPostgres) the one replicas share.
///
/// What every engine keeps (the runtime counts on it, and the end-to-end tests check it):
/// - each write is committed before its call returns, and a step is one transaction: the chat's
///   record and changes, its inbox item's removal, its replies and follow-ups, all or nothing;
/// - updates at or below the stored offset are never taken again (unless Telegram re-bases);
/// - every operation that names a chat touches that chat's rows only;
/// - a reply leaves the outbox only through ``completeOutbox(id:chatID:tag:messageID:at:)``;
/// - a notice is queued once per mark (``NoticeStore``), in the transaction that sets the mark.
public protocol BotStore: ChatStore, NoticeStore {
    // MARK: Inbox and offset

    /// Stores a batch of updates in the inbox and moves the offset to `lastUpdateID`, in one
    /// transaction; returns the items written, in order.
    func receive(_ updates: [(updateID: Int64, chatID: Int64?, payload: Data)], lastUpdateID: Int64, rebasing: Bool, at now: Date) async throws
        -> [InboxItem]
    /// Stores an update Telegram posted to the webhook, unless its id was received before (Telegram
    /// posts an update again until it is answered): the id is remembered and the update, when it
    /// belongs to a chat, goes to the inbox, in one transaction. Ids received before
    /// `forgettingBefore` are forgotten first. Any replica may call it, active or not.
    ///
    /// - Returns: nil for an id received before; otherwise the inbox items written.
    func receivePosted(_ update: (updateID: Int64, chatID: Int64?, payload: Data), forgettingBefore: Date?, at now: Date) async throws -> [InboxItem]?
    /// The secret Telegram sends with each webhook request: the one kept, or else `generated`,
    /// which is kept from now on (every replica gets the same).
    func webhookSecret(generated: String) async throws -> String
    /// Records that getUpdates answered, with nothing new.
    func notePoll(at now: Date) async throws
    /// The id of the last update stored (the offset is one more).
    func lastUpdateID() async throws -> Int64?
    /// The inbox items not handled yet, in order.
    func pendingInbox() async throws -> [InboxItem]
    /// Removes an inbox item that cannot be handled at all, changing nothing else.
    func discardInboxItem(seq: Int64, chatID: Int64) async throws
    /// Puts a follow-up (a change the Mini App asks of a chat) at the end of the chat's inbox, to
    /// be handled in order with the chat's updates; returns it with its `seq`.
    func enqueueFollowUp(_ payload: Data, chatID: Int64) async throws -> InboxItem
    /// Moves an item that keeps failing out of the inbox, queueing `apology` for the chat; returns
    /// the apology's outbox id, or nil when the item was gone. Items set aside longer ago than
    /// ``SetAside/keptFor`` are forgotten then.
    func setAside(_ item: InboxItem, attempts: Int, error: String, apology: BotRequest, at now: Date) async throws -> Int64?

    // MARK: Chats

    /// Commits one handled inbox item: the chat's record and changes, the item's removal, the
    /// replies into the outbox and the follow-ups into the inbox, all or nothing.
    func commitStep(chat: ChatRecord, handled seq: Int64, changes: [ChatChange], replies: [BotRequest], followUps: [Data], at now: Date)
        async throws -> CommittedStep
    /// Marks a chat that blocked the bot: its replies and daily forecasts stop.
    func deactivateChat(_ chatID: Int64) async throws

    // MARK: Outbox

    /// The waiting replies of one lane with ids from `id` on, oldest first, at most `limit`; of
    /// one chat only when `chatID` is given.
    func outboxItems(lane: OutboxLane, chatID: Int64?, from id: Int64, limit: Int) async throws -> [OutboxItem]
    func outboxBacklog() async throws -> Int
    func outboxBacklog(lane: OutboxLane) async throws -> Int
    /// When the oldest reply waiting in the lane was queued; nil when none waits.
    func oldestOutboxItem(lane: OutboxLane) async throws -> Date?
    /// Removes a reply that was sent or given up; for a message sent under a tag, remembers its id.
    /// Shares commits with the chats' steps: it may wait up to `linger` for one that commits at
    /// once (WeatherBotStoreSQL's `GroupCommit.write(_:lingeringUpTo:)`), when nobody waits for it.
    func completeOutbox(id: Int64, chatID: Int64, tag: String?, messageID: Int?, at now: Date, lingeringUpTo linger: Duration) async throws
    /// Commits at once the removals lingering now: someone waits for them.
    func hurryCompletions()
    /// Counts a failed attempt and keeps the reply until `notBefore`.
    func retryOutbox(id: Int64, chatID: Int64, notBefore: Date) async throws
    /// The id of the message the chat was sent under `tag`.
    func messageID(chatID: Int64, tag: String) async throws -> Int?

    // MARK: Daily forecasts

    /// Active subscriptions due at or before `now`, earliest first, with their chats' languages.
    func dueSubscriptions(at now: Date, limit: Int) async throws -> [DueSubscription]
    /// Marks each delivery's subscription sent for its local date and queues its messages in the
    /// bulk lane, unless that date was sent already; returns the outbox ids of each.
    func commitDeliveries(_ deliveries: [DailyDelivery], at now: Date) async throws -> [[Int64]]
    /// How many daily forecasts were skipped (a delivery without messages) since the store began.
    func dailyForecastsSkipped() async throws -> Int

    // MARK: Days' temperatures

    /// Keeps each record in place of what was kept for its cell and day, and forgets every day
    /// before `day` (`yyyy-MM-dd`).
    func keepDayTemperatures(_ records: [DayTemperatures], forgettingBefore day: String) async throws
    /// What was kept for each of `cells` on `day`, by cell; a cell without a record is absent.
    func dayTemperatures(cells: [String], day: String) async throws -> [String: DayTemperatures]

    // MARK: OpenWeather's budget

    /// Adds `calls` made to OpenWeather on the UTC `day` (days since 1970), by endpoint, to that
    /// day's counts and returns them: the calls of every replica sharing the store, kept across
    /// restarts. Earlier days' counts go (a late save of yesterday never removes today's: the
    /// keys' days have five digits, and sort as numbers, until 2243).
    func addOpenWeatherCalls(_ calls: [String: Int], onDay day: Int) async throws -> [String: Int]
    /// Keeps the active worker's OpenWeather calls of the last minute, by second since 1970, in
    /// place of what was kept before.
    func keepOpenWeatherMinute(_ calls: [Int: Int]) async throws
    /// The calls ``keepOpenWeatherMinute(_:)`` kept last: a worker starting after a restart or a
    /// takeover counts them against its first minute, as OpenWeather does.
    func openWeatherMinute() async throws -> [Int: Int]

    // MARK: Runs

    /// A run of the worker starts: items left in flight by the last one count as an attempt.
    func beginRun() async throws
    func endRun() async throws
    /// A description of damage to the store, or nil when it reads as sound.
    func quickCheck() async throws -> String?
    /// Whether an error means the bot must stop rather than go on failing: the store is damaged,
    /// or (a replica) it no longer holds the lease; ``describe(_:)`` says which.
    func isDamage(_ error: any Error) -> Bool
    /// Whether an error means the store refused the write as it stands (a constraint), so trying
    /// the same step again will fail again.
    func isRejection(_ error: any Error) -> Bool
    /// An error of the store as one line for the log, saying what the engine said.
    func describe(_ error: any Error) -> String
}

extension BotStore {
    /// The error's own description, for engines whose errors say enough.
    public func describe(_ error: any Error) -> String { "\(error)" }

    /// Removes a reply that was sent or given up, committing at once.
    public func completeOutbox(id: Int64, chatID: Int64, tag: String?, messageID: Int?, at now: Date) async throws {
        try await completeOutbox(id: id, chatID: chatID, tag: tag, messageID: messageID, at: now, lingeringUpTo: .zero)
    }
}

/// Reads a chat's favorites and daily forecasts; changes to them are returned in the step and
/// committed with it. The conversation reads through it; every engine's ``BotStore`` is one.
public protocol ChatStore: Sendable {
    /// A chat's record; nil for a chat the bot never answered.
    func chat(_ id: Int64) async throws -> ChatRecord?
    /// The chat's favorites in its order.
    func favorites(chatID: Int64) async throws -> [Favorite]
    /// The chat's daily forecasts, in the order they were made.
    func subscriptions(chatID: Int64) async throws -> [Subscription]
}

/// What committing a step wrote: the ids its replies got in the outbox, in order, and its follow-ups.
public struct CommittedStep: Sendable {
    /// The outbox ids of the step's replies, in the order they were given: the runtime hands them to the sender.
    public var replyIDs: [Int64]
    /// The follow-ups as inbox items, with the `seq` each got.
    public var followUps: [InboxItem]

    /// What an engine returns once the step committed.
    public init(replyIDs: [Int64], followUps: [InboxItem]) {
        self.replyIDs = replyIDs
        self.followUps = followUps
    }
}

/// Inbox items that kept failing, kept for the operator to read.
public enum SetAside {
    /// How long an item set aside is kept: each new one forgets those older than this, so the
    /// table never grows without end however many updates fail.
    public static let keptFor: TimeInterval = 30 * 86_400
}
