import Foundation
import Synchronization

/// Keeps outgoing messages under Telegram's limits: about 30 messages a second overall and about
/// one a second per chat, with short bursts allowed.
///
/// Two checks, because a schedule alone is not enough. Each limit is a generic cell rate algorithm
/// that spreads messages out: ``reserve(chatID:)`` says how long to wait for a slot. Then, just
/// before a message goes out, ``admit()`` counts the messages Telegram may still be counting: those
/// in flight and those answered less than a second ago. Telegram counts a message at some moment
/// between its sending and its answer, so however late a delivery woke or however long a request
/// travelled, no second as Telegram sees it holds more than the limit.
final class DeliveryPacer: Sendable {
    /// How far under the overall limit messages are scheduled.
    static let margin = 0.02

    struct Cell {
        /// Seconds between sends at the steady rate.
        let interval: Double
        /// How far ahead of the steady rate a burst may run.
        let tolerance: Double
        /// The theoretical time of the next send at the steady rate.
        var arrival: Double = 0

        init(ratePerSecond: Double, burst: Int) {
            interval = 1 / ratePerSecond
            tolerance = Double(max(burst - 1, 0)) * interval
        }

        func earliest(notBefore time: Double) -> Double { max(time, arrival - tolerance) }

        mutating func consume(at time: Double) { arrival = max(arrival, time) + interval }
    }

    /// The messages that may fall into Telegram's current second: in flight, or answered within
    /// the last `window` seconds.
    struct RecentSends {
        let limit: Int
        let window: Double
        private(set) var inFlight = 0
        /// When each recent message was answered, oldest first from `head`.
        private var answers: [Double] = []
        private var head = 0

        init(limit: Int, window: Double = 1) {
            self.limit = max(limit, 1)
            self.window = window
        }

        var count: Int { inFlight + answers.count - head }

        /// Counts a message going out at `time` and returns nil; or, when `limit` are already
        /// counted, returns when to ask again.
        mutating func admit(at time: Double) -> Double? {
            while head < answers.count && answers[head] <= time - window { head += 1 }
            if head > 1024 && head * 2 > answers.count {
                answers.removeFirst(head)
                head = 0
            }
            guard count >= limit else {
                inFlight += 1
                return nil
            }
            // All in flight: their answers will tell; look again shortly.
            return head < answers.count ? answers[head] + window : time + 0.005
        }

        /// Counts a message that goes out whatever the count.
        mutating func admitNow() { inFlight += 1 }

        /// A message counted by ``admit(at:)`` was answered (or failed) at `time`.
        mutating func answered(at time: Double) {
            inFlight = max(inFlight - 1, 0)
            answers.append(time)
        }
    }

    private struct State {
        var global: Cell
        var chats: [Int64: Cell] = [:]
        var recent: RecentSends
    }

    private let state: Mutex<State>
    private let chatRate: Double
    private let chatBurst: Int
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - globalRate, globalBurst: the overall schedule.
    ///   - globalLimit: at most this many messages are in flight or answered within a second.
    ///   - chatRate, chatBurst: each chat's schedule.
    init(
        globalRate: Double = 30, globalBurst: Int = 30, globalLimit: Int = 30, chatRate: Double = 1, chatBurst: Int = 3,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        state = Mutex(State(global: Cell(ratePerSecond: globalRate, burst: globalBurst), recent: RecentSends(limit: globalLimit)))
        self.chatRate = chatRate
        self.chatBurst = chatBurst
        self.now = now
    }

    /// Scheduled `margin` under `messagesPerSecond`, in bursts of at most half the margin (one at
    /// Telegram's 30 a second); at most `messagesPerSecond · (1 − margin / 2)` counted.
    convenience init(messagesPerSecond: Double, messagesPerSecondPerChat: Double) {
        self.init(
            globalRate: messagesPerSecond * (1 - Self.margin), globalBurst: max(1, Int(messagesPerSecond * Self.margin / 2)),
            globalLimit: max(1, Int(messagesPerSecond * (1 - Self.margin / 2))),
            chatRate: messagesPerSecondPerChat, chatBurst: 3)
    }

    /// Reserves a slot for one message to `chatID` and returns how long to wait for it.
    func reserve(chatID: Int64) -> Duration {
        let time = now()
        let slot = state.withLock { state in
            var chat = state.chats[chatID] ?? Cell(ratePerSecond: chatRate, burst: chatBurst)
            let slot = state.global.earliest(notBefore: chat.earliest(notBefore: time))
            chat.consume(at: slot)
            state.global.consume(at: slot)
            state.chats[chatID] = chat
            if state.chats.count > 10_000 { state.chats = state.chats.filter { $0.value.arrival > time } }
            return slot
        }
        return .seconds(max(0, slot - time))
    }

    /// Called when a message is about to go out: zero when it may (it is counted until
    /// ``answered()``), or how long to wait before asking again.
    func admit() -> Duration {
        let time = now()
        guard let next = state.withLock({ $0.recent.admit(at: time) }) else { return .zero }
        return .seconds(max(next - time, 0.0005))
    }

    /// The answer to an admitted message arrived, or its request failed.
    func answered() {
        let time = now()
        state.withLock { $0.recent.answered(at: time) }
    }

    /// Waits for a slot for one message to `chatID`, then until it may be counted; the caller
    /// calls ``answered()`` once the request is over.
    func waitForTurn(chatID: Int64) async {
        var wait = reserve(chatID: chatID)
        while true {
            if wait > .zero { try? await Task.sleep(for: wait) }
            wait = admit()
            if wait == .zero { return }
            if Task.isCancelled {
                // Shutting down: counted all the same, so the caller's ``answered()`` balances it.
                state.withLock { $0.recent.admitNow() }
                return
            }
        }
    }

    /// Telegram said to wait: nothing is scheduled before `seconds` from now.
    func pause(for seconds: Double) {
        let time = now()
        state.withLock { $0.global.arrival = max($0.global.arrival, time + seconds + $0.global.tolerance) }
    }
}
