import Foundation
import Testing
@testable import TelegramBotAPI

@Suite struct JSONWriterTests {
    /// Parses what the writer wrote with Foundation's own parser.
    private func parsed(_ json: JSONWriter) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: json.data) as? [String: Any])
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
            var json = JSONWriter()
            json.object { $0.field("text", text) }
            #expect(try parsed(json)["text"] as? String == text, "\(text.debugDescription)")
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

    @Test func keyboardsAreWrittenWithTheBotAPIsKeys() throws {
        let inline = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "✅ Да", callbackData: "cy:1")], []])
        var json = JSONWriter()
        json.object { json in
            json.key("inline")
            ReplyMarkup.inline(inline).write(to: &json)
            json.key("keyboard")
            ReplyMarkup.keyboard(ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]], oneTimeKeyboard: true,
                                                     inputFieldPlaceholder: "Город")).write(to: &json)
            json.key("remove")
            ReplyMarkup.removeKeyboard(ReplyKeyboardRemove()).write(to: &json)
        }
        let body = try parsed(json)
        let rows = try #require((body["inline"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]])
        #expect(rows.count == 2)
        #expect(rows[0][0]["text"] as? String == "✅ Да")
        #expect(rows[0][0]["callback_data"] as? String == "cy:1")
        let keyboard = try #require(body["keyboard"] as? [String: Any])
        #expect(((keyboard["keyboard"] as? [[[String: Any]]])?[0][0])?["request_location"] as? Bool == true)
        #expect(keyboard["resize_keyboard"] as? Bool == true)
        #expect(keyboard["one_time_keyboard"] as? Bool == true)
        #expect(keyboard["input_field_placeholder"] as? String == "Город")
        #expect((body["remove"] as? [String: Any])?["remove_keyboard"] as? Bool == true)
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
            var json = JSONWriter()
            markup.write(to: &json)
            #expect(try JSONDecoder().decode(ReplyMarkup.self, from: json.data) == markup)
            // The generic encoder writes the same keys.
            let written = try JSONSerialization.jsonObject(with: json.data) as? NSDictionary
            #expect(written == (try JSONSerialization.jsonObject(with: JSONEncoder().encode(markup)) as? NSDictionary))
        }
    }

    @Test func aQuestionsReplyTargetIsNotPartOfTheMarkup() throws {
        let question = ReplyMarkup.forceReply(ForceReply(selective: true, replyTo: 41))
        var json = JSONWriter()
        question.write(to: &json)
        let body = try JSONSerialization.jsonObject(with: json.data) as? [String: Any]
        #expect(body?["force_reply"] as? Bool == true)
        #expect(body?["reply_to"] == nil)
    }
}
