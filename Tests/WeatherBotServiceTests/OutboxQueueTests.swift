import Foundation
import TelegramBotAPI
import Testing
import WeatherBot
import WeatherBotStore
@testable import WeatherBotService

/// The sender's schedule without I/O: lanes, shares, chats, answers and the window over the table.
@Suite struct OutboxQueueTests {
    static let start = 1_000.0

    /// A queue with both lanes read (empty) from the table.
    static func queue(
        rate: Double = 10, burst: Int = 1, chatRate: Double = 1_000, chatBurst: Int = 1_000, bulkShare: Double = 0.2, capacity: Int = 10_000,
        chatShare: Int = 100
    ) -> OutboxQueue {
        var queue = OutboxQueue(
            pacing: Pacing(
                global: RateCell(ratePerSecond: rate, burst: burst), recentLimit: 1_000_000, chatRate: chatRate, chatBurst: chatBurst,
                bulkShare: bulkShare > 0 ? RateCell(ratePerSecond: rate * bulkShare, burst: 1) : nil),
            capacity: capacity, chatShare: chatShare)
        for lane in OutboxLane.allCases {
            _ = queue.startRead(lane)
            queue.finishRead(lane, rows: [], fetched: 0, last: nil)
        }
        return queue
    }

    static func message(_ id: Int64, chat: Int64, _ lane: OutboxLane = .interactive) -> QueuedReply {
        QueuedReply(id: id, chatID: chat, lane: lane, request: .sendMessage(chatID: chat, text: "\(lane) \(id)"))
    }

    /// An edit of message `message`, named by id, or by tag when `tag` is given.
    static func edit(_ id: Int64, chat: Int64, message: Int = 7, tag: String? = nil, buttonsOnly: Bool = false) -> QueuedReply {
        let target: MessageTarget = tag.map { .tag($0) } ?? .id(message)
        let request: BotRequest =
            buttonsOnly
            ? .editMessageReplyMarkup(chatID: chat, target: target, replyMarkup: nil)
            : .editMessageText(chatID: chat, target: target, text: "edit \(id)")
        return QueuedReply(id: id, chatID: chat, lane: .interactive, request: request)
    }

    static func answer(_ id: Int64, chat: Int64) -> QueuedReply {
        QueuedReply(id: id, chatID: chat, lane: .interactive, request: .answerCallbackQuery(id: "q\(id)"))
    }

    /// Runs the schedule from `start` to `until`, each message answered and finished as it goes,
    /// each wake-up `late` after its time; returns what went, with when.
    static func run(
        _ queue: inout OutboxQueue, until end: Double, from time: Double = start, late: Double = 0
    ) -> [(reply: QueuedReply, at: Double)] {
        var time = time
        var sent: [(reply: QueuedReply, at: Double)] = []
        while time < end {
            switch queue.nextMessage(at: time) {
            case .send(let reply):
                sent.append((reply, time))
                queue.answered(at: time)
                queue.finish(reply, at: time)
            case .wait(let until): time = until + late
            case .idle: return sent
            }
        }
        return sent
    }

    // MARK: Lanes and shares

    @Test func aChatsAnswerGoesAheadOfAWaitingBroadcast() {
        var queue = Self.queue()
        queue.accept((1...100).map { Self.message($0, chat: $0, .bulk) })
        // Bulk is owed its first slot; the reply committed meanwhile takes the next one.
        guard case .send(let first) = queue.nextMessage(at: Self.start) else { Issue.record("nothing sent"); return }
        queue.finish(first, at: Self.start)
        queue.accept([Self.message(500, chat: 7)])
        let sent = Self.run(&queue, until: Self.start + 0.35)
        #expect(sent.first?.reply.id == 500)
        #expect(sent.first.map { abs($0.at - Self.start - 0.1) < 1e-9 } == true)
    }

    @Test func bulkKeepsItsShareWhileChatsUseEverySlot() {
        var queue = Self.queue(rate: 10, bulkShare: 0.2)
        queue.accept((1...1_000).map { Self.message($0, chat: $0, .bulk) })
        queue.accept((1...1_000).map { Self.message(10_000 + $0, chat: 10_000 + $0) })
        let sent = Self.run(&queue, until: Self.start + 10)
        let bulk = sent.filter { $0.reply.lane == .bulk }.count
        #expect((100...101).contains(sent.count))
        // A fifth of 10 a second for 10 seconds, give or take the slot bulk is owed at once.
        #expect((20...21).contains(bulk), "bulk sent \(bulk)")
    }

