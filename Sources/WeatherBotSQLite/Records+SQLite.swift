import Foundation
public import GRDB
public import WeatherBotStore

// How the store's records are rows of the SQLite file. The records themselves are plain types of
// WeatherBotStore; the tables and columns are this engine's.

extension ChatRecord: FetchableRecord, PersistableRecord {
    /// The SQLite table of the chats' records, one row a chat.
    public static let databaseTableName = "chat"

    /// The columns GRDB's requests name (moving house reads the chats ordered by id).
    public enum Columns {
        /// The chat's Telegram id, the primary key.
        public static let id = Column("id")
        /// False once the chat blocked the bot.
        public static let isActive = Column("isActive")
    }

    /// The place columns hold JSON, as GRDB writes a Codable value; the state column holds the
    /// state's stored form (``ChatState/stored``), whatever the chat's version wrote. Notice
    /// settings a row lacks are off, and quiet hours that do not read are the default: a setting
    /// never makes the chat unreadable.
    public init(row: Row) throws {
        let decoder = Self.databaseJSONDecoder(for: "")
        let place: String? = row["currentPlace"]
        let recent: String? = row["recentPlaces"]
        let language: String = row["language"]
        self.init(
            id: row["id"], language: Language(rawValue: language) ?? .ru, state: ChatState(stored: row["state"]),
            currentPlace: try place.map { try decoder.decode(Place.self, from: Data($0.utf8)) },
            recentPlaces: try recent.map { try decoder.decode([RecentPlace].self, from: Data($0.utf8)) } ?? [],
            placeSeq: row["placeSeq"], questionSeq: row["questionSeq"], isActive: row["isActive"], createdAt: row["createdAt"],
            updatedAt: row["updatedAt"], lastMessageID: row["lastMessageID"], notices: Self.notices(row),
            settings: ChatSettings(stored: row["settings"]))
    }

    /// The notice columns of a row, the settings off where it has none.
    static func notices(_ row: Row) -> NoticeSettings {
        NoticeSettings(
            rain: (row["noticeRain"] as Bool?) ?? false, warnings: (row["noticeWarnings"] as Bool?) ?? false,
            quiet: (row["quietHours"] as DatabaseValue?).flatMap(String.fromDatabaseValue).flatMap(QuietChoice.init(stored:)),
            setBy: row["noticesSetBy"])
    }

    public func encode(to container: inout PersistenceContainer) throws {
        let encoder = Self.databaseJSONEncoder(for: "")
        container["id"] = id
        container["language"] = language.rawValue
        container["state"] = state.stored
        container["currentPlace"] = try currentPlace.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        container["recentPlaces"] = String(decoding: try encoder.encode(recentPlaces), as: UTF8.self)
        container["placeSeq"] = placeSeq
        container["questionSeq"] = questionSeq
        container["isActive"] = isActive
        container["createdAt"] = createdAt
        container["updatedAt"] = updatedAt
        container["lastMessageID"] = lastMessageID
        container["noticeRain"] = notices.rain
        container["noticeWarnings"] = notices.warnings
        container["quietHours"] = notices.quiet?.stored
        container["noticesSetBy"] = notices.setBy
        container["settings"] = settings.stored
    }

