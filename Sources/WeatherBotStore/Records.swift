public import Foundation
public import TelegramBotAPI

/// One chat: its language, its conversation state and its current city.
///
/// `language` is the one the chat is spoken to in: the chat's own choice in ``settings`` when it
/// made one, else the language of whoever wrote last.
public struct ChatRecord: Codable, Sendable, Hashable {
    /// Telegram's chat id: positive for private chats, negative for groups.
    public var id: Int64
    /// The language the chat is spoken to in (see above).
    public var language: Language
    /// Where the chat's conversation stands.
    public var state: ChatState
    /// The chat's city: the place «погода» with no name is for; nil until one is set.
    public var currentPlace: Place?
    /// Places recently shown to the chat (search results), which its buttons refer to by id.
    public var recentPlaces: [RecentPlace]
    /// The last id given to a recent place.
    public var placeSeq: Int
    /// Increases with every question asked, so buttons of older questions can be told apart.
    public var questionSeq: Int
    /// False once Telegram said the bot may not write here (the user blocked it).
    public var isActive: Bool
    /// When the bot first stored the chat.
    public var createdAt: Date
    /// When a step last stored the chat.
    public var updatedAt: Date
    /// The user's message the chat's latest step answered; nil when it answered a button. An edit
    /// of that message is handled as the new text, an edit of an older one is not.
    public var lastMessageID: Int?
    /// What the chat is told unasked about its city (`/alerts`).
    public var notices: NoticeSettings
    /// Units, language and clock (`/settings`).
    public var settings: ChatSettings

    /// A chat's record; the defaults are those of a chat the bot has never seen.
    public init(
        id: Int64, language: Language = .ru, state: ChatState = .idle, currentPlace: Place? = nil, recentPlaces: [RecentPlace] = [],
        placeSeq: Int = 0, questionSeq: Int = 0, isActive: Bool = true, createdAt: Date = Date(), updatedAt: Date = Date(),
        lastMessageID: Int? = nil, notices: NoticeSettings = .off, settings: ChatSettings = .defaults
    ) {
        self.settings = settings
        self.notices = notices
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

}

/// A place shown to a chat that is neither its city nor a favorite, such as a search result.
public struct RecentPlace: Codable, Sendable, Hashable {
    /// The number the chat's buttons use for the place, unique within the chat (``ChatRecord/placeSeq``).
    public var id: Int
    /// The place as it was shown.
    public var place: Place

    /// A recent place under the id the chat gave it.
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
        return keep(place)
    }

    /// Adds `place` to the recent ones as it is, even beside one of its name nearby, and returns
    /// its id; the oldest go beyond ``recentPlaceLimit``.
    @discardableResult
    public mutating func keep(_ place: Place) -> Int {
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
public struct InboxItem: Codable, Sendable, Hashable {
    /// Where an item came from, which says what its payload holds.
    public enum Kind: String, Codable, Sendable {
        case update
        case followUp
    }

    /// The inbox row's id, which orders the items; nil until the store inserts it.
    public var seq: Int64?
    /// The Telegram chat the item belongs to, whose worker handles it.
    public var chatID: Int64
    /// Telegram's update id for an update; nil for a follow-up.
    public var updateID: Int64?
    /// An update or a follow-up.
    public var kind: Kind
    /// The update's JSON as Telegram sent it, or the follow-up's own encoding.
    public var payload: Data
    /// How many times handling it was begun and did not commit, across restarts.
    public var attempts: Int

    /// An item to store or as read; `seq` stays nil until the store gives one.
    public init(seq: Int64? = nil, chatID: Int64, updateID: Int64?, kind: Kind, payload: Data, attempts: Int = 0) {
        self.seq = seq
        self.chatID = chatID
        self.updateID = updateID
        self.kind = kind
        self.payload = payload
        self.attempts = attempts
    }
}

/// Which of the sender's queues a reply waits in.
public enum OutboxLane: Int, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Answers to a chat's own update or button press: sent first.
    case interactive = 0
    /// What the bot sends unasked, such as daily forecasts: sent with the rest of the rate.
    case bulk = 1
    /// Notices about a chat's city («дождь через 20 минут», warnings): after answers, before
    /// bulk, each with a deadline past which it is not sent.
    case notice = 2

    /// The lane's name, as `/metrics` and the status report write it.
    public var description: String {
        switch self {
        case .interactive: "interactive"
        case .bulk: "bulk"
        case .notice: "notice"
        }
    }
}

/// A reply waiting to be sent, in order, per chat and lane: the Bot API call that makes it.
public struct OutboxItem: Codable, Sendable, Hashable {
    /// The outbox row's id, which orders a chat's replies within a lane; nil until the store inserts it.
    public var id: Int64?
    /// The Telegram chat the reply goes to.
    public var chatID: Int64
    /// The queue it waits in, which decides when it is sent.
    public var lane: OutboxLane
    /// The Bot API method, one of ``BotRequest/Method``'s.
    public var method: String
    /// Its JSON parameters, as ``BotRequest/parameters``.
    public var parameters: Data
    /// As ``BotRequest/tag``.
    public var tag: String?
    /// As ``BotRequest/messageID``. The parameters hold it too; rows written before the outbox
    /// kept typed requests name an edit's message only here.
    public var messageID: Int?
    /// As ``BotRequest/photo``.
    public var photo: String?
    /// How many times sending it failed so far.
    public var attempts: Int
    /// Not to be tried before this time (backoff after a failure).
    public var notBefore: Date
    /// When the reply was committed, which dates a lane's oldest waiting reply.
    public var createdAt: Date
    /// Not to be sent after this time (a notice); nil for no deadline.
    public var deadline: Date?

    /// A reply to queue for `request`; the row's columns are taken from it.
    public init(
        id: Int64? = nil, chatID: Int64, lane: OutboxLane = .interactive, request: BotRequest, attempts: Int = 0,
        notBefore: Date = Date(), createdAt: Date = Date(), deadline: Date? = nil
    ) {
        self.init(
            id: id, chatID: chatID, lane: lane, method: request.method.rawValue, parameters: request.parameters, tag: request.tag,
            messageID: request.messageID, photo: request.photo, attempts: attempts, notBefore: notBefore, createdAt: createdAt,
            deadline: deadline)
    }

    /// A row as its columns hold it.
    public init(
        id: Int64?, chatID: Int64, lane: OutboxLane, method: String, parameters: Data, tag: String?, messageID: Int?, photo: String?, attempts: Int,
        notBefore: Date, createdAt: Date, deadline: Date? = nil
    ) {
        self.deadline = deadline
        self.id = id
        self.chatID = chatID
        self.lane = lane
        self.method = method
        self.parameters = parameters
        self.tag = tag
        self.messageID = messageID
        self.photo = photo
        self.attempts = attempts
        self.notBefore = notBefore
        self.createdAt = createdAt
    }

    /// The call to make; nil when the method is not one the sender makes, or its parameters do
    /// not read as that method's.
    public var request: BotRequest? {
        BotRequest.Method(rawValue: method).flatMap { try? BotRequest(method: $0, parameters: parameters, tag: tag, messageID: messageID, photo: photo) }
    }
}
