/// One incoming update. Kinds the bot does not handle decode with only `updateId` set.
public struct Update: Codable, Sendable, Hashable {
    public var updateId: Int64
    public var message: Message?
    public var editedMessage: Message?
    public var callbackQuery: CallbackQuery?

    enum CodingKeys: String, CodingKey {
        case updateId = "update_id", message, editedMessage = "edited_message", callbackQuery = "callback_query"
    }

    public init(updateId: Int64, message: Message? = nil, editedMessage: Message? = nil, callbackQuery: CallbackQuery? = nil) {
        self.updateId = updateId
        self.message = message
        self.editedMessage = editedMessage
        self.callbackQuery = callbackQuery
    }

    /// The chat the update belongs to, when it belongs to one.
    public var chatID: Int64? {
        if let message { return message.chat.id }
        if let editedMessage { return editedMessage.chat.id }
        if let callbackQuery { return callbackQuery.message?.chat.id ?? callbackQuery.from.id }
        return nil
    }
}
