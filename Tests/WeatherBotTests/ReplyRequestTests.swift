import Foundation
import TelegramBotAPI
import Testing
@testable import WeatherBot

@Suite struct ReplyRequestTests {
    static let keyboard = InlineKeyboardMarkup(inlineKeyboard: [
        [InlineKeyboardButton(text: "✅ Да, всё верно", callbackData: "cy:12"), InlineKeyboardButton(text: "Нет, выбрать другой", callbackData: "cn:12")],
        [InlineKeyboardButton(text: "🔄 \"Повторить\" \\ ещё", callbackData: "rf:1:p")],
    ])
    static var keyboardJSON: [String: Any] {
        [
        "inline_keyboard": [
            [["text": "✅ Да, всё верно", "callback_data": "cy:12"], ["text": "Нет, выбрать другой", "callback_data": "cn:12"]],
            [["text": "🔄 \"Повторить\" \\ ещё", "callback_data": "rf:1:p"]],
        ]
        ]
    }
    static var text: [String: Any] { ["parse_mode": "HTML", "link_preview_options": ["is_disabled": true]] }

    static func parameters(of request: BotRequest) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: request.parameters) as? NSDictionary, "\(String(decoding: request.parameters, as: UTF8.self))")
    }

    static func expected(_ fields: [String: Any], withText: Bool = false) -> NSDictionary {
        NSDictionary(dictionary: withText ? fields.merging(text) { $1 } : fields)
    }

    @Test func aMessageIsTheSendMessageCallWithItsButtonsAndTag() throws {
        let request = Reply.send(text: "<b>Москва</b>\n+18°C 🌦", markup: .inline(Self.keyboard), tag: "locate:7").request(chatID: 5)
        #expect(request.method == .sendMessage)
        #expect(request.tag == "locate:7")
        #expect(request.messageID == nil)
        #expect(
            try Self.parameters(of: request)
                == Self.expected(["chat_id": 5, "text": "<b>Москва</b>\n+18°C 🌦", "reply_markup": Self.keyboardJSON], withText: true))
    }

    @Test func aQuestionByReplyNamesTheMessageItAnswersInReplyParameters() throws {
        let question = ForceReply(selective: true, inputFieldPlaceholder: "Город", replyTo: 41)
        let request = Reply.send(text: "Какой город?", markup: .forceReply(question)).request(chatID: -100)
        #expect(
            try Self.parameters(of: request)
                == Self.expected(
                    [
                        "chat_id": -100, "text": "Какой город?",
                        "reply_markup": ["force_reply": true, "selective": true, "input_field_placeholder": "Город"],
                        "reply_parameters": ["message_id": 41, "allow_sending_without_reply": true],
                    ], withText: true))
    }

    @Test func aReplyKeyboardAndItsRemovalKeepTheBotAPIsKeys() throws {
        let keyboard = ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]], inputFieldPlaceholder: "Город")
        let shown = try Self.parameters(of: Reply.send(text: "Отправьте геопозицию", markup: .keyboard(keyboard)).request(chatID: 1))
        #expect(
            shown["reply_markup"] as? NSDictionary
                == NSDictionary(dictionary: [
                    "keyboard": [[["text": "📍", "request_location": true]]], "resize_keyboard": true, "input_field_placeholder": "Город",
                ]))
        let removed = try Self.parameters(of: Reply.send(text: "ok", markup: .removeKeyboard(ReplyKeyboardRemove())).request(chatID: 1))
        #expect(removed["reply_markup"] as? NSDictionary == NSDictionary(dictionary: ["remove_keyboard": true]))
    }

    /// An edit names its message: by id among its parameters when the id is known, by tag beside
    /// them otherwise (the sender sets the id when the call is made). Its text and buttons also make
    /// a new message: the sender falls back to one when the message is gone.
    @Test func anEditNamesItsMessageAndAlsoMakesANewMessage() throws {
        let byID = Reply.edit(.id(42), text: "Это ваш город?", keyboard: Self.keyboard).request(chatID: 5)
        #expect(byID.method == .editMessageText)
        #expect(byID.messageID == 42 && byID.tag == nil)
        #expect(
            try Self.parameters(of: byID)
                == Self.expected(["chat_id": 5, "message_id": 42, "text": "Это ваш город?", "reply_markup": Self.keyboardJSON], withText: true))
        let sent = Reply.send(text: "Это ваш город?", markup: .inline(Self.keyboard)).request(chatID: 5)
        #expect(byID.asNewMessage.parameters == sent.parameters)

        let byTag = Reply.edit(.tag("locate:7"), text: "Не удалось определить город").request(chatID: 5)
        #expect(byTag.messageID == nil && byTag.tag == "locate:7")
        #expect(try Self.parameters(of: byTag) == Self.expected(["chat_id": 5, "text": "Не удалось определить город"], withText: true))

        let buttons = Reply.editKeyboard(.tag("card"), keyboard: Self.keyboard).request(chatID: 5)
        #expect(buttons.method == .editMessageReplyMarkup && buttons.tag == "card")
        #expect(try Self.parameters(of: buttons) == Self.expected(["chat_id": 5, "reply_markup": Self.keyboardJSON]))
        let none = Reply.editKeyboard(.id(-1), keyboard: nil).request(chatID: 5)
        #expect(none.messageID == -1)
        #expect(try Self.parameters(of: none) == Self.expected(["chat_id": 5, "message_id": -1]))
    }

    @Test func anAnswerToAButtonIsNotAMessageAndItsTextSurvivesControlCharacters() throws {
        let plain = Reply.answer(callbackQueryID: "4352:99").request(chatID: 5)
        #expect(plain.method == .answerCallbackQuery && !plain.isMessage)
        #expect(try Self.parameters(of: plain) == Self.expected(["callback_query_id": "4352:99"]))
        let alert = Reply.answer(callbackQueryID: "q", text: "⭐ Добавлено в избранное", showAlert: true).request(chatID: 5)
        #expect(try Self.parameters(of: alert) == Self.expected(["callback_query_id": "q", "text": "⭐ Добавлено в избранное", "show_alert": true]))
        let odd = Reply.answer(callbackQueryID: "q", text: "\u{0}\u{1f}\t").request(chatID: 5)
        #expect(try Self.parameters(of: odd)["text"] as? String == "\u{0}\u{1f}\t")
    }

    @Test func aTextTooLongForTelegramIsCutAtALine() throws {
        let long = (1...2_000).map { "строка \($0)" }.joined(separator: "\n")
        let text = try #require(try Self.parameters(of: Reply.send(text: long).request(chatID: 5))["text"] as? String)
        #expect(text.utf16.count <= HTML.maximumMessageLength)
        #expect(text.hasPrefix("строка 1\nстрока 2\n") && text.hasSuffix("\n…"))
    }
}
