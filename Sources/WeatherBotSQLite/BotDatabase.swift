public import Foundation
import Glibc
public import GRDB
public import ServiceLifecycle
public import TelegramBotAPI
public import WeatherBotStore
import WeatherBotStoreSQL

/// The bot's SQLite database: one writer, its migrations, and every query the service runs.
///
/// Every query that touches a chat's data names that chat's id.
public struct BotDatabase: Sendable {
    /// Internal: every query goes through the methods below, each scoped by chat.
    let writer: any DatabaseWriter
    /// Whether this connection holds its file for itself (`open(path:holdingTheFile:)`).
    var holdsTheFile = false
    /// The busy paths (chat steps, delivered replies) commit through here, many to a transaction.
    let group: GroupCommit<SQLiteWrite, any Sendable>
    /// The records of the chats last read or written.
    let chats: ChatCache
    /// The file opened, and what it was on disk then; nil for a database given as a writer.
    let file: (path: String, identity: FileIdentity?)?
    /// Whether opening created the file: a new, empty database.
    public private(set) var isNew = false

    /// This bot's mark in the header of its SQLite files (`PRAGMA application_id`), "WBot".
    public static let applicationID: Int32 = 0x5742_6F74

    /// A SQLite file at the database's path that is some other program's: it is not used, let
    /// alone migrated.
    public struct NotThisBotsDatabase: Error, CustomStringConvertible {
        /// The path of the file that was refused.
        public var path: String
        /// The file's application id, or 0 with tables of another program.
        public var applicationID: Int32

        /// One line for the operator: whose file it is not, and where to point the path instead.
        public var description: String {
            "\(path) is a SQLite database of another program (application id \(applicationID), and no tables of this bot's); "
                + "point the database path at this bot's file, or at a path where none exists yet to start a new one"
        }
    }

    /// Another process holds the database: a bot already running on the same file.
    public struct HeldByAnotherProcess: Error, CustomStringConvertible {
        /// The path of the file another process holds.
        public var path: String

        /// One line for the operator: most likely another weatherbot, and how to part them.
        public var description: String {
            "\(path) is held by another process, most likely a weatherbot already running on it; one bot works on a file at a time "
                + "(stop the other, or give this one its own DATABASE_PATH)"
        }
    }

    /// Closes the connection: another process may open the file from then on. Nothing can be
    /// read or written through this value afterwards.
    public func close() throws {
        try writer.close()
    }

    /// The database's file, or its folder, cannot be written by this process: SQLite keeps a
    /// journal (`-wal`) and shared memory (`-shm`) beside the file and must create them there.
    public struct NotWritable: Error, CustomStringConvertible {
        /// The database file that cannot be opened for writing.
        public var path: String
        /// The folder when it is the folder that cannot be written.
        public var folder: String?

        /// What stands in the way of opening `path`, if it is the rights: nil when they are there.
        init?(path: String) {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if access(folder, W_OK | X_OK) != 0 {
                (self.path, self.folder) = (path, folder)
            } else if access(path, F_OK) == 0, access(path, R_OK | W_OK) != 0 {
                (self.path, self.folder) = (path, nil)
            } else {
                return nil
            }
        }

        /// One line for the operator, naming the user and what must be made writable (the folder too, for `-wal` and `-shm`).
        public var description: String {
            let user = "user \(getuid())"
            guard let folder else { return "the file \(path) cannot be read and written by this process (\(user)); give it write access" }
            let name = URL(fileURLWithPath: path).lastPathComponent
            return "the folder \(folder) cannot be written by this process (\(user)): SQLite keeps \(name)-wal and \(name)-shm beside the database, "
                + "so the folder must be writable, not only the file"
        }
    }

