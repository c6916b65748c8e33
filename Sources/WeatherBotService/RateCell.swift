/// A generic cell rate algorithm: one event every `interval` on average, running at most
/// `tolerance` ahead of that steady rate (a burst). Times are seconds.
public struct RateCell: Sendable {
    /// Seconds between events at the steady rate.
    let interval: Double
    /// How far ahead of the steady rate a burst may run.
    let tolerance: Double
    /// The theoretical time of the next event at the steady rate.
    public internal(set) var arrival: Double = 0

    public init(ratePerSecond: Double, burst: Int) {
        interval = 1 / ratePerSecond
        tolerance = Double(max(burst - 1, 0)) * interval
    }

    /// The earliest time from `time` on at which an event fits.
    public func earliest(notBefore time: Double) -> Double { max(time, arrival - tolerance) }

    /// Counts an event at `time`. With `forgivingLateness`, an event less than one interval later
    /// than its slot (a wake-up that came late) keeps the schedule instead of losing the lateness;
    /// ``RecentSends`` still keeps any second as Telegram sees it under the limit.
    public mutating func consume(at time: Double, forgivingLateness: Bool = false) {
        let onSchedule = forgivingLateness && arrival > time - interval
        arrival = (onSchedule ? arrival : max(arrival, time)) + interval
    }
}
