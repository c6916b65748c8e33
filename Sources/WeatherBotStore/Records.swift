public import Foundation
public import GRDB
public import TelegramBotAPI

/// One chat: its language, its conversation state and its current city.
public struct ChatRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "chat"

    public var id: Int64
    /// `ru` or `en`.
    public var language: String
    /// The conversation state, encoded by the conversation layer.
    public var state: Data
    public var currentPlace: Place?
    /// Places recently shown to the chat (search results), which its buttons refer to by id.
    public var recentPlaces: [RecentPlace]
    /// The last id given to a recent place.
    public var placeSeq: Int
    /// Increases with every question asked, so buttons of older questions can be told apart.
    public var questionSeq: Int
    /// False once Telegram said the bot may not write here (the user blocked it).
    public var isActive: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// The user's message the chat's latest step answered; nil when it answered a button. An edit
    /// of that message is handled as the new text, an edit of an older one is not.
    public var lastMessageID: Int?

    public init(
        id: Int64, language: String, state: Data, currentPlace: Place? = nil, recentPlaces: [RecentPlace] = [],
        placeSeq: Int = 0, questionSeq: Int = 0, isActive: Bool = true, createdAt: Date = Date(), updatedAt: Date = Date(),
        lastMessageID: Int? = nil
    ) {
        self.id = id
        self.language = language
        self.state = state
        self.currentPlace = currentPlace
        self.recentPlaces = recentPlaces
        self.placeSeq = placeSeq
        self.questionSeq = questionSeq
        self.isActive = isActive
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastMessageID = lastMessageID
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let isActive = Column(CodingKeys.isActive)
    }
}

