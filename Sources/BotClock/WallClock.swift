public import Foundation
import Synchronization

/// A moment of calendar time. The bot's time is the wall clock's, since what it schedules and
/// stores is calendar time: a forecast at 08:00 in a place's time zone, a cache entry's age, a
/// retry not before a date that survives a restart.
public struct WallInstant: InstantProtocol, Sendable {
    public var date: Date

    public init(_ date: Date) {
        self.date = date
    }

    public func advanced(by duration: Duration) -> WallInstant {
        WallInstant(date.addingTimeInterval(duration.timeInterval))
    }

    public func duration(to other: WallInstant) -> Duration {
        .seconds(other.date.timeIntervalSince(date))
    }

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
    public init() {}

    public var now: WallInstant { WallInstant(Date()) }

    public var minimumResolution: Duration { .microseconds(1) }

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

    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        time = Mutex(start)
    }

    public var now: WallInstant { WallInstant(time.withLock { $0 }) }

    public var minimumResolution: Duration { .zero }

    public func set(_ date: Date) { time.withLock { $0 = date } }

    public func advance(by duration: Duration) { time.withLock { $0 += duration.timeInterval } }

    public func sleep(until deadline: WallInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        time.withLock { $0 = max($0, deadline.date) }
        await Task.yield()
    }
}
