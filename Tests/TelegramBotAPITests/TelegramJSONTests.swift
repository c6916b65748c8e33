import Foundation
import Testing
@testable import TelegramBotAPI

@Suite struct TelegramJSONTests {
    /// Parses what the encoder wrote with Foundation's own parser.
    private func parsed(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: TelegramJSON.encoded(value)) as? [String: Any])
    }

    @Test func stringsSurviveEveryCharacterThatNeedsEscaping() throws {
        var texts = [
            "", "plain", "«Это ваш город?» 📍", "quote \" backslash \\ slash /", "line\nbreak\r\ttab", "\u{0}\u{1}\u{8}\u{c}\u{1f}\u{7f}",
            "<b>Москва</b> &amp; 🇷🇺", "\\\"", "\"", "\\",
        ]
        // Every control character and a mix of scripts, in random strings.
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("a\"\\\n\r\t\u{0}\u{1b}\u{1f} /ёЖ😀🇷🇺é\u{2028}\u{2029}")
        for _ in 0..<200 {
            texts.append(String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for text in texts {
            // Written by the writer, and by the encoder.
            let answer = AnswerCallbackQuery(callbackQueryID: "q", text: text)
            #expect(try parsed(answer)["text"] as? String == text, "\(text.debugDescription)")
            let photo = SendPhoto(chatID: 1, caption: text)
            #expect(try parsed(photo)["caption"] as? String == text, "\(text.debugDescription)")
        }
    }

    /// One configuration for every request: the same value gives the same bytes.
    @Test func keysAreSortedAndSlashesLeftAsTheyAre() {
        let request = SetWebhook(url: "https://bot.example.com/telegram", secretToken: "s", maxConnections: 40, allowedUpdates: ["message", "callback_query"])
        #expect(
            String(decoding: TelegramJSON.encoded(request), as: UTF8.self)
                == #"{"allowed_updates":["message","callback_query"],"max_connections":40,"secret_token":"s","url":"https://bot.example.com/telegram"}"#)
        #expect(String(decoding: TelegramJSON.encoded(GetMe()), as: UTF8.self) == "{}")
        #expect(
            String(decoding: TelegramJSON.encoded(GetUpdates(offset: nil, limit: 100, timeout: 30, allowedUpdates: [])), as: UTF8.self)
                == #"{"allowed_updates":[],"limit":100,"timeout":30}"#)
    }

    @Test func keyboardsAreWrittenWithTheBotAPIsKeys() throws {
        let inline = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "✅ Да", callbackData: "cy:1")], []])
        let rows = try #require(try parsed(ReplyMarkup.inline(inline))["inline_keyboard"] as? [[[String: Any]]])
        #expect(rows.count == 2)
        #expect(rows[0][0]["text"] as? String == "✅ Да")
        #expect(rows[0][0]["callback_data"] as? String == "cy:1")
        let keyboard = try parsed(
            ReplyMarkup.keyboard(ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]], oneTimeKeyboard: true, inputFieldPlaceholder: "Город")))
        #expect(((keyboard["keyboard"] as? [[[String: Any]]])?[0][0])?["request_location"] as? Bool == true)
        #expect(keyboard["resize_keyboard"] as? Bool == true)
        #expect(keyboard["one_time_keyboard"] as? Bool == true)
        #expect(keyboard["input_field_placeholder"] as? String == "Город")
        #expect(try parsed(ReplyMarkup.removeKeyboard(ReplyKeyboardRemove()))["remove_keyboard"] as? Bool == true)
    }

    @Test func keyboardsDecodeFromWhatTheyWriteWhichIsTheBotAPIsForm() throws {
        let markups: [ReplyMarkup] = [
            .inline(InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "✅ \"Да\"", callbackData: "cy:1"), InlineKeyboardButton(text: "Нет", callbackData: "cn:1")], []])),
            .inline(InlineKeyboardMarkup(inlineKeyboard: [])),
            .keyboard(ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true), KeyboardButton(text: "x")]])),
            .keyboard(ReplyKeyboardMarkup(keyboard: [], resizeKeyboard: nil, oneTimeKeyboard: false, inputFieldPlaceholder: "Город\n")),
            .removeKeyboard(ReplyKeyboardRemove()),
            .forceReply(ForceReply(selective: true, inputFieldPlaceholder: "Город")),
        ]
        for markup in markups {
            #expect(try TelegramJSON.decoder().decode(ReplyMarkup.self, from: TelegramJSON.encoded(markup)) == markup)
        }
    }

    /// The values that write themselves write the JSON their `Encodable` form gives.
    @Test func whatWritesItselfIsWhatTheEncoderWrites() throws {
        let inline = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "✅ \"Да\"", callbackData: "cy:1")], []])
        let user = User(id: 77, isBot: false, firstName: "Аня", username: "anya", languageCode: "ru")
        let values: [any Encodable & JSONWritable] = [
            SendMessage(chatID: 5, html: "<b>Москва</b>\n1/2", replyMarkup: .inline(inline)),
            SendMessage(chatID: -100, html: "?", replyMarkup: .forceReply(ForceReply(selective: true, inputFieldPlaceholder: "Город", replyTo: 4))),
            SendMessage(chatID: 1, html: "x", replyMarkup: .keyboard(ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]], oneTimeKeyboard: true))),
            SendMessage(chatID: 1, html: "x", replyMarkup: .removeKeyboard(ReplyKeyboardRemove())),
            SendMessage(chatID: 1, text: "plain"),
            SendMessage(chatID: 1, html: "share", replyMarkup: .inline(InlineKeyboardMarkup(inlineKeyboard: [[
                InlineKeyboardButton(text: "↗️", switchInlineQueryChosenChat: SwitchInlineQueryChosenChat(query: "Казань", allowUserChats: true, allowBotChats: false, allowGroupChats: true)),
                InlineKeyboardButton(text: "↗️", switchInlineQueryChosenChat: SwitchInlineQueryChosenChat(query: nil)),
            ]]))),
            EditMessageText(chatID: 5, messageID: 9, html: "y", replyMarkup: inline),
            EditMessageText(chatID: 5, messageID: nil, text: "y"),
            EditMessageReplyMarkup(chatID: 5, messageID: 9, replyMarkup: inline),
            EditMessageReplyMarkup(chatID: 5, messageID: nil, replyMarkup: nil),
            AnswerCallbackQuery(callbackQueryID: "q", text: "⭐", showAlert: true),
            AnswerCallbackQuery(callbackQueryID: "q"),
            Update(updateID: 1),
            Update(updateID: 2, message: Message(
                messageID: 5, from: user, date: 1, chat: Chat(id: -100, type: .supergroup), text: "x", location: Location(latitude: 55.75, longitude: 37.62),
                replyToMessage: RepliedMessage(messageID: 4, from: user))),
            Update(updateID: 3, editedMessage: Message(messageID: 6, date: 2, chat: Chat(id: 1, type: .other("forum")))),
            Update(updateID: 4, callbackQuery: CallbackQuery(id: "q", from: user, message: Message(messageID: 0, date: 0, chat: Chat(id: 77)), data: "cy:1")),
            Update(updateID: 5, callbackQuery: CallbackQuery(id: "q", from: user, inlineMessageID: "im", data: "iv:n:ru:1.0000:2.0000")),
            Update(updateID: 6, inlineQuery: InlineQuery(id: "iq", from: user, query: "Казань", chatType: "private", location: Location(latitude: 1.5, longitude: -2))),
            GetUpdates(offset: 1_000_001, limit: 100, timeout: 30, allowedUpdates: ["message", "callback_query"]),
            GetUpdates(offset: nil, limit: 1, timeout: 0, allowedUpdates: []),
        ]
        for value in values {
            let written = try JSONSerialization.jsonObject(with: value.jsonData) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: TelegramJSON.encoder().encode(value)) as? NSDictionary
            #expect(written != nil && written == encoded, "\(String(decoding: value.jsonData, as: UTF8.self))")
        }
    }

    @Test func fieldsArraysAndObjectsAreSeparatedByCommas() throws {
        var json = JSONWriter()
        json.object { json in
            json.field("chat_id", Int64(-1001234567890))
            json.field("flag", false)
            json.key("empty")
            json.array([String]()) { json, item in json.string(item) }
            json.key("rows")
            json.array([[1, 2], [3]]) { json, row in json.array(row) { json, number in json.integer(number) } }
            json.field("nested", object: { json in json.field("is_disabled", true) })
        }
        #expect(String(decoding: json.data, as: UTF8.self) == #"{"chat_id":-1001234567890,"flag":false,"empty":[],"rows":[[1,2],[3]],"nested":{"is_disabled":true}}"#)
    }

    @Test func aQuestionsReplyTargetIsNotPartOfTheMarkup() throws {
        let body = try parsed(ReplyMarkup.forceReply(ForceReply(selective: true, replyTo: 41)))
        #expect(body["force_reply"] as? Bool == true)
        #expect(body["reply_to"] == nil)
    }
}