    /// Opens (creating when needed) the database at `path` in WAL mode, readable by its owner only.
    /// A SQLite file of another program at that path is refused (``NotThisBotsDatabase``).
    ///
    /// - Parameter holdingTheFile: the running bot's way: its one connection holds the file from
    ///   the first write to its close, so no transaction takes or lets go of a file lock (six
    ///   `fcntl` calls each otherwise), the WAL's index lives in this process's memory, and a
    ///   second bot started on the same file is refused (``HeldByAnotherProcess``) instead of
    ///   writing beside the first. Other processes read the status from the report the holder
    ///   keeps beside the file (``watchFile(every:)``, `BotStatus.reportPath(for:)`). Without
    ///   it (tools, tests) the file is shared as SQLite shares any.
    public static func open(path: String, holdingTheFile: Bool = false) throws -> BotDatabase {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Created by this process before SQLite opens it, with the owner's modes only from the
        // start (its -wal and -shm files take the same); a file that appeared meanwhile is kept.
        let created = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if created >= 0 { Glibc.close(created) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.journalMode = .wal
        if holdingTheFile {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try claim(queue, path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw HeldByAnotherProcess(path: path)
        } catch let error as DatabaseError {
            // SQLite's own words («unable to open database file») do not say what to change.
            throw NotWritable(path: path) ?? error
        }
        // FULL: a commit is on disk when it returns, also across power loss, as the update's
        // confirmation to Telegram (the next offset) assumes; NORMAL in WAL mode may lose the last
        // commits then. The group commit shares each sync among many steps. Set once the
        // connection is open: opening it in WAL mode sets NORMAL after any `prepareDatabase`.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        var database = try BotDatabase(queue, file: (path, FileIdentity(path: path)))
        database.holdsTheFile = holdingTheFile
        database.isNew = created >= 0
        return database
    }

    /// Marks the file as this bot's, or refuses it: a file without tables, or with this bot's
    /// migrations (written before the mark), is marked; any other is another program's.
    static func claim(_ writer: any DatabaseWriter, path: String) throws {
        try writer.writeWithoutTransaction { db in
            let found = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if found == applicationID { return }
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            let migrated =
                tables.contains("grdb_migrations")
                ? try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)", arguments: [firstMigration]) ?? false
                : false
            let ours = tables.isEmpty || migrated
            guard found == 0, ours else { throw NotThisBotsDatabase(path: path, applicationID: found) }
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        }
    }

    /// The first migration's name: a file that has it is this bot's.
    static let firstMigration = "v1: chats, inbox, outbox"

    /// Wraps a writer and brings its schema up to date.
    ///
    /// - Parameter cachedChats: how many chat records are kept in memory between updates.
    public init(_ writer: any DatabaseWriter, cachedChats: Int = 10_000) throws {
        try self.init(writer, cachedChats: cachedChats, file: nil)
    }

    init(_ writer: any DatabaseWriter, cachedChats: Int = 10_000, file: (path: String, identity: FileIdentity?)?) throws {
        self.writer = writer
        self.file = file
        self.group = .sqlite(writer)
        self.chats = ChatCache(capacity: cachedChats)
        try Self.migrator.migrate(writer)
    }

    /// The group commit's loop, for the service group that uses this database, ahead of the
    /// services that write.
    public var commits: any Service { group }

    /// The file's migrations: this engine's history, then the store's changes written once (``StoreSchema``).
    static var migrator: DatabaseMigrator { migrator(adding: StoreSchema.changes) }

    /// The history up to v13 (closed: a new change goes in `StoreSchema.changes`), then `changes`
    /// in SQLite's dialect, each in its own transaction.
    static func migrator(adding changes: [SchemaChange]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstMigration) { db in
            try db.create(table: "chat") { t in
                t.primaryKey("id", .integer)
                t.column("language", .text).notNull()
                t.column("state", .blob).notNull()
                t.column("currentPlace", .text)
                t.column("questionSeq", .integer).notNull().defaults(to: 0)
                t.column("isActive", .boolean).notNull().defaults(to: true)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "inbox") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("chatId", .integer).notNull()
                t.column("updateId", .integer)
                t.column("kind", .text).notNull()
                t.column("payload", .blob).notNull()
            }
            try db.create(index: "inbox_chat", on: "inbox", columns: ["chatId", "seq"])
            try db.create(table: "outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("chatId", .integer).notNull()
                t.column("payload", .blob).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("notBefore", .datetime).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "outbox_chat", on: "outbox", columns: ["chatId", "id"])
            try db.create(table: "messageTag") { t in
                t.column("chatId", .integer).notNull()
                t.column("tag", .text).notNull()
                t.column("messageId", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["chatId", "tag"])
            }
            try db.create(table: "workerFact") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2: favorites") { db in
            try db.create(table: "favorite") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("chatId", .integer).notNull()
                t.column("position", .integer).notNull()
                t.column("place", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "favorite_chat_position", on: "favorite", columns: ["chatId", "position"])
            try db.alter(table: "chat") { t in
                t.add(column: "recentPlaces", .text).notNull().defaults(to: "[]")
                t.add(column: "placeSeq", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v3: daily forecasts") { db in
            try db.create(table: "subscription") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("chatId", .integer).notNull().indexed()
                t.column("place", .text).notNull()
                t.column("timeZone", .text).notNull()
                t.column("hour", .integer).notNull()
                t.column("minute", .integer).notNull()
                t.column("nextSendAt", .datetime).notNull()
                t.column("lastSentDay", .text)
                t.column("isActive", .boolean).notNull().defaults(to: true)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "subscription_due", on: "subscription", columns: ["isActive", "nextSendAt"])
        }
        migrator.registerMigration("v4: outbox lanes") { db in
            // Replies queued before lanes existed answered chats: they stay interactive.
            try db.alter(table: "outbox") { t in
                t.add(column: "lane", .integer).notNull().defaults(to: OutboxLane.interactive.rawValue)
            }
            try db.create(index: "outbox_lane", on: "outbox", columns: ["lane", "id"])
        }
        migrator.registerMigration("v5: inbox attempts, items set aside") { db in
            try db.alter(table: "inbox") { t in
                t.add(column: "attempts", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "inboxFailure") { t in
                t.primaryKey("seq", .integer)
                t.column("chatId", .integer).notNull()
                t.column("updateId", .integer)
                t.column("kind", .text).notNull()
                t.column("payload", .blob).notNull()
                t.column("attempts", .integer).notNull()
                t.column("error", .text).notNull()
                t.column("failedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v6: the message a chat's latest step answered") { db in
            try db.alter(table: "chat") { t in t.add(column: "lastMessageID", .integer) }
        }
        migrator.registerMigration("v7: keyboards in the outbox under the Bot API's names") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, payload FROM outbox")
            for row in rows {
                let payload: Data = row["payload"]
                guard let renamed = renamingKeyboardKeys(in: payload) else { continue }
                try db.execute(sql: "UPDATE outbox SET payload = ? WHERE id = ?", arguments: [renamed, row["id"] as Int64])
            }
        }
        migrator.registerMigration("v8: the outbox keeps Bot API calls", migrate: storingRepliesAsRequests)
        migrator.registerMigration("v9: charts") { db in
            try db.alter(table: "outbox") { t in t.add(column: "photo", .text) }
            try db.alter(table: "subscription") { t in t.add(column: "withChart", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v10: updates posted to the webhook") { db in
            try db.create(table: "receivedUpdate") { t in
                t.primaryKey("updateId", .integer)
                t.column("receivedAt", .datetime).notNull()
            }
            try db.create(index: "receivedUpdate_receivedAt", on: "receivedUpdate", columns: ["receivedAt"])
        }
        migrator.registerMigration("v11: notices: a chat's settings, the marks of what it was told, the outbox's deadlines") { db in
            // Chats of before have notices off and the default quiet hours (NULL); replies queued
            // before have no deadline.
            try db.alter(table: "chat") { t in
                t.add(column: "noticeRain", .boolean).notNull().defaults(to: false)
                t.add(column: "noticeWarnings", .boolean).notNull().defaults(to: false)
                t.add(column: "quietHours", .text)
                t.add(column: "noticesSetBy", .integer)
            }
            // The checker reads the few chats with a notice on out of all of them, every minute.
            try db.execute(sql: "CREATE INDEX chat_notices ON chat (id) WHERE noticeRain OR noticeWarnings")
            try db.create(table: "noticeMark") { t in
                t.column("chatId", .integer).notNull()
                t.column("key", .text).notNull()
                t.column("value", .text).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.primaryKey(["chatId", "key"])
            }
            try db.create(index: "noticeMark_expiresAt", on: "noticeMark", columns: ["expiresAt"])
            try db.alter(table: "outbox") { t in t.add(column: "deadline", .datetime) }
        }
        migrator.registerMigration("v12: a chat's settings: units, language, clock") { db in
            // NULL: every setting at its language's default, as chats of before read.
            try db.alter(table: "chat") { t in t.add(column: "settings", .text) }
        }
        migrator.registerMigration("v13: each place cell's lowest and highest temperature of the last days") { db in
            try db.create(table: "dayTemperature") { t in
                t.column("cell", .text).notNull()
                t.column("day", .text).notNull()
                t.column("minimum", .double).notNull()
                t.column("maximum", .double).notNull()
                t.primaryKey(["cell", "day"])
            }
            try db.create(index: "dayTemperature_day", on: "dayTemperature", columns: ["day"])
        }
        for change in changes {
            migrator.registerMigration(change.name) { db in
                for statement in change.statements(in: .sqlite) { try db.execute(sql: statement) }
            }
        }
        return migrator
    }

    /// The Swift names keyboards were stored under before v7, and their Bot API names.
    static let keyboardKeys = [
        "inlineKeyboard": "inline_keyboard", "callbackData": "callback_data", "requestLocation": "request_location",
        "resizeKeyboard": "resize_keyboard", "oneTimeKeyboard": "one_time_keyboard", "inputFieldPlaceholder": "input_field_placeholder",
        "removeKeyboard": "remove_keyboard", "forceReply": "force_reply", "replyTo": "reply_to",
    ]

    /// A stored reply with its keyboards' keys renamed; nil when it needs no change or is not JSON
    /// (such a row is left for the sender, which drops what it cannot read, as before).
    static func renamingKeyboardKeys(in payload: Data) -> Data? {
        func renamed(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return Dictionary(uniqueKeysWithValues: object.map { (keyboardKeys[$0] ?? $0, renamed($1)) })
            }
            if let array = value as? [Any] { return array.map(renamed) }
            return value
        }
        guard let text = String(data: payload, encoding: .utf8), keyboardKeys.keys.contains(where: { text.contains("\"\($0)\"") }),
            let object = try? JSONSerialization.jsonObject(with: payload)
        else { return nil }
        return try? JSONSerialization.data(withJSONObject: renamed(object))
    }
}

// MARK: - On the caller's thread

extension BotDatabase {
    /// Runs `updates` in a transaction on the caller's thread, and returns once it committed.
    ///
    /// The file has one connection, and the bot's work runs on one thread (the transport's event
    /// loop, `LoopExecutor`): a statement runs where it is asked for, with no thread woken to run
    /// it and none to carry its result back. A commit holds that thread for its sync; the group
    /// commit shares one among the steps that came meanwhile.
    func transaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.write(updates)
    }

    /// Runs `value` in a read transaction on the caller's thread.
    func reading<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.read(value)
    }
}

// MARK: - Polling

extension BotDatabase {
    /// The id of the last update committed to the inbox, or nil before the first.
    public func lastUpdateID() throws -> Int64? {
        try writer.read { db in try Self.fact(.lastUpdateID, db).flatMap(Int64.init) }
    }