    @Test func bulkKeepsItsShareWhenEveryWakeUpComesLate() {
        var queue = Self.queue(rate: 10, bulkShare: 0.2)
        queue.accept((1...1_000).map { Self.message($0, chat: $0, .bulk) })
        queue.accept((1...1_000).map { Self.message(10_000 + $0, chat: 10_000 + $0) })
        let sent = Self.run(&queue, until: Self.start + 30, late: 0.03)
        let bulk = sent.filter { $0.reply.lane == .bulk }.count
        // Late slots cost the overall rate nothing, and bulk still a fifth of them.
        #expect((299...301).contains(sent.count), "\(sent.count) sent")
        #expect((59...61).contains(bulk), "bulk sent \(bulk)")
    }

    /// A broadcast of 1,000 forecasts is waiting and chats keep answering: a notice committed now
    /// goes with the next slot chats leave, never behind the broadcast, and bulk keeps its share.
    @Test func noticesGoAfterAnswersAndAheadOfABroadcast() {
        var queue = Self.queue(rate: 10, bulkShare: 0.2)
        queue.accept((1...1_000).map { Self.message($0, chat: $0, .bulk) })
        guard case .send(let first) = queue.nextMessage(at: Self.start) else { Issue.record("nothing sent"); return }
        queue.finish(first, at: Self.start)
        queue.accept([Self.message(20_001, chat: 20_001, .notice), Self.message(20_002, chat: 20_002, .notice)])
        queue.accept([Self.message(10_001, chat: 10_001)])
        let sent = Self.run(&queue, until: Self.start + 1)
        #expect(sent.prefix(3).map(\.reply.id) == [10_001, 20_001, 20_002])
        // Chats first, then the notice: bulk's owed slot waits while a notice does.
        var busy = Self.queue(rate: 10, bulkShare: 0.2)
        busy.accept((1...1_000).map { Self.message($0, chat: $0, .bulk) })
        busy.accept((1...5).map { Self.message(10_000 + $0, chat: 10_000 + $0) })
        busy.accept([Self.message(30_000, chat: 30_000, .notice)])
        let order = Self.run(&busy, until: Self.start + 2).map(\.reply.lane)
        let notice = order.firstIndex(of: .notice) ?? order.count
        #expect(order[..<notice].filter { $0 == .interactive }.count == 5, "\(order)")
        #expect(order[..<notice].filter { $0 == .bulk }.isEmpty, "\(order)")
        #expect(order.filter { $0 == .bulk }.count >= 3)
    }

    /// More notices wait than the rate sends at once: rain due soonest goes first, warnings good
    /// for hours after every rain notice, and a chat's own notices keep their order.
    @Test func noticesGoEarliestDeadlineFirst() {
        var queue = Self.queue(rate: 10, bulkShare: 0.2)
        func notice(_ id: Int64, chat: Int64, dueIn minutes: Double) -> QueuedReply {
            var reply = Self.message(id, chat: chat, .notice)
            reply.deadline = Date(timeIntervalSince1970: Self.start + minutes * 60)
            return reply
        }
        queue.accept((1...20).map { Self.message($0, chat: $0, .bulk) })
        // Warnings committed first, then rain from two checks: the later check's rain is sooner.
        queue.accept((1...3).map { notice(100 + $0, chat: 100 + $0, dueIn: 360) })
        queue.accept((1...3).map { notice(200 + $0, chat: 200 + $0, dueIn: 40) })
        queue.accept((1...3).map { notice(300 + $0, chat: 300 + $0, dueIn: 15) })
        // A chat with a warning and then rain: its warning goes first, its rain at its turn after.
        queue.accept([notice(401, chat: 400, dueIn: 360), notice(402, chat: 400, dueIn: 20)])
        let notices = Self.run(&queue, until: Self.start + 3).map(\.reply).filter { $0.lane == .notice }.map(\.id)
        #expect(notices == [301, 302, 303, 201, 202, 203, 101, 102, 103, 401, 402], "\(notices)")
    }

