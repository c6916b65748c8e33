/// One incoming update. Kinds the bot does not handle decode with only `updateID` set.
public struct Update: Codable, Sendable, Hashable {
    /// Telegram's number for the update, rising from one update to the next: the next `getUpdates`
    /// offset is the last one seen plus one, and a posted update seen before is known by it.
    public var updateID: Int64
    /// A new message in a chat the bot is in: a command, a reply, a place's name, a shared
    /// location.
    public var message: Message?
    /// A message edited after it was sent: the bot reads its text again, but not a live location
    /// moving.
    public var editedMessage: Message?
    /// A press of one of the bot's inline buttons.
    public var callbackQuery: CallbackQuery?
    /// `@bot …` typed in any chat: answered at once, never stored.
    public var inlineQuery: InlineQuery?

    enum CodingKeys: String, CodingKey {
        case updateID = "update_id", message, editedMessage = "edited_message", callbackQuery = "callback_query", inlineQuery = "inline_query"
    }

    /// An update as a test or the benchmark makes one up: set one kind at most, as Telegram does.
    public init(
        updateID: Int64, message: Message? = nil, editedMessage: Message? = nil, callbackQuery: CallbackQuery? = nil, inlineQuery: InlineQuery? = nil
    ) {
        self.updateID = updateID
        self.message = message
        self.editedMessage = editedMessage
        self.callbackQuery = callbackQuery
        self.inlineQuery = inlineQuery
    }

    /// The chat the update belongs to, when it belongs to one: an inline query, and a press of a
    /// button under a message sent from an inline result, belong to none.
    public var chatID: Int64? {
        if let message { return message.chat.id }
        if let editedMessage { return editedMessage.chat.id }
        if let callbackQuery, callbackQuery.inlineMessageID == nil { return callbackQuery.message?.chat.id ?? callbackQuery.from.id }
        return nil
    }

    /// Inline mode's: a query, or a press under a message sent from an inline result. Answered
    /// at once and never stored (an answer after a restart would come too late to be seen).
    public var isInline: Bool {
        inlineQuery != nil || callbackQuery?.inlineMessageID != nil
    }
}
