import Foundation

/// Telegram's sending limits as the fake enforces them: in any `window` seconds at most
/// `perWindow` messages overall, and per chat one every `window / perChatPerWindow` seconds on
/// average, of which `perChatBurst` may come at once (1: strictly spaced).
public struct SendingLimits: Sendable {
    /// Messages accepted overall in any `window`, every chat together.
    public var perWindow: Int
    /// Messages one chat may get in a `window` on average; below 1 for a chat limited to fewer than one a window.
    public var perChatPerWindow: Double
    /// Messages a chat may get at once before the spacing applies.
    public var perChatBurst: Int
    /// The window's length in seconds.
    public var window: Double

    /// Limits with a one-second window and no bursts, unless told.
    public init(perWindow: Int, perChatPerWindow: Double, perChatBurst: Int = 1, window: Double = 1) {
        self.perWindow = perWindow
        self.perChatPerWindow = perChatPerWindow
        self.perChatBurst = perChatBurst
        self.window = window
    }

    /// The messages accepted in the current window, oldest first, and each chat's next slot.
    struct Pace: Sendable {
        var recent: [Date] = []
        var recentHead = 0
        var nextPerChat: [Int64: Double] = [:]
    }

    /// Whether a message to `chat` fits the limits now; if so it is counted.
    func admit(chat: Int64, at now: Date, _ pace: inout Pace) -> Bool {
        while pace.recentHead < pace.recent.count, now.timeIntervalSince(pace.recent[pace.recentHead]) >= window {
            pace.recentHead += 1
        }
        if pace.recentHead > 4096 {
            pace.recent.removeFirst(pace.recentHead)
            pace.recentHead = 0
        }
        if pace.recent.count - pace.recentHead >= perWindow { return false }
        // Per chat, a cell rate: the theoretical time of the chat's next message at the steady rate.
        let interval = window / perChatPerWindow
        let time = now.timeIntervalSinceReferenceDate
        let next = pace.nextPerChat[chat] ?? time
        if time < next - Double(perChatBurst - 1) * interval { return false }
        pace.recent.append(now)
        pace.nextPerChat[chat] = max(next, time) + interval
        return true
    }
}