    @Test func bulkTakesWhatChatsLeave() {
        var queue = Self.queue(rate: 10, bulkShare: 0.2)
        queue.accept((1...1_000).map { Self.message($0, chat: $0, .bulk) })
        // Two chat messages in ten seconds: bulk gets the other 98 slots.
        queue.accept([Self.message(5_001, chat: 5_001)])
        var sent = Self.run(&queue, until: Self.start + 5)
        queue.accept([Self.message(5_002, chat: 5_002)])
        sent += Self.run(&queue, until: Self.start + 10, from: Self.start + 5)
        #expect((100...101).contains(sent.count))
        #expect(sent.filter { $0.reply.lane == .bulk }.count == sent.count - 2)
    }

    @Test func withoutAShareBulkWaitsForChatsToFinish() {
        var queue = Self.queue(rate: 10, bulkShare: 0)
        queue.accept((1...10).map { Self.message($0, chat: $0, .bulk) })
        queue.accept((1...30).map { Self.message(100 + $0, chat: 100 + $0) })
        let sent = Self.run(&queue, until: Self.start + 10)
        #expect(sent.prefix(30).allSatisfy { $0.reply.lane == .interactive })
        #expect(sent.count == 40)
    }

    @Test func callbackAnswersGoAtOnceWhateverTheMessagesWait() {
        var queue = Self.queue(rate: 10, chatRate: 1, chatBurst: 1)
        queue.accept((1...500).map { Self.message($0, chat: $0, .bulk) })
        queue.accept([Self.message(600, chat: 7), Self.message(601, chat: 7)])
        queue.pause(for: 30, at: Self.start)
        #expect(queue.nextMessage(at: Self.start) == .wait(until: Self.start + 30))
        // The chat's answer is behind two of its messages and a paused rate, and goes all the same.
        queue.accept([Self.answer(602, chat: 7)])
        #expect(queue.nextAnswer(at: Self.start)?.id == 602)
        #expect(queue.answersInFlight == 1)
        #expect(queue.nextAnswer(at: Self.start) == nil)
        queue.finish(Self.answer(602, chat: 7), at: Self.start)
        #expect(queue.answersInFlight == 0)
        #expect(queue.count(.interactive) == 2)
    }

    // MARK: Chats

    @Test func aChatHasOneMessageInFlightAcrossLanesAndKeepsItsOrderInEach() {
        var queue = Self.queue(rate: 1_000, bulkShare: 0)
        queue.accept([Self.message(1, chat: 1, .bulk), Self.message(2, chat: 1, .bulk)])
        queue.accept([Self.message(3, chat: 1), Self.message(4, chat: 2), Self.message(5, chat: 1)])
        var order: [Int64] = []
        var time = Self.start
        var flying: [QueuedReply] = []
        while order.count < 5 {
            switch queue.nextMessage(at: time) {
            case .send(let reply):
                #expect(!flying.contains { $0.chatID == reply.chatID }, "two messages of chat \(reply.chatID) at once")
                flying.append(reply)
                order.append(reply.id)
            case .wait(let until): time = until
            case .idle:
                // Everything due is in flight: the oldest answers.
                let done = flying.removeFirst()
                queue.finish(done, at: time)
            }
        }
        // Chat 1's answers before its forecasts, each lane in order; chat 2 does not wait for chat 1.
        #expect(order.filter { [1, 2, 3, 5].contains($0) } == [3, 5, 1, 2])
        #expect(order.firstIndex(of: 4)! < order.firstIndex(of: 5)!)
    }

    @Test func theChatsRateHoldsAcrossLanes() {
        var queue = Self.queue(rate: 1_000, burst: 1_000, chatRate: 1, chatBurst: 3, bulkShare: 0)
        queue.accept([Self.message(1, chat: 1), Self.message(2, chat: 1)])
        queue.accept([Self.message(3, chat: 1, .bulk), Self.message(4, chat: 1, .bulk)])
        let sent = Self.run(&queue, until: Self.start + 10)
        #expect(sent.map(\.reply.id) == [1, 2, 3, 4])
        // A burst of three, then one a second.
        #expect(sent.map { $0.at - Self.start } == [0, 0, 0, 1])
    }