    /// Inserts or updates the chat's row with one prepared statement: the busiest write of all,
    /// made without the generic record machinery. Columns holding values are JSON, as GRDB writes them.
    ///
    /// - Parameter placesUnchanged: the row holds this record's current and recent places already,
    ///   so they need not be encoded and written again (most steps change neither). Should the row
    ///   be missing after all, the whole record is written.
    func store(_ db: Database, placesUnchanged: Bool = false) throws {
        let state = state.stored
        if placesUnchanged {
            try db.cachedStatement(sql: """
                UPDATE chat SET language = ?, state = ?, placeSeq = ?, questionSeq = ?, isActive = ?, createdAt = ?, updatedAt = ?,
                    lastMessageID = ?, noticeRain = ?, noticeWarnings = ?, quietHours = ?, noticesSetBy = ?, settings = ?
                WHERE id = ?
                """)
                .execute(arguments: [
                    language.rawValue, state, placeSeq, questionSeq, isActive, StoredDate(createdAt), StoredDate(updatedAt), lastMessageID,
                    notices.rain, notices.warnings, notices.quiet?.stored, notices.setBy, settings.stored, id,
                ])
            if db.changesCount > 0 { return }
        }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO chat (
                id, language, state, currentPlace, recentPlaces, placeSeq, questionSeq, isActive, createdAt, updatedAt, lastMessageID,
                noticeRain, noticeWarnings, quietHours, noticesSetBy, settings)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                language = excluded.language, state = excluded.state, currentPlace = excluded.currentPlace,
                recentPlaces = excluded.recentPlaces, placeSeq = excluded.placeSeq, questionSeq = excluded.questionSeq,
                isActive = excluded.isActive, createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
                lastMessageID = excluded.lastMessageID, noticeRain = excluded.noticeRain, noticeWarnings = excluded.noticeWarnings,
                quietHours = excluded.quietHours, noticesSetBy = excluded.noticesSetBy, settings = excluded.settings
            """)
        let encoder = Self.databaseJSONEncoder(for: "")
        let place = try currentPlace.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let recent = String(decoding: try encoder.encode(recentPlaces), as: UTF8.self)
        try statement.execute(
            arguments: [
                id, language.rawValue, state, place, recent, placeSeq, questionSeq, isActive, StoredDate(createdAt), StoredDate(updatedAt),
                lastMessageID, notices.rain, notices.warnings, notices.quiet?.stored, notices.setBy, settings.stored,
            ])
    }
}

extension InboxItem: FetchableRecord, PersistableRecord {
    /// The SQLite table of the updates and follow-ups not handled yet.
    public static let databaseTableName = "inbox"

    /// The columns GRDB's requests name.
    public enum Columns {
        /// The item's place in the inbox, the rowid: handling follows it.
        public static let seq = Column("seq")
        /// The Telegram chat the item belongs to; its column is `chatId`, as the SQLite dialect names `chat_id`.
        public static let chatID = Column("chatId")
    }

    /// Inserts the item with one prepared statement (every update passes here) and returns it
    /// with its `seq`.
    func written(to db: Database) throws -> InboxItem {
        try db.cachedStatement(sql: "INSERT INTO inbox (chatId, updateId, kind, payload) VALUES (?, ?, ?, ?)")
            .execute(arguments: [chatID, updateID, kind.rawValue, payload])
        var item = self
        item.seq = db.lastInsertedRowID
        return item
    }

    /// Takes the `seq` SQLite gave the row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        seq = inserted.rowID
    }
}

extension OutboxItem: FetchableRecord, PersistableRecord {
    /// The SQLite table of the replies waiting to be sent, every lane's.
    public static let databaseTableName = "outbox"

    /// The columns GRDB's requests name.
    public enum Columns {
        /// The reply's rowid: its place in its lane.
        public static let id = Column("id")
        /// The Telegram chat the reply goes to.
        public static let chatID = Column("chatId")
    }

    /// Takes the id SQLite gave the row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Favorite: FetchableRecord, PersistableRecord {
    /// The SQLite table of the chats' favorite places.
    public static let databaseTableName = "favorite"

    /// The columns GRDB's requests name.
    public enum Columns {
        /// The favorite's rowid.
        public static let id = Column("id")
        /// The Telegram chat whose favorite it is.
        public static let chatID = Column("chatId")
        /// Where the chat shows it in its list, smallest first.
        public static let position = Column("position")
    }

    /// Takes the id SQLite gave the row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Subscription: FetchableRecord, PersistableRecord {
    /// The SQLite table of the chats' daily forecasts.
    public static let databaseTableName = "subscription"

    /// The columns GRDB's requests name.
    public enum Columns {
        /// The daily forecast's rowid.
        public static let id = Column("id")
        /// The Telegram chat that asked for it.
        public static let chatID = Column("chatId")
        /// When it is next due, as SQLite's text date.
        public static let nextSendAt = Column("nextSendAt")
        /// False while paused (the chat blocked the bot).
        public static let isActive = Column("isActive")
    }

    /// Takes the id SQLite gave the row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// The id Telegram gave a message the bot sent under a tag, so a later reply can edit it.
struct MessageTag: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "messageTag"

    var chatID: Int64
    var tag: String
    var messageID: Int
    var createdAt: Date
}

/// A fact about the worker itself, under a ``WorkerFact/Key``.
struct WorkerFactRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "workerFact"

    var key: String
    var value: String
}
