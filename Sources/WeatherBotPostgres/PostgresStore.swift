public import Foundation
public import Logging
public import PostgresNIO
public import ServiceLifecycle
public import TelegramBotAPI
import Synchronization
public import WeatherBotStore
public import WeatherBotStoreSQL

/// The bot's store on PostgreSQL: the same operations and guarantees as SQLite's `BotDatabase`, each
/// write one transaction on a connection of the client's pool.
///
/// The client's pool must run while the store is used (``withRunning(_:_:)``).
public final class PostgresStore: BotStore {
    /// The pool every read and write of the store goes through, at most 16 connections; `weatherbot status` and moving house query it too.
    public let client: PostgresClient
    let logger: Logger
    /// The lease this replica writes under; nil writes unfenced (one replica, tests, moving house).
    private let fence = Fence()
    /// The chats' records as last committed: only the replica holding the lease writes them.
    private let chats: ChatCache
    /// The chats' steps and the sender's completions share fenced transactions under load: a
    /// statement failing tries each write again alone, any other failure is every write's.
    private let group: GroupCommit<SharedWrite, CommittedStep?>
    /// Updates posted to the webhook at once share unfenced statements.
    private let posted: GroupCommit<PostedUpdate, [InboxItem]?>

    final class Fence: Sendable {
        let lease = Mutex<LeaderLease.Held?>(nil)
    }

    /// A store on the database at `location`, keeping up to `cachedChats` chats' records in memory. Nothing connects until the
    /// client runs (``withRunning(_:_:)``), and the schema is not made until ``migrate()``; ``commits`` join the service group.
    public init(_ location: PostgresLocation, cachedChats: Int = 10_000, logger: Logger) {
        var configuration = location.configuration
        configuration.options.maximumConnections = 16
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        chats = ChatCache(capacity: cachedChats)
        posted = GroupCommit(maximumBatch: Self.maximumBatch) { [client, logger] updates in try await Self.store(posted: updates, client, logger) }
        group = GroupCommit(maximumBatch: Self.maximumBatch) { [client, fence, logger] writes in
            try await Self.commit(writes, client, fence, logger)
        }
    }

    /// The most writes one shared transaction takes.
    static let maximumBatch = 128

    /// The group commits' loops, for the service group that uses this store: after the client,
    /// ahead of the services that write.
    public var commits: [any Service] { [group, posted] }

    // MARK: Schema

