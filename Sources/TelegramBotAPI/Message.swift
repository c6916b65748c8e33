/// A message, reduced to what the bot reads. Every other field is ignored.
public struct Message: Codable, Sendable, Hashable {
    public var messageId: Int
    public var from: User?
    /// Zero for an inaccessible message inside a callback query.
    public var date: Int
    public var chat: Chat
    public var text: String?
    public var location: Location?
    /// The message this one answers, reduced to its sender: in a group, a reply to the bot is
    /// addressed to it.
    public var replyToMessage: RepliedMessage?
    /// The bot whose inline result this message is: a card sent from inline mode, not words to it.
    public var viaBot: User?
    /// The chat the message was sent on behalf of: the group itself when one of its anonymous
    /// administrators writes (`from` is then Telegram's placeholder user), or a channel.
    public var senderChat: Chat?

    enum CodingKeys: String, CodingKey {
        case messageId = "message_id", from, date, chat, text, location, replyToMessage = "reply_to_message", viaBot = "via_bot"
        case senderChat = "sender_chat"
    }

    public init(
        messageId: Int, from: User? = nil, date: Int, chat: Chat, text: String? = nil, location: Location? = nil,
        replyToMessage: RepliedMessage? = nil, viaBot: User? = nil, senderChat: Chat? = nil
    ) {
        self.senderChat = senderChat
        self.viaBot = viaBot
        self.messageId = messageId
        self.from = from
        self.date = date
        self.chat = chat
        self.text = text
        self.location = location
        self.replyToMessage = replyToMessage
    }
}

/// A chat member, reduced to its status: `creator`, `administrator`, `member`, `restricted`, `left`, `kicked`.
public struct ChatMember: Codable, Sendable, Hashable {
    public var status: String

    public init(status: String) {
        self.status = status
    }

    /// The owner or an administrator of the chat.
    public var isAdministrator: Bool { status == "creator" || status == "administrator" }
}

/// A message another one replies to: only who sent it.
public struct RepliedMessage: Codable, Sendable, Hashable {
    public var messageId: Int
    public var from: User?

    enum CodingKeys: String, CodingKey {
        case messageId = "message_id", from
    }

    public init(messageId: Int, from: User?) {
        self.messageId = messageId
        self.from = from
    }
}

public struct User: Codable, Sendable, Hashable {
    public var id: Int64
    public var isBot: Bool
    public var firstName: String
    public var username: String?
    public var languageCode: String?

    enum CodingKeys: String, CodingKey {
        case id, isBot = "is_bot", firstName = "first_name", username, languageCode = "language_code"
    }

    public init(id: Int64, isBot: Bool = false, firstName: String, username: String? = nil, languageCode: String? = nil) {
        self.id = id
        self.isBot = isBot
        self.firstName = firstName
        self.username = username
        self.languageCode = languageCode
    }
}

public struct Chat: Codable, Sendable, Hashable {
    public enum Kind: Sendable, Hashable, Codable {
        case `private`, group, supergroup, channel
        case other(String)

        public init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(String.self)
            switch raw {
            case "private": self = .private
            case "group": self = .group
            case "supergroup": self = .supergroup
            case "channel": self = .channel
            default: self = .other(raw)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }

        /// The Bot API's name of the kind.
        public var name: String {
            switch self {
            case .private: "private"
            case .group: "group"
            case .supergroup: "supergroup"
            case .channel: "channel"
            case .other(let raw): raw
            }
        }
    }

    public var id: Int64
    public var type: Kind

    public init(id: Int64, type: Kind = .private) {
        self.id = id
        self.type = type
    }
}

public struct Location: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

public struct CallbackQuery: Codable, Sendable, Hashable {
    public var id: String
    public var from: User
    /// The message with the button; `date == 0` when Telegram no longer gives its content.
    public var message: Message?
    /// The message sent from an inline result whose button this is; it has no chat the bot knows.
    public var inlineMessageID: String?
    public var data: String?

    enum CodingKeys: String, CodingKey {
        case id, from, message, inlineMessageID = "inline_message_id", data
    }

    public init(id: String, from: User, message: Message? = nil, inlineMessageID: String? = nil, data: String? = nil) {
        self.id = id
        self.from = from
        self.message = message
        self.inlineMessageID = inlineMessageID
        self.data = data
    }
}

/// The part of a sent message the bot keeps: its id, for later edits.
public struct SentMessage: Decodable, Sendable, Hashable {
    public var messageId: Int

    enum CodingKeys: String, CodingKey {
        case messageId = "message_id"
    }

    public init(messageId: Int) {
        self.messageId = messageId
    }
}
