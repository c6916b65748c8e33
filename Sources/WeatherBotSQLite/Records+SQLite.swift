import Foundation
public import GRDB
public import WeatherBotStore

// How the store's records are rows of the SQLite file. The records themselves are plain types of
// WeatherBotStore; the tables and columns are this engine's.

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
