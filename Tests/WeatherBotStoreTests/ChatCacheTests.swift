import Foundation
import GRDB
import Testing
@testable import WeatherBotStore

@Suite struct ChatCacheTests {
    func chat(_ id: Int64, _ state: String = "") -> ChatRecord {
        ChatRecord(id: id, language: "ru", state: Data(state.utf8))
    }

    @Test func theOldestRecordsMakeRoomFirst() {
        let cache = ChatCache(capacity: 3)
        for id in 1...5 { cache.keep(chat(Int64(id))) }
        #expect(cache.count == 3)
        #expect(cache.record(1) == nil)
        #expect(cache.record(2) == nil)
        #expect(cache.record(5)?.id == 5)
        cache.keep(chat(5, "newer"))
        #expect(cache.record(5)?.state == Data("newer".utf8))
        cache.forget(5)
        #expect(cache.record(5) == nil)
    }

    @Test func readsSeeWhatTheLastCommitOrDeactivationLeft() throws {
        let temporary = try TemporaryDatabase()
        let database = temporary.database
        let items = try database.receive(
            [(updateID: 1, chatID: 3, payload: Data()), (updateID: 2, chatID: 3, payload: Data())], lastUpdateID: 2)
        try database.commit(chat: chat(3, "first"), handled: items[0].seq!, replies: [], followUps: [])
        #expect(try database.chat(3)?.state == Data("first".utf8))
        try database.commit(chat: chat(3, "second"), handled: items[1].seq!, replies: [], followUps: [])
        #expect(try database.chat(3)?.state == Data("second".utf8))
        try database.deactivateChat(3)
        #expect(try database.chat(3)?.isActive == false)
        // Another process's view of the same file agrees.
        #expect(try temporary.reopen().chat(3)?.state == Data("second".utf8))
    }
}
