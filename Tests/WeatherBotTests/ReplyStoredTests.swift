import Foundation
import Testing
import TelegramBotAPI
@testable import WeatherBot

@Suite struct ReplyStoredTests {
    static let keyboard = InlineKeyboardMarkup(inlineKeyboard: [
        [InlineKeyboardButton(text: "✅ Да, всё верно", callbackData: "cy:12"), InlineKeyboardButton(text: "Нет, выбрать другой", callbackData: "cn:12")],
        [InlineKeyboardButton(text: "🔄 \"Повторить\" \\ ещё", callbackData: "rf:1:p")],
    ])

    static let replies: [Reply] = [
        .send(text: "<b>Москва</b>\n+18°C 🌦"),
        .send(text: "🔎 Определяем город…", tag: "locate:7"),
        .send(text: "x", markup: .inline(keyboard), tag: "t"),
        .send(text: "Отправьте геопозицию", markup: .keyboard(ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]]))),
        .send(text: "", markup: .keyboard(ReplyKeyboardMarkup(keyboard: [], resizeKeyboard: nil, oneTimeKeyboard: true, inputFieldPlaceholder: "Город"))),
        .send(text: "ok", markup: .removeKeyboard(ReplyKeyboardRemove())),
        .send(text: "Какой город?", markup: .forceReply(ForceReply(selective: true, inputFieldPlaceholder: "Город", replyTo: 41))),
        .send(text: "?", markup: .forceReply(ForceReply())),
        .edit(.id(42), text: "Это ваш город?", keyboard: keyboard),
        .edit(.tag("locate:7"), text: "Не удалось определить город"),
        .editKeyboard(.id(-1), keyboard: nil),
        .editKeyboard(.tag("card"), keyboard: keyboard),
        .answer(callbackQueryID: "4352:99"),
        .answer(callbackQueryID: "q", text: "⭐ Добавлено в избранное", showAlert: true),
        .answer(callbackQueryID: "q", text: "\u{0}\u{1f}\t", showAlert: false),
    ]

    @Test func everyKindOfReplyReadsBackAsItWas() throws {
        for reply in Self.replies {
            #expect(try JSONDecoder().decode(Reply.self, from: reply.stored) == reply, "\(String(decoding: reply.stored, as: UTF8.self))")
        }
    }

    /// The stored form is the one the generic encoder wrote before, so replies queued by either
    /// read back alike.
    @Test func theStoredFormMatchesTheGenericEncodersShape() throws {
        for reply in Self.replies {
            let written = try JSONSerialization.jsonObject(with: reply.stored) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(reply)) as? NSDictionary
            #expect(written == encoded, "\(String(decoding: reply.stored, as: UTF8.self))")
        }
    }
}