    /// Read from `workerFact`; 0 before the first skip.
    public func dailyForecastsSkipped() throws -> Int {
        try writer.read { db in try Self.fact(.dailyForecastsSkipped, db).flatMap(Int.init) ?? 0 }
    }

    /// Adds and reads back in one transaction on the caller's thread.
    public func addOpenWeatherCalls(_ calls: [String: Int], onDay day: Int) async throws -> [String: Int] {
        try transaction { db in
            _ = try Self.run(Self.sql.addOpenWeatherCalls(calls, onDay: day), db)
            return try Self.openWeatherCalls(onDay: day, db)
        }
    }

    /// Rows of `dayTemperature`, each replaced in place, then the older days deleted, in one transaction.
    public func keepDayTemperatures(_ records: [DayTemperatures], forgettingBefore day: String) async throws {
        _ = try transaction { db in try Self.run(Self.sql.keepDayTemperatures(records, forgettingBefore: day), db) }
    }

    /// One read for all the cells; no cells reads nothing and returns an empty dictionary.
    public func dayTemperatures(cells: [String], day: String) async throws -> [String: DayTemperatures] {
        guard !cells.isEmpty else { return [:] }
        let records = try reading { db in try Self.fetch(Self.sql.dayTemperatures(cells: cells, day: day), db) }
        return Dictionary(records.map { ($0.cell, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// One row of `workerFact`, replaced in a transaction on the caller's thread.
    public func keepOpenWeatherMinute(_ calls: [Int: Int]) async throws {
        _ = try transaction { db in try Self.run(Self.sql.keepOpenWeatherMinute(calls), db) }
    }

    /// Empty when none were kept.
    public func openWeatherMinute() async throws -> [Int: Int] {
        try reading { db in WorkerFact.openWeatherMinute(try Self.fact(.openWeatherLastMinute, db)) }
    }

    /// OpenWeather's calls stored for the UTC `day`, by endpoint.
    static func openWeatherCalls(onDay day: Int, _ db: Database) throws -> [String: Int] {
        WorkerFact.openWeatherCalls(onDay: day, from: try fetch(sql.openWeatherCalls(onDay: day), db))
    }

    /// When getUpdates last answered.
    public func lastSuccessfulPoll() throws -> Date? {
        try writer.read { db in
            WorkerFact.time(try Self.fact(.lastSuccessfulPoll, db))
        }
    }

    /// Commits a batch from getUpdates in one transaction: the updates that belong to a chat go to
    /// the inbox, and the last update id moves to `lastUpdateID` (covering those that were dropped).
    /// Updates at or below the stored id are skipped, so a batch delivered twice is taken once;
    /// but when `rebasing` (Telegram chose new, lower ids after a quiet week) every update is taken
    /// and the stored id moves down to `lastUpdateID`.
    ///
    /// - Returns: the inbox items written, in order.
    public func receive(
        _ updates: [(updateID: Int64, chatID: Int64?, payload: Data)], lastUpdateID: Int64, rebasing: Bool = false, at now: Date = Date()
    ) async throws -> [InboxItem] {
        try await receive(updates, steps: [], skipping: [], lastUpdateID: lastUpdateID, rebasing: rebasing, at: now).items
    }

    /// Shares a transaction with the chats' steps and the removals lingering for one.
    public func receive(
        _ updates: [(updateID: Int64, chatID: Int64?, payload: Data)], steps: [ReceivedStep], skipping: Set<Int64> = [], lastUpdateID: Int64,
        rebasing: Bool = false, at now: Date = Date()
    ) async throws -> Receipt {
        // The records the steps replace, as commitStep reads them: a chat's steps commit one at a time.
        let stored = steps.map { step in
            var chat = step.chat
            chat.updatedAt = now
            let placesUnchanged = chats.record(chat.id).map { $0.currentPlace == chat.currentPlace && $0.recentPlaces == chat.recentPlaces } ?? false
            return (step, chat, placesUnchanged)
        }
        let receipt = try await group.submit { db in
            let known = try Self.fact(.lastUpdateID, db).flatMap(Int64.init) ?? Int64.min
            let previous = rebasing ? Int64.min : known
            let stepped = Dictionary(stored.map { ($0.0.updateID, $0) }, uniquingKeysWith: { first, _ in first })
            var items: [InboxItem] = []
            var steps: [Int64: CommittedStep] = [:]
            for update in updates where update.updateID > previous && !skipping.contains(update.updateID) {
                guard let chatID = update.chatID else { continue }
                if let (step, chat, placesUnchanged) = stepped[update.updateID], step.chat.id == chatID {
                    steps[update.updateID] = try Self.writeStep(
                        chat: chat, handled: nil, changes: step.changes, replies: step.replies, followUps: step.followUps, placesUnchanged: placesUnchanged,
                        now: now, db)
                } else {
                    items.append(try Self.insert(InboxItem(chatID: chatID, updateID: update.updateID, kind: .update, payload: update.payload), db))
                }
            }
            try Self.setFact(.lastUpdateID, String(max(previous, lastUpdateID)), db)
            try Self.setFact(.lastSuccessfulPoll, WorkerFact.time(now), db)
            return Receipt(items: items, steps: steps)
        }
        for (step, chat, _) in stored where receipt.steps[step.updateID] != nil { chats.keep(chat) }
        return receipt
    }

    /// Stores an update Telegram posted to the webhook, unless its id came before: the id is
    /// remembered and the update, when it belongs to a chat, goes to the inbox, in one transaction
    /// that may be shared with other chats' writes. Ids received before `forgettingBefore` are
    /// forgotten first.
    ///
    /// - Returns: nil for an id received before; otherwise the inbox items written.
    public func receivePosted(_ update: (updateID: Int64, chatID: Int64?, payload: Data), forgettingBefore: Date?, at now: Date = Date()) async throws
        -> [InboxItem]?
    {
        try await group.submit { db in
            guard let seqs = try Self.run(Self.sql.receivePosted(update, forgettingBefore: forgettingBefore, at: now), db) else { return nil }
            guard let chatID = update.chatID, let seq = seqs.first else { return [] }
            return [InboxItem(seq: seq, chatID: chatID, updateID: update.updateID, kind: .update, payload: update.payload)]
        }
    }

    /// The secret Telegram sends with each webhook request: the one kept, or else `generated`,
    /// which is kept from now on.
    public func webhookSecret(generated: String) async throws -> String {
        try transaction { db in
            if let kept = try Self.fact(.webhookSecret, db) { return kept }
            try Self.setFact(.webhookSecret, generated, db)
            return generated
        }
    }

    /// Records that getUpdates answered, with nothing new.
    public func notePoll(at now: Date = Date()) async throws {
        _ = try transaction { db in try Self.run(Self.sql.notePoll(at: now), db) }
    }

    /// A fact, by a statement prepared once: the poller reads and writes two on every answer.
    static func fact(_ key: WorkerFact.Key, _ db: Database) throws -> String? {
        try fetchOne(sql.fact(key), db)
    }

    static func setFact(_ key: WorkerFact.Key, _ value: String, _ db: Database) throws {
        _ = try run([sql.setFact(key, value)], db)
    }
}

// MARK: - Chats and the inbox

extension BotDatabase {
    /// From the cache when the chat was committed or read lately; otherwise one prepared statement, outside a transaction.
    public func chat(_ id: Int64) throws -> ChatRecord? {
        if let cached = chats.record(id) { return cached }
        // One statement reads a consistent row: no transaction needed around it.
        let record = try writer.unsafeRead { db in try Self.fetchOne(Self.sql.chat(id: id), db) }
        if let record { chats.keep(record) }
        return record
    }

    /// Writes chats and their daily forecasts as they are, in one transaction: a restore, or a
    /// database prepared for a benchmark. A chat or forecast whose id exists is refused.
    public func insert(chats: [ChatRecord], subscriptions: [Subscription] = []) async throws {
        try transaction { db in
            _ = try Self.run(Self.sql.insertChats(chats), db)
            for subscription in subscriptions { try subscription.insert(db) }
        }
    }

    /// Every inbox item not yet handled, oldest first.
    public func pendingInbox() throws -> [InboxItem] {
        try writer.read { db in try Self.fetch(Self.sql.pendingInbox(), db) }
    }

    /// Commits one handled inbox item for the chat workers: the chat's new record, the item's
    /// removal, the replies into the outbox, and follow-ups into the inbox, all or nothing, sharing
    /// a commit with the steps of other chats that finish meanwhile. Nothing is sent before this.
    @discardableResult
    public func commitStep(
        chat: ChatRecord,
        handled seq: Int64,
        changes: [ChatChange] = [],
        replies: [BotRequest],
        followUps: [Data],
        at now: Date = Date()
    ) async throws -> CommittedStep {
        var stored = chat
        stored.updatedAt = now
        // The cached record is the chat's last committed one: a chat's steps commit one at a time.
        let placesUnchanged = chats.record(chat.id).map { $0.currentPlace == chat.currentPlace && $0.recentPlaces == chat.recentPlaces } ?? false
        let written = try await group.submit { [stored] db in
            try Self.writeStep(
                chat: stored, handled: seq, changes: changes, replies: replies, followUps: followUps, placesUnchanged: placesUnchanged, now: now,
                db)
        }
        chats.keep(stored)
        return written
    }

    /// A step's writes; `seq` names its inbox item, nil for a step committed with its update's receipt.
    private static func writeStep(
        chat: ChatRecord, handled seq: Int64?, changes: [ChatChange], replies: [BotRequest], followUps: [Data], placesUnchanged: Bool = false,
        now: Date, _ db: Database
    ) throws -> CommittedStep {
        for change in changes {
            try apply(change, chatID: chat.id, db, now: now)
        }
        let plan = try sql.step(chat: chat, placesUnchanged: placesUnchanged, handled: seq, replies: replies, followUps: followUps, at: now)
        return sql.committedStep(try run(plan, db) ?? [], chatID: chat.id, replies: replies.count, followUps: followUps)
    }

    /// Puts an item at the end of the inbox and returns it with its `seq`.
    static func insert(_ item: InboxItem, _ db: Database) throws -> InboxItem {
        var written = item
        written.seq = try run([sql.insert(item)], db)?.first
        return written
    }

    /// Removes an inbox item that cannot be handled at all (it does not decode), changing nothing else.
    public func discardInboxItem(seq: Int64, chatID: Int64) async throws {
        _ = try transaction { db in try Self.run(Self.sql.discardInboxItem(seq: seq, chatID: chatID), db) }
    }

    public func enqueueFollowUp(_ payload: Data, chatID: Int64) async throws -> InboxItem {
        let insert = Self.sql.insert(InboxItem(chatID: chatID, updateID: nil, kind: .followUp, payload: payload))
        let seq = try await group.submit { db in try Self.run([insert], db)?.first }
        return InboxItem(seq: seq, chatID: chatID, updateID: nil, kind: .followUp, payload: payload)
    }
}

// MARK: - The outbox

extension BotDatabase {
    /// The waiting replies of one lane with ids from `id` on, oldest first, at most `limit`: what
    /// the sender reads at start and after its window of that lane overflowed. Each lane has its
    /// own index, so a long backlog in one never delays reading the other.
    public func outboxItems(lane: OutboxLane, from id: Int64, limit: Int) throws -> [OutboxItem] {
        try outboxItems(lane: lane, chatID: nil, from: id, limit: limit)
    }

    /// Of one chat only when `chatID` is given; read outside a transaction, one statement.
    public func outboxItems(lane: OutboxLane, chatID: Int64?, from id: Int64, limit: Int) throws -> [OutboxItem] {
        try writer.unsafeRead { db in try Self.fetch(Self.sql.outboxItems(lane: lane, chatID: chatID, from: id, limit: limit), db) }
    }

    /// Removes a delivered or abandoned reply; when it was sent under a tag, remembers the message
    /// id for later edits. Shares a commit with the steps and replies written meanwhile.
    public func completeOutbox(
        id: Int64, chatID: Int64, tag: String? = nil, messageID: Int? = nil, at now: Date = Date(), lingeringUpTo linger: Duration = .zero
    ) async throws {
        try await group.submit(lingeringUpTo: linger) { db in
            _ = try Self.run(Self.sql.complete(id: id, chatID: chatID, tag: tag, messageID: messageID, at: now), db)
        }
    }

    /// Commits at once the removals lingering in the group commit: someone waits for them.
    public func hurryCompletions() { group.hurry() }

    /// Puts a reply back to be tried again no earlier than `notBefore`.
    public func retryOutbox(id: Int64, chatID: Int64, notBefore: Date) async throws {
        _ = try transaction { db in try Self.run(Self.sql.retryOutbox(id: id, chatID: chatID, notBefore: notBefore), db) }
    }

    /// The bot may no longer write to this chat: its waiting replies are dropped, it is marked
    /// inactive and its daily forecasts are paused.
    public func deactivateChat(_ chatID: Int64) async throws {
        _ = try transaction { db in try Self.run(Self.sql.deactivateChat(chatID), db) }
        chats.forget(chatID)
    }

    /// The id of the message sent under `tag` in this chat.
    public func messageID(chatID: Int64, tag: String) throws -> Int? {
        try writer.unsafeRead { db in try Self.fetchOne(Self.sql.messageID(chatID: chatID, tag: tag), db) }
    }

    /// How many replies wait in every lane; 0 when none.
    public func outboxBacklog() throws -> Int {
        try writer.read { db in try Self.fetchOne(Self.sql.outboxBacklog(), db) ?? 0 }
    }

    /// How many replies wait in one lane.
    public func outboxBacklog(lane: OutboxLane) throws -> Int {
        try writer.read { db in try Self.fetchOne(Self.sql.outboxBacklog(lane: lane), db) ?? 0 }
    }

    /// When the oldest reply waiting in `lane` was queued; nil when none waits.
    public func oldestOutboxItem(lane: OutboxLane) throws -> Date? {
        try writer.read { db in try Self.fetchOne(Self.sql.oldestOutboxItem(lane: lane), db) ?? nil }
    }
}
