// Inline mode: a query typed after the bot's username in any chat, the results the bot offers,
// and edits of the messages sent from them, which belong to no chat the bot is in.

/// `@bot Казань` typed in any chat.
public struct InlineQuery: Codable, Sendable, Hashable {
    /// Telegram's id for the query, which the answer names; an opaque string, answerable for a
    /// short while only.
    public var id: String
    /// Who types the query; the OpenWeather calls its answer needs count against that user's own
    /// chat.
    public var from: User
    /// What follows the bot's username, up to 256 characters.
    public var query: String
    /// Where a further page of results would start; empty for the first, and the bot offers no
    /// further ones.
    public var offset: String
    /// Where it is typed: `sender` (the private chat with the bot), `private`, `group`,
    /// `supergroup` or `channel`; missing for a secret chat.
    public var chatType: String?
    /// The sender's location, only when the bot asks for it (BotFather's /setinlinegeo) and the user allows.
    public var location: Location?

    enum CodingKeys: String, CodingKey {
        case id, from, query, offset, chatType = "chat_type", location
    }

    /// A query as a test makes one up.
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
    /// The method's name, the last part of the call's URL.
    public static let method = "answerInlineQuery"

    /// The ``InlineQuery/id`` answered.
    public var inlineQueryID: String
    /// The results in the order shown, at most ``maximumResults``; empty shows none.
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

    /// An answer; Telegram's defaults (five minutes of cache, shared by everyone) unless told
    /// otherwise.
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
    /// Always `article`: a result that sends a text message.
    public var type = "article"
    /// 1–64 bytes, unique within the answer.
    public var id: String
    /// The result's name in the list, such as the place.
    public var title: String
    /// The message sent into the chat when the result is chosen.
    public var inputMessageContent: InputTextMessageContent
    /// Buttons under the sent message; their presses come back with an inline message id, not a
    /// chat.
    public var replyMarkup: InlineKeyboardMarkup?
    /// A second, shorter line under the title in the list; nil for none.
    public var description: String?

    enum CodingKeys: String, CodingKey {
        case type, id, title, inputMessageContent = "input_message_content", replyMarkup = "reply_markup", description
    }

    /// A result whose choice sends `message`.
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
    /// The message, 1 to 4,096 characters.
    public var messageText: String
    /// As ``SendMessage/parseMode``.
    public var parseMode: String?
    /// As ``SendMessage/linkPreviewOptions``.
    public var linkPreviewOptions: LinkPreviewOptions?

    enum CodingKeys: String, CodingKey {
        case messageText = "message_text", parseMode = "parse_mode", linkPreviewOptions = "link_preview_options"
    }

    /// The parameters as given, with no limit applied.
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
    /// The button's label.
    public var text: String
    /// 1–64 characters of `A–Z`, `a–z`, `0–9`, `_` and `-`.
    public var startParameter: String

    enum CodingKeys: String, CodingKey {
        case text, startParameter = "start_parameter"
    }

    /// A button that starts the private chat with `startParameter`.
    public init(text: String, startParameter: String) {
        self.text = text
        self.startParameter = startParameter
    }
}

/// `editMessageText` of a message sent from an inline result, which the bot knows only by its
/// `inline_message_id`.
public struct EditInlineMessageText: TelegramRequest, Codable, Hashable {
    /// The Bot API method's name: the same as for a chat's message, told apart by its parameters.
    public static let method = "editMessageText"

    /// Telegram's id for the message, from ``CallbackQuery/inlineMessageID``; it stands in for a
    /// chat and a message id.
    public var inlineMessageID: String
    /// As ``EditMessageText/text``.
    public var text: String
    /// As ``EditMessageText/parseMode``.
    public var parseMode: String?
    /// As ``EditMessageText/linkPreviewOptions``.
    public var linkPreviewOptions: LinkPreviewOptions?
    /// The buttons the message keeps; nil removes them.
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
