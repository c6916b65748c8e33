public import Foundation
public import Logging
import PostgresNIO
public import WeatherBotStore

/// Moving house: a bot's SQLite database copied into an empty PostgreSQL one, so that replicas
/// go on where the single process stopped, with the same chats (their notice settings too),
/// favorites, daily forecasts, waiting replies, marks of the notices sent and update offset.
public enum StoreMigration {
    /// The copy was not made (nothing was written but the schema); `description` says why, in one line.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// Why the copy was refused, in one line for the operator.
        public var description: String
    }

    /// One table's rows on both sides after the copy.
    public struct Count: Sendable, Hashable {
        /// The table's name in PostgreSQL.
        public var table: String
        /// Rows the SQLite file held when it was read.
        public var sqlite: Int
        /// Rows PostgreSQL holds once the copy committed.
        public var postgres: Int

        /// Whether both sides hold as many rows.
        public var matches: Bool { sqlite == postgres }
    }

    /// The copy's outcome: every table's rows counted on both sides once it was committed.
    public struct Report: Sendable {
        /// One per table copied, in the order of the SQLite tables moving house carries.
        public var counts: [Count]

        /// Whether every table holds as many rows in PostgreSQL as in SQLite.
        public var matches: Bool { counts.allSatisfy(\.matches) }
    }

    /// The SQLite tables a copy carries and their names in PostgreSQL, in the order they are reported.
    static let tables: [(sqlite: String, postgres: String)] = StoreContents.tables.map { ($0, postgresNames[$0] ?? $0) }

    static let postgresNames = ["inboxFailure": "inbox_failure", "messageTag": "message_tag", "noticeMark": "notice_mark", "workerFact": "worker_fact"]

    /// The tables whose rows mean the database is in use: a copy into it is refused.
    static let botData = ["chat", "favorite", "subscription", "inbox", "inbox_failure", "outbox", "message_tag", "notice_mark"]

    /// What the operator should know before the copy: the bot may be running, or stopped
    /// without finishing its last steps. Neither stops the copy (the inbox goes along, so
    /// nothing is lost), but what a running bot takes or sends afterwards is not copied.
    public static func warnings(about contents: StoreContents, now: Date = Date()) -> [String] {
        guard contents.stoppedCleanly == false else { return [] }
        let poll = contents.lastSuccessfulPoll.map { " (its last poll was \(Int(max(now.timeIntervalSince($0), 0))) s ago)" } ?? ""
        return [
            "warning: the bot did not stop cleanly or is still running\(poll); stop it before copying: what it does meanwhile is not copied. "
                + "Items it was handling are copied and handled again."
        ]
    }

    /// Brings the schema of `store`'s database up to date, copies `contents` into it in one
    /// transaction, moves every id sequence past the ids copied, and counts each table's rows
    /// on both sides once committed. The store's client must be running.
    ///
    /// - Throws: ``Refusal`` when the database already holds bot data or a replica is active on
    ///   it; the server's errors as they come.
    public static func copy(_ contents: StoreContents, into store: PostgresStore, logger: Logger) async throws -> Report {
        try await store.migrate()
        // The store's own transaction: unfenced (no replica runs), its errors unwrapped as everywhere.
        try await store.write { connection in
            try await refuseWhileAReplicaRuns(connection, logger)
            try await refuseUnlessEmpty(connection, logger)
            try await write(contents, connection, logger)
        }
        var counts: [Count] = []
        for table in tables {
            let rows = try await store.client.query("SELECT COUNT(*) FROM \(unescaped: table.postgres)", logger: logger)
            var postgres = 0
            for try await count in rows.decode(Int64.self) { postgres = Int(count) }
            counts.append(Count(table: table.postgres, sqlite: contents.rowCounts[table.sqlite] ?? 0, postgres: postgres))
        }
        return Report(counts: counts)
    }

    /// Inside the copy's transaction: no replica holds the lease, and none can take it (and start
    /// on the tables being written) until the copy is committed.
    private static func refuseWhileAReplicaRuns(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query("LOCK TABLE leader_lease IN EXCLUSIVE MODE", logger: logger)
        let holders = try await connection.query("SELECT holder FROM leader_lease WHERE expires_at > now()", logger: logger).collect()
        if let holder = try holders.first?.decode(String.self) {
            throw Refusal(description: "a replica (\(holder)) is running on the target database; stop every replica first")
        }
    }

    /// Inside the copy's transaction: no other writer may change the tables until it ends, and
    /// they hold no bot data.
    private static func refuseUnlessEmpty(_ connection: PostgresConnection, _ logger: Logger) async throws {
        let tables = (botData + ["worker_fact"]).joined(separator: ", ")
        try await connection.query("LOCK TABLE \(unescaped: tables) IN EXCLUSIVE MODE", logger: logger)
        let used = botData.map { "SELECT '\($0)' WHERE EXISTS (SELECT 1 FROM \($0))" }.joined(separator: " UNION ALL ")
        var found: Set<String> = []
        for try await table in try await connection.query(PostgresQuery(unsafeSQL: used), logger: logger).decode(String.self) {
            found.insert(table)
        }
        let holding = botData.filter(found.contains)
        guard holding.isEmpty else {
            throw Refusal(
                description: "the target database already holds bot data (rows in \(holding.joined(separator: ", "))); copy into an empty database")
        }
    }

    private static func write(_ contents: StoreContents, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }

        // Chats are stored as every step stores them.
        _ = try await PostgresStore.queue([], storing: contents.chats, connection, logger)
        try await insert(contents.favorites, into: "favorite", columns: ["id", "chat_id", "position", "place", "created_at"], connection, logger) {
            favorite, row in
            row.append(favorite.id)
            row.append(favorite.chatID)
            row.append(favorite.position)
            row.append(try json(favorite.place))
            row.append(favorite.createdAt)
        }
        try await insert(contents.subscriptions, into: "subscription", columns: ["id"] + PostgresStore.subscriptionValueColumns, connection, logger) {
            subscription, row in
            row.append(subscription.id)
            try PostgresStore.bind(subscription, to: &row)
        }
        try await insert(contents.inbox, into: "inbox", columns: ["seq", "chat_id", "update_id", "kind", "payload", "attempts"], connection, logger) {
            item, row in
            row.append(item.seq)
            row.append(item.chatID)
            row.append(item.updateID)
            row.append(item.kind.rawValue)
            try row.append(item.payload)
            row.append(item.attempts)
        }
        try await insert(
            contents.setAside, into: "inbox_failure",
            columns: ["seq", "chat_id", "update_id", "kind", "payload", "attempts", "error", "failed_at"], connection, logger
        ) { item, row in
            row.append(item.seq)
            row.append(item.chatID)
            row.append(item.updateID)
            row.append(item.kind)
            try row.append(item.payload)
            row.append(item.attempts)
            row.append(item.error)
            row.append(item.failedAt)
        }
        try await insert(
            contents.outbox, into: "outbox",
            columns: ["id", "chat_id", "lane", "method", "parameters", "tag", "message_id", "photo", "attempts", "not_before", "created_at", "deadline"],
            connection, logger
        ) { item, row in
            row.append(item.id)
            row.append(item.chatID)
            row.append(item.lane.rawValue)
            row.append(item.method)
            try row.append(item.parameters)
            row.append(item.tag)
            row.append(item.messageID.map(Int64.init))
            row.append(item.photo)
            row.append(item.attempts)
            row.append(item.notBefore)
            row.append(item.createdAt)
            row.append(item.deadline)
        }
        try await insert(contents.messageTags, into: "message_tag", columns: ["chat_id", "tag", "message_id", "created_at"], connection, logger) {
            tagged, row in
            row.append(tagged.chatID)
            row.append(tagged.tag)
            row.append(Int64(tagged.messageID))
            row.append(tagged.createdAt)
        }
        // What each chat was told: without the marks, a notice sent before the move goes again.
        try await insert(contents.noticeMarks, into: "notice_mark", columns: ["chat_id", "key", "value", "expires_at"], connection, logger) {
            kept, row in
            row.append(kept.chatID)
            row.append(kept.mark.key)
            row.append(kept.mark.value)
            row.append(kept.mark.expiresAt)
        }
        // The facts of a database that holds no bot data are about nothing: the file's replace them.
        try await connection.query("DELETE FROM worker_fact", logger: logger)
        try await insert(contents.facts.sorted { $0.key < $1.key }, into: "worker_fact", columns: ["key", "value"], connection, logger) {
            fact, row in
            row.append(fact.key)
            row.append(fact.value)
        }

        // New rows get ids above every id the file gave out, the copied ones and those since
        // deleted alike; a new inbox item's also stays clear of the items set aside, which keep theirs.
        let floors: [(table: String, column: String, last: Int64)] = [
            ("inbox", "seq", ([contents.lastIDs["inbox"]] + contents.inbox.map(\.seq) + contents.setAside.map(\.seq)).compactMap { $0 }.max() ?? 0),
            ("outbox", "id", ([contents.lastIDs["outbox"]] + contents.outbox.map(\.id)).compactMap { $0 }.max() ?? 0),
            ("favorite", "id", ([contents.lastIDs["favorite"]] + contents.favorites.map(\.id)).compactMap { $0 }.max() ?? 0),
            ("subscription", "id", ([contents.lastIDs["subscription"]] + contents.subscriptions.map(\.id)).compactMap { $0 }.max() ?? 0),
        ]
        for floor in floors where floor.last > 0 {
            try await connection.query("SELECT setval(pg_get_serial_sequence(\(floor.table), \(floor.column)), \(floor.last))", logger: logger)
        }
    }

    /// Inserts `rows` with as few statements as the server's limit of parameters allows; `bind`
    /// appends one row's values in the order of `columns`.
    private static func insert<Element>(
        _ rows: [Element], into table: String, columns: [String], _ connection: PostgresConnection, _ logger: Logger,
        bind: (Element, inout PostgresBindings) throws -> Void
    ) async throws {
        let rowsPerStatement = min(1_000, Int(UInt16.max) / columns.count)
        var start = rows.startIndex
        while start < rows.endIndex {
            let end = min(start + rowsPerStatement, rows.endIndex)
            var bindings = PostgresBindings(capacity: (end - start) * columns.count)
            var values: [String] = []
            for row in rows[start..<end] {
                let first = bindings.count
                try bind(row, &bindings)
                values.append("(" + (first + 1...bindings.count).map { "$\($0)" }.joined(separator: ", ") + ")")
            }
            let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values.joined(separator: ", "))"
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
            start = end
        }
    }
}
