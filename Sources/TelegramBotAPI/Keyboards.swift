/// A button under a message.
public struct InlineKeyboardButton: Codable, Sendable, Hashable {
    public var text: String
    public var callbackData: String?

    public init(text: String, callbackData: String) {
        self.text = text
        self.callbackData = callbackData
    }
}

public struct InlineKeyboardMarkup: Codable, Sendable, Hashable {
    public var inlineKeyboard: [[InlineKeyboardButton]]

    public init(inlineKeyboard: [[InlineKeyboardButton]]) {
        self.inlineKeyboard = inlineKeyboard
    }
}

/// A button of the keyboard that replaces the user's keyboard.
public struct KeyboardButton: Codable, Sendable, Hashable {
    public var text: String
    public var requestLocation: Bool?

    public init(text: String, requestLocation: Bool? = nil) {
        self.text = text
        self.requestLocation = requestLocation
    }
}

public struct ReplyKeyboardMarkup: Codable, Sendable, Hashable {
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
    public var removeKeyboard: Bool

    public init() {
        self.removeKeyboard = true
    }
}

/// Asks for an answer by reply (`force_reply`). In a group it is `selective` and answers the
/// member's own message (`replyTo`): that is how Telegram knows whom to ask.
public struct ForceReply: Codable, Sendable, Hashable {
    public var forceReply: Bool
    public var selective: Bool?
    public var inputFieldPlaceholder: String?
    /// The message the question answers; sent as `reply_parameters`, not in the markup.
    public var replyTo: Int?

    public init(selective: Bool? = nil, inputFieldPlaceholder: String? = nil, replyTo: Int? = nil) {
        self.forceReply = true
        self.selective = selective
        self.inputFieldPlaceholder = inputFieldPlaceholder
        self.replyTo = replyTo
    }
}

/// The `reply_markup` of a sent message: one of the kinds the bot uses.
public enum ReplyMarkup: Codable, Sendable, Hashable {
    case inline(InlineKeyboardMarkup)
    case keyboard(ReplyKeyboardMarkup)
    case removeKeyboard(ReplyKeyboardRemove)
    case forceReply(ForceReply)

    private enum Probe: String, CodingKey {
        case inlineKeyboard, keyboard, removeKeyboard, forceReply
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
