public import Foundation
import GRDB

extension BotDatabase {
    /// Everything a bot's database file holds, read at one moment (one read transaction): what
    /// moving to another engine copies. Reading it writes nothing to the file.
    public struct Contents: Sendable {
        public var chats: [ChatRecord]
        /// Every chat's favorites, by chat and position.
        public var favorites: [Favorite]
        public var subscriptions: [Subscription]
        /// The items waiting to be handled, oldest first.
        public var inbox: [InboxItem]
        /// The items set aside after failing again and again.
        public var setAside: [SetAsideItem]
        /// The replies waiting to be sent, both lanes, by id.
        public var outbox: [OutboxItem]
        public var messageTags: [TaggedMessage]
        /// The worker's facts by key: the last update id taken, the last poll, whether it stopped cleanly.
        public var facts: [String: String]
        /// The highest id each table's counter has given out (`inbox`, `outbox`, `favorite`,
        /// `subscription`), rows since deleted included: new rows elsewhere must stay above them.
        public var lastIDs: [String: Int64]
        /// How many rows each table held, counted in the same read (``tables`` names them).
        public var rowCounts: [String: Int]

        /// The tables a copy carries, by their names in the file, in the order they are reported.
        public static let tables = ["chat", "favorite", "subscription", "inbox", "inboxFailure", "outbox", "messageTag", "workerFact"]

        /// The file cannot be read as a bot's database; `description` says why, in one line.
        public struct Unreadable: Error, Sendable, CustomStringConvertible {
            public var description: String
        }

        /// Reads the database at `path` in one read transaction, opening it read-only. A file of
        /// an older version of the bot is brought up to date in a copy in memory, so the file
        /// itself stays as it is.
        ///
        /// - Throws: ``Unreadable`` when there is no file, it is not a bot's database, it was
        ///   written by a newer version, or it is damaged.
        public init(readingFileAt path: String) throws(Unreadable) {
            guard FileManager.default.fileExists(atPath: path) else {
                throw Unreadable(description: "there is no database at \(path)")
            }
            do {
                var configuration = Configuration()
                configuration.readonly = true
                configuration.busyMode = .timeout(10)
                let file = try DatabaseQueue(path: path, configuration: configuration)
                let schema = try file.read { db in try Self.schema(db) }
                switch schema {
                case .notABotDatabase:
                    throw Unreadable(description: "\(path) is not a weatherbot database")
                case .newer:
                    throw Unreadable(description: "\(path) was written by a newer version of weatherbot; use that version")
                case .current:
                    self = try file.read { db in try Self(db) }
                case .older:
                    let copy = try DatabaseQueue()
                    try file.backup(to: copy)
                    try BotDatabase.migrator.migrate(copy)
                    self = try copy.read { db in try Self(db) }
                }
            } catch let unreadable as Unreadable {
                throw unreadable
            } catch {
                if BotDatabase.isDamage(error) {
                    let notADatabase = (error as? DatabaseError)?.resultCode.primaryResultCode == .SQLITE_NOTADB
                    throw Unreadable(
                        description: notADatabase
                            ? "\(path) is not a weatherbot database" : "cannot read \(path): \(DatabaseDamaged(detail: "\(error)"))")
                }
                throw Unreadable(description: "cannot read \(path): \(error)")
            }
        }

        private enum Schema {
            case notABotDatabase, older, current, newer
        }

        private static func schema(_ db: Database) throws -> Schema {
            guard try db.tableExists("grdb_migrations"),
                try BotDatabase.migrator.appliedIdentifiers(db).contains("v1: chats, inbox, outbox")
            else { return .notABotDatabase }
            if try BotDatabase.migrator.hasBeenSuperseded(db) { return .newer }
            return try BotDatabase.migrator.hasCompletedMigrations(db) ? .current : .older
        }

        /// Reads every table inside the caller's transaction.
        private init(_ db: Database) throws {
            if let damage = BotDatabase.quickCheck(db) { throw DatabaseDamaged(detail: damage) }
            chats = try ChatRecord.order(ChatRecord.Columns.id).fetchAll(db)
            favorites = try Favorite.order(Favorite.Columns.chatId, Favorite.Columns.position, Favorite.Columns.id).fetchAll(db)
            subscriptions = try Subscription.order(Subscription.Columns.id).fetchAll(db)
            inbox = try InboxItem.order(InboxItem.Columns.seq).fetchAll(db)
            setAside = try Row.fetchAll(db, sql: "SELECT * FROM inboxFailure ORDER BY seq").map { row in
                SetAsideItem(
                    seq: row["seq"], chatId: row["chatId"], updateId: row["updateId"], kind: row["kind"], payload: row["payload"],
                    attempts: row["attempts"], error: row["error"], failedAt: row["failedAt"])
            }
            outbox = try OutboxItem.order(OutboxItem.Columns.id).fetchAll(db)
            messageTags = try MessageTag.fetchAll(db, sql: "SELECT * FROM messageTag ORDER BY chatId, tag").map {
                TaggedMessage(chatID: $0.chatId, tag: $0.tag, messageID: $0.messageId, createdAt: $0.createdAt)
            }
            facts = Dictionary(uniqueKeysWithValues: try WorkerFact.fetchAll(db).map { ($0.key, $0.value) })
            var lastIDs: [String: Int64] = [:]
            if try db.tableExists("sqlite_sequence") {
                for row in try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence") {
                    lastIDs[row["name"]] = row["seq"]
                }
            }
            self.lastIDs = lastIDs
            var rowCounts: [String: Int] = [:]
            for table in Self.tables {
                rowCounts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            self.rowCounts = rowCounts
        }

        /// Whether the bot's last run stopped cleanly: false when it was cut off or is still
        /// running, nil when it never ran.
        public var stoppedCleanly: Bool? {
            facts["stoppedCleanly"].map { $0 == "1" }
        }

        /// The id of the last update taken from Telegram.
        public var lastUpdateID: Int64? {
            facts["lastUpdateId"].flatMap(Int64.init)
        }

        /// When getUpdates last answered.
        public var lastSuccessfulPoll: Date? {
            facts["lastSuccessfulPollAt"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }
}

/// An inbox item set aside after failing again and again, with the error, kept for the operator.
public struct SetAsideItem: Sendable, Hashable {
    public var seq: Int64
    public var chatId: Int64
    public var updateId: Int64?
    /// As stored: an ``InboxItem/Kind``'s raw value.
    public var kind: String
    public var payload: Data
    public var attempts: Int
    public var error: String
    public var failedAt: Date
}

/// The id Telegram gave a message the bot sent under a tag.
public struct TaggedMessage: Sendable, Hashable {
    public var chatID: Int64
    public var tag: String
    public var messageID: Int
    public var createdAt: Date
}
