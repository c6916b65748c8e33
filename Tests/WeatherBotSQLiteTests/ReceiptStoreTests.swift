import Foundation
import TelegramBotAPI
import Testing
@testable import WeatherBotSQLite
import WeatherBotStore

@Suite struct ReceiptStoreTests {
    func payload(_ text: String) -> Data { Data(text.utf8) }

    @Test func aBatchStoredWithTheStepsOfSomeOfItsUpdatesKeepsThoseAsStepsAndTheRestAsItems() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let step = ReceivedStep(
            updateID: 10, chat: ChatRecord(id: 1, language: .en, state: .idle, questionSeq: 4), changes: [],
            replies: [.sendMessage(chatID: 1, text: "help")], followUps: [payload("later")])
        let receipt = try await database.receive(
            [(updateID: 10, chatID: 1, payload: payload("a")), (updateID: 11, chatID: 2, payload: payload("b")),
             (updateID: 12, chatID: nil, payload: payload("c")), (updateID: 13, chatID: 3, payload: payload("d"))],
            steps: [step], skipping: [13], lastUpdateID: 13)
        // The stepped update is no inbox item; the skipped one is nothing; the other waits.
        #expect(receipt.items.map(\.updateID) == [11])
        let committed = try #require(receipt.steps[10])
        #expect(committed.replyIDs.count == 1 && committed.followUps.count == 1)
        #expect(try database.lastUpdateID() == 13)
        let reopened = try temporary.reopen()
        #expect(try reopened.pendingInbox().map { $0.updateID ?? -1 } == [-1, 11])
        #expect(try reopened.chat(1)?.questionSeq == 4)
        #expect(try reopened.outboxItems(lane: .interactive, from: .min, limit: 10).map(\.chatID) == [1])
    }

    @Test func aStepOfAnUpdateTakenBeforeIsNotCommitted() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        _ = try await database.receive([(updateID: 10, chatID: 1, payload: payload("a"))], lastUpdateID: 10)
        // Telegram sent it again before the offset confirmed it: its step goes nowhere.
        let again = try await database.receive(
            [(updateID: 10, chatID: 1, payload: payload("a"))],
            steps: [ReceivedStep(updateID: 10, chat: ChatRecord(id: 1), changes: [], replies: [.sendMessage(chatID: 1, text: "twice")], followUps: [])],
            lastUpdateID: 10)
        #expect(again.items.isEmpty && again.steps.isEmpty)
        #expect(try database.outboxItems(lane: .interactive, from: .min, limit: 10).isEmpty)
    }

    @Test func aStepCommittedWithItsBatchIsTheChatsRecordFromThenOn() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let asked = ChatRecord(id: 5, language: .ru, state: .awaitingCityName(.setCity), questionSeq: 2)
        _ = try await database.receive(
            [(updateID: 1, chatID: 5, payload: payload("x"))],
            steps: [ReceivedStep(updateID: 1, chat: asked, changes: [], replies: [], followUps: [])], lastUpdateID: 1)
        #expect(try database.chat(5)?.state == asked.state)
        #expect(try database.chat(5)?.questionSeq == 2)
    }
}
