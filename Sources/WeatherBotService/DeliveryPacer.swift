import Foundation

/// Keeps outgoing messages under Telegram's limits: about 30 messages a second overall and about
/// one a second per chat, with short bursts allowed. Each limit is a generic cell rate algorithm;
/// a send is scheduled at the earliest moment both allow.
actor DeliveryPacer {
    /// How far under the overall limit messages are paced.
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

    private var global: Cell
    private var chats: [Int64: Cell] = [:]
    private let chatRate: Double
    private let chatBurst: Int
    private let now: @Sendable () -> Double

    init(
        globalRate: Double = 30, globalBurst: Int = 30, chatRate: Double = 1, chatBurst: Int = 3,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        global = Cell(ratePerSecond: globalRate, burst: globalBurst)
        self.chatRate = chatRate
        self.chatBurst = chatBurst
        self.now = now
    }

    /// Reserves a slot for one message to `chatID` and returns how long to wait for it.
    func reserve(chatID: Int64) -> Duration {
        let time = now()
        var chat = chats[chatID] ?? Cell(ratePerSecond: chatRate, burst: chatBurst)
        let slot = global.earliest(notBefore: chat.earliest(notBefore: time))
        chat.consume(at: slot)
        global.consume(at: slot)
        chats[chatID] = chat
        if chats.count > 10_000 { forgetIdleChats(before: time) }
        return .seconds(max(0, slot - time))
    }

    /// Telegram said to wait: nothing is scheduled before `seconds` from now.
    func pause(for seconds: Double) {
        global.arrival = max(global.arrival, now() + seconds + global.tolerance)
    }

    private func forgetIdleChats(before time: Double) {
        chats = chats.filter { $0.value.arrival > time }
    }
}
