public import TelegramBotAPI

extension Reply {
    /// The Bot API call that makes this reply in chat `chatID`, as the outbox stores and the sender
    /// makes it.
    public func request(chatID: Int64) -> BotRequest {
        switch self {
        case .send(let text, let markup, let tag):
            .sendMessage(chatID: chatID, text: text, replyMarkup: markup, tag: tag)
        case .edit(let target, let text, let keyboard):
            .editMessageText(chatID: chatID, target: target, text: text, replyMarkup: keyboard)
        case .editKeyboard(let target, let keyboard):
            .editMessageReplyMarkup(chatID: chatID, target: target, replyMarkup: keyboard)
        case .answer(let queryID, let text, let showAlert):
            .answerCallbackQuery(id: queryID, text: text, showAlert: showAlert)
        case .chart(let chart, let caption, let keyboard):
            .sendPhoto(chatID: chatID, photo: chart.encoded, caption: caption, replyMarkup: keyboard)
        case .editChart(let target, let chart, let caption, let keyboard):
            .editMessageMedia(chatID: chatID, target: target, photo: chart.encoded, caption: caption, replyMarkup: keyboard)
        }
    }
}
