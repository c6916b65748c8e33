// Inline mode: a query typed after the bot's username in any chat, the results the bot offers,
// and edits of the messages sent from them, which belong to no chat the bot is in.

/// `@bot Казань` typed in any chat.
public struct InlineQuery: Codable, Sendable, Hashable {
    public var id: String
    public var from: User
    /// What follows the bot's username, up to 256 characters.
    public var query: String
    public var offset: String
    /// Where it is typed: `sender` (the private chat with the bot), `private`, `group`,
    /// `supergroup` or `channel`; missing for a secret chat.
    public var chatType: String?
    /// The sender's location, only when the bot asks for it (BotFather's /setinlinegeo) and the user allows.
    public var location: Location?

    enum CodingKeys: String, CodingKey {
        case id, from, query, offset, chatType = "chat_type", location
    }

    public init(id: String, from: User, query: String, offset: String = "", chatType: String? = nil, location: Location? = nil) {
        self.id = id
        self.from = from
        self.query = query
        self.offset = offset
        self.chatType = chatType
        self.location = location
    }
}

/// `answerInlineQuery`: the results shown above the user's keyboard.
public struct AnswerInlineQuery: TelegramRequest, Codable, Hashable {
    public static let method = "answerInlineQuery"

    public var inlineQueryID: String
    public var results: [InlineQueryResultArticle]
    /// Seconds Telegram may answer the same query from its own cache.
    public var cacheTime: Int?
    /// Cached for this sender only: the results depend on who asks.
    public var isPersonal: Bool?
    /// A button above the results that opens the private chat with the bot.
    public var button: InlineQueryResultsButton?

    enum CodingKeys: String, CodingKey {
        case inlineQueryID = "inline_query_id", results, cacheTime = "cache_time", isPersonal = "is_personal", button
    }

    public init(
        inlineQueryID: String, results: [InlineQueryResultArticle], cacheTime: Int? = nil, isPersonal: Bool? = nil,
        button: InlineQueryResultsButton? = nil
    ) {
        self.inlineQueryID = inlineQueryID
        self.results = results
        self.cacheTime = cacheTime
        self.isPersonal = isPersonal
        self.button = button
    }

    /// Telegram's most results in one answer.
    public static let maximumResults = 50
}

/// One result: a title and a description in the list, and the message sent when it is chosen.
public struct InlineQueryResultArticle: Codable, Sendable, Hashable {
    public var type = "article"
    /// 1–64 bytes, unique within the answer.
    public var id: String
    public var title: String
    public var inputMessageContent: InputTextMessageContent
    public var replyMarkup: InlineKeyboardMarkup?
    public var description: String?

    enum CodingKeys: String, CodingKey {
        case type, id, title, inputMessageContent = "input_message_content", replyMarkup = "reply_markup", description
    }

    public init(id: String, title: String, message: InputTextMessageContent, replyMarkup: InlineKeyboardMarkup? = nil, description: String? = nil) {
        self.id = id
        self.title = title
        self.inputMessageContent = message
        self.replyMarkup = replyMarkup
        self.description = description
    }
}

/// The text message a chosen result sends.
public struct InputTextMessageContent: Codable, Sendable, Hashable {
    public var messageText: String
    public var parseMode: String?
    public var linkPreviewOptions: LinkPreviewOptions?

    enum CodingKeys: String, CodingKey {
        case messageText = "message_text", parseMode = "parse_mode", linkPreviewOptions = "link_preview_options"
    }

    public init(messageText: String, parseMode: String? = nil, linkPreviewOptions: LinkPreviewOptions? = nil) {
        self.messageText = messageText
        self.parseMode = parseMode
        self.linkPreviewOptions = linkPreviewOptions
    }

    /// A message as the bot writes every one: HTML within Telegram's limit, without link previews.
    public init(html text: String) {
        self.init(messageText: HTML.fitting(text), parseMode: HTML.parseMode, linkPreviewOptions: .disabled)
    }
}

/// The button above the results: it opens the private chat with the bot, sending
/// `/start <startParameter>`.
public struct InlineQueryResultsButton: Codable, Sendable, Hashable {
    public var text: String
    /// 1–64 characters of `A–Z`, `a–z`, `0–9`, `_` and `-`.
    public var startParameter: String

    enum CodingKeys: String, CodingKey {
        case text, startParameter = "start_parameter"
    }

    public init(text: String, startParameter: String) {
        self.text = text
        self.startParameter = startParameter
    }
}

/// `editMessageText` of a message sent from an inline result, which the bot knows only by its
/// `inline_message_id`.
public struct EditInlineMessageText: TelegramRequest, Codable, Hashable {
    public static let method = "editMessageText"

    public var inlineMessageID: String
    public var text: String
    public var parseMode: String?
    public var linkPreviewOptions: LinkPreviewOptions?
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case inlineMessageID = "inline_message_id", text, parseMode = "parse_mode", linkPreviewOptions = "link_preview_options"
        case replyMarkup = "reply_markup"
    }

    /// New text in the form every message of the bot has (``InputTextMessageContent/init(html:)``).
    public init(inlineMessageID: String, html text: String, replyMarkup: InlineKeyboardMarkup?) {
        let content = InputTextMessageContent(html: text)
        self.inlineMessageID = inlineMessageID
        self.text = content.messageText
        self.parseMode = content.parseMode
        self.linkPreviewOptions = content.linkPreviewOptions
        self.replyMarkup = replyMarkup
    }
}
