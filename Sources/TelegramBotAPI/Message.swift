/// A message, reduced to what the bot reads. Every other field is ignored.
public struct Message: Codable, Sendable, Hashable {
    /// The message's number within its chat; with the chat's id, what an edit or a reply names.
    public var messageID: Int
    /// Who wrote it; nil in a channel. Their language picks the answer's, and in a group the bot
    /// checks their rights by their id.
    public var from: User?
    /// Zero for an inaccessible message inside a callback query.
    public var date: Int
    /// The chat the message was written in, where the answer goes.
    public var chat: Chat
    /// What was typed, commands included (`/weather`, `/weather@SomeBot Kazan`); nil for a message
    /// without text, such as a location.
    public var text: String?
    /// A location shared in the chat, which the bot answers with that place's weather.
    public var location: Location?
    /// The message this one answers, reduced to its sender: in a group, a reply to the bot is
    /// addressed to it.
    public var replyToMessage: RepliedMessage?
    /// The bot whose inline result this message is: a card sent from inline mode, not words to it.
    public var viaBot: User?
    /// The chat the message was sent on behalf of: the group itself when one of its anonymous
    /// administrators writes (`from` is then Telegram's placeholder user), or a channel.
    public var senderChat: Chat?
    /// The buttons under the message, as Telegram shows them: for the message of a pressed
    /// button, what it shows now beside its ``text``. Nil without buttons, or with a keyboard
    /// that does not read (the message is still read).
    public var keyboard: ShownKeyboard?

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id", from, date, chat, text, location, replyToMessage = "reply_to_message", viaBot = "via_bot"
        case senderChat = "sender_chat", keyboard = "reply_markup"
    }

    /// A message as a test or the benchmark makes one up; `date` is Unix time in seconds.
    public init(
        messageID: Int, from: User? = nil, date: Int, chat: Chat, text: String? = nil, location: Location? = nil,
        replyToMessage: RepliedMessage? = nil, viaBot: User? = nil, senderChat: Chat? = nil, keyboard: InlineKeyboardMarkup? = nil
    ) {
        self.keyboard = keyboard.map(ShownKeyboard.init)
        self.senderChat = senderChat
        self.viaBot = viaBot
        self.messageID = messageID
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
    /// Telegram's word for the member's standing, one of those above; anything else counts as no
    /// rights.
    public var status: String

    /// A member of the given standing, as getChatMember answers.
    public init(status: String) {
        self.status = status
    }

    /// The owner or an administrator of the chat.
    public var isAdministrator: Bool { status == "creator" || status == "administrator" }
}

/// The inline keyboard under a message, read leniently: a keyboard this reader cannot read
/// (a button of a kind it does not know) reads as nil, and never loses the message.
public struct ShownKeyboard: Codable, Sendable, Hashable {
    /// The keyboard; nil when it did not read.
    public var markup: InlineKeyboardMarkup?

    /// A keyboard as a test makes one up.
    public init(_ markup: InlineKeyboardMarkup?) {
        self.markup = markup
    }

    /// Never throws: what does not read is nil.
    public init(from decoder: any Decoder) throws {
        markup = try? InlineKeyboardMarkup(from: decoder)
    }

    /// The keyboard as Telegram sends it; nothing for one that did not read.
    public func encode(to encoder: any Encoder) throws {
        try markup?.encode(to: encoder)
    }
}

/// A message another one replies to: who sent it, and the data of its buttons.
public struct RepliedMessage: Codable, Sendable, Hashable {
    /// The replied-to message's number in the same chat.
    public var messageID: Int
    /// Who wrote the replied-to message; when that is the bot itself (a bot with its username), the
    /// reply is addressed to it.
    public var from: User?
    /// The `callback_data` of the buttons under the replied-to message, top row first: a bot's
    /// own message says with them what it is about. Empty without buttons; buttons of other
    /// kinds, or a keyboard that cannot be read, add none.
    public var callbackData: [String]

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id", from, replyMarkup = "reply_markup"
    }

    /// A replied-to message as a test makes one up.
    public init(messageID: Int, from: User?, callbackData: [String] = []) {
        self.messageID = messageID
        self.from = from
        self.callbackData = callbackData
    }

    /// Reads the message; its keyboard only as far as it can, so that a button of a kind this
    /// reader does not know never loses the reply itself.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageID = try container.decode(Int.self, forKey: .messageID)
        from = try container.decodeIfPresent(User.self, forKey: .from)
        let markup = try? container.decodeIfPresent(ButtonData.self, forKey: .replyMarkup)
        callbackData = markup?.inlineKeyboard.joined().compactMap(\.callbackData) ?? []
    }

    /// Writes what ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageID, forKey: .messageID)
        try container.encodeIfPresent(from, forKey: .from)
        if !callbackData.isEmpty {
            try container.encode(ButtonData(inlineKeyboard: [callbackData.map { ButtonData.Button(callbackData: $0) }]), forKey: .replyMarkup)
        }
    }

    /// An inline keyboard reduced to its buttons' data.
    private struct ButtonData: Codable {
        struct Button: Codable {
            var callbackData: String?
            enum CodingKeys: String, CodingKey { case callbackData = "callback_data" }
        }
        var inlineKeyboard: [[Button]]
        enum CodingKeys: String, CodingKey { case inlineKeyboard = "inline_keyboard" }
    }
}