    @Test func aRetryWaitsForItsTimeAndHoldsBackItsChatOnly() {
        var queue = Self.queue(rate: 1_000)
        queue.accept([Self.message(1, chat: 1), Self.message(2, chat: 1), Self.message(3, chat: 2)])
        guard case .send(let first) = queue.nextMessage(at: Self.start) else { Issue.record("nothing sent"); return }
        queue.retry(first, notBefore: Self.start + 5, at: Self.start)
        let sent = Self.run(&queue, until: Self.start + 10)
        #expect(sent.map(\.reply.id) == [3, 1, 2])
        #expect(sent[1].at == Self.start + 5)
        #expect(sent[1].reply.attempts == 1)
    }

    @Test func aResetForgetsTheChatsWaitingRepliesAndTheOneInFlightIsNotTriedAgain() {
        var queue = Self.queue(rate: 1_000, bulkShare: 0)
        queue.accept([Self.message(1, chat: 1), Self.message(2, chat: 1), Self.message(3, chat: 2), Self.message(4, chat: 1, .bulk)])
        guard case .send(let flying) = queue.nextMessage(at: Self.start), flying.id == 1 else { Issue.record("not chat 1's first"); return }
        queue.accept([Self.message(9, chat: 1)], emptying: 1)
        #expect(queue.count(.interactive) == 3)  // 1 in flight, 3 of chat 2, 9
        #expect(queue.count(.bulk) == 0)
        queue.retry(flying, notBefore: Self.start, at: Self.start)
        let sent = Self.run(&queue, until: Self.start + 1)
        #expect(sent.map(\.reply.id).sorted() == [3, 9])
        #expect(queue.count == 0)
    }

    @Test func aBlockedChatIsForgottenWholly() {
        var queue = Self.queue(rate: 1_000)
        queue.accept([Self.message(1, chat: 1), Self.message(2, chat: 1), Self.message(3, chat: 2), Self.message(4, chat: 1, .bulk)])
        guard case .send(let flying) = queue.nextMessage(at: Self.start) else { Issue.record("nothing sent"); return }
        #expect(flying.chatID == 1)
        queue.drop(chatID: 1, failed: flying, at: Self.start)
        #expect(queue.messagesInFlight == 0)
        #expect(Self.run(&queue, until: Self.start + 1).map(\.reply.id) == [3])
        #expect(queue.count == 0)
    }

    @Test func aBlockedChatsRefusedAnswerLeavesItsMessageInFlightAndNoCountBehind() {
        var queue = Self.queue(rate: 1_000)
        queue.accept([Self.message(1, chat: 1), Self.message(2, chat: 1), Self.answer(3, chat: 1)])
        guard case .send(let flying) = queue.nextMessage(at: Self.start), let answer = queue.nextAnswer(at: Self.start) else {
            Issue.record("nothing sent")
            return
        }
        queue.drop(chatID: 1, failed: answer, at: Self.start)
        #expect(queue.answersInFlight == 0)
        #expect(queue.messagesInFlight == 1)
        // The message in flight ends; its chat's others were dropped with it.
        queue.finish(flying, at: Self.start)
        #expect(queue.count == 0)
        #expect(queue.nextMessage(at: Self.start + 1) == .idle)
    }

    // MARK: The window over the table

    @Test func aHandOverThatComesAfterAReadTookItsRowIsNotHeldTwice() {
        var queue = OutboxQueue(pacing: Pacing(messagesPerSecond: 1_000, messagesPerSecondPerChat: 1_000, bulkShare: 0.2), capacity: 100)
        _ = queue.startRead(.interactive)
        // The commit of 100 was durable before the read looked; its hand-over comes after.
        queue.finishRead(.interactive, rows: [Self.message(100, chat: 1), Self.answer(101, chat: 1)], fetched: 2, last: 101)
        queue.accept([Self.message(100, chat: 1), Self.answer(101, chat: 1)])
        #expect(queue.count(.interactive) == 2)
        #expect(Self.run(&queue, until: Self.start + 1).map(\.reply.id) == [100])
        #expect(queue.nextAnswer(at: Self.start)?.id == 101)
        #expect(queue.nextAnswer(at: Self.start) == nil)
    }

