import Foundation
import Testing
@testable import TelegramBotAPI

@Suite struct UpdateJSONTests {
    static let user = User(id: 77, firstName: "Аня \"A\"", username: "anya", languageCode: "ru")

    @Test func everyKindOfUpdateReadsBackAsItWas() throws {
        var updates = [
            Update(updateID: 1),
            Update(updateID: 2, message: Message(messageID: 5, from: Self.user, date: 1_795_000_000, chat: Chat(id: 77), text: "/search Казань\n\\")),
            Update(updateID: 3, message: Message(messageID: 6, date: 1, chat: Chat(id: -100123, type: .supergroup), location: Location(latitude: 55.75, longitude: 37.62))),
            Update(updateID: 4, editedMessage: Message(messageID: 7, from: User(id: 1, isBot: true, firstName: ""), date: 2, chat: Chat(id: 1, type: .other("forum")), text: "")),
            Update(updateID: 5, callbackQuery: CallbackQuery(id: "77:5", from: Self.user, message: Message(messageID: 0, date: 0, chat: Chat(id: 77)), data: "cy:1")),
            Update(updateID: Int64.max, callbackQuery: CallbackQuery(id: "q", from: Self.user)),
            // A reply to the bot in a group: read back after a restart, it must still be addressed to it.
            Update(updateID: 6, message: Message(
                messageID: 8, from: Self.user, date: 3, chat: Chat(id: -100, type: .supergroup), text: "Казань",
                replyToMessage: RepliedMessage(messageID: 4, from: User(id: 999, isBot: true, firstName: "Погода", username: "weather_bot")))),
            Update(updateID: 7, message: Message(
                messageID: 9, date: 3, chat: Chat(id: -100, type: .group), text: "x", replyToMessage: RepliedMessage(messageID: 2, from: nil))),
            Update(updateID: 8, callbackQuery: CallbackQuery(id: "q8", from: Self.user, inlineMessageID: "AgAAAP8", data: "iv:h0:ru:55.7887:49.1221")),
            Update(updateID: 9, inlineQuery: InlineQuery(id: "iq", from: Self.user, query: "Казань \"центр\"", chatType: "supergroup", location: Location(latitude: 55.79, longitude: 49.12))),
            Update(updateID: 10, inlineQuery: InlineQuery(id: "iq2", from: Self.user, query: "")),
            // The message of a pressed button keeps what it shows: a press on it again edits nothing.
            Update(updateID: 12, callbackQuery: CallbackQuery(id: "q12", from: Self.user, message: Message(
                messageID: 11, date: 5, chat: Chat(id: 77), text: "Казань <b>", keyboard: InlineKeyboardMarkup(inlineKeyboard: [
                    [InlineKeyboardButton(text: "Сейчас", callbackData: "v:n:c1"), InlineKeyboardButton(text: "По часам", callbackData: "v:h0:c1")]
                ])), data: "v:n:c1")),
            Update(updateID: 11, message: Message(
                messageID: 10, from: Self.user, date: 4, chat: Chat(id: 77), text: "📍 Казань", viaBot: User(id: 4242, isBot: true, firstName: "W", username: "weather_bot"))),
        ]
        // Coordinates anywhere on Earth, to the last bit.
        for id in 13..<200 {
            let location = Location(latitude: Double.random(in: -90...90), longitude: Double.random(in: -180...180))
            updates.append(Update(updateID: Int64(id), message: Message(messageID: id, date: 3, chat: Chat(id: 9, type: .group), location: location)))
        }
        for update in updates {
            #expect(try TelegramJSON.decoder().decode(Update.self, from: update.jsonData) == update, "\(String(decoding: update.jsonData, as: UTF8.self))")
        }
    }

    /// A keyboard of a kind this reader does not know loses neither the press nor its message.
    @Test func aPressedMessagesKeyboardThatDoesNotReadLeavesTheRest() throws {
        let json = #"{"update_id":1,"callback_query":{"id":"q","from":{"id":77,"is_bot":false,"first_name":"A"},"message":{"message_id":3,"date":5,"chat":{"id":77,"type":"private"},"text":"Казань","reply_markup":{"inline_keyboard":[[{"url":"https://example.com"}]]}},"data":"v:n:c1"}}"#
        let update = try TelegramJSON.decoder().decode(Update.self, from: Data(json.utf8))
        #expect(update.callbackQuery?.message?.text == "Казань")
        #expect(update.callbackQuery?.message?.keyboard != nil && update.callbackQuery?.message?.keyboard?.markup == nil)
    }

    @Test func plainTextIsWhatTelegramShowsOfHTML() {
        #expect(HTML.plainText(of: "  <b>Казань</b> &amp; &lt;окрестности&gt; &quot;x&quot; &#8212; &#x2014;\n") == "Казань & <окрестности> \"x\" — —")
        #expect(HTML.plainText(of: "a & b; &unknown; &") == "a & b; &unknown; &")
    }

    /// An inline query and a press under an inline message belong to no chat: nothing stores them.
    @Test func inlineModesUpdatesBelongToNoChat() throws {
        let query = try Update.posted(Data(#"{"update_id":5,"inline_query":{"id":"1","from":{"id":77,"is_bot":false,"first_name":"A"},"query":"Каз","offset":"","chat_type":"sender"}}"#.utf8))
        #expect(query.inlineQuery?.query == "Каз" && query.inlineQuery?.chatType == "sender")
        #expect(query.chatID == nil && query.isInline)
        let press = try Update.posted(Data(#"{"update_id":6,"callback_query":{"id":"2","from":{"id":77,"is_bot":false,"first_name":"A"},"chat_instance":"-1","inline_message_id":"AgA","data":"iv:n:ru:1.0000:2.0000"}}"#.utf8))
        #expect(press.callbackQuery?.inlineMessageID == "AgA" && press.chatID == nil && press.isInline)
        let chatPress = Update(updateID: 7, callbackQuery: CallbackQuery(id: "3", from: Self.user, data: "cy:1"))
        #expect(chatPress.chatID == 77 && !chatPress.isInline)
    }
}
