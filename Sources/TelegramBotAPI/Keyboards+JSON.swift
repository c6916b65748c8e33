/// Which names a keyboard's fields are written under.
public enum KeyboardKeys: Sendable {
    /// The Bot API's snake_case names, for requests.
    case botAPI
    /// The Swift names of the keyboards' `Codable` form, in which the outbox stores them.
    case stored
}

// The keyboards written straight into JSON: in requests with the Bot API's keys, in the outbox
// in exactly the form their `Codable` conformance reads back.

extension InlineKeyboardButton {
    func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        json.object { json in
            json.field("text", text)
            if let callbackData { json.field(keys == .botAPI ? "callback_data" : "callbackData", callbackData) }
        }
    }
}

extension InlineKeyboardMarkup {
    public func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        json.object { json in
            json.key(keys == .botAPI ? "inline_keyboard" : "inlineKeyboard")
            json.array(inlineKeyboard) { json, row in
                json.array(row) { json, button in button.write(to: &json, keys: keys) }
            }
        }
    }
}

extension KeyboardButton {
    func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        json.object { json in
            json.field("text", text)
            if let requestLocation { json.field(keys == .botAPI ? "request_location" : "requestLocation", requestLocation) }
        }
    }
}

extension ReplyKeyboardMarkup {
    func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        json.object { json in
            json.key("keyboard")
            json.array(keyboard) { json, row in
                json.array(row) { json, button in button.write(to: &json, keys: keys) }
            }
            if let resizeKeyboard { json.field(keys == .botAPI ? "resize_keyboard" : "resizeKeyboard", resizeKeyboard) }
            if let oneTimeKeyboard { json.field(keys == .botAPI ? "one_time_keyboard" : "oneTimeKeyboard", oneTimeKeyboard) }
            if let inputFieldPlaceholder {
                json.field(keys == .botAPI ? "input_field_placeholder" : "inputFieldPlaceholder", inputFieldPlaceholder)
            }
        }
    }
}

extension ReplyKeyboardRemove {
    func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        json.object { json in json.field(keys == .botAPI ? "remove_keyboard" : "removeKeyboard", removeKeyboard) }
    }
}

extension ForceReply {
    func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        json.object { json in
            json.field(keys == .botAPI ? "force_reply" : "forceReply", forceReply)
            if let selective { json.field("selective", selective) }
            if let inputFieldPlaceholder {
                json.field(keys == .botAPI ? "input_field_placeholder" : "inputFieldPlaceholder", inputFieldPlaceholder)
            }
            // In a request the message answered goes in `reply_parameters` instead.
            if keys == .stored, let replyTo { json.field("replyTo", replyTo) }
        }
    }
}

extension ReplyMarkup {
    public func write(to json: inout JSONWriter, keys: KeyboardKeys) {
        switch self {
        case .inline(let markup): markup.write(to: &json, keys: keys)
        case .keyboard(let markup): markup.write(to: &json, keys: keys)
        case .removeKeyboard(let markup): markup.write(to: &json, keys: keys)
        case .forceReply(let markup): markup.write(to: &json, keys: keys)
        }
    }
}