    @Test func aReplyHandedOverAfterTheResetThatDeletedItIsNotTaken() {
        var queue = Self.queue(rate: 1_000)
        // The forecast (5) was committed before the reset (9), but handed over after it.
        queue.accept([Self.message(9, chat: 1)], emptying: 1)
        queue.accept([Self.message(5, chat: 1, .bulk)])
        queue.accept([Self.message(12, chat: 1, .bulk)])
        #expect(Self.run(&queue, until: Self.start + 1).map(\.reply.id).sorted() == [9, 12])
    }

    @Test func aCallbackAnswerGoesEvenWhenTheInteractiveWindowOverflowed() {
        var queue = Self.queue(rate: 30, capacity: 10)
        queue.accept((1...20).map { Self.message($0, chat: $0) })
        #expect(!queue.isComplete(.interactive))
        queue.accept([Self.answer(21, chat: 3)])
        #expect(queue.nextAnswer(at: Self.start)?.id == 21)
    }

    @Test func atStartNothingIsTakenUntilTheTableWasRead() {
        var queue = OutboxQueue(pacing: Pacing(messagesPerSecond: 30, messagesPerSecondPerChat: 1, bulkShare: 0.2), capacity: 100)
        queue.accept([Self.message(5, chat: 1)])
        #expect(queue.count == 0)
        let read = queue.startRead(.interactive)
        #expect(read?.from == .min && read?.limit == 100)
        #expect(queue.startRead(.interactive) == nil)  // one read of a lane at a time
        // The row handed over before the read was looked at comes from the table.
        queue.finishRead(.interactive, rows: [Self.message(2, chat: 1), Self.message(5, chat: 1)], fetched: 2, last: 5)
        #expect(queue.isComplete(.interactive))
        #expect(Self.run(&queue, until: Self.start + 1).map(\.reply.id) == [2, 5])
    }

    @Test func aFullLaneRefusesHandOversAndReadsThemInOrderOnceItHasRoom() {
        var queue = Self.queue(rate: 1_000, capacity: 4)
        queue.accept((1...6).map { Self.message($0, chat: 100 + $0, .bulk) })
        #expect(queue.count(.bulk) == 4)
        #expect(!queue.isComplete(.bulk))
        #expect(queue.startRead(.bulk) == nil)  // no room yet
        let sent = Self.run(&queue, until: Self.start + 1)
        #expect(sent.map(\.reply.id) == [1, 2, 3, 4])
        // A later hand-over waits behind the rows still in the table.
        queue.accept([Self.message(7, chat: 107, .bulk)])
        #expect(queue.count(.bulk) == 0)
        let read = queue.startRead(.bulk)
        #expect(read?.from == 5 && read?.limit == 4)
        queue.finishRead(.bulk, rows: (5...7).map { Self.message($0, chat: 100 + $0, .bulk) }, fetched: 3, last: 7)
        #expect(queue.isComplete(.bulk))
        #expect(Self.run(&queue, until: Self.start + 2, from: Self.start + 1).map(\.reply.id) == [5, 6, 7])
    }

    @Test func aFullReadLeavesTheLaneToBeReadOnFromItsLastRow() {
        var queue = Self.queue(rate: 1_000, capacity: 2)
        queue.accept((1...3).map { Self.message($0, chat: $0, .bulk) })
        _ = Self.run(&queue, until: Self.start + 1)
        #expect(queue.startRead(.bulk)?.from == 3)
        queue.finishRead(.bulk, rows: [Self.message(3, chat: 3, .bulk), Self.message(4, chat: 4, .bulk)], fetched: 2, last: 4)
        #expect(!queue.isComplete(.bulk))
        #expect(queue.count(.bulk) == 2)
        _ = Self.run(&queue, until: Self.start + 2, from: Self.start + 1)
        #expect(queue.startRead(.bulk)?.from == 5)
    }

