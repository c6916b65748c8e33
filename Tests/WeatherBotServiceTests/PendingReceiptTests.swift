import Foundation
import Testing
import WeatherBotStore
@testable import WeatherBotService

@Suite struct PendingReceiptTests {
    static func step(_ updateID: Int64, chat: Int64 = 1) -> ReceivedStep {
        ReceivedStep(updateID: updateID, chat: ChatRecord(id: chat, language: .ru, state: .idle), changes: [], replies: [], followUps: [])
    }

    static func committed(replyID: Int64) -> CommittedStep { CommittedStep(replyIDs: [replyID], followUps: []) }

    @Test func aStepOfferedBeforeTheBatchIsStoredIsCommittedWithIt() async {
        let receipt = PendingReceipt(updateIDs: [10, 11])
        async let first = receipt.offer(Self.step(10))
        async let second = receipt.offer(Self.step(11, chat: 2))
        // Both steps came: the intake does not wait for the time it allows. The margin is wide: on
        // a loaded machine the two offers alone may take seconds to be scheduled.
        let started = ContinuousClock.now
        await receipt.waitForSteps(atMost: .seconds(300))
        #expect(ContinuousClock.now - started < .seconds(150))
        let (steps, skipping) = receipt.close()
        #expect(Set(steps.map(\.updateID)) == [10, 11] && skipping.isEmpty)
        receipt.end(Receipt(items: [], steps: [10: Self.committed(replyID: 1), 11: Self.committed(replyID: 2)]))
        guard case .committed(let one) = await first, case .committed(let two) = await second else {
            Issue.record("a step offered in time was not committed with its batch")
            return
        }
        #expect(one.replyIDs == [1] && two.replyIDs == [2])
    }

    @Test func theBatchWaitsOnlyItsTimeForAStepThatDoesNotCome() async {
        let receipt = PendingReceipt(updateIDs: [10])
        let started = ContinuousClock.now
        await receipt.waitForSteps(atMost: .milliseconds(50))
        #expect(ContinuousClock.now - started >= .milliseconds(40))
        #expect(receipt.close().steps.isEmpty)
    }

    @Test func aStepThatComesAfterTheBatchWasStoredIsToldItsInboxItem() async {
        let receipt = PendingReceipt(updateIDs: [10])
        _ = receipt.close()
        // Offered while the batch commits: it waits for the outcome, then commits on its own.
        async let late = receipt.offer(Self.step(10))
        try? await Task.sleep(for: .milliseconds(20))
        receipt.end(Receipt(items: [InboxItem(seq: 77, chatID: 1, updateID: 10, kind: .update, payload: Data())], steps: [:]))
        guard case .stored(let seq) = await late else {
            Issue.record("a late step was not told its inbox item")
            return
        }
        #expect(seq == 77)
        // And one offered after the end is told at once.
        guard case .stored(77) = await receipt.offer(Self.step(10)) else {
            Issue.record("a step offered after the end was not told its inbox item")
            return
        }
    }

    @Test func aBatchThatCouldNotBeStoredDropsItsStepsSoNothingIsSent() async {
        let receipt = PendingReceipt(updateIDs: [10, 11])
        async let early = receipt.offer(Self.step(10))
        await receipt.waitForSteps(atMost: .milliseconds(100))
        _ = receipt.close()
        async let late = receipt.offer(Self.step(11))
        try? await Task.sleep(for: .milliseconds(20))
        receipt.end(nil)
        guard case .dropped = await early, case .dropped = await late else {
            Issue.record("a step of a batch that was not stored was kept")
            return
        }
    }

    @Test func anUpdateSkippedInTimeIsNotStoredAndOneSkippedLateIsRemovedByItsItem() async {
        let receipt = PendingReceipt(updateIDs: [10, 11, 12])
        #expect(await receipt.skip(10) == nil)
        receipt.release(11)
        async let offered = receipt.offer(Self.step(12))
        await receipt.waitForSteps(atMost: .seconds(30))
        let (steps, skipping) = receipt.close()
        #expect(steps.map(\.updateID) == [12] && skipping == [10])
        // 11 was not waited for: the batch stores it as an item, which a skip after it removes.
        async let skippedLate = receipt.skip(11)
        try? await Task.sleep(for: .milliseconds(20))
        receipt.end(
            Receipt(items: [InboxItem(seq: 5, chatID: 1, updateID: 11, kind: .update, payload: Data())], steps: [12: Self.committed(replyID: 3)]))
        #expect(await skippedLate == 5)
        guard case .committed = await offered else {
            Issue.record("the step that came in time was not committed")
            return
        }
    }
}
