import Foundation
import Synchronization
import WeatherBotTesting

/// One prepared update: its JSON, its chat, and how many Bot API replies answer it; for a button
/// press, the callback query's id, whose answer is timed on its own.
struct PreparedUpdate: Sendable {
    var data: Data
    var chat: Int64
    var replies: Int
    var callbackQueryID: String? = nil
    /// Seconds from the schedule's start to its release, when not its place times the interval.
    var releaseAfter: Double? = nil
}

/// What the benchmark measures from the fake Telegram's side of a run, told of every update the
/// fake hands out and every reply it accepts: each update's latency from its release to the
/// last reply that answers it, counted per chat in order; when each button press's answer
/// arrived; when each message was accepted, to a chat with prepared updates or to another.
final class ReplyLedger: FakeTelegramObserver {
    private struct State {
        var replies = 0
        var first: Date?
        var last: Date?
        /// When each update was released (or came out, held back for its message).
        var releasedAt: [Date?]
        /// Per chat: replies received, and the updates not yet fully answered.
        var received: [Int64: Int] = [:]
        var waiting: [Int64: [(index: Int, cumulative: Int)]] = [:]
        var latencies: [Double] = []
        var answeredAt: [Date?]
        var callbackAnsweredAt: [Date?]
        var toUpdatingChats: [Date] = []
        var toOtherChats: [Date] = []
        var uploads = 0
        var byFileID = 0
    }

    private let firstID: Int
    private let callbackQueries: [String: Int]
    private let updatingChats: Set<Int64>
    /// The updates as the fake schedules them: a press comes out once its chat received the
    /// replies to the updates before it.
    let scheduled: [FakeTelegram.ScheduledUpdate]
    private let state: Mutex<State>

    init(updates: [PreparedUpdate], firstID: Int) {
        self.firstID = firstID
        let none = [Date?](repeating: nil, count: updates.count)
        var state = State(releasedAt: none, answeredAt: none, callbackAnsweredAt: none)
        var totals: [Int64: Int] = [:]
        var callbackQueries: [String: Int] = [:]
        var scheduled: [FakeTelegram.ScheduledUpdate] = []
        for (index, update) in updates.enumerated() {
            let before = totals[update.chat] ?? 0
            scheduled.append(
                FakeTelegram.ScheduledUpdate(
                    id: firstID + index, json: update.data, chat: update.chat, callbackQueryID: update.callbackQueryID,
                    shownAfter: update.callbackQueryID == nil ? 0 : before, releaseAfter: update.releaseAfter))
            totals[update.chat] = before + update.replies
            state.waiting[update.chat, default: []].append((index, before + update.replies))
            if let id = update.callbackQueryID { callbackQueries[id] = index }
        }
        self.scheduled = scheduled
        self.callbackQueries = callbackQueries
        updatingChats = Set(updates.map(\.chat))
        self.state = Mutex(state)
    }

    func handedOut(_ update: HandedOut) {
        let index = update.updateID - firstID
        state.withLock { state in
            if state.first == nil { state.first = update.at }
            if state.releasedAt.indices.contains(index) { state.releasedAt[index] = update.releasedAt }
        }
    }

    func accepted(_ reply: AcceptedReply) {
        state.withLock { state in
            state.replies += 1
            state.last = reply.at
            if let uploaded = reply.uploaded {
                if uploaded { state.uploads += 1 } else { state.byFileID += 1 }
            }
            state.received[reply.chat, default: 0] += 1
            if reply.isAnswerToPress {
                if let query = reply.callbackQueryID, let index = callbackQueries[query] { state.callbackAnsweredAt[index] = reply.at }
            } else if updatingChats.contains(reply.chat) {
                state.toUpdatingChats.append(reply.at)
            } else {
                state.toOtherChats.append(reply.at)
            }
            Self.complete(chat: reply.chat, at: reply.at, &state)
        }
    }

    /// Records the latency of every update of `chat` whose replies have now all arrived.
    private static func complete(chat: Int64, at now: Date, _ state: inout State) {
        guard var waiting = state.waiting[chat] else { return }
        let received = state.received[chat] ?? 0
        var done = 0
        while done < waiting.count, waiting[done].cumulative <= received {
            let index = waiting[done].index
            state.answeredAt[index] = now
            if let released = state.releasedAt[index] { state.latencies.append(now.timeIntervalSince(released)) }
            done += 1
        }
        if done > 0 {
            waiting.removeFirst(done)
            state.waiting[chat] = waiting
        }
    }

    var replies: Int { state.withLock { $0.replies } }
    /// Chats still waiting for answers, with how many replies each got and how many updates wait.
    var unanswered: [(chat: Int64, received: Int, waiting: Int)] {
        state.withLock { state in
            state.waiting.filter { !$0.value.isEmpty }.map { ($0.key, state.received[$0.key] ?? 0, $0.value.count) }.sorted { $0.chat < $1.chat }
        }
    }
    var photos: (uploads: Int, byFileID: Int) { state.withLock { ($0.uploads, $0.byFileID) } }
    /// From the first update handed out to the last reply.
    var window: (Date?, Date?) { state.withLock { ($0.first, $0.last) } }
    /// Seconds from each fully answered update's release to its last reply, in no order.
    var latencies: [Double] { state.withLock { $0.latencies } }
    /// When each update's last reply arrived, by index; nil while it waits for some.
    var answeredAt: [Date?] { state.withLock { $0.answeredAt } }
    /// When each button press's answerCallbackQuery arrived, by update index; nil for other
    /// updates and for presses not answered yet.
    var callbackAnsweredAt: [Date?] { state.withLock { $0.callbackAnsweredAt } }

    /// Messages (answers to presses aside) accepted in `start..<end`: to chats with prepared
    /// updates, and to the others.
    func messagesAccepted(from start: Date, to end: Date) -> (updatingChats: Int, otherChats: Int) {
        state.withLock { state in
            func count(_ times: [Date]) -> Int { times.lazy.filter { $0 >= start && $0 < end }.count }
            return (count(state.toUpdatingChats), count(state.toOtherChats))
        }
    }
}

extension FakeTelegram {
    /// The benchmark's Telegram: no transcript, the prepared updates scheduled, and `ledger`
    /// told of everything.
    static func bench(
        _ ledger: ReplyLedger, release: Release? = nil, limits: SendingLimits? = nil, polling: Bool = true
    ) async throws -> FakeTelegram {
        let telegram = try await FakeTelegram(recording: false, release: release, limits: limits, polling: polling, observer: ledger)
        telegram.schedule(ledger.scheduled)
        return telegram
    }
}

extension FakeTelegram {
    /// Waits for the scheduled updates' release to start (a minute at most: nil then), and then for
    /// `seconds` of it and up to `grace` more, less once `answered` says every update of interest
    /// is answered; returns when the release started.
    func runRelease(for seconds: Double, grace: Double, until answered: () -> Bool) async throws -> Date? {
        let started = Date()
        var origin: Date?
        while origin == nil && Date().timeIntervalSince(started) < 60 {
            try await Task.sleep(for: .milliseconds(20))
            origin = state.withLock { $0.releaseOrigin }
        }
        guard let origin else { return nil }
        let end = origin.addingTimeInterval(seconds)
        while Date() < end.addingTimeInterval(grace) {
            if Date() >= end && answered() { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return origin
    }
}
