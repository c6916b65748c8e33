import Foundation
import Testing
@testable import TelegramBotAPI

@Suite struct UpdateJSONTests {
    static let user = User(id: 77, firstName: "Аня \"A\"", username: "anya", languageCode: "ru")

    @Test func everyKindOfUpdateReadsBackAsItWas() throws {
        var updates = [
            Update(updateId: 1),
            Update(updateId: 2, message: Message(messageId: 5, from: Self.user, date: 1_795_000_000, chat: Chat(id: 77), text: "/search Казань\n\\")),
            Update(updateId: 3, message: Message(messageId: 6, date: 1, chat: Chat(id: -100123, type: .supergroup), location: Location(latitude: 55.75, longitude: 37.62))),
            Update(updateId: 4, editedMessage: Message(messageId: 7, from: User(id: 1, isBot: true, firstName: ""), date: 2, chat: Chat(id: 1, type: .other("forum")), text: "")),
            Update(updateId: 5, callbackQuery: CallbackQuery(id: "77:5", from: Self.user, message: Message(messageId: 0, date: 0, chat: Chat(id: 77)), data: "cy:1")),
            Update(updateId: Int64.max, callbackQuery: CallbackQuery(id: "q", from: Self.user)),
            // A reply to the bot in a group: read back after a restart, it must still be addressed to it.
            Update(updateId: 6, message: Message(
                messageId: 8, from: Self.user, date: 3, chat: Chat(id: -100, type: .supergroup), text: "Казань",
                replyToMessage: RepliedMessage(messageId: 4, from: User(id: 999, isBot: true, firstName: "Погода", username: "weather_bot")))),
            Update(updateId: 7, message: Message(
                messageId: 9, date: 3, chat: Chat(id: -100, type: .group), text: "x", replyToMessage: RepliedMessage(messageId: 2, from: nil))),
        ]
        // Coordinates anywhere on Earth, to the last bit.
        for id in 10..<200 {
            let location = Location(latitude: Double.random(in: -90...90), longitude: Double.random(in: -180...180))
            updates.append(Update(updateId: Int64(id), message: Message(messageId: id, date: 3, chat: Chat(id: 9, type: .group), location: location)))
        }
        for update in updates {
            #expect(try TelegramJSON.decoder().decode(Update.self, from: update.jsonData) == update, "\(String(decoding: update.jsonData, as: UTF8.self))")
        }
    }
}
