/// `editMessageText`: new text and buttons for an earlier message.
public struct EditMessageText: TelegramRequest, Codable, Hashable {
    public static let method = "editMessageText"

    public var chatID: Int64
    /// The message edited. Nil while a request written before that message was sent waits in the
    /// outbox: the sender sets it when the call is made.
    public var messageID: Int?
    public var text: String
    public var parseMode: String?
    public var linkPreviewOptions: LinkPreviewOptions?
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", messageID = "message_id", text, parseMode = "parse_mode", linkPreviewOptions = "link_preview_options"
        case replyMarkup = "reply_markup"
    }

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
    public static let method = "editMessageReplyMarkup"

    public var chatID: Int64
    /// As ``EditMessageText/messageID``.
    public var messageID: Int?
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", messageID = "message_id", replyMarkup = "reply_markup"
    }

    public init(chatID: Int64, messageID: Int?, replyMarkup: InlineKeyboardMarkup?) {
        self.chatID = chatID
        self.messageID = messageID
        self.replyMarkup = replyMarkup
    }
}

/// `answerCallbackQuery`: the answer to a button press; `text` shows as a short notice, or as an alert.
public struct AnswerCallbackQuery: TelegramRequest, Codable, Hashable {
    public static let method = "answerCallbackQuery"

    public var callbackQueryID: String
    public var text: String?
    public var showAlert: Bool?

    enum CodingKeys: String, CodingKey {
        case callbackQueryID = "callback_query_id", text, showAlert = "show_alert"
    }

    public init(callbackQueryID: String, text: String? = nil, showAlert: Bool? = nil) {
        self.callbackQueryID = callbackQueryID
        self.text = text
        self.showAlert = showAlert
    }
}
