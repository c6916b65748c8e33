public import Foundation
import Synchronization

/// A moment of calendar time. The bot's time is the wall clock's, since what it schedules and
/// stores is calendar time: a forecast at 08:00 in a place's time zone, a cache entry's age, a
/// retry not before a date that survives a restart.
public struct WallInstant: InstantProtocol, Sendable {
    /// The moment, as the Foundation date the rest of the bot stores, formats and compares.
    public var date: Date

    /// The instant at `date`.
    public init(_ date: Date) {
        self.date = date
    }

    /// This instant moved on by `duration` (back for a negative one), in seconds of calendar time.
    public func advanced(by duration: Duration) -> WallInstant {
        WallInstant(date.addingTimeInterval(duration.timeInterval))
    }

    /// The time from this instant to `other`: negative when `other` is earlier.
    public func duration(to other: WallInstant) -> Duration {
        .seconds(other.date.timeIntervalSince(date))
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: WallInstant, rhs: WallInstant) -> Bool { lhs.date < rhs.date }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    public var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A clock of calendar time, the one way time reaches every part of the bot: the system's
/// (``SystemWallClock``) in the running bot, a ``ManualClock`` where a test or the benchmark plays
/// out hours and days. Waits that only measure elapsed time (backoff, timeouts, pacing's short
/// sleeps) use the monotonic clock and are not injected.
public protocol WallClock: Clock where Instant == WallInstant {}

extension WallClock {
    /// The current date.
    public var date: Date { now.date }
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    /// The system clock; it keeps no state, so any number of them agree.
    public init() {}

    /// The system's time now, as `Date()` reads it: it jumps when the machine's clock is set.
    public var now: WallInstant { WallInstant(Date()) }

    /// A microsecond, the finest step worth asking this clock for.
    public var minimumResolution: Duration { .microseconds(1) }

    /// Sleeps until `deadline`, measured as a duration from now: a change to the system's clock
    /// during the sleep does not move its end. Returns at once for a deadline already passed;
    /// throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: WallInstant, tolerance: Duration? = nil) async throws {
        try await Task.sleep(for: now.duration(to: deadline), tolerance: tolerance)
    }
}

/// A clock whose time moves only when told to, or when something sleeps on it: a sleep ends at
/// once, moving the time to its deadline. For simulated days and hours in tests and the benchmark,
/// given to code that is driven step by step (a scheduler's `tick()`, a cache's lookups); a
/// service that sleeps on it in a loop would spin.
public final class ManualClock: WallClock, Sendable {
    private let time: Mutex<Date>

    /// A clock stopped at `start`; the default, a fixed date in November 2026, makes runs repeat
    /// exactly.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        time = Mutex(start)
    }

    /// The clock's time, as last set, advanced or slept to.
    public var now: WallInstant { WallInstant(time.withLock { $0 }) }

    /// Zero: the time moves only in the steps it is given.
    public var minimumResolution: Duration { .zero }

    /// Puts the clock at `date`, earlier or later than now.
    public func set(_ date: Date) { time.withLock { $0 = date } }

    /// Moves the clock on by `duration`.
    public func advance(by duration: Duration) { time.withLock { $0 += duration.timeInterval } }

    /// Moves the time to `deadline` at once (never back, for one already passed), then yields so
    /// that other tasks can run. Throws `CancellationError`, without moving the time, when the task
    /// is cancelled.
    public func sleep(until deadline: WallInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        time.withLock { $0 = max($0, deadline.date) }
        await Task.yield()
    }
}
