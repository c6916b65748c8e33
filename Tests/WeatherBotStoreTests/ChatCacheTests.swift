import Testing
import WeatherBotStore

@Suite struct ChatCacheTests {
    func chat(_ id: Int64, _ state: ChatState = .idle) -> ChatRecord {
        ChatRecord(id: id, language: .ru, state: state)
    }

    @Test func theOldestRecordsMakeRoomFirst() {
        let cache = ChatCache(capacity: 3)
        for id in 1...5 { cache.keep(chat(Int64(id))) }
        #expect(cache.count == 3)
        #expect(cache.record(1) == nil)
        #expect(cache.record(2) == nil)
        #expect(cache.record(5)?.id == 5)
        cache.keep(chat(5, .locating))
        #expect(cache.record(5)?.state == .locating)
        cache.forget(5)
        #expect(cache.record(5) == nil)
    }
}
