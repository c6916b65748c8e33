public import Foundation

/// A Bot API call written out before it is made: the method and its JSON parameters, exactly as
/// they will be posted. Replies are committed to the outbox in this form, so the sender reads
/// nothing back into types. What it adds is the id of the message an edit applies to, when that
/// message was sent after the edit was written, and a photo's bytes or `file_id`, named by
/// ``photo`` and found when the call is made.
public struct BotRequest: Sendable, Hashable {
    /// The methods a reply is made with.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case sendMessage, editMessageText, editMessageReplyMarkup, answerCallbackQuery, sendPhoto, editMessageMedia
    }

    public var method: Method
    /// The JSON object of parameters. An edit's has no `message_id`: that is ``messageID`` or the
    /// message remembered under ``tag``, put in front when the call is made.
    public var parameters: Data
    /// For a message sent, the name its id is remembered by for later edits. For an edit whose
    /// ``messageID`` is nil, the name of the message it applies to; should that message be gone,
    /// the new message sent instead is remembered under it.
    public var tag: String?
    /// The message an edit applies to, when its id was known as the edit was written.
    public var messageID: Int?
    /// For a photo, what the photo is, in the words of whoever sends it (the sender renders or
    /// looks it up when the call is made, so the outbox holds no image).
    public var photo: String?

    /// A request as stored; the static builders below write new ones.
    public init(method: Method, parameters: Data, tag: String? = nil, messageID: Int? = nil, photo: String? = nil) {
        self.method = method
        self.parameters = parameters
        self.tag = tag
        self.messageID = messageID
        self.photo = photo
    }

    /// Whether it sends or changes a message, and so counts against Telegram's message limits;
    /// answers to button presses do not.
    public var isMessage: Bool { method != .answerCallbackQuery }

    /// Whether it changes a message sent earlier, which must be named by id.
    public var isEdit: Bool { method == .editMessageText || method == .editMessageReplyMarkup || method == .editMessageMedia }

    /// Whether it sends or replaces a photo, which ``photo`` names.
    public var isPhoto: Bool { method == .sendPhoto || method == .editMessageMedia }

    /// The parameters with `message_id` first, when it is given.
    func parameters(messageID: Int?) -> Data {
        guard let messageID else { return parameters }
        precondition(parameters.first == UInt8(ascii: "{"), "the parameters are a JSON object")
        var json = Data(#"{"message_id":\#(messageID)"#.utf8)
        if parameters.dropFirst().first != UInt8(ascii: "}") { json.append(UInt8(ascii: ",")) }
        json.append(parameters.dropFirst())
        return json
    }
}

/// Which message an edit applies to.
public enum MessageTarget: Sendable, Hashable {
    /// A message whose id is known (the one a button sits under).
    case id(Int)
    /// A message this bot sent earlier under a tag, whose id the outbox sender recorded.
    case tag(String)

    var messageID: Int? {
        if case .id(let id) = self { id } else { nil }
    }

    var tag: String? {
        if case .tag(let tag) = self { tag } else { nil }
    }
}

// MARK: - Builders

extension BotRequest {
    /// A new message, its text kept within Telegram's limit; `tag` names it for later edits.
    public static func sendMessage(chatID: Int64, text: String, replyMarkup: ReplyMarkup? = nil, tag: String? = nil) -> Self {
        let parameters = writing { json in
            json.field("chat_id", chatID)
            writeText(text, to: &json)
            if let replyMarkup {
                json.key("reply_markup")
                replyMarkup.write(to: &json)
            }
            if case .forceReply(let question)? = replyMarkup, let replyTo = question.replyTo {
                // Sent even if that message was deleted meanwhile.
                json.field("reply_parameters", object: { json in
                    json.field("message_id", replyTo)
                    json.field("allow_sending_without_reply", true)
                })
            }
        }
        return Self(method: .sendMessage, parameters: parameters, tag: tag)
    }

    /// New text and buttons for an earlier message. Its parameters are also those of a new message
    /// with that text and buttons.
    public static func editMessageText(chatID: Int64, target: MessageTarget, text: String, replyMarkup: InlineKeyboardMarkup? = nil) -> Self {
        let message = sendMessage(chatID: chatID, text: text, replyMarkup: replyMarkup.map(ReplyMarkup.inline))
        return Self(method: .editMessageText, parameters: message.parameters, tag: target.tag, messageID: target.messageID)
    }

    /// New buttons (none when nil) for an earlier message, its text unchanged.
    public static func editMessageReplyMarkup(chatID: Int64, target: MessageTarget, replyMarkup: InlineKeyboardMarkup?) -> Self {
        let parameters = writing { json in
            json.field("chat_id", chatID)
            if let replyMarkup {
                json.key("reply_markup")
                replyMarkup.write(to: &json)
            }
        }
        return Self(method: .editMessageReplyMarkup, parameters: parameters, tag: target.tag, messageID: target.messageID)
    }

    /// The answer to a button press: `text` shows as a short notice, or as an alert.
    public static func answerCallbackQuery(id: String, text: String? = nil, showAlert: Bool = false) -> Self {
        let parameters = writing { json in
            json.field("callback_query_id", id)
            if let text { json.field("text", text) }
            if showAlert { json.field("show_alert", true) }
        }
        return Self(method: .answerCallbackQuery, parameters: parameters)
    }

    /// A photo with its caption and buttons; `photo` names it (see ``photo``), `tag` names the
    /// message for later edits.
    public static func sendPhoto(chatID: Int64, photo: String, caption: String?, replyMarkup: InlineKeyboardMarkup? = nil, tag: String? = nil) -> Self {
        let parameters = writing { json in
            json.field("chat_id", chatID)
            if let caption {
                json.field("caption", HTML.fittingCaption(caption))
                json.field("parse_mode", "HTML")
            }
            if let replyMarkup {
                json.key("reply_markup")
                replyMarkup.write(to: &json)
            }
        }
        return Self(method: .sendPhoto, parameters: parameters, tag: tag, photo: photo)
    }

    /// Another photo, caption and buttons for an earlier photo message. Its parameters are those of
    /// ``sendPhoto(chatID:photo:caption:replyMarkup:tag:)``, so it can be sent as a new photo.
    public static func editMessageMedia(chatID: Int64, target: MessageTarget, photo: String, caption: String?, replyMarkup: InlineKeyboardMarkup? = nil) -> Self {
        let message = sendPhoto(chatID: chatID, photo: photo, caption: caption, replyMarkup: replyMarkup)
        return Self(method: .editMessageMedia, parameters: message.parameters, tag: target.tag, messageID: target.messageID, photo: photo)
    }

    private static func writing(_ fields: (inout JSONWriter) -> Void) -> Data {
        var json = JSONWriter()
        json.object(fields)
        return json.data
    }

    /// A message's text, within Telegram's limit, in HTML parse mode and without link previews.
    private static func writeText(_ text: String, to json: inout JSONWriter) {
        json.field("text", HTML.fitting(text))
        json.field("parse_mode", "HTML")
        json.field("link_preview_options", object: { $0.field("is_disabled", true) })
    }
}
