// The keyboards written straight into JSON for the requests that write themselves: the same
// JSON as their `Codable` form, under the Bot API's keys.

extension InlineKeyboardButton {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("text", text)
            if let callbackData { json.field("callback_data", callbackData) }
            if let switchInlineQueryChosenChat {
                json.key("switch_inline_query_chosen_chat")
                switchInlineQueryChosenChat.write(to: &json)
            }
            if let webApp { json.field("web_app", object: { json in json.field("url", webApp.url) }) }
        }
    }
}

extension SwitchInlineQueryChosenChat {
    func write(to json: inout JSONWriter) {
        json.object { json in
            if let allowBotChats { json.field("allow_bot_chats", allowBotChats) }
            if let allowChannelChats { json.field("allow_channel_chats", allowChannelChats) }
            if let allowGroupChats { json.field("allow_group_chats", allowGroupChats) }
            if let allowUserChats { json.field("allow_user_chats", allowUserChats) }
            if let query { json.field("query", query) }
        }
    }
}

extension InlineKeyboardMarkup {
    /// The markup as the Bot API's JSON, with the same keys as its `Encodable` form.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("inline_keyboard")
            json.array(inlineKeyboard) { json, row in
                json.array(row) { json, button in button.write(to: &json) }
            }
        }
    }
}

extension KeyboardButton {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("text", text)
            if let requestLocation { json.field("request_location", requestLocation) }
        }
    }
}

extension ReplyKeyboardMarkup {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("keyboard")
            json.array(keyboard) { json, row in
                json.array(row) { json, button in button.write(to: &json) }
            }
            if let resizeKeyboard { json.field("resize_keyboard", resizeKeyboard) }
            if let oneTimeKeyboard { json.field("one_time_keyboard", oneTimeKeyboard) }
            if let inputFieldPlaceholder {
                json.field("input_field_placeholder", inputFieldPlaceholder)
            }
        }
    }
}

extension ReplyKeyboardRemove {
    func write(to json: inout JSONWriter) {
        json.object { json in json.field("remove_keyboard", removeKeyboard) }
    }
}

extension ForceReply {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("force_reply", forceReply)
            if let selective { json.field("selective", selective) }
            if let inputFieldPlaceholder {
                json.field("input_field_placeholder", inputFieldPlaceholder)
            }
            // `replyTo` is not part of the markup: the request sends it as `reply_parameters`.
        }
    }
}

extension ReplyMarkup {
    /// The markup of whichever kind as the Bot API's JSON; a question by reply without its
    /// ``ForceReply/replyTo``.
    public func write(to json: inout JSONWriter) {
        switch self {
        case .inline(let markup): markup.write(to: &json)
        case .keyboard(let markup): markup.write(to: &json)
        case .removeKeyboard(let markup): markup.write(to: &json)
        case .forceReply(let markup): markup.write(to: &json)
        }
    }
}
