public import Foundation

/// A Bot API call written out before it is made: the typed request of one method, and what the
/// sender needs besides. Replies are committed to the outbox in this form. When the call is made,
/// the sender sets what was not known as it was written: the id of the message an edit applies to
/// (``messageID``), when that message was sent after the edit was written, and for a photo its
/// `file_id` or upload, named by ``photo``.
public struct BotRequest: Sendable, Hashable {
    /// The methods a reply is made with.
    public enum Method: String, Sendable, Hashable, CaseIterable, Codable {
        case sendMessage, editMessageText, editMessageReplyMarkup, answerCallbackQuery, sendPhoto, editMessageMedia
    }

    /// The typed request: one case per method.
    public enum Call: Sendable, Hashable {
        /// A new text message.
        case sendMessage(SendMessage)
        /// New text and buttons for a message sent earlier.
        case editMessageText(EditMessageText)
        /// New buttons only for a message sent earlier.
        case editMessageReplyMarkup(EditMessageReplyMarkup)
        /// The answer to a button press.
        case answerCallbackQuery(AnswerCallbackQuery)
        /// A new photo message (a chart).
        case sendPhoto(SendPhoto)
        /// Another photo and caption for a photo message sent earlier.
        case editMessageMedia(EditMessageMedia)
    }

    /// The typed request itself; the sender may change its message id or photo before the call.
    public var call: Call
    /// For a message sent, the name its id is remembered by for later edits. For an edit whose
    /// ``messageID`` is nil, the name of the message it applies to; should that message be gone,
    /// the new message sent instead is remembered under it.
    public var tag: String?
    /// For a photo, what the photo is, in the words of whoever sends it (the sender renders or
    /// looks it up when the call is made, so the outbox holds no image).
    public var photo: String?

    /// A request for `call`, with the tag and photo name the sender needs (see ``tag`` and
    /// ``photo``).
    public init(_ call: Call, tag: String? = nil, photo: String? = nil) {
        self.call = call
        self.tag = tag
        self.photo = photo
    }

    /// The Bot API method of the call; its raw value is the method's name in the URL.
    public var method: Method {
        switch call {
        case .sendMessage: .sendMessage
        case .editMessageText: .editMessageText
        case .editMessageReplyMarkup: .editMessageReplyMarkup
        case .answerCallbackQuery: .answerCallbackQuery
        case .sendPhoto: .sendPhoto
        case .editMessageMedia: .editMessageMedia
        }
    }

    /// The typed request, for encoding.
    var request: any TelegramRequest {
        switch call {
        case .sendMessage(let request): request
        case .editMessageText(let request): request
        case .editMessageReplyMarkup(let request): request
        case .answerCallbackQuery(let request): request
        case .sendPhoto(let request): request
        case .editMessageMedia(let request): request
        }
    }

    /// The message an edit applies to: set as the edit is written when its id is known, else by the
    /// sender when the call is made. Nil for the other methods, which ignore a value set.
    public var messageID: Int? {
        get {
            switch call {
            case .editMessageText(let edit): edit.messageID
            case .editMessageReplyMarkup(let edit): edit.messageID
            case .editMessageMedia(let edit): edit.messageID
            case .sendMessage, .answerCallbackQuery, .sendPhoto: nil
            }
        }
        set {
            switch call {
            case .editMessageText(var edit):
                edit.messageID = newValue
                call = .editMessageText(edit)
            case .editMessageReplyMarkup(var edit):
                edit.messageID = newValue
                call = .editMessageReplyMarkup(edit)
            case .editMessageMedia(var edit):
                edit.messageID = newValue
                call = .editMessageMedia(edit)
            case .sendMessage, .answerCallbackQuery, .sendPhoto:
                break
            }
        }
    }

    /// The call's parameters as the JSON object it posts (a photo's without the photo, which is
    /// added when the call is made), and as the outbox stores them.
    public var parameters: Data { TelegramJSON.encoded(request) }

    /// Whether it sends or changes a message, and so counts against Telegram's message limits;
    /// answers to button presses do not.
    public var isMessage: Bool { method != .answerCallbackQuery }

    /// Whether it changes a message sent earlier, which must be named by id.
    public var isEdit: Bool { method == .editMessageText || method == .editMessageReplyMarkup || method == .editMessageMedia }

