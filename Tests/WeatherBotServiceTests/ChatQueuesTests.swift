import Foundation
import Testing
import WeatherBotStore
@testable import WeatherBotService

@Suite struct ChatQueuesTests {
    static func item(_ seq: Int64, chat: Int64) -> QueuedItem {
        QueuedItem(InboxItem(seq: seq, chatID: chat, updateID: seq, kind: .update, payload: Data()))
    }

    /// Takes a running chat's items until it stops, finishing each.
    static func drain(_ queues: inout ChatQueues, _ chatID: Int64) -> [Int64] {
        var taken: [Int64] = []
        while let next = queues.take(chatID, finished: taken.last, stopping: false) { taken.append(next.item.seq!) }
        return taken
    }

    @Test func chatsStartInTheOrderTheirFirstItemCameAndEachKeepsItsOrder() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(1, chat: 20), Self.item(2, chat: 10), Self.item(3, chat: 20)])
        #expect(queues.backlog == 3)
        #expect(queues.startNextChat(limit: 8) == 20)
        #expect(queues.startNextChat(limit: 8) == 10)
        #expect(queues.startNextChat(limit: 8) == nil)
        #expect(Self.drain(&queues, 20) == [1, 3])
        #expect(Self.drain(&queues, 10) == [2])
        #expect(queues.backlog == 0)
        #expect(queues.running.isEmpty)
    }

    @Test func noMoreChatsRunThanTheLimit() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(1, chat: 1), Self.item(2, chat: 2)])
        #expect(queues.startNextChat(limit: 1) == 1)
        #expect(queues.startNextChat(limit: 1) == nil)
        _ = Self.drain(&queues, 1)
        #expect(queues.startNextChat(limit: 1) == 2)
    }

    @Test func anItemIsQueuedOnceUntilItIsHandledAndMayComeAgainAfter() {
        var queues = ChatQueues()
        let first = queues.enqueue([Self.item(1, chat: 1)]).any
        let again = queues.enqueue([Self.item(1, chat: 1)]).any
        #expect(first && !again)
        #expect(queues.backlog == 1)
        _ = queues.startNextChat(limit: 8)
        let taken = queues.take(1, finished: nil, stopping: false)
        #expect(taken?.item.seq == 1)
        // Being handled: still known.
        let whileHandled = queues.enqueue([Self.item(1, chat: 1)]).any
        #expect(!whileHandled)
        #expect(queues.take(1, finished: 1, stopping: false) == nil)
        let afterwards = queues.enqueue([Self.item(1, chat: 1)]).any
        #expect(afterwards)
    }

    @Test func itemsForARunningChatWaitForItAndDoNotStartItTwice() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(1, chat: 1)])
        _ = queues.startNextChat(limit: 8)
        _ = queues.take(1, finished: nil, stopping: false)
        queues.enqueue([Self.item(2, chat: 1)])
        #expect(queues.startNextChat(limit: 8) == nil)
        #expect(queues.take(1, finished: 1, stopping: false)?.item.seq == 2)
    }

    @Test func adoptedItemsGoBeforeTheirChatsLaterItemsAndSkipWhatIsKnownOrFinished() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(5, chat: 1), Self.item(7, chat: 2)])
        _ = queues.startNextChat(limit: 8)
        queues.beginAdoption()
        // While the shared inbox is read, chat 1's item 5 is handled and finished.
        _ = queues.take(1, finished: nil, stopping: false)
        #expect(queues.take(1, finished: 5, stopping: false) == nil)
        let adopted = queues.adopt([Self.item(3, chat: 2), Self.item(5, chat: 1), Self.item(6, chat: 3), Self.item(7, chat: 2)].map(\.item)).adopted
        #expect(adopted == 2)
        #expect(queues.backlog == 3)
        #expect(queues.startNextChat(limit: 8) == 2)
        #expect(queues.startNextChat(limit: 8) == 3)
        #expect(Self.drain(&queues, 2) == [3, 7])
    }

    @Test func anAdoptionAbandonedRemembersNothingFinished() {
        var queues = ChatQueues()
        queues.beginAdoption()
        queues.enqueue([Self.item(1, chat: 1)])
        _ = queues.startNextChat(limit: 8)
        _ = Self.drain(&queues, 1)
        queues.abandonAdoption()
        // A later read that sees item 1 (handled again elsewhere meanwhile) queues it.
        queues.beginAdoption()
        #expect(queues.adopt([Self.item(1, chat: 1).item]).adopted == 1)
    }

    @Test func followUpsGoToTheEndOfTheirRunningChat() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(1, chat: 1), Self.item(2, chat: 1)])
        _ = queues.startNextChat(limit: 8)
        _ = queues.take(1, finished: nil, stopping: false)
        queues.enqueueFollowUps([InboxItem(seq: 9, chatID: 1, updateID: nil, kind: .followUp, payload: Data())])
        #expect(queues.backlog == 2)
        #expect(queues.take(1, finished: 1, stopping: false)?.item.seq == 2)
        #expect(queues.take(1, finished: 2, stopping: false)?.item.seq == 9)
    }

    @Test func stoppingLeavesTheRestQueued() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(1, chat: 1), Self.item(2, chat: 1)])
        _ = queues.startNextChat(limit: 8)
        _ = queues.take(1, finished: nil, stopping: false)
        #expect(queues.take(1, finished: 1, stopping: true) == nil)
        #expect(queues.backlog == 1)
        #expect(queues.running.isEmpty)
    }

    // MARK: A chat that floods

    @Test func aFloodingChatKeepsItsLatestUpdatesAndEveryOtherChatAllOfIts() {
        var queues = ChatQueues(chatLimit: 50)
        var flood = (1...2_000).map { Self.item(Int64($0), chat: 7) }
        flood.insert(contentsOf: (1...5).map { Self.item(Int64(10_000 + $0), chat: Int64(100 + $0)) }, at: 1_000)
        var dropped: [Int64] = []
        // As the poller hands them over: a hundred at a time.
        for batch in stride(from: 0, to: flood.count, by: 100) {
            dropped += queues.enqueue(Array(flood[batch..<min(batch + 100, flood.count)])).dropped.map { $0.item.seq! }
        }
        #expect(dropped == Array(1...1_950))
        // The backlog is the flooder's share and the others': room for everyone else stays.
        #expect(queues.backlog == 55)
        var started: [Int64] = []
        while let chat = queues.startNextChat(limit: 64) { started.append(chat) }
        #expect(Set(started) == Set([7, 101, 102, 103, 104, 105]))
        for chat in 101...105 { #expect(Self.drain(&queues, Int64(chat)) == [Int64(10_000 + chat - 100)]) }
        #expect(Self.drain(&queues, 7) == Array(1_951...2_000))
    }

    @Test func aFloodIsToldOnceUntilTheChatCaughtUpAndAgainForTheNextFlood() {
        var queues = ChatQueues(chatLimit: 3)
        queues.enqueue((1...5).map { Self.item($0, chat: 1) })
        _ = queues.startNextChat(limit: 8)
        let first = queues.take(1, finished: nil, stopping: false)
        #expect(first?.item.seq == 3 && first?.tellsOfFlood == true)
        // More of the same flood: dropped, not told again.
        #expect(queues.enqueue((6...9).map { Self.item($0, chat: 1) }).dropped.map(\.item.seq) == [4, 5, 6])
        var told: [Int64] = []
        var finished = first?.item.seq
        while let next = queues.take(1, finished: finished, stopping: false) {
            if next.tellsOfFlood { told.append(next.item.seq!) }
            finished = next.item.seq
        }
        #expect(told.isEmpty)
        // Caught up; a new flood is told of again.
        queues.enqueue((10...14).map { Self.item($0, chat: 1) })
        _ = queues.startNextChat(limit: 8)
        #expect(queues.take(1, finished: nil, stopping: false)?.tellsOfFlood == true)
    }

    @Test func followUpsAreNeverDroppedAndDoNotCountAgainstTheChat() {
        var queues = ChatQueues(chatLimit: 2)
        queues.enqueue([Self.item(1, chat: 1)])
        _ = queues.startNextChat(limit: 8)
        _ = queues.take(1, finished: nil, stopping: false)
        queues.enqueueFollowUps([InboxItem(seq: 2, chatID: 1, updateID: nil, kind: .followUp, payload: Data())])
        let dropped = queues.enqueue((3...6).map { Self.item($0, chat: 1) }).dropped.map(\.item.seq)
        #expect(dropped == [3, 4])
        #expect(Self.drain(&queues, 1) == [2, 5, 6])
    }

    @Test func aFloodAdoptedFromTheSharedInboxIsTrimmedToo() {
        var queues = ChatQueues(chatLimit: 10)
        queues.beginAdoption()
        let (adopted, dropped) = queues.adopt((1...30).map { InboxItem(seq: $0, chatID: 1, updateID: $0, kind: .update, payload: Data()) })
        #expect(adopted == 30 && dropped.map(\.item.seq) == (1...20).map { Optional($0) })
        #expect(queues.backlog == 10)
    }
}
