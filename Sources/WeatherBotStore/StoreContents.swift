public import Foundation

/// Everything a bot's store holds, read at one moment: what moving to another engine copies.
/// The SQLite engine reads it from a file (`StoreContents(readingFileAt:)`); the PostgreSQL engine
/// writes it into a database.
public struct StoreContents: Sendable {
    /// Every chat's record, by id.
    public var chats: [ChatRecord]
    /// Every chat's favorites, by chat and position.
    public var favorites: [Favorite]
    /// Every daily forecast, active or not, by id.
    public var subscriptions: [Subscription]
    /// The items waiting to be handled, oldest first.
    public var inbox: [InboxItem]
    /// The items set aside after failing again and again.
    public var setAside: [SetAsideItem]
    /// The replies waiting to be sent, every lane, by id, with their deadlines.
    public var outbox: [OutboxItem]
    /// The messages remembered by tag, so replies after the move still edit them.
    public var messageTags: [TaggedMessage]
    /// What each chat was told by notices, by chat and key: without them, a notice already
    /// sent would be sent again after the move.
    public var noticeMarks: [ChatNoticeMark]
    /// The worker's facts by key: the last update id taken, the last poll, whether it stopped cleanly.
    public var facts: [String: String]
    /// The highest id each table's counter has given out (`inbox`, `outbox`, `favorite`,
    /// `subscription`), rows since deleted included: new rows elsewhere must stay above them.
    public var lastIDs: [String: Int64]
    /// How many rows each table held, counted in the same read (``tables`` names them).
    public var rowCounts: [String: Int]

    /// The tables a copy carries, by their names in the file, in the order they are reported.
    public static let tables = ["chat", "favorite", "subscription", "inbox", "inboxFailure", "outbox", "messageTag", "noticeMark", "workerFact"]

    /// The file cannot be read as a bot's database; `description` says why, in one line.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        /// The reason, in one line for the operator.
        public var description: String

        /// The reason a file could not be read.
        public init(description: String) {
            self.description = description
        }
    }

    /// Contents as an engine read them; without notice marks for files written before notices.
    public init(
        chats: [ChatRecord], favorites: [Favorite], subscriptions: [Subscription], inbox: [InboxItem], setAside: [SetAsideItem],
        outbox: [OutboxItem], messageTags: [TaggedMessage], noticeMarks: [ChatNoticeMark] = [], facts: [String: String], lastIDs: [String: Int64],
        rowCounts: [String: Int]
    ) {
        self.noticeMarks = noticeMarks
        self.chats = chats
        self.favorites = favorites
        self.subscriptions = subscriptions
        self.inbox = inbox
        self.setAside = setAside
        self.outbox = outbox
        self.messageTags = messageTags
        self.facts = facts
        self.lastIDs = lastIDs
        self.rowCounts = rowCounts
    }

    /// Whether the bot's last run stopped cleanly: false when it was cut off or is still
    /// running, nil when it never ran.
    public var stoppedCleanly: Bool? {
        facts[WorkerFact.Key.stoppedCleanly.rawValue].map { $0 == "1" }
    }

    /// The id of the last update taken from Telegram.
    public var lastUpdateID: Int64? {
        facts[WorkerFact.Key.lastUpdateID.rawValue].flatMap(Int64.init)
    }

    /// When getUpdates last answered.
    public var lastSuccessfulPoll: Date? {
        WorkerFact.time(facts[WorkerFact.Key.lastSuccessfulPoll.rawValue])
    }
}

/// An inbox item set aside after failing again and again, with the error, kept for the operator.
public struct SetAsideItem: Sendable, Hashable {
    /// The inbox row's id it had, kept for the operator's reference.
    public var seq: Int64
    /// The Telegram chat it belonged to.
    public var chatID: Int64
    /// Telegram's update id; nil for a follow-up.
    public var updateID: Int64?
    /// As stored: an ``InboxItem/Kind``'s raw value.
    public var kind: String
    /// The item's payload, unchanged, so the operator can look at the update.
    public var payload: Data
    /// How many times handling it was begun and did not commit.
    public var attempts: Int
    /// The last error, as logged.
    public var error: String
    /// When it was set aside.
    public var failedAt: Date

    /// A set-aside row as stored.
    public init(seq: Int64, chatID: Int64, updateID: Int64?, kind: String, payload: Data, attempts: Int, error: String, failedAt: Date) {
        self.seq = seq
        self.chatID = chatID
        self.updateID = updateID
        self.kind = kind
        self.payload = payload
        self.attempts = attempts
        self.error = error
        self.failedAt = failedAt
    }
}

/// The id Telegram gave a message the bot sent under a tag.
public struct TaggedMessage: Sendable, Hashable {
    /// The Telegram chat the message is in.
    public var chatID: Int64
    /// The name the bot remembers it by, such as `locate-<update id>` (``MessageTags``).
    public var tag: String
    /// Telegram's id of the message, within its chat.
    public var messageID: Int
    /// When the message was sent, which decides when a short-lived tag is forgotten.
    public var createdAt: Date

    /// A tagged message as stored.
    public init(chatID: Int64, tag: String, messageID: Int, createdAt: Date) {
        self.chatID = chatID
        self.tag = tag
        self.messageID = messageID
        self.createdAt = createdAt
    }
}

/// A chat's notice mark: what it was told under a key, until when that matters.
public struct ChatNoticeMark: Sendable, Hashable {
    /// The Telegram chat that was told.
    public var chatID: Int64
    /// What it was told, under which key, and until when.
    public var mark: NoticeMark

    /// A chat's mark as stored.
    public init(chatID: Int64, mark: NoticeMark) {
        self.chatID = chatID
        self.mark = mark
    }
}
