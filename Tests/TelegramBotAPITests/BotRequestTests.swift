import Foundation
import Testing
@testable import TelegramBotAPI

@Suite struct BotRequestTests {
    static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary, "\(String(decoding: data, as: UTF8.self))")
    }

    @Test func anEditGetsItsMessageIDInFrontOfItsParameters() throws {
        let edit = BotRequest.editMessageText(chatID: -100, target: .tag("locate:7"), text: "Это ваш город?")
        let made = try Self.object(edit.parameters(messageID: 512))
        #expect(made["message_id"] as? Int == 512)
        #expect(made["chat_id"] as? Int == -100)
        #expect(made["text"] as? String == "Это ваш город?")
        #expect(try Self.object(edit.parameters(messageID: nil))["message_id"] == nil)
    }

    @Test func parametersWithNoFieldStillMakeAnObject() throws {
        let bare = BotRequest(method: .editMessageReplyMarkup, parameters: Data("{}".utf8))
        #expect(try Self.object(bare.parameters(messageID: 3)) == NSDictionary(dictionary: ["message_id": 3]))
    }

    @Test func onlyAnswersToButtonsAreNotMessagesAndOnlyEditsNameAMessage() {
        let send = BotRequest.sendMessage(chatID: 1, text: "x")
        let edit = BotRequest.editMessageText(chatID: 1, target: .id(2), text: "x")
        let buttons = BotRequest.editMessageReplyMarkup(chatID: 1, target: .tag("t"), replyMarkup: nil)
        let answer = BotRequest.answerCallbackQuery(id: "q")
        #expect([send, edit, buttons, answer].map(\.isMessage) == [true, true, true, false])
        #expect([send, edit, buttons, answer].map(\.isEdit) == [false, true, true, false])
    }
}
