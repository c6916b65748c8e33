import Foundation
import Testing
@testable import TelegramBotAPI

@Suite struct BotRequestTests {
    static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary, "\(String(decoding: data, as: UTF8.self))")
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static let keyboard = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "✅ Да", callbackData: "cy:1")]])

    @Test func anEditsMessageIsAFieldSetWhenTheCallIsMade() throws {
        var edit = BotRequest.editMessageText(chatID: -100, target: .tag("locate:7"), text: "Это ваш город?")
        #expect(try Self.object(edit.parameters)["message_id"] == nil)
        edit.messageID = 512
        let made = try Self.object(edit.parameters)
        #expect(made["message_id"] as? Int == 512)
        #expect(made["chat_id"] as? Int == -100)
        #expect(made["text"] as? String == "Это ваш город?")
        // A method that names no message ignores one.
        var answer = BotRequest.answerCallbackQuery(id: "q")
        answer.messageID = 3
        #expect(answer.messageID == nil)
        #expect(try Self.object(answer.parameters) == NSDictionary(dictionary: ["callback_query_id": "q"]))
    }

    @Test func aLaterEditOfTheSameMessageSupersedesOnlyWhatItSetsAgain() {
        let text = BotRequest.editMessageText(chatID: 1, target: .id(7), text: "a", replyMarkup: Self.keyboard)
        let buttons = BotRequest.editMessageReplyMarkup(chatID: 1, target: .id(7), replyMarkup: Self.keyboard)
        let photo = BotRequest.editMessageMedia(chatID: 1, target: .id(7), photo: "p", caption: nil)
        #expect(text.supersedes(text) && text.supersedes(buttons) && buttons.supersedes(buttons) && photo.supersedes(photo) && photo.supersedes(buttons))
        // Buttons alone leave an earlier text to show; a text edit does not apply to a photo.
        #expect(!buttons.supersedes(text) && !text.supersedes(photo) && !photo.supersedes(text))
        // Another message, or one named by tag against one named by id, is left alone.
        #expect(!text.supersedes(.editMessageText(chatID: 1, target: .id(8), text: "a")))
        #expect(!text.supersedes(.editMessageText(chatID: 1, target: .tag("card"), text: "a")))
        let tagged = BotRequest.editMessageText(chatID: 1, target: .tag("card"), text: "b")
        #expect(tagged.supersedes(.editMessageText(chatID: 1, target: .tag("card"), text: "a")))
        #expect(!tagged.supersedes(.editMessageText(chatID: 1, target: .tag("chart"), text: "a")))
        // New messages and answers are never superseded.
        #expect(!text.supersedes(.sendMessage(chatID: 1, text: "a")) && !text.supersedes(.answerCallbackQuery(id: "q")))
        // Only a new message sent under the tag moves it to another message.
        #expect(BotRequest.sendMessage(chatID: 1, text: "a", tag: "card").retags("card"))
        #expect(!tagged.retags("card") && !BotRequest.sendMessage(chatID: 1, text: "a").retags(nil))
    }

    @Test func anEditWithNoButtonsIsOnlyItsChatAndMessage() throws {
        let bare = BotRequest.editMessageReplyMarkup(chatID: 1, target: .id(3), replyMarkup: nil)
        #expect(Self.text(bare.parameters) == #"{"chat_id":1,"message_id":3}"#)
    }

    @Test func onlyAnswersToButtonsAreNotMessagesAndOnlyEditsNameAMessage() {
        let send = BotRequest.sendMessage(chatID: 1, text: "x")
        let edit = BotRequest.editMessageText(chatID: 1, target: .id(2), text: "x")
        let buttons = BotRequest.editMessageReplyMarkup(chatID: 1, target: .tag("t"), replyMarkup: nil)
        let answer = BotRequest.answerCallbackQuery(id: "q")
        #expect([send, edit, buttons, answer].map(\.isMessage) == [true, true, true, false])
        #expect([send, edit, buttons, answer].map(\.isEdit) == [false, true, true, false])
    }

    /// What each method posts, byte for byte: the Bot API's names; `/` unescaped. Messages, edits
    /// and answers write themselves in their fields' order, photos by the encoder with keys sorted.
    @Test func eachTypedRequestPostsTheBotAPIsJSON() {
        let message = BotRequest.sendMessage(chatID: 5, text: "<b>Москва</b> 1/2", replyMarkup: .inline(Self.keyboard), tag: "card")
        #expect(
            Self.text(message.parameters)
                == #"{"chat_id":5,"text":"<b>Москва</b> 1/2","parse_mode":"HTML","link_preview_options":{"is_disabled":true},"reply_markup":{"inline_keyboard":[[{"text":"✅ Да","callback_data":"cy:1"}]]}}"#
        )
        let question = BotRequest.sendMessage(chatID: -100, text: "?", replyMarkup: .forceReply(ForceReply(selective: true, replyTo: 41)))
        #expect(
            Self.text(question.parameters)
                == #"{"chat_id":-100,"text":"?","parse_mode":"HTML","link_preview_options":{"is_disabled":true},"reply_markup":{"force_reply":true,"selective":true},"reply_parameters":{"message_id":41,"allow_sending_without_reply":true}}"#
        )
        let edit = BotRequest.editMessageText(chatID: 5, target: .id(7), text: "x")
        #expect(Self.text(edit.parameters) == #"{"chat_id":5,"message_id":7,"text":"x","parse_mode":"HTML","link_preview_options":{"is_disabled":true}}"#)
        let alert = BotRequest.answerCallbackQuery(id: "q", text: "\"!\"\n", showAlert: true)
        #expect(Self.text(alert.parameters) == #"{"callback_query_id":"q","text":"\"!\"\n","show_alert":true}"#)
        let photo = BotRequest.sendPhoto(chatID: 5, photo: "chart", caption: "📈", replyMarkup: Self.keyboard)
        #expect(
            Self.text(photo.parameters)
                == #"{"caption":"📈","chat_id":5,"parse_mode":"HTML","reply_markup":{"inline_keyboard":[[{"callback_data":"cy:1","text":"✅ Да"}]]}}"#)
        let media = BotRequest.editMessageMedia(chatID: 5, target: .id(9), photo: "chart", caption: nil)
        #expect(Self.text(media.parameters) == #"{"chat_id":5,"media":{"type":"photo"},"message_id":9}"#)
    }

    @Test func aRequestReadsBackAsItWasFromItsColumnsAndItsCodableForm() throws {
        let requests: [BotRequest] = [
            .sendMessage(chatID: 5, text: "<b>hi</b>", replyMarkup: .keyboard(ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]])), tag: "t"),
            .sendMessage(chatID: 5, text: "x", replyMarkup: .removeKeyboard(ReplyKeyboardRemove())),
            // A question by reply keeps its reply target in the request's reply parameters.
            .sendMessage(chatID: -100, text: "?", replyMarkup: .forceReply(ForceReply(selective: true, inputFieldPlaceholder: "Город", replyTo: 41))),
            .editMessageText(chatID: 5, target: .tag("locate:7"), text: "Это ваш город?", replyMarkup: Self.keyboard),
            .editMessageText(chatID: 5, target: .id(4), text: "x"),
            .editMessageReplyMarkup(chatID: -100, target: .id(8), replyMarkup: nil),
            .answerCallbackQuery(id: "77:5", text: "⭐", showAlert: true),
            .sendPhoto(chatID: 5, photo: "chart of Moscow", caption: "📈 <b>Москва</b>", replyMarkup: Self.keyboard, tag: "chart"),
            .editMessageMedia(chatID: 5, target: .tag("chart"), photo: "week", caption: "📈 неделя", replyMarkup: Self.keyboard),
        ]
        for request in requests {
            let stored = try BotRequest(
                method: request.method, parameters: request.parameters, tag: request.tag, messageID: request.messageID, photo: request.photo)
            #expect(stored == request)
            let coded = TelegramJSON.encoded(request)
            #expect(try TelegramJSON.decoder().decode(BotRequest.self, from: coded) == request, "\(Self.text(coded))")
        }
    }

    /// Rows an outbox wrote before it kept typed requests: an edit's message named only by its
    /// column, a photo edit's caption beside the chat. They post what the same reply posts today.
    @Test func rowsStoredInTheEarlierFormPostWhatTheyPostToday() throws {
        let edit = try BotRequest(
            method: .editMessageText,
            parameters: Data(#"{"chat_id":5,"text":"Это ваш город?","parse_mode":"HTML","link_preview_options":{"is_disabled":true}}"#.utf8),
            messageID: 42)
        #expect(edit == .editMessageText(chatID: 5, target: .id(42), text: "Это ваш город?"))

        let buttons = try BotRequest(method: .editMessageReplyMarkup, parameters: Data(#"{"chat_id":5}"#.utf8), tag: "card")
        #expect(buttons == .editMessageReplyMarkup(chatID: 5, target: .tag("card"), replyMarkup: nil))

        let markup = #"{"inline_keyboard":[[{"text":"✅ Да","callback_data":"cy:1"}]]}"#
        let photo = try BotRequest(
            method: .sendPhoto, parameters: Data(#"{"chat_id":5,"caption":"📈 Москва","parse_mode":"HTML","reply_markup":\#(markup)}"#.utf8), tag: "chart",
            photo: "chart of Moscow")
        #expect(photo == .sendPhoto(chatID: 5, photo: "chart of Moscow", caption: "📈 Москва", replyMarkup: Self.keyboard, tag: "chart"))

        let media = try BotRequest(
            method: .editMessageMedia, parameters: Data(#"{"chat_id":5,"caption":"📈 неделя","parse_mode":"HTML","reply_markup":\#(markup)}"#.utf8),
            messageID: 50, photo: "week")
        #expect(media == .editMessageMedia(chatID: 5, target: .id(50), photo: "week", caption: "📈 неделя", replyMarkup: Self.keyboard))
        let uncaptioned = try BotRequest(method: .editMessageMedia, parameters: Data(#"{"chat_id":5}"#.utf8), tag: "chart", photo: "week")
        #expect(uncaptioned == .editMessageMedia(chatID: 5, target: .tag("chart"), photo: "week", caption: nil))

        // Parameters that are not the method's do not read.
        #expect(throws: DecodingError.self) { try BotRequest(method: .sendMessage, parameters: Data(#"{"chat_id":5}"#.utf8)) }
        #expect(throws: DecodingError.self) { try BotRequest(method: .answerCallbackQuery, parameters: Data("not json".utf8)) }
    }

    /// The message an edit's parameters make when its message is gone: the same text and buttons,
    /// or the same caption and buttons with the photo, under the same tag.
    @Test func anEditGoneBecomesANewMessageOfTheSameContent() {
        let edit = BotRequest.editMessageText(chatID: 5, target: .tag("locate:7"), text: "Не удалось", replyMarkup: Self.keyboard)
        #expect(edit.asNewMessage == .sendMessage(chatID: 5, text: "Не удалось", replyMarkup: .inline(Self.keyboard), tag: "locate:7"))
        let media = BotRequest.editMessageMedia(chatID: 5, target: .tag("chart"), photo: "week", caption: "📈", replyMarkup: Self.keyboard)
        #expect(media.asNewMessage == .sendPhoto(chatID: 5, photo: "week", caption: "📈", replyMarkup: Self.keyboard, tag: "chart"))
    }
}
