import Foundation
import Testing
import WeatherBotStore
@testable import WeatherBotService

@Suite struct OutboxQueueTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func entry(_ id: Int64, chat: Int64) -> OutboxEntry {
        OutboxEntry(id: id, chatId: chat, notBefore: now)
    }

    /// Takes every reply that may go now.
    func drain(_ queue: inout OutboxQueue) -> [OutboxEntry] {
        var taken: [OutboxEntry] = []
        while let next = queue.next(now: now) { taken.append(next) }
        return taken
    }

    @Test func eachChatHasOneReplyInFlightAndTheNextFollowsInOrder() {
        var queue = OutboxQueue()
        queue.add([entry(1, chat: 1), entry(2, chat: 1), entry(3, chat: 2), entry(4, chat: 1)], truncated: false)
        let first = drain(&queue)
        #expect(first.map(\.id) == [1, 3])
        #expect(queue.inFlight == 2)
        queue.finish(first[0])
        #expect(drain(&queue).map(\.id) == [2])
        queue.finish(entry(2, chat: 1))
        queue.finish(first[1])
        #expect(drain(&queue).map(\.id) == [4])
        queue.finish(entry(4, chat: 1))
        #expect(queue.count == 0)
        #expect(queue.inFlight == 0)
    }

    @Test func aRetryWaitsForItsTimeAndHoldsBackItsChatOnly() {
        var queue = OutboxQueue()
        queue.add([entry(1, chat: 1), entry(2, chat: 1), entry(3, chat: 2)], truncated: false)
        let first = drain(&queue)
        queue.retry(first[0], notBefore: now.addingTimeInterval(5))
        queue.finish(first[1])
        #expect(drain(&queue).isEmpty)
        #expect(queue.nextRetry == now.addingTimeInterval(5))
        let retried = queue.next(now: now.addingTimeInterval(5))
        #expect(retried?.id == 1)
        #expect(retried?.attempts == 1)
    }

    @Test func readsContinueAfterTheLastIdAndStopAtCapacity() {
        var queue = OutboxQueue(capacity: 4)
        queue.add((1...4).map { entry($0, chat: $0) }, truncated: true)
        #expect(queue.room == 0)
        #expect(queue.lastID == 4)
        // Ids already read are not taken twice.
        queue.add([entry(3, chat: 3)], truncated: true)
        #expect(queue.count == 4)
        for taken in drain(&queue) { queue.finish(taken) }
        #expect(queue.wantsMore)
        #expect(queue.room == 4)
    }

    @Test func aBlockedChatIsForgottenWholly() {
        var queue = OutboxQueue()
        queue.add([entry(1, chat: 1), entry(2, chat: 1), entry(3, chat: 2)], truncated: false)
        _ = drain(&queue)
        queue.drop(chatID: 1)
        #expect(queue.count == 1)
        #expect(queue.inFlight == 1)
    }
}
