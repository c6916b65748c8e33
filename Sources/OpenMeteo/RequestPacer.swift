import Synchronization

/// Starts no two requests closer than an interval, in the order they ask: each asker is given
/// the next free instant and moves it on by the interval, under one lock, so a burst becomes a
/// queue with no task polling. An asker whose instant is further off than it can wait is refused
/// at once and takes no place in the queue. An asker cancelled while it waits leaves its turn
/// unused: the queue moves on at the same pace.
final class RequestPacer: Sendable {
    private let interval: Duration
    /// The earliest instant the next request may start; nil before the first.
    private let nextFree = Mutex<ContinuousClock.Instant?>(nil)

    init(interval: Duration) {
        self.interval = interval
    }

    /// The instant a request asking now may start, its place taken; nil when that is more than
    /// `patience` away (nothing is taken then).
    func reserve(patience: Duration, now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant? {
        nextFree.withLock { next in
            let start = max(now, next ?? now)
            guard start - now <= patience else { return nil }
            next = start + interval
            return start
        }
    }
}