    @Test func rowsReadAfterTheySentOrTheirChatWasResetAreNotTakenAgain() {
        var queue = Self.queue(rate: 1_000, burst: 1_000, capacity: 3)
        // Chat 7's commit (id 7) is handed over before chat 5's (id 5), which finds the lane full.
        queue.accept([Self.message(1, chat: 1, .bulk), Self.message(2, chat: 2, .bulk), Self.message(7, chat: 7, .bulk)])
        queue.accept([Self.message(5, chat: 5, .bulk)])
        var flying: [QueuedReply] = []
        while case .send(let reply) = queue.nextMessage(at: Self.start) { flying.append(reply) }
        #expect(flying.map(\.id) == [1, 2, 7])
        queue.finish(flying[0], at: Self.start)
        queue.finish(flying[1], at: Self.start)
        let read = queue.startRead(.bulk)
        #expect(read?.from == 5 && read?.limit == 3)
        // While the read is under way, 7 is delivered and chat 8 is reset: the rows the read saw
        // of both may be gone.
        queue.finish(flying[2], at: Self.start)
        queue.accept([], emptying: 8)
        queue.finishRead(.bulk, rows: [Self.message(5, chat: 5, .bulk), Self.message(7, chat: 7, .bulk), Self.message(8, chat: 8, .bulk)], fetched: 3, last: 8)
        #expect(!queue.isComplete(.bulk))
        let sent = Self.run(&queue, until: Self.start + 1)
        #expect(sent.map(\.reply.id) == [5])
        // Chat 8's row is looked for again.
        #expect(queue.startRead(.bulk)?.from == 8)
    }

    @Test func aNewReplyIsInHandAtOnceWhateverTheBulkBacklog() {
        var queue = Self.queue(rate: 30, capacity: 100)
        queue.accept((1...100_000).map { Self.message($0, chat: $0, .bulk) })
        #expect(queue.count(.bulk) == 100)
        queue.accept([Self.message(100_001, chat: 200_000)])
        let sent = Self.run(&queue, until: Self.start + 0.1)
        #expect(sent.contains { $0.reply.id == 100_001 })
    }

    // MARK: A chat's share and collapsed edits

    @Test func aStormOfEditsOfOneMessageLeavesTheOneInFlightAndTheLatest() {
        var queue = Self.queue(rate: 1_000, chatRate: 1, chatBurst: 1)
        queue.accept([Self.edit(1, chat: 1)])
        guard case .send(let flying) = queue.nextMessage(at: Self.start) else { Issue.record("nothing sent"); return }
        for id in Int64(2)...10_500 { queue.accept([Self.edit(id, chat: 1)]) }
        #expect(queue.held(1, .interactive) == 2, "the edit in flight and the latest")
        #expect(queue.takeSuperseded().map(\.id) == Array(2...10_499))
        queue.answered(at: Self.start)
        queue.finish(flying, at: Self.start)
        #expect(Self.run(&queue, until: Self.start + 10).map(\.reply.id) == [10_500])
    }

    @Test func onlyWhatALaterEditSetsAgainIsTakenOut() {
        var queue = Self.queue(rate: 1_000)
        queue.accept([
            Self.edit(1, chat: 1, buttonsOnly: true), Self.edit(2, chat: 1, message: 8), Self.edit(3, chat: 1),
            Self.edit(4, chat: 1, buttonsOnly: true), Self.edit(5, chat: 2),
        ])
        // The text edit (3) replaces the buttons before it; the buttons after it leave it.
        #expect(queue.takeSuperseded().map(\.id) == [1])
        #expect(Self.run(&queue, until: Self.start + 1).map(\.reply.id).sorted() == [2, 3, 4, 5])
    }

    @Test func anEditIsNotTakenOutAcrossANewMessageUnderItsTag() {
        var queue = Self.queue(rate: 1_000)
        queue.accept([Self.edit(1, chat: 1, tag: "card")])
        queue.accept([QueuedReply(id: 2, chatID: 1, lane: .interactive, request: .sendMessage(chatID: 1, text: "new card", tag: "card"))])
        queue.accept([Self.edit(3, chat: 1, tag: "card")])
        #expect(queue.takeSuperseded().isEmpty, "1 edits the old card, 3 the new one")
        queue.accept([Self.edit(4, chat: 1, tag: "card")])
        #expect(queue.takeSuperseded().map(\.id) == [3])
        #expect(Self.run(&queue, until: Self.start + 1).map(\.reply.id) == [1, 2, 4])
    }