    /// Whether it sends or replaces a photo, which ``photo`` names.
    public var isPhoto: Bool { method == .sendPhoto || method == .editMessageMedia }

    /// The message an edit's text and buttons make, or a photo edit's photo, caption and buttons,
    /// for when the message the edit applies to is gone or was never sent; it keeps the tag.
    public var asNewMessage: BotRequest {
        switch call {
        case .editMessageText(let edit): BotRequest(.sendMessage(SendMessage(edit)), tag: tag)
        case .editMessageMedia(let edit): BotRequest(.sendPhoto(SendPhoto(edit)), tag: tag, photo: photo)
        default: preconditionFailure("only an edit of text or of a photo makes a new message")
        }
    }

    /// Whether this edit leaves an `earlier` one waiting before it nothing to do: both apply to
    /// the same message (the same id, or the same tag while the id is not known), and this one sets
    /// all the earlier one would, so the message ends the same with the earlier one skipped
    /// (Telegram shows a message's last state only). An edit of text or of a photo sets the
    /// buttons too; an edit of the buttons replaces only another edit of the buttons.
    public func supersedes(_ earlier: BotRequest) -> Bool {
        switch (method, earlier.method) {
        case (.editMessageText, .editMessageText), (.editMessageText, .editMessageReplyMarkup), (.editMessageMedia, .editMessageMedia),
            (.editMessageMedia, .editMessageReplyMarkup), (.editMessageReplyMarkup, .editMessageReplyMarkup):
            if let messageID { return messageID == earlier.messageID }
            return earlier.messageID == nil && tag != nil && tag == earlier.tag
        default:
            return false
        }
    }

    /// Whether this sends a new message under `tag`: edits by that tag before it and after it
    /// apply to different messages.
    public func retags(_ tag: String?) -> Bool {
        tag != nil && !isEdit && isMessage && self.tag == tag
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
        Self(.sendMessage(SendMessage(chatID: chatID, html: text, replyMarkup: replyMarkup)), tag: tag)
    }

    /// A message delivered without a sound.
    public static func sendSilently(chatID: Int64, text: String) -> Self {
        var message = SendMessage(chatID: chatID, html: text)
        message.disableNotification = true
        return Self(.sendMessage(message))
    }

    /// New text and buttons for an earlier message; ``asNewMessage`` sends them as a new one.
    public static func editMessageText(chatID: Int64, target: MessageTarget, text: String, replyMarkup: InlineKeyboardMarkup? = nil) -> Self {
        Self(.editMessageText(EditMessageText(chatID: chatID, messageID: target.messageID, html: text, replyMarkup: replyMarkup)), tag: target.tag)
    }

    /// New buttons (none when nil) for an earlier message, its text unchanged.
    public static func editMessageReplyMarkup(chatID: Int64, target: MessageTarget, replyMarkup: InlineKeyboardMarkup?) -> Self {
        Self(.editMessageReplyMarkup(EditMessageReplyMarkup(chatID: chatID, messageID: target.messageID, replyMarkup: replyMarkup)), tag: target.tag)
    }

    /// The answer to a button press: `text` shows as a short notice, or as an alert.
    public static func answerCallbackQuery(id: String, text: String? = nil, showAlert: Bool = false) -> Self {
        Self(.answerCallbackQuery(AnswerCallbackQuery(callbackQueryID: id, text: text, showAlert: showAlert ? true : nil)))
    }

    /// A photo with its caption and buttons; `photo` names it (see ``photo``), `tag` names the
    /// message for later edits.
    public static func sendPhoto(chatID: Int64, photo: String, caption: String?, replyMarkup: InlineKeyboardMarkup? = nil, tag: String? = nil) -> Self {
        Self(.sendPhoto(SendPhoto(chatID: chatID, htmlCaption: caption, replyMarkup: replyMarkup)), tag: tag, photo: photo)
    }

    /// Another photo, caption and buttons for an earlier photo message; ``asNewMessage`` sends
    /// them as a new photo.
    public static func editMessageMedia(chatID: Int64, target: MessageTarget, photo: String, caption: String?, replyMarkup: InlineKeyboardMarkup? = nil) -> Self {
        Self(
            .editMessageMedia(EditMessageMedia(chatID: chatID, messageID: target.messageID, htmlCaption: caption, replyMarkup: replyMarkup)),
            tag: target.tag, photo: photo)
    }
}
