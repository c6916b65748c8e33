// The requests of messages, edits and answers, written field by field: every reply is one of them
// (see `JSONWritable`). The same JSON as their `Encodable` form, which tests hold them to.

extension SendMessage: JSONWritable {
    /// The request as the Bot API's JSON, written field by field: the same fields and values as its
    /// `Encodable` form.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("chat_id", chatID)
            writeText(text, parseMode: parseMode, linkPreviewOptions: linkPreviewOptions, to: &json)
            if let replyMarkup {
                json.key("reply_markup")
                replyMarkup.write(to: &json)
            }
            if let replyParameters {
                json.key("reply_parameters")
                replyParameters.write(to: &json)
            }
            if let disableNotification { json.field("disable_notification", disableNotification) }
        }
    }
}

extension EditMessageText: JSONWritable {
    /// The request as the Bot API's JSON, written field by field: the same fields and values as its
    /// `Encodable` form.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("chat_id", chatID)
            if let messageID { json.field("message_id", messageID) }
            writeText(text, parseMode: parseMode, linkPreviewOptions: linkPreviewOptions, to: &json)
            if let replyMarkup {
                json.key("reply_markup")
                replyMarkup.write(to: &json)
            }
        }
    }
}

extension EditMessageReplyMarkup: JSONWritable {
    /// The request as the Bot API's JSON, written field by field: the same fields and values as its
    /// `Encodable` form.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("chat_id", chatID)
            if let messageID { json.field("message_id", messageID) }
            if let replyMarkup {
                json.key("reply_markup")
                replyMarkup.write(to: &json)
            }
        }
    }
}

extension AnswerCallbackQuery: JSONWritable {
    /// The request as the Bot API's JSON, written field by field: the same fields and values as its
    /// `Encodable` form.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("callback_query_id", callbackQueryID)
            if let text { json.field("text", text) }
            if let showAlert { json.field("show_alert", showAlert) }
        }
    }
}

extension LinkPreviewOptions {
    func write(to json: inout JSONWriter) {
        json.object { json in
            if let isDisabled { json.field("is_disabled", isDisabled) }
        }
    }
}

extension ReplyParameters {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("message_id", messageID)
            if let allowSendingWithoutReply { json.field("allow_sending_without_reply", allowSendingWithoutReply) }
        }
    }
}

/// A message's text and how it shows, as a new message and a text edit write them.
private func writeText(_ text: String, parseMode: String?, linkPreviewOptions: LinkPreviewOptions?, to json: inout JSONWriter) {
    json.field("text", text)
    if let parseMode { json.field("parse_mode", parseMode) }
    if let linkPreviewOptions {
        json.key("link_preview_options")
        linkPreviewOptions.write(to: &json)
    }
}

extension GetUpdates: JSONWritable {
    /// Every long poll writes one: its keys as the encoder sorts them.
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("allowed_updates")
            json.array(allowedUpdates) { json, kind in json.string(kind) }
            json.field("limit", limit)
            if let offset { json.field("offset", offset) }
            json.field("timeout", timeout)
        }
    }
}
