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
