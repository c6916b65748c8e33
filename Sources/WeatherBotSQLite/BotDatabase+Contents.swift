import Foundation
import GRDB
public import WeatherBotStore
import WeatherBotStoreSQL

extension StoreContents {
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
                self = try file.read { db in try Self.read(db) }
            case .older:
                let copy = try DatabaseQueue()
                try file.backup(to: copy)
                try BotDatabase.migrator.migrate(copy)
                self = try copy.read { db in try Self.read(db) }
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
    private static func read(_ db: Database) throws -> StoreContents {
        if let damage = BotDatabase.quickCheck(db) { throw DatabaseDamaged(detail: damage) }
        var lastIDs: [String: Int64] = [:]
        if try db.tableExists("sqlite_sequence") {
            for row in try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence") {
                lastIDs[row["name"]] = row["seq"]
            }
        }
        var rowCounts: [String: Int] = [:]
        for table in Self.tables {
            rowCounts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        }
        return StoreContents(
            chats: try BotDatabase.fetch(BotDatabase.sql.allChats(), db),
            favorites: try Favorite.order(Favorite.Columns.chatID, Favorite.Columns.position, Favorite.Columns.id).fetchAll(db),
            subscriptions: try Subscription.order(Subscription.Columns.id).fetchAll(db),
            inbox: try InboxItem.order(InboxItem.Columns.seq).fetchAll(db),
            setAside: try Row.fetchAll(db, sql: "SELECT * FROM inboxFailure ORDER BY seq").map { row in
                SetAsideItem(
                    seq: row["seq"], chatID: row["chatId"], updateID: row["updateId"], kind: row["kind"], payload: row["payload"],
                    attempts: row["attempts"], error: row["error"], failedAt: row["failedAt"])
            },
            outbox: try OutboxItem.order(OutboxItem.Columns.id).fetchAll(db),
            messageTags: try MessageTag.fetchAll(db, sql: "SELECT * FROM messageTag ORDER BY chatId, tag").map {
                TaggedMessage(chatID: $0.chatID, tag: $0.tag, messageID: $0.messageID, createdAt: $0.createdAt)
            },
            noticeMarks: try Row.fetchAll(db, sql: "SELECT chatId, key, value, expiresAt FROM noticeMark ORDER BY chatId, key").map { row in
                ChatNoticeMark(chatID: row["chatId"], mark: NoticeMark(key: row["key"], value: row["value"], expiresAt: row["expiresAt"]))
            },
            facts: Dictionary(uniqueKeysWithValues: try WorkerFactRow.fetchAll(db).map { ($0.key, $0.value) }),
            lastIDs: lastIDs, rowCounts: rowCounts)
    }
}
