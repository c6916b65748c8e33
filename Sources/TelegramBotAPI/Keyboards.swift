// The keyboards are coded under the Bot API's own names.

/// A button under a message.
public struct InlineKeyboardButton: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case text
        case callbackData = "callback_data"
        case switchInlineQueryChosenChat = "switch_inline_query_chosen_chat"
        case webApp = "web_app"
    }

    /// The button's label, as the reader sees it; Telegram wants it non-empty.
    public var text: String
    /// What a press sends back in ``CallbackQuery/data``: 1 to 64 bytes, which the bot reads as an
    /// action. Nil for a button that does something else.
    public var callbackData: String?
    /// Opens the user's chat list, and then the chosen chat with the bot's inline query typed in.
    public var switchInlineQueryChosenChat: SwitchInlineQueryChosenChat?
    /// Opens the bot's Mini App at this page, inside Telegram; private chats only.
    public var webApp: WebAppInfo?

    /// A button whose press comes back to the bot with `callbackData`.
    public init(text: String, callbackData: String) {
        self.text = text
        self.callbackData = callbackData
    }

    /// A button that shares the bot's inline mode into another chat.
    public init(text: String, switchInlineQueryChosenChat: SwitchInlineQueryChosenChat) {
        self.text = text
        self.switchInlineQueryChosenChat = switchInlineQueryChosenChat
    }

    /// A button that opens the bot's Mini App.
    public init(text: String, webApp: WebAppInfo) {
        self.text = text
        self.webApp = webApp
    }
}

/// A Mini App's page: Telegram opens it with the user's signed launch parameters in its fragment.
public struct WebAppInfo: Codable, Sendable, Hashable {
    /// The page's https address.
    public var url: String

    /// The page at `url`.
    public init(url: String) {
        self.url = url
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

    /// What is typed after the bot's username in the chosen chat; nil or empty for the username
    /// alone.
    public var query: String?
    /// Whether private chats with people are offered; nil counts as false.
    public var allowUserChats: Bool?
    /// Whether private chats with bots are offered; nil counts as false.
    public var allowBotChats: Bool?
    /// Whether groups and supergroups are offered; nil counts as false.
    public var allowGroupChats: Bool?
    /// Whether channels are offered; nil counts as false.
    public var allowChannelChats: Bool?

    /// The chats offered and the query typed in; every kind of chat is off unless allowed here.
    public init(query: String?, allowUserChats: Bool? = nil, allowBotChats: Bool? = nil, allowGroupChats: Bool? = nil, allowChannelChats: Bool? = nil) {
        self.query = query
        self.allowUserChats = allowUserChats
        self.allowBotChats = allowBotChats
        self.allowGroupChats = allowGroupChats
        self.allowChannelChats = allowChannelChats
    }
}

/// Buttons under a message, in rows; a press comes back as a ``CallbackQuery``.
public struct InlineKeyboardMarkup: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case inlineKeyboard = "inline_keyboard"
    }

    /// The rows, top first, each its buttons from left to right.
    public var inlineKeyboard: [[InlineKeyboardButton]]

    /// Buttons in the given rows.
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

    /// The label; a press sends it as the user's own message, unless the button asks for the
    /// location.
    public var text: String
    /// True: a press shares the user's location instead of the label (private chats only).
    public var requestLocation: Bool?

    /// A button that sends its label, or the location when `requestLocation` is true.
    public init(text: String, requestLocation: Bool? = nil) {
        self.text = text
        self.requestLocation = requestLocation
    }
}

/// A keyboard of the bot's buttons in place of the user's letters, shown until removed
/// (``ReplyKeyboardRemove``) or replaced; a one-time keyboard hides itself after a press.
public struct ReplyKeyboardMarkup: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case keyboard
        case resizeKeyboard = "resize_keyboard"
        case oneTimeKeyboard = "one_time_keyboard"
        case inputFieldPlaceholder = "input_field_placeholder"
    }

    /// The rows, top first, each its buttons from left to right.
    public var keyboard: [[KeyboardButton]]
    /// True: the keyboard is only as tall as its rows need; otherwise it is as tall as the letter
    /// keyboard.
    public var resizeKeyboard: Bool?
    /// True: the app hides the keyboard after one press, though the user can bring it back.
    public var oneTimeKeyboard: Bool?
    /// Grey text in the empty input field while the keyboard shows, 1 to 64 characters.
    public var inputFieldPlaceholder: String?

    /// A keyboard; sized to its rows unless told otherwise.
    public init(keyboard: [[KeyboardButton]], resizeKeyboard: Bool? = true, oneTimeKeyboard: Bool? = nil, inputFieldPlaceholder: String? = nil) {
        self.keyboard = keyboard
        self.resizeKeyboard = resizeKeyboard
        self.oneTimeKeyboard = oneTimeKeyboard
        self.inputFieldPlaceholder = inputFieldPlaceholder
    }
}

/// Takes away the keyboard a ``ReplyKeyboardMarkup`` put up, giving the user back their letters.
public struct ReplyKeyboardRemove: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case removeKeyboard = "remove_keyboard"
    }

    /// Always true: what tells Telegram this markup removes the keyboard.
    public var removeKeyboard: Bool

    /// A removal for everyone the keyboard was shown to.
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

    /// Always true: what tells Telegram this markup asks for a reply.
    public var forceReply: Bool
    /// True: only the member whose message this one replies to is asked (and anyone mentioned in
    /// it), not the whole group.
    public var selective: Bool?
    /// Grey text in the empty input field while the reply is open, 1 to 64 characters.
    public var inputFieldPlaceholder: String?
    /// The message the question answers. Not a field of the Bot API's markup: the request takes it
    /// out into the message's `reply_parameters`. Its `reply_to` key is read only from replies
    /// stored before the outbox kept Bot API calls, and never written.
    public var replyTo: Int?

    /// A question by reply; in a group give `selective` and `replyTo` so that only the asker is
    /// asked.
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
    /// Buttons under the message.
    case inline(InlineKeyboardMarkup)
    /// A keyboard in place of the user's letters.
    case keyboard(ReplyKeyboardMarkup)
    /// Takes such a keyboard away.
    case removeKeyboard(ReplyKeyboardRemove)
    /// Opens a reply to the message.
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
