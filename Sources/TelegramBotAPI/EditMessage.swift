/// `editMessageText`: new text and buttons for an earlier message.
public struct EditMessageText: TelegramRequest, Codable, Hashable {
    /// The method's name, the last part of the call's URL.
    public static let method = "editMessageText"

    /// The chat of the message edited.
    public var chatID: Int64
    /// The message edited. Nil while a request written before that message was sent waits in the
    /// outbox: the sender sets it when the call is made.
    public var messageID: Int?
    /// The message's new text, within the same limit as a new message's.
    public var text: String
    /// As ``SendMessage/parseMode``.
    public var parseMode: String?
    /// As ``SendMessage/linkPreviewOptions``.
    public var linkPreviewOptions: LinkPreviewOptions?
    /// The buttons the message has after the edit; nil removes them.
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", messageID = "message_id", text, parseMode = "parse_mode", linkPreviewOptions = "link_preview_options"
        case replyMarkup = "reply_markup"
    }

    /// The parameters as given, with no limit applied.
    public init(
        chatID: Int64, messageID: Int?, text: String, parseMode: String? = nil, linkPreviewOptions: LinkPreviewOptions? = nil,
        replyMarkup: InlineKeyboardMarkup? = nil
    ) {
        self.chatID = chatID
        self.messageID = messageID
        self.text = text
        self.parseMode = parseMode
        self.linkPreviewOptions = linkPreviewOptions
        self.replyMarkup = replyMarkup
    }

    /// New text in the form of ``SendMessage/init(chatID:html:replyMarkup:)``.
    public init(chatID: Int64, messageID: Int?, html text: String, replyMarkup: InlineKeyboardMarkup? = nil) {
        let message = SendMessage(chatID: chatID, html: text)
        self.init(
            chatID: chatID, messageID: messageID, text: message.text, parseMode: message.parseMode, linkPreviewOptions: message.linkPreviewOptions,
            replyMarkup: replyMarkup)
    }
}

/// `editMessageReplyMarkup`: new buttons for an earlier message (none when nil), its text unchanged.
public struct EditMessageReplyMarkup: TelegramRequest, Codable, Hashable {
    /// The method's name, the last part of the call's URL.
    public static let method = "editMessageReplyMarkup"

    /// The chat of the message edited.
    public var chatID: Int64
    /// As ``EditMessageText/messageID``.
    public var messageID: Int?
    /// The new buttons; nil removes them all.
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", messageID = "message_id", replyMarkup = "reply_markup"
    }

    /// New buttons for the message `messageID` (nil until the sender knows it).
    public init(chatID: Int64, messageID: Int?, replyMarkup: InlineKeyboardMarkup?) {
        self.chatID = chatID
        self.messageID = messageID
        self.replyMarkup = replyMarkup
    }
}

/// `answerCallbackQuery`: the answer to a button press; `text` shows as a short notice, or as an alert.
public struct AnswerCallbackQuery: TelegramRequest, Codable, Hashable {
    /// The method's name, the last part of the call's URL.
    public static let method = "answerCallbackQuery"

    /// The ``CallbackQuery/id`` of the press answered.
    public var callbackQueryID: String
    /// The notice, up to 200 characters of plain text; nil shows nothing but stops the button's
    /// spinner.
    public var text: String?
    /// True: the text shows as an alert the user must close, not a notice that fades; nil or false
    /// for the notice.
    public var showAlert: Bool?

    enum CodingKeys: String, CodingKey {
        case callbackQueryID = "callback_query_id", text, showAlert = "show_alert"
    }

    /// An answer as given; nil parameters are left out.
    public init(callbackQueryID: String, text: String? = nil, showAlert: Bool? = nil) {
        self.callbackQueryID = callbackQueryID
        self.text = text
        self.showAlert = showAlert
    }
}
