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

/// The `reply_markup` of a sent message: one of the three kinds the bot uses.
public enum ReplyMarkup: Codable, Sendable, Hashable {
    case inline(InlineKeyboardMarkup)
    case keyboard(ReplyKeyboardMarkup)
    case removeKeyboard(ReplyKeyboardRemove)

    private enum Probe: String, CodingKey {
        case inlineKeyboard, keyboard, removeKeyboard
    }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: Probe.self)
        if probe.contains(.inlineKeyboard) {
            self = .inline(try InlineKeyboardMarkup(from: decoder))
        } else if probe.contains(.keyboard) {
            self = .keyboard(try ReplyKeyboardMarkup(from: decoder))
        } else {
            self = .removeKeyboard(try ReplyKeyboardRemove(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .inline(let markup): try markup.encode(to: encoder)
        case .keyboard(let markup): try markup.encode(to: encoder)
        case .removeKeyboard(let markup): try markup.encode(to: encoder)
        }
    }
}
