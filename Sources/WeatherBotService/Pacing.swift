/// Telegram's sending limits as the outbox keeps them: about 30 messages a second overall and one
/// a second per chat with short bursts, and the share of the overall rate kept for bulk messages.
///
/// Two checks, because a schedule alone is not enough. Each rate is a ``RateCell`` that spreads
/// messages out. Then, as a message goes out, ``RecentSends`` counts the messages Telegram may still
/// be counting: those in flight and those answered less than a second ago. Telegram counts a message
/// at some moment between its sending and its answer, so however long a request travels, no second
/// as Telegram sees it holds more than the limit.
struct Pacing: Sendable {
    /// How far under the overall limit messages are scheduled.
    static let margin = 0.02

    var global: RateCell
    var recentLimit: Int
    var chatRate: Double
    var chatBurst: Int
    /// Bulk's share of the overall rate, owed to it while it has work; nil for no share.
    var bulkShare: RateCell?

    /// Scheduled `margin` under `messagesPerSecond`, in bursts of at most half the margin (one at
    /// Telegram's 30 a second); at most `messagesPerSecond · (1 − margin / 2)`, rounded, counted in
    /// a second. Rounded, not cut: at 30 a second a cut to 29 would bind before the schedule does,
    /// since the count holds each message until a second after its answer; it over-counts what
    /// Telegram sees, so 30 counted is never more than 30 as Telegram counts them.
    init(messagesPerSecond: Double, messagesPerSecondPerChat: Double, bulkShare: Double) {
        let rate = messagesPerSecond * (1 - Self.margin)
        self.init(
            global: RateCell(ratePerSecond: rate, burst: max(1, Int(messagesPerSecond * Self.margin / 2))),
            recentLimit: max(1, Int((messagesPerSecond * (1 - Self.margin / 2)).rounded())),
            chatRate: messagesPerSecondPerChat, chatBurst: 3,
            bulkShare: bulkShare > 0 ? RateCell(ratePerSecond: rate * min(bulkShare, 1), burst: 1) : nil)
    }

    init(global: RateCell, recentLimit: Int, chatRate: Double, chatBurst: Int, bulkShare: RateCell?) {
        self.global = global
        self.recentLimit = recentLimit
        self.chatRate = chatRate
        self.chatBurst = chatBurst
        self.bulkShare = bulkShare
    }

    func chatCell() -> RateCell { RateCell(ratePerSecond: chatRate, burst: chatBurst) }
}

/// A generic cell rate algorithm: one event every `interval` on average, running at most
/// `tolerance` ahead of that steady rate (a burst). Times are seconds.
struct RateCell: Sendable {
    /// Seconds between events at the steady rate.
    let interval: Double
    /// How far ahead of the steady rate a burst may run.
    let tolerance: Double
    /// The theoretical time of the next event at the steady rate.
    var arrival: Double = 0

    init(ratePerSecond: Double, burst: Int) {
        interval = 1 / ratePerSecond
        tolerance = Double(max(burst - 1, 0)) * interval
    }

    /// The earliest time from `time` on at which an event fits.
    func earliest(notBefore time: Double) -> Double { max(time, arrival - tolerance) }

    /// Counts an event at `time`. With `forgivingLateness`, an event less than one interval later
    /// than its slot (a wake-up that came late) keeps the schedule instead of losing the lateness;
    /// ``RecentSends`` still keeps any second as Telegram sees it under the limit.
    mutating func consume(at time: Double, forgivingLateness: Bool = false) {
        let onSchedule = forgivingLateness && arrival > time - interval
        arrival = (onSchedule ? arrival : max(arrival, time)) + interval
    }
}

/// The messages that may fall into Telegram's current second: in flight, or answered within the
/// last `window` seconds.
struct RecentSends: Sendable {
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

    /// Nil when one more message may go at `time`; otherwise when to look again.
    mutating func wait(at time: Double) -> Double? {
        while head < answers.count && answers[head] <= time - window { head += 1 }
        if head > 1024 && head * 2 > answers.count {
            answers.removeFirst(head)
            head = 0
        }
        guard count >= limit else { return nil }
        // All in flight: their answers will tell; look again shortly.
        return head < answers.count ? answers[head] + window : time + 0.005
    }

    /// A message goes out.
    mutating func start() { inFlight += 1 }

    /// A message that went out was answered (or failed) at `time`.
    mutating func answered(at time: Double) {
        inFlight = max(inFlight - 1, 0)
        answers.append(time)
    }
}
