import Foundation
import Testing
import WeatherBotStore
@testable import WeatherBotSQLite

@Suite struct SQLiteChatCacheTests {
    func chat(_ id: Int64, _ state: ChatState = .idle) -> ChatRecord {
        ChatRecord(id: id, language: .ru, state: state)
    }

    @Test func readsSeeWhatTheLastCommitOrDeactivationLeft() async throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try await database.receive(
            [(updateID: 1, chatID: 3, payload: Data()), (updateID: 2, chatID: 3, payload: Data())], lastUpdateID: 2)
        try await database.commitStep(chat: chat(3, .locating), handled: items[0].seq!, replies: [], followUps: [])
        #expect(try database.chat(3)?.state == .locating)
        try await database.commitStep(chat: chat(3, .awaitingCityName(.browse)), handled: items[1].seq!, replies: [], followUps: [])
        #expect(try database.chat(3)?.state == .awaitingCityName(.browse))
        try await database.deactivateChat(3)
        #expect(try database.chat(3)?.isActive == false)
        // Another process's view of the same file agrees.
        #expect(try temporary.reopen().chat(3)?.state == .awaitingCityName(.browse))
    }
}
