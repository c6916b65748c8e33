// The keyboards are coded under the Bot API's own names.

/// A button under a message.
public struct InlineKeyboardButton: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case text
        case callbackData = "callback_data"
        case switchInlineQueryChosenChat = "switch_inline_query_chosen_chat"
    }

    public var text: String
    public var callbackData: String?
    /// Opens the user's chat list, and then the chosen chat with the bot's inline query typed in.
    public var switchInlineQueryChosenChat: SwitchInlineQueryChosenChat?

    public init(text: String, callbackData: String) {
        self.text = text
        self.callbackData = callbackData
    }

    public init(text: String, switchInlineQueryChosenChat: SwitchInlineQueryChosenChat) {
        self.text = text
        self.switchInlineQueryChosenChat = switchInlineQueryChosenChat
    }
}

/// Which chats a ``InlineKeyboardButton/switchInlineQueryChosenChat`` button offers, and the query
/// it types in there.
public struct SwitchInlineQueryChosenChat: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case query
        case allowUserChats = "allow_user_chats"
        case allowBotChats = "allow_bot_chats"
        case allowGroupChats = "allow_group_chats"
        case allowChannelChats = "allow_channel_chats"
    }

    public var query: String?
    public var allowUserChats: Bool?
    public var allowBotChats: Bool?
    public var allowGroupChats: Bool?
    public var allowChannelChats: Bool?

    public init(query: String?, allowUserChats: Bool? = nil, allowBotChats: Bool? = nil, allowGroupChats: Bool? = nil, allowChannelChats: Bool? = nil) {
        self.query = query
        self.allowUserChats = allowUserChats
        self.allowBotChats = allowBotChats
        self.allowGroupChats = allowGroupChats
        self.allowChannelChats = allowChannelChats
    }
}

public struct InlineKeyboardMarkup: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case inlineKeyboard = "inline_keyboard"
    }

    public var inlineKeyboard: [[InlineKeyboardButton]]

    public init(inlineKeyboard: [[InlineKeyboardButton]]) {
        self.inlineKeyboard = inlineKeyboard
    }
}

/// A button of the keyboard that replaces the user's keyboard.
public struct KeyboardButton: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case text
        case requestLocation = "request_location"
    }

    public var text: String
    public var requestLocation: Bool?

    public init(text: String, requestLocation: Bool? = nil) {
        self.text = text
        self.requestLocation = requestLocation
    }
}

public struct ReplyKeyboardMarkup: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case keyboard
        case resizeKeyboard = "resize_keyboard"
        case oneTimeKeyboard = "one_time_keyboard"
        case inputFieldPlaceholder = "input_field_placeholder"
    }

    public var keyboard: [[KeyboardButton]]
    public var resizeKeyboard: Bool?
    public var oneTimeKeyboard: Bool?
    public var inputFieldPlaceholder: String?

    public init(keyboard: [[KeyboardButton]], resizeKeyboard: Bool? = true, oneTimeKeyboard: Bool? = nil, inputFieldPlaceholder: String? = nil) {
        self.keyboard = keyboard
        self.resizeKeyboard = resizeKeyboard
        self.oneTimeKeyboard = oneTimeKeyboard
        self.inputFieldPlaceholder = inputFieldPlaceholder
    }
}

public struct ReplyKeyboardRemove: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case removeKeyboard = "remove_keyboard"
    }

    public var removeKeyboard: Bool

    public init() {
        self.removeKeyboard = true
    }
}

/// Asks for an answer by reply (`force_reply`). In a group it is `selective` and answers the
/// member's own message (`replyTo`): that is how Telegram knows whom to ask.
public struct ForceReply: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case forceReply = "force_reply"
        case selective
        case inputFieldPlaceholder = "input_field_placeholder"
        case replyTo = "reply_to"
    }

    public var forceReply: Bool
    public var selective: Bool?
    public var inputFieldPlaceholder: String?
    /// The message the question answers. Not a field of the Bot API's markup: the request takes it
    /// out into the message's `reply_parameters`. Its `reply_to` key is read only from replies
    /// stored before the outbox kept Bot API calls, and never written.
    public var replyTo: Int?

    public init(selective: Bool? = nil, inputFieldPlaceholder: String? = nil, replyTo: Int? = nil) {
        self.forceReply = true
        self.selective = selective
        self.inputFieldPlaceholder = inputFieldPlaceholder
        self.replyTo = replyTo
    }

    /// The Bot API's markup, without ``replyTo``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(forceReply, forKey: .forceReply)
        try container.encodeIfPresent(selective, forKey: .selective)
        try container.encodeIfPresent(inputFieldPlaceholder, forKey: .inputFieldPlaceholder)
    }
}

/// The `reply_markup` of a sent message: one of the kinds the bot uses.
public enum ReplyMarkup: Codable, Sendable, Hashable {
    case inline(InlineKeyboardMarkup)
    case keyboard(ReplyKeyboardMarkup)
    case removeKeyboard(ReplyKeyboardRemove)
    case forceReply(ForceReply)

    private enum Probe: String, CodingKey {
        case inlineKeyboard = "inline_keyboard", keyboard, removeKeyboard = "remove_keyboard", forceReply = "force_reply"
    }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: Probe.self)
        if probe.contains(.inlineKeyboard) {
            self = .inline(try InlineKeyboardMarkup(from: decoder))
        } else if probe.contains(.keyboard) {
            self = .keyboard(try ReplyKeyboardMarkup(from: decoder))
        } else if probe.contains(.forceReply) {
            self = .forceReply(try ForceReply(from: decoder))
        } else {
            self = .removeKeyboard(try ReplyKeyboardRemove(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .inline(let markup): try markup.encode(to: encoder)
        case .keyboard(let markup): try markup.encode(to: encoder)
        case .removeKeyboard(let markup): try markup.encode(to: encoder)
        case .forceReply(let markup): try markup.encode(to: encoder)
        }
    }
}
