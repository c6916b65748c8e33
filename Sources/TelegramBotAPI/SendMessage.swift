/// `sendMessage`: a new message.
public struct SendMessage: TelegramRequest, Codable, Hashable {
    /// The method's name, the last part of the call's URL.
    public static let method = "sendMessage"

    /// The chat sent to: a private chat's id is the user's, a group's is negative.
    public var chatID: Int64
    /// The message, 1 to 4,096 characters once Telegram has read its markup (see
    /// ``HTML/fitting(_:limit:)``).
    public var text: String
    /// How Telegram reads markup in `text`: ``HTML/parseMode`` for the bot's messages; nil for
    /// plain text.
    public var parseMode: String?
    /// Whether links in the text get a preview; the bot turns previews off
    /// (``LinkPreviewOptions/disabled``).
    public var linkPreviewOptions: LinkPreviewOptions?
    /// Buttons under the message, a keyboard in place of the user's, its removal, or a question by
    /// reply.
    public var replyMarkup: ReplyMarkup?
    /// The message this one answers, shown quoted above it.
    public var replyParameters: ReplyParameters?
    /// Delivered without a sound (a warning in the chat's quiet hours).
    public var disableNotification: Bool?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", text, parseMode = "parse_mode", linkPreviewOptions = "link_preview_options", replyMarkup = "reply_markup"
        case replyParameters = "reply_parameters", disableNotification = "disable_notification"
    }

    /// The parameters as given, with no limit applied; ``init(chatID:html:replyMarkup:)`` is how
    /// the bot writes a message.
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
    /// True: no preview for any link in the message; nil leaves Telegram's default, a preview.
    public var isDisabled: Bool?

    enum CodingKeys: String, CodingKey {
        case isDisabled = "is_disabled"
    }

    /// Options as given; ``disabled`` is the only one the bot uses.
    public init(isDisabled: Bool? = nil) {
        self.isDisabled = isDisabled
    }

    /// No preview.
    public static let disabled = LinkPreviewOptions(isDisabled: true)
}

/// The message a new one answers.
public struct ReplyParameters: Codable, Sendable, Hashable {
    /// The answered message's number in the same chat.
    public var messageID: Int
    /// True: the message is sent even when the one it answers was deleted; otherwise Telegram
    /// refuses it.
    public var allowSendingWithoutReply: Bool?

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id", allowSendingWithoutReply = "allow_sending_without_reply"
    }

    /// A reply to `messageID` in the chat the message goes to.
    public init(messageID: Int, allowSendingWithoutReply: Bool? = nil) {
        self.messageID = messageID
        self.allowSendingWithoutReply = allowSendingWithoutReply
    }
}