    @Test func anEditTakenOutIsNotReadBackUntilItsRowIsDeleted() {
        var queue = Self.queue(rate: 1_000, capacity: 3)
        queue.accept([Self.edit(1, chat: 1), Self.edit(2, chat: 1), Self.message(3, chat: 2), Self.message(4, chat: 3), Self.message(5, chat: 4)])
        #expect(queue.takeSuperseded().map(\.id) == [1])
        #expect(!queue.isComplete(.interactive))
        _ = Self.run(&queue, until: Self.start + 1)
        // The read sees the row the sender has not deleted yet: it is not sent.
        _ = queue.startRead(.interactive)
        queue.finishRead(.interactive, rows: [Self.edit(1, chat: 1), Self.message(5, chat: 4)], fetched: 2, last: 5)
        #expect(Self.run(&queue, until: Self.start + 2, from: Self.start + 1).map(\.reply.id) == [5])
        queue.deletedSuperseded(1)
    }

    @Test func aChatOverItsShareWaitsInTheTableWhileTheOthersAreTaken() {
        var queue = Self.queue(rate: 1_000, burst: 1_000, chatRate: 1, chatBurst: 1, capacity: 1_000, chatShare: 10)
        var table = (1...50).map { Self.message($0, chat: 1) }
        queue.accept(table)
        queue.accept([Self.message(51, chat: 2)])
        #expect(queue.held(1, .interactive) == 10 && queue.isOverflowing(1, .interactive) && !queue.isComplete(.interactive))
        #expect(queue.held(2, .interactive) == 1, "another chat is taken whatever the flooder waits")
        #expect(queue.startChatReads(.interactive).isEmpty, "no room in the chat's share yet")
        var sent: [Int64] = []
        var time = Self.start
        while sent.count < 52 && time < Self.start + 100 {
            for read in queue.startChatReads(.interactive) {
                let rows = table.filter { $0.id >= read.from }.prefix(read.limit)
                queue.finishChatRead(.interactive, serial: read.serial, chatID: read.chatID, rows: Array(rows), fetched: rows.count, last: rows.last?.id)
            }
            if sent.count == 20 {
                // A hand-over while the chat overflows waits behind its rows in the table.
                table.append(Self.message(60, chat: 1))
                queue.accept([Self.message(60, chat: 1)])
            }
            for item in Self.run(&queue, until: time + 1, from: time) {
                sent.append(item.reply.id)
                table.removeAll { $0.id == item.reply.id }
            }
            #expect(queue.held(1, .interactive) <= 10)
            time += 1
        }
        #expect(sent.filter { $0 != 51 } == Array(1...50) + [60])
        #expect(sent.firstIndex(of: 51)! < 2, "the other chat's reply went at once")
        #expect(!queue.isOverflowing(1, .interactive) && queue.isComplete(.interactive))
    }

    @Test func aResetLetsAChatsReadUnderWayGo() {
        var queue = Self.queue(rate: 1_000, chatRate: 1, chatBurst: 1, chatShare: 4)
        queue.accept((1...10).map { Self.message($0, chat: 1) })
        _ = Self.run(&queue, until: Self.start + 3)
        guard let read = queue.startChatReads(.interactive).first else { Issue.record("no read"); return }
        #expect(read.from == 5)
        queue.accept([Self.message(20, chat: 1)], emptying: 1)
        queue.finishChatRead(.interactive, serial: read.serial, chatID: 1, rows: (5...8).map { Self.message($0, chat: 1) }, fetched: 4, last: 8)
        #expect(!queue.isOverflowing(1, .interactive))
        #expect(Self.run(&queue, until: Self.start + 10, from: Self.start + 3).map(\.reply.id) == [20])
    }