    /// The schema's versions up to where both engines meet, in order; each applied once, in a
    /// transaction, under an advisory lock, so replicas starting together migrate once. Names
    /// follow SQLite's: this engine starts at the schema SQLite reaches with v9. Closed: a new
    /// change goes in `StoreSchema.changes`, written once for both engines.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v9: chats, inbox, outbox, favorites, daily forecasts, items set aside, charts",
            [
                """
                CREATE TABLE chat (
                    id BIGINT PRIMARY KEY, language TEXT NOT NULL, state BYTEA NOT NULL, current_place TEXT,
                    recent_places TEXT NOT NULL DEFAULT '[]', place_seq INTEGER NOT NULL DEFAULT 0,
                    question_seq INTEGER NOT NULL DEFAULT 0, is_active BOOLEAN NOT NULL DEFAULT TRUE,
                    created_at TIMESTAMPTZ NOT NULL, updated_at TIMESTAMPTZ NOT NULL, last_message_id BIGINT)
                """,
                """
                CREATE TABLE inbox (
                    seq BIGSERIAL PRIMARY KEY, chat_id BIGINT NOT NULL, update_id BIGINT, kind TEXT NOT NULL,
                    payload BYTEA NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)
                """,
                "CREATE INDEX inbox_chat ON inbox (chat_id, seq)",
                """
                CREATE TABLE inbox_failure (
                    seq BIGINT PRIMARY KEY, chat_id BIGINT NOT NULL, update_id BIGINT, kind TEXT NOT NULL, payload BYTEA NOT NULL,
                    attempts INTEGER NOT NULL, error TEXT NOT NULL, failed_at TIMESTAMPTZ NOT NULL)
                """,
                """
                CREATE TABLE outbox (
                    id BIGSERIAL PRIMARY KEY, chat_id BIGINT NOT NULL, lane INTEGER NOT NULL, method TEXT NOT NULL,
                    parameters BYTEA NOT NULL, tag TEXT, message_id BIGINT, photo TEXT, attempts INTEGER NOT NULL DEFAULT 0,
                    not_before TIMESTAMPTZ NOT NULL, created_at TIMESTAMPTZ NOT NULL)
                """,
                "CREATE INDEX outbox_chat ON outbox (chat_id, id)",
                "CREATE INDEX outbox_lane ON outbox (lane, id)",
                """
                CREATE TABLE message_tag (
                    chat_id BIGINT NOT NULL, tag TEXT NOT NULL, message_id BIGINT NOT NULL, created_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (chat_id, tag))
                """,
                "CREATE TABLE worker_fact (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                """
                CREATE TABLE favorite (
                    id BIGSERIAL PRIMARY KEY, chat_id BIGINT NOT NULL, position INTEGER NOT NULL, place TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL)
                """,
                "CREATE INDEX favorite_chat_position ON favorite (chat_id, position)",
                """
                CREATE TABLE subscription (
                    id BIGSERIAL PRIMARY KEY, chat_id BIGINT NOT NULL, place TEXT NOT NULL, time_zone TEXT NOT NULL,
                    hour INTEGER NOT NULL, minute INTEGER NOT NULL, next_send_at TIMESTAMPTZ NOT NULL, last_sent_day TEXT,
                    is_active BOOLEAN NOT NULL DEFAULT TRUE, created_at TIMESTAMPTZ NOT NULL, with_chart BOOLEAN NOT NULL DEFAULT FALSE)
                """,
                "CREATE INDEX subscription_chat ON subscription (chat_id)",
                "CREATE INDEX subscription_due ON subscription (is_active, next_send_at)",
            ]
        ),
        (
            "v10: leadership",
            [
                """
                CREATE TABLE leader_lease (
                    name TEXT PRIMARY KEY, holder TEXT NOT NULL, epoch BIGINT NOT NULL, acquired_at TIMESTAMPTZ NOT NULL,
                    expires_at TIMESTAMPTZ NOT NULL)
                """
            ]
        ),
        (
            "v11: updates posted to the webhook",
            [
                "CREATE TABLE received_update (update_id BIGINT PRIMARY KEY, received_at TIMESTAMPTZ NOT NULL)",
                "CREATE INDEX received_update_received_at ON received_update (received_at)",
            ]
        ),
        (
            // SQLite's v11. Chats of before have notices off and the default quiet hours (NULL);
            // replies queued before have no deadline.
            "v12: notices: a chat's settings, the marks of what it was told, the outbox's deadlines",
            [
                """
                ALTER TABLE chat ADD COLUMN notice_rain BOOLEAN NOT NULL DEFAULT FALSE,
                    ADD COLUMN notice_warnings BOOLEAN NOT NULL DEFAULT FALSE, ADD COLUMN quiet_hours TEXT, ADD COLUMN notices_set_by BIGINT
                """,
                // The checker reads the few chats with a notice on out of all of them, every minute.
                "CREATE INDEX chat_notices ON chat (id) WHERE notice_rain OR notice_warnings",
                """
                CREATE TABLE notice_mark (
                    chat_id BIGINT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (chat_id, key))
                """,
                "CREATE INDEX notice_mark_expires_at ON notice_mark (expires_at)",
                "ALTER TABLE outbox ADD COLUMN deadline TIMESTAMPTZ",
            ]
        ),
        (
            // SQLite's v12. NULL: every setting at its language's default, as chats of before read.
            "v13: a chat's settings: units, language, clock",
            ["ALTER TABLE chat ADD COLUMN settings TEXT"]
        ),
        (
            // SQLite's v13.
            "v14: each place cell's lowest and highest temperature of the last days",
            [
                """
                CREATE TABLE day_temperature (
                    cell TEXT NOT NULL, day TEXT NOT NULL, minimum DOUBLE PRECISION NOT NULL, maximum DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (cell, day))
                """,
                "CREATE INDEX day_temperature_day ON day_temperature (day)",
            ]
        ),
    ]

    /// The advisory lock migrations take: one replica migrates, the others wait and find it done.
    static let migrationLock: Int64 = 0x7765_6174_6865_7201

    /// Applies the migrations not applied yet: this engine's history, then the store's changes
    /// written once (``StoreSchema``, or `changes`); returns their names.
    @discardableResult
    public func migrate(adding changes: [SchemaChange] = StoreSchema.changes) async throws -> [String] {
        let migrations = Self.migrations + changes.map { ($0.name, $0.statements(in: .postgres)) }
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)", logger: logger)
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM schema_migration", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_migration (name, applied_at) VALUES (\(migration.name), \(Date()))", logger: logger)
                done.append(migration.name)
            }
            return done
        }
    }

    // MARK: Fencing

    /// From now on every write checks, in its own transaction, that `lease` is still this
    /// replica's: a replica that froze and lost it writes nothing, and the takeover waits for
    /// the writes that checked before it.
    public func fence(with lease: LeaderLease.Held?) {
        fence.lease.withLock { $0 = lease }
    }

    /// Runs `body` in a transaction, fenced by the lease when one is set.
    @discardableResult
    func write<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await Self.transaction(client, fence, logger, body)
    }

    static func transaction<T: Sendable>(
        _ client: PostgresClient, _ fence: Fence, _ logger: Logger, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let lease = fence.lease.withLock { $0 }
        do {
            return try await client.withTransaction(logger: logger) { connection in
                if let lease { try await LeaderLease.check(lease, connection, logger) }
                return try await body(connection)
            }
        } catch let error as PostgresTransactionError {
            // What failed, not the wrapper: the runtime classifies it (not leading, a constraint).
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    // MARK: Inbox and offset


    /// One statement, its own transaction: the lease checked (as ``LeaderLease/check(_:_:_:)``
    /// does, the row locked until the statement ends), the stored id read, the updates after it
    /// put in the inbox, and both facts (the last id, the poll's time) kept. A poll's answer costs
    /// one round trip, not seven (`BEGIN`, the fence, a read, three writes, `COMMIT`).
    public func receive(_ updates: [(updateID: Int64, chatID: Int64?, payload: Data)], lastUpdateID: Int64, rebasing: Bool, at now: Date) async throws
        -> [InboxItem]
    {
        let received = updates.compactMap { update in update.chatID.map { (chatID: $0, updateID: update.updateID, payload: update.payload) } }
        let lease = fence.lease.withLock { $0 }
        // Each data-modifying part of WITH runs once, whether or not the rest reads it; both read
        // `allowed`, so nothing is written unless the lease holds. A row of NULLs says it did not.
        let rows = try await client.query(
            """
            \(fenceFor: lease), previous AS (
                SELECT CASE WHEN \(rebasing) THEN \(Int64.min)
                    ELSE COALESCE((SELECT value::bigint FROM worker_fact WHERE key = \(WorkerFact.Key.lastUpdateID.rawValue)), \(Int64.min))
                    END AS id
            ), facts AS (
                INSERT INTO worker_fact (key, value)
                SELECT fact.key, fact.value FROM allowed, previous,
                    LATERAL (VALUES (\(WorkerFact.Key.lastUpdateID.rawValue), GREATEST(previous.id, \(lastUpdateID))::text),
                        (\(WorkerFact.Key.lastSuccessfulPoll.rawValue), \(WorkerFact.time(now)))) AS fact(key, value)
                WHERE allowed.ok
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
            ), inserted AS (
                INSERT INTO inbox (chat_id, update_id, kind, payload)
                SELECT item.chat_id, item.update_id, \(InboxItem.Kind.update.rawValue), item.payload
                FROM unnest(\(received.map(\.chatID)), \(received.map(\.updateID)), \(received.map { ByteBuffer(bytes: $0.payload) }))
                    WITH ORDINALITY AS item(chat_id, update_id, payload, n), previous, allowed
                WHERE allowed.ok AND item.update_id > previous.id
                ORDER BY n
                RETURNING seq, update_id
            )
            SELECT NULL::bigint, NULL::bigint FROM allowed WHERE NOT allowed.ok
            UNION ALL SELECT seq, update_id FROM inserted
            """, logger: logger
        ).collect().map { try $0.decode((Int64?, Int64?).self) }
        var seqs: [Int64: Int64] = [:]
        for row in rows {
            guard let seq = row.0, let updateID = row.1 else {
                throw lease.map { NotLeading(lease: $0) as any Error } ?? PostgresStoreError(description: "the receipt was refused without a lease")
            }
            seqs[updateID] = min(seq, seqs[updateID] ?? seq)
        }
        return received.compactMap { update in
            seqs[update.updateID].map { InboxItem(seq: $0, chatID: update.chatID, updateID: update.updateID, kind: .update, payload: update.payload) }
        }.sorted { ($0.seq ?? 0) < ($1.seq ?? 0) }
    }

    /// Not fenced: every replica takes what Telegram posts to it into the shared inbox, and the
    /// active one handles it. Posts arriving together share a statement.
    public func receivePosted(_ update: (updateID: Int64, chatID: Int64?, payload: Data), forgettingBefore: Date?, at now: Date) async throws
        -> [InboxItem]?
    {
        if let forgettingBefore {
            try await client.query("DELETE FROM received_update WHERE received_at < \(forgettingBefore)", logger: logger)
        }
        return try await posted.write(PostedUpdate(updateID: update.updateID, chatID: update.chatID, payload: update.payload, at: now))
    }

    /// Every replica gets the same: a replica that keeps its own at the same moment reads the other's back.
    /// - Throws: ``PostgresStoreError`` when the secret was neither kept nor found, which the server should not allow.
    public func webhookSecret(generated: String) async throws -> String {
        let rows = try await client.query(
            """
            WITH kept AS (
                INSERT INTO worker_fact (key, value) VALUES (\(WorkerFact.Key.webhookSecret.rawValue), \(generated))
                ON CONFLICT (key) DO NOTHING RETURNING value)
            SELECT value FROM kept UNION ALL SELECT value FROM worker_fact WHERE key = \(WorkerFact.Key.webhookSecret.rawValue)
            """, logger: logger
        ).collect()
        if let row = rows.first { return try row.decode(String.self) }
        // Another replica kept its own meanwhile, after this statement's snapshot: read that one.
        guard let kept = try await client.withConnection({ try await Self.fact(.webhookSecret, $0, logger) }) else {
            throw PostgresStoreError(description: "the webhook secret was neither kept nor stored")
        }
        return kept
    }

    /// The poll's time, one row of `worker_fact`, in a fenced transaction of its own.
    public func notePoll(at now: Date) async throws {
        _ = try await run(Self.sql.notePoll(at: now))
    }

    /// Read from `worker_fact`; nil before the first update was stored.
    public func lastUpdateID() async throws -> Int64? {
        try await fact(.lastUpdateID).flatMap(Int64.init)
    }

    /// Adds and reads back in one fenced transaction, so the counts returned include every replica's additions so far.
    public func addOpenWeatherCalls(_ calls: [String: Int], onDay day: Int) async throws -> [String: Int] {
        try await write { connection in
            _ = try await Self.run(Self.sql.addOpenWeatherCalls(calls, onDay: day), connection, logger)
            return WorkerFact.openWeatherCalls(onDay: day, from: try await Self.fetch(Self.sql.openWeatherCalls(onDay: day), connection, logger))
        }
    }

    /// One row of `worker_fact`, replaced in a fenced transaction of its own.
    public func keepOpenWeatherMinute(_ calls: [Int: Int]) async throws {
        _ = try await run(Self.sql.keepOpenWeatherMinute(calls))
    }

    /// Rows of `day_temperature`, each replaced in place, then the older days deleted.
    public func keepDayTemperatures(_ records: [DayTemperatures], forgettingBefore day: String) async throws {
        _ = try await run(Self.sql.keepDayTemperatures(records, forgettingBefore: day))
    }

    /// One query for all the cells; no cells reads nothing and returns an empty dictionary.
    public func dayTemperatures(cells: [String], day: String) async throws -> [String: DayTemperatures] {
        guard !cells.isEmpty else { return [:] }
        let records = try await fetch(Self.sql.dayTemperatures(cells: cells, day: day))
        return Dictionary(records.map { ($0.cell, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Kept in `worker_fact`, in place of the round kept before.
    public func keepNoticeRound(_ round: NoticeRound) async throws {
        _ = try await run(Self.sql.keepNoticeRound(round))
    }

    /// The round ``keepNoticeRound(_:)`` kept last; nil before the first, or when what is kept no longer reads.
    public func noticeRound() async throws -> NoticeRound? {
        NoticeRound(stored: try await fact(.noticeRound))
    }

    /// Empty when none were kept.
    public func openWeatherMinute() async throws -> [Int: Int] {
        WorkerFact.openWeatherMinute(try await fact(.openWeatherLastMinute))
    }

    /// OpenWeather's calls stored for the UTC `day` by endpoint, read without writing (for `weatherbot status`).
    public func openWeatherCalls(onDay day: Int) async throws -> [String: Int] {
        WorkerFact.openWeatherCalls(onDay: day, from: try await fetch(Self.sql.openWeatherCalls(onDay: day)))
    }

    /// 0 before the first skip.
    public func dailyForecastsSkipped() async throws -> Int {
        try await fact(.dailyForecastsSkipped).flatMap(Int.init) ?? 0
    }

    /// Every replica's receipts, from the shared inbox, by `seq`.
    public func pendingInbox() async throws -> [InboxItem] {
        try await fetch(Self.sql.pendingInbox())
    }

    /// Does nothing when the item is gone already.
    public func discardInboxItem(seq: Int64, chatID: Int64) async throws {
        _ = try await run(Self.sql.discardInboxItem(seq: seq, chatID: chatID))
    }

    public func enqueueFollowUp(_ payload: Data, chatID: Int64) async throws -> InboxItem {
        let seq = try await run([Self.sql.insert(InboxItem(chatID: chatID, updateID: nil, kind: .followUp, payload: payload))])?.first
        return InboxItem(seq: seq, chatID: chatID, updateID: nil, kind: .followUp, payload: payload)
    }

    /// Returns nil, writing nothing, for an item never stored (no `seq`).
    public func setAside(_ item: InboxItem, attempts: Int, error: String, apology: BotRequest, at now: Date) async throws -> Int64? {
        guard let seq = item.seq else { return nil }
        return try await run(Self.sql.setAside(item, seq: seq, attempts: attempts, error: error, apology: apology, at: now))?.first
    }

    // MARK: Chats

    /// From the cache when this replica committed or read the chat lately; the database is read only on a miss.
    public func chat(_ id: Int64) async throws -> ChatRecord? {
        if let cached = chats.record(id) { return cached }
        let record = try await fetch(Self.sql.chat(id: id)).first
        if let record { chats.keep(record) }
        return record
    }

    /// The step shares a fenced transaction with others under load (the group commit); the cache keeps the record once committed.
    /// - Throws: ``NotLeading`` when this replica lost the lease, or the server's error (a failing statement is tried again alone).
    public func commitStep(chat: ChatRecord, handled seq: Int64, changes: [ChatChange], replies: [BotRequest], followUps: [Data], at now: Date)
        async throws -> CommittedStep
    {
        var stored = chat
        stored.updatedAt = now
        let written = try await group.write(.step(chat: stored, handled: seq, changes: changes, replies: replies, followUps: followUps, at: now))
        chats.keep(stored)
        // A step's write always returns what it committed.
        return written ?? CommittedStep(replyIDs: [], followUps: [])
    }

    /// Transactions that carried more than one chat's step or sent reply so far.
    var sharedTransactions: Int { group.shared }

    /// The chat's cached record is dropped too, so the next read sees it inactive.
    public func deactivateChat(_ chatID: Int64) async throws {
        _ = try await run(Self.sql.deactivateChat(chatID))
        chats.forget(chatID)
    }

    /// Read from the database, not the cache.
    public func favorites(chatID: Int64) async throws -> [Favorite] {
        try await fetch(Self.sql.favorites(chatID: chatID))
    }

    /// Read from the database, not the cache; paused ones too.
    public func subscriptions(chatID: Int64) async throws -> [Subscription] {
        try await fetch(Self.sql.subscriptions(chatID: chatID))
    }

    // MARK: Outbox

    /// Every replica's queued replies, from the shared outbox, by outbox id.
    public func outboxItems(lane: OutboxLane, chatID: Int64?, from id: Int64, limit: Int) async throws -> [OutboxItem] {
        try await fetch(Self.sql.outboxItems(lane: lane, chatID: chatID, from: id, limit: limit))
    }

    /// Replies waiting in every lane (the sender logs what is left when it stops); 0 when none.
    public func outboxBacklog() async throws -> Int {
        try await fetch(Self.sql.outboxBacklog()).first ?? 0
    }

    /// Replies waiting in `lane`; 0 when none.
    public func outboxBacklog(lane: OutboxLane) async throws -> Int {
        try await fetch(Self.sql.outboxBacklog(lane: lane)).first ?? 0
    }

    /// By the reply's `created_at`, on the queuing replica's clock.
    public func oldestOutboxItem(lane: OutboxLane) async throws -> Date? {
        try await fetch(Self.sql.oldestOutboxItem(lane: lane)).first ?? nil
    }

    /// Shares the fenced transactions of the chats' steps.
    public func completeOutbox(id: Int64, chatID: Int64, tag: String?, messageID: Int?, at now: Date, lingeringUpTo linger: Duration) async throws {
        _ = try await group.write(.sent(SentReply(id: id, chatID: chatID, tag: tag, messageID: messageID, at: now)), lingeringUpTo: linger)
    }

    /// Ends the group commit's lingering at once.
    public func hurryCompletions() { group.hurry() }

    /// Does nothing when the reply is gone already.
    public func retryOutbox(id: Int64, chatID: Int64, notBefore: Date) async throws {
        _ = try await run(Self.sql.retryOutbox(id: id, chatID: chatID, notBefore: notBefore))
    }

    /// Nil when no message was sent under the tag, or it was forgotten with the chat.
    public func messageID(chatID: Int64, tag: String) async throws -> Int? {
        try await fetch(Self.sql.messageID(chatID: chatID, tag: tag)).first
    }

    // MARK: Daily forecasts

    /// One query joining each subscription to its chat; `limit` is the scheduler's batch.
    public func dueSubscriptions(at now: Date, limit: Int) async throws -> [DueSubscription] {
        try await fetch(Self.sql.dueSubscriptions(at: now, limit: limit))
    }

    /// Every delivery in one fenced transaction: all of them commit, or none.
    public func commitDeliveries(_ deliveries: [DailyDelivery], at now: Date) async throws -> [[Int64]] {
        let plans = Self.sql.commitDeliveries(deliveries, at: now)
        return try await write { connection in try await Self.run(plans, connection, logger) }
    }

    // MARK: Runs

    /// Counts the attempt only when the last run did not stop cleanly, as `worker_fact` says.
    public func beginRun() async throws {
        _ = try await run(Self.sql.beginRun())
    }

    /// The chat workers stopped cleanly: the next run counts no attempt.
    public func endRun() async throws {
        _ = try await run(Self.sql.endRun())
    }

    /// The server answers: PostgreSQL keeps its own files' health.
    public func quickCheck() async throws -> String? {
        try await client.query("SELECT 1", logger: logger)
        return nil
    }

    /// A damaged file stops the SQLite engine; the server reports its own damage as errors of the
    /// statements, which are retried like any other. A replica no longer leading stops as a
    /// damaged one does: nothing it writes may count.
    public func isDamage(_ error: any Error) -> Bool { error is NotLeading }

    /// An error of the database as one line for the operator: the server's own errors read as its
    /// message (PostgresNIO's description hides it); none carries the connection's password.
    public func describe(_ error: any Error) -> String { Self.describe(error) }

    /// The same as ``describe(_:)``, for callers holding no store: the lease keeper, `weatherbot status`, the runtime's damage line.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError {
            return describe(error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? CancellationError())
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "PostgreSQL: \(message)" + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if error.code == .sslUnsupported { return "the server does not offer TLS, which the URL's sslmode requires" }
            return "PostgreSQL: \(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return "\(error)"
    }

    /// The server could not be reached, or said it cannot take a connection yet: trying again
    /// later may succeed. A refused password, a database that does not exist or TLS the server
    /// does not offer are not this: they stay until the configuration or the server is mended.
    public static func isUnreachable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] {
            // Starting up or shutting down, too many connections, or class 08, connection exceptions.
            return state == "57P03" || state == "53300" || state.hasPrefix("08")
        }
        return [.connectionError, .serverClosedConnection, .uncleanShutdown].contains(error.code)
    }

    /// A constraint refused the write (SQLSTATE class 23): the same step fails again.
    public func isRejection(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState]?.hasPrefix("23") ?? false
    }
}

// MARK: - Rows

extension PostgresStore {
    static func fact(_ key: WorkerFact.Key, _ connection: PostgresConnection, _ logger: Logger) async throws -> String? {
        try await fetch(sql.fact(key), connection, logger).first
    }

    func fact(_ key: WorkerFact.Key) async throws -> String? {
        try await fetch(Self.sql.fact(key)).first
    }

    /// A subscription row's columns after its id, in the order ``bind(_:to:)`` binds them and
    /// reads decode them.
    static let subscriptionValueColumns = [
        "chat_id", "place", "time_zone", "hour", "minute", "next_send_at", "last_sent_day", "is_active", "created_at", "with_chart",
    ]

    /// Appends a subscription's values in the order of ``subscriptionValueColumns``.
    static func bind(_ subscription: Subscription, to row: inout PostgresBindings) throws {
        row.append(subscription.chatID)
        row.append(String(decoding: try JSONEncoder().encode(subscription.place), as: UTF8.self))
        row.append(subscription.timeZone)
        row.append(subscription.hour)
        row.append(subscription.minute)
        row.append(subscription.nextSendAt)
        row.append(subscription.lastSentDay)
        row.append(subscription.isActive)
        row.append(subscription.createdAt)
        row.append(subscription.withChart)
    }

    /// Applies one change inside the caller's transaction: the chat's rows it reads, then the
    /// statements the store decides for them.
    static func apply(_ change: ChatChange, chatID: Int64, now: Date, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let reads = change.reads
        let favorites = reads.favorites ? try await fetch(sql.favorites(chatID: chatID), connection, logger) : []
        let subscriptions = reads.subscriptions ? try await fetch(sql.subscriptions(chatID: chatID), connection, logger) : []
        _ = try await run(sql.statements(for: change, chatID: chatID, favorites: favorites, subscriptions: subscriptions, at: now), connection, logger)
    }
}

/// The store met something it did not expect of the server.
public struct PostgresStoreError: Error, Sendable, CustomStringConvertible {
    /// What was met, in one line for the log.
    public var description: String
}
