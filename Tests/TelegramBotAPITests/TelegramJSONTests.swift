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
            let answer = AnswerCallbackQuery(callbackQueryID: "q", text: text)
            #expect(try parsed(answer)["text"] as? String == text, "\(text.debugDescription)")
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

    @Test func aQuestionsReplyTargetIsNotPartOfTheMarkup() throws {
        let body = try parsed(ReplyMarkup.forceReply(ForceReply(selective: true, replyTo: 41)))
        #expect(body["force_reply"] as? Bool == true)
        #expect(body["reply_to"] == nil)
    }
}