/// A Telegram user or bot, reduced to who it is and which language its app is set to.
public struct User: Codable, Sendable, Hashable {
    /// The user's id: for a person it is also the id of their private chat with the bot. Up to 52
    /// bits, so it needs 64-bit storage.
    public var id: Int64
    /// True for a bot: how the bot tells itself or another bot from a person.
    public var isBot: Bool
    /// The name shown in Telegram; never empty. Only the log uses it, for a bot without a username.
    public var firstName: String
    /// The `@name` without the `@`, in the case the user chose; nil when none is set. Compared
    /// without case.
    public var username: String?
    /// The language of the user's Telegram app as an IETF tag (`ru`, `en-GB`); nil when not told.
    /// The bot's Russian or English is picked from it.
    public var languageCode: String?

    enum CodingKeys: String, CodingKey {
        case id, isBot = "is_bot", firstName = "first_name", username, languageCode = "language_code"
    }

    /// A user as a test makes one up: a person, unless told otherwise.
    public init(id: Int64, isBot: Bool = false, firstName: String, username: String? = nil, languageCode: String? = nil) {
        self.id = id
        self.isBot = isBot
        self.firstName = firstName
        self.username = username
        self.languageCode = languageCode
    }
}

/// A chat, reduced to its id and kind.
public struct Chat: Codable, Sendable, Hashable {
    /// What kind of chat it is: a private one answers everything, a group only what is addressed to
    /// the bot.
    public enum Kind: Sendable, Hashable, Codable {
        /// A user's own chat with the bot; a basic group, which may later become a supergroup with a
        /// new id; a supergroup, what most groups are today; a channel, where the bot can only post.
        case `private`, group, supergroup, channel
        /// A kind newer than this code, by Telegram's name for it; treated as no private chat.
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

    /// The chat's id, where the bot sends to it and under which it keeps its settings: positive for
    /// a private chat (the user's id), negative for groups and channels. Up to 52 bits.
    public var id: Int64
    /// The chat's kind.
    public var type: Kind

    /// A chat as a test makes one up: a private chat, unless told otherwise.
    public init(id: Int64, type: Kind = .private) {
        self.id = id
        self.type = type
    }
}

/// A point on the map, in degrees of the WGS 84 system that Telegram and OpenWeather both use.
public struct Location: Codable, Sendable, Hashable {
    /// Degrees north, −90…90; negative in the south.
    public var latitude: Double
    /// Degrees east, −180…180; negative in the west.
    public var longitude: Double

    /// A point at the given degrees, taken as they are.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A press of one of the bot's inline buttons, which the bot must answer (answerCallbackQuery) or
/// the button keeps spinning.
public struct CallbackQuery: Codable, Sendable, Hashable {
    /// Telegram's id for the press, to answer it with; an opaque string.
    public var id: String
    /// Who pressed: in a group, not necessarily who asked for the message.
    public var from: User
    /// The message with the button; `date == 0` when Telegram no longer gives its content.
    public var message: Message?
    /// The message sent from an inline result whose button this is; it has no chat the bot knows.
    public var inlineMessageID: String?
    /// The button's callback data as the bot wrote it (at most 64 bytes); nil for a button without
    /// any.
    public var data: String?

    enum CodingKeys: String, CodingKey {
        case id, from, message, inlineMessageID = "inline_message_id", data
    }

    /// A press as a test makes one up.
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
    /// The new message's number in the chat it was sent to.
    public var messageID: Int

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id"
    }

    /// The part of a sent message with this number, as a fake Telegram answers.
    public init(messageID: Int) {
        self.messageID = messageID
    }
}
