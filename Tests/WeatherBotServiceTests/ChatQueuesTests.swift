import Foundation
import Testing
import WeatherBotStore
@testable import WeatherBotService

@Suite struct ChatQueuesTests {
    static func item(_ seq: Int64, chat: Int64) -> QueuedItem {
        QueuedItem(InboxItem(seq: seq, chatId: chat, updateId: seq, kind: .update, payload: Data()))
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
        let first = queues.enqueue([Self.item(1, chat: 1)])
        let again = queues.enqueue([Self.item(1, chat: 1)])
        #expect(first && !again)
        #expect(queues.backlog == 1)
        _ = queues.startNextChat(limit: 8)
        let taken = queues.take(1, finished: nil, stopping: false)
        #expect(taken?.item.seq == 1)
        // Being handled: still known.
        let whileHandled = queues.enqueue([Self.item(1, chat: 1)])
        #expect(!whileHandled)
        #expect(queues.take(1, finished: 1, stopping: false) == nil)
        let afterwards = queues.enqueue([Self.item(1, chat: 1)])
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
        let adopted = queues.adopt([Self.item(3, chat: 2), Self.item(5, chat: 1), Self.item(6, chat: 3), Self.item(7, chat: 2)].map(\.item))
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
        #expect(queues.adopt([Self.item(1, chat: 1).item]) == 1)
    }

    @Test func followUpsGoToTheEndOfTheirRunningChat() {
        var queues = ChatQueues()
        queues.enqueue([Self.item(1, chat: 1), Self.item(2, chat: 1)])
        _ = queues.startNextChat(limit: 8)
        _ = queues.take(1, finished: nil, stopping: false)
        queues.enqueueFollowUps([InboxItem(seq: 9, chatId: 1, updateId: nil, kind: .followUp, payload: Data())])
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
}
