public import Foundation

/// Everything a bot's store holds, read at one moment: what moving to another engine copies.
/// The SQLite engine reads it from a file (`StoreContents(readingFileAt:)`); the PostgreSQL engine
/// writes it into a database.
public struct StoreContents: Sendable {
    public var chats: [ChatRecord]
    /// Every chat's favorites, by chat and position.
    public var favorites: [Favorite]
    public var subscriptions: [Subscription]
    /// The items waiting to be handled, oldest first.
    public var inbox: [InboxItem]
    /// The items set aside after failing again and again.
    public var setAside: [SetAsideItem]
    /// The replies waiting to be sent, every lane, by id, with their deadlines.
    public var outbox: [OutboxItem]
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
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

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
    public var seq: Int64
    public var chatId: Int64
    public var updateId: Int64?
    /// As stored: an ``InboxItem/Kind``'s raw value.
    public var kind: String
    public var payload: Data
    public var attempts: Int
    public var error: String
    public var failedAt: Date

    public init(seq: Int64, chatId: Int64, updateId: Int64?, kind: String, payload: Data, attempts: Int, error: String, failedAt: Date) {
        self.seq = seq
        self.chatId = chatId
        self.updateId = updateId
        self.kind = kind
        self.payload = payload
        self.attempts = attempts
        self.error = error
        self.failedAt = failedAt
    }
}

/// The id Telegram gave a message the bot sent under a tag.
public struct TaggedMessage: Sendable, Hashable {
    public var chatID: Int64
    public var tag: String
    public var messageID: Int
    public var createdAt: Date

    public init(chatID: Int64, tag: String, messageID: Int, createdAt: Date) {
        self.chatID = chatID
        self.tag = tag
        self.messageID = messageID
        self.createdAt = createdAt
    }
}

/// A chat's notice mark: what it was told under a key, until when that matters.
public struct ChatNoticeMark: Sendable, Hashable {
    public var chatID: Int64
    public var mark: NoticeMark

    public init(chatID: Int64, mark: NoticeMark) {
        self.chatID = chatID
        self.mark = mark
    }
}