    @Test func aLaneReadPassesAnOverflowingChatsRowsByForItsOwnReads() {
        var queue = Self.queue(rate: 1_000, capacity: 4, chatShare: 2)
        queue.accept([Self.message(1, chat: 1), Self.message(2, chat: 2), Self.message(3, chat: 2), Self.message(4, chat: 3)])
        queue.accept([Self.message(5, chat: 4)])
        #expect(!queue.isComplete(.interactive))
        _ = Self.run(&queue, until: Self.start + 1)
        _ = queue.startRead(.interactive)
        queue.finishRead(.interactive, rows: [5, 6, 7, 8].map { Self.message($0, chat: $0 == 5 ? 4 : 1) }, fetched: 4, last: 8)
        // Chat 1 took its share (6, 7); its 8 waits for the chat's own read.
        #expect(queue.held(1, .interactive) == 2 && queue.isOverflowing(1, .interactive))
        _ = Self.run(&queue, until: Self.start + 2, from: Self.start + 1)
        #expect(queue.startRead(.interactive)?.from == 9)
    }

    // MARK: Broadcasts

    @Test func aBroadcastIsReportedWhenItStartsAndWhenItsLaneIsEmpty() {
        var queue = Self.queue(rate: 10)
        queue.accept([Self.message(1, chat: 1)])
        _ = Self.run(&queue, until: Self.start + 1)
        #expect(queue.takeEvents().isEmpty)
        queue.accept((2...21).map { Self.message($0, chat: $0, .bulk) })
        let sent = Self.run(&queue, until: Self.start + 10, from: Self.start + 1)
        #expect(sent.count == 20)
        let events = queue.takeEvents()
        #expect(events.first == .broadcastStarted(waiting: 20, more: false))
        guard case .broadcastFinished(let delivered, let dropped, let seconds) = events.last else {
            Issue.record("no end: \(events)")
            return
        }
        #expect(delivered == 20 && dropped == 0)
        #expect(abs(seconds - 1.9) < 0.01)
    }

    // MARK: Pacing

    @Test func theOverallRateRunsAfterItsBurst() {
        var queue = Self.queue(rate: 10, burst: 3)
        queue.accept((1...6).map { Self.message($0, chat: $0) })
        let times = Self.run(&queue, until: Self.start + 10).map { $0.at - Self.start }
        #expect(times.count == 6)
        #expect(zip(times, [0, 0, 0, 0.1, 0.2, 0.3]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
    }

    @Test func atTelegramsRateTheScheduleKeepsUnderTheLimit() {
        var queue = OutboxQueue(pacing: Pacing(messagesPerSecond: 30, messagesPerSecondPerChat: 1, bulkShare: 0.2))
        for lane in OutboxLane.allCases {
            _ = queue.startRead(lane)
            queue.finishRead(lane, rows: [], fetched: 0, last: nil)
        }
        queue.accept((1...300).map { Self.message($0, chat: $0, $0 % 2 == 0 ? .bulk : .interactive) })
        let sent = Self.run(&queue, until: Self.start + 60)
        let last = sent.last!.at - Self.start
        // 300 messages at 2 % under 30 a second take a little over ten seconds.
        #expect(sent.count == 300)
        #expect(last > 299 / 30.0 && last < 300 / 29.0)
    }

    @Test func noMoreThanTheLimitAreCountedWithinASecondOfTheirAnswers() {
        var recent = RecentSends(limit: 3)
        for _ in 0..<3 {
            #expect(recent.wait(at: 0) == nil)
            recent.start()
        }
        for answer in [0.1, 0.2, 0.3] { recent.answered(at: answer) }
        // Answered at 0.1, 0.2 and 0.3: the fourth may go a second after the first answer.
        #expect(recent.wait(at: 0.3) == 1.1)
        #expect(recent.wait(at: 1.1) == nil)
    }

    @Test func aMessageStillInFlightKeepsCountingHoweverLongItTakes() {
        var recent = RecentSends(limit: 2)
        recent.start()
        recent.start()
        // Neither answered after five seconds: Telegram may count them any moment now.
        #expect(recent.wait(at: 5) != nil)
        recent.answered(at: 5)
        #expect(recent.wait(at: 5.5) != nil)
        #expect(recent.wait(at: 6) == nil)
    }

    @Test func aPauseHoldsBackEverySlotUntilItEnds() {
        var queue = Self.queue(rate: 30, burst: 30)
        queue.accept([Self.message(1, chat: 1)])
        queue.pause(for: 2, at: Self.start)
        guard case .wait(let until) = queue.nextMessage(at: Self.start) else { Issue.record("not held back"); return }
        #expect(abs(until - Self.start - 2) < 1e-9)
    }
}