extension ChatRecord {
    /// Inserts or updates the chat's row with one prepared statement: the busiest write of all,
    /// made without the generic record machinery. Columns holding values are JSON, as GRDB writes them.
    ///
    /// - Parameter placesUnchanged: the row holds this record's current and recent places already,
    ///   so they need not be encoded and written again (most steps change neither). Should the row
    ///   be missing after all, the whole record is written.
    func store(_ db: Database, placesUnchanged: Bool = false) throws {
        if placesUnchanged {
            try db.cachedStatement(sql: """
                UPDATE chat SET language = ?, state = ?, placeSeq = ?, questionSeq = ?, isActive = ?, createdAt = ?, updatedAt = ?,
                    lastMessageID = ?
                WHERE id = ?
                """)
                .execute(arguments: [language, state, placeSeq, questionSeq, isActive, createdAt, updatedAt, lastMessageID, id])
            if db.changesCount > 0 { return }
        }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO chat (id, language, state, currentPlace, recentPlaces, placeSeq, questionSeq, isActive, createdAt, updatedAt, lastMessageID)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                language = excluded.language, state = excluded.state, currentPlace = excluded.currentPlace,
                recentPlaces = excluded.recentPlaces, placeSeq = excluded.placeSeq, questionSeq = excluded.questionSeq,
                isActive = excluded.isActive, createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
                lastMessageID = excluded.lastMessageID
            """)
        let encoder = Self.databaseJSONEncoder(for: "")
        let place = try currentPlace.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let recent = String(decoding: try encoder.encode(recentPlaces), as: UTF8.self)
        try statement.execute(arguments: [id, language, state, place, recent, placeSeq, questionSeq, isActive, createdAt, updatedAt, lastMessageID])
    }
}

/// A place shown to a chat that is neither its city nor a favorite, such as a search result.
public struct RecentPlace: Codable, Sendable, Hashable {
    public var id: Int
    public var place: Place

    public init(id: Int, place: Place) {
        self.id = id
        self.place = place
    }
}

extension ChatRecord {
    /// How many recent places a chat keeps; older ones' buttons become stale.
    public static let recentPlaceLimit = 10

    /// Remembers `place` among the recent ones and returns its id (the same id when it is there).
    public mutating func remember(_ place: Place) -> Int {
        if let known = recentPlaces.first(where: { $0.place.isSamePlace(as: place) && $0.place.name == place.name }) {
            return known.id
        }
        placeSeq += 1
        recentPlaces.append(RecentPlace(id: placeSeq, place: place))
        if recentPlaces.count > Self.recentPlaceLimit {
            recentPlaces.removeFirst(recentPlaces.count - Self.recentPlaceLimit)
        }
        return placeSeq
    }
}

/// Something a chat worker must handle: an update from Telegram, or a follow-up the conversation
/// scheduled for itself. Rows leave the inbox in the transaction that handles them.
public struct InboxItem: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "inbox"

    public enum Kind: String, Codable, Sendable {
        case update
        case followUp
    }

    public var seq: Int64?
    public var chatId: Int64
    public var updateId: Int64?
    public var kind: Kind
    public var payload: Data
    /// How many times handling it was begun and did not commit, across restarts.
    public var attempts: Int

    public init(seq: Int64? = nil, chatId: Int64, updateId: Int64?, kind: Kind, payload: Data, attempts: Int = 0) {
        self.seq = seq
        self.chatId = chatId
        self.updateId = updateId
        self.kind = kind
        self.payload = payload
        self.attempts = attempts
    }

    /// Inserts the item with one prepared statement (every update passes here) and returns it
    /// with its `seq`.
    func written(to db: Database) throws -> InboxItem {
        try db.cachedStatement(sql: "INSERT INTO inbox (chatId, updateId, kind, payload) VALUES (?, ?, ?, ?)")
            .execute(arguments: [chatId, updateId, kind.rawValue, payload])
        var item = self
        item.seq = db.lastInsertedRowID
        return item
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        seq = inserted.rowID
    }

    public enum Columns {
        public static let seq = Column(CodingKeys.seq)
        public static let chatId = Column(CodingKeys.chatId)
    }
}

/// Which of the sender's queues a reply waits in.
public enum OutboxLane: Int, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Answers to a chat's own update or button press: sent first.
    case interactive = 0
    /// What the bot sends unasked, such as daily forecasts: sent with the rest of the rate.
    case bulk = 1

    public var description: String {
        switch self {
        case .interactive: "interactive"
        case .bulk: "bulk"
        }
    }
}

/// A reply waiting to be sent, in order, per chat and lane: the Bot API call that makes it.
public struct OutboxItem: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "outbox"

    public var id: Int64?
    public var chatId: Int64
    public var lane: OutboxLane
    /// The Bot API method, one of ``BotRequest/Method``'s.
    public var method: String
    /// Its JSON parameters, as ``BotRequest/parameters``.
    public var parameters: Data
    /// As ``BotRequest/tag``.
    public var tag: String?
    /// As ``BotRequest/messageID``.
    public var messageId: Int?
    /// As ``BotRequest/photo``.
    public var photo: String?
    public var attempts: Int
    /// Not to be tried before this time (backoff after a failure).
    public var notBefore: Date
    public var createdAt: Date

    public init(
        id: Int64? = nil, chatId: Int64, lane: OutboxLane = .interactive, request: BotRequest, attempts: Int = 0,
        notBefore: Date = Date(), createdAt: Date = Date()
    ) {
        self.id = id
        self.chatId = chatId
        self.lane = lane
        self.method = request.method.rawValue
        self.parameters = request.parameters
        self.tag = request.tag
        self.messageId = request.messageID
        self.photo = request.photo
        self.attempts = attempts
        self.notBefore = notBefore
        self.createdAt = createdAt
    }

    /// The call to make; nil when the method is not one the sender makes.
    public var request: BotRequest? {
        BotRequest.Method(rawValue: method).map { BotRequest(method: $0, parameters: parameters, tag: tag, messageID: messageId, photo: photo) }
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let chatId = Column(CodingKeys.chatId)
    }
}

/// The id Telegram gave a message the bot sent under a tag, so a later reply can edit it.
struct MessageTag: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "messageTag"

    var chatId: Int64
    var tag: String
    var messageId: Int
    var createdAt: Date
}

/// Small facts about the worker itself: the last update id committed, the last good poll.
struct WorkerFact: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "workerFact"

    var key: String
    var value: String
}
