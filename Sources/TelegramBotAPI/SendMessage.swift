/// `sendMessage`: a new message.
public struct SendMessage: TelegramRequest, Codable, Hashable {
    public static let method = "sendMessage"

    public var chatID: Int64
    public var text: String
    public var parseMode: String?
    public var linkPreviewOptions: LinkPreviewOptions?
    public var replyMarkup: ReplyMarkup?
    public var replyParameters: ReplyParameters?
    /// Delivered without a sound (a warning in the chat's quiet hours).
    public var disableNotification: Bool?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", text, parseMode = "parse_mode", linkPreviewOptions = "link_preview_options", replyMarkup = "reply_markup"
        case replyParameters = "reply_parameters", disableNotification = "disable_notification"
    }

    public init(
        chatID: Int64, text: String, parseMode: String? = nil, linkPreviewOptions: LinkPreviewOptions? = nil, replyMarkup: ReplyMarkup? = nil,
        replyParameters: ReplyParameters? = nil
    ) {
        self.chatID = chatID
        self.text = text
        self.parseMode = parseMode
        self.linkPreviewOptions = linkPreviewOptions
        self.replyMarkup = replyMarkup
        self.replyParameters = replyParameters
    }

    /// A message as the bot sends every one: its text in HTML parse mode within Telegram's limit,
    /// without link previews. A question by reply answers the message its ``ForceReply/replyTo``
    /// names, kept as the message's ``replyParameters`` (so the markup holds the Bot API's fields
    /// only), and is sent even if that message was deleted meanwhile.
    public init(chatID: Int64, html text: String, replyMarkup: ReplyMarkup? = nil) {
        var replyMarkup = replyMarkup
        var replyParameters: ReplyParameters?
        if case .forceReply(var question)? = replyMarkup, let replyTo = question.replyTo {
            replyParameters = ReplyParameters(messageID: replyTo, allowSendingWithoutReply: true)
            question.replyTo = nil
            replyMarkup = .forceReply(question)
        }
        self.init(
            chatID: chatID, text: HTML.fitting(text), parseMode: HTML.parseMode, linkPreviewOptions: .disabled, replyMarkup: replyMarkup,
            replyParameters: replyParameters)
    }

    /// The message an edit's text and buttons make, for when the message it applies to is gone.
    public init(_ edit: EditMessageText) {
        self.init(
            chatID: edit.chatID, text: edit.text, parseMode: edit.parseMode, linkPreviewOptions: edit.linkPreviewOptions,
            replyMarkup: edit.replyMarkup.map(ReplyMarkup.inline))
    }
}

/// How links in a message are previewed.
public struct LinkPreviewOptions: Codable, Sendable, Hashable {
    public var isDisabled: Bool?

    enum CodingKeys: String, CodingKey {
        case isDisabled = "is_disabled"
    }

    public init(isDisabled: Bool? = nil) {
        self.isDisabled = isDisabled
    }

    /// No preview.
    public static let disabled = LinkPreviewOptions(isDisabled: true)
}

/// The message a new one answers.
public struct ReplyParameters: Codable, Sendable, Hashable {
    public var messageID: Int
    public var allowSendingWithoutReply: Bool?

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id", allowSendingWithoutReply = "allow_sending_without_reply"
    }

    public init(messageID: Int, allowSendingWithoutReply: Bool? = nil) {
        self.messageID = messageID
        self.allowSendingWithoutReply = allowSendingWithoutReply
    }
}
