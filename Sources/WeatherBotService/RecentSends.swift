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
