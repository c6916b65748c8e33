import Foundation
import Synchronization

/// How often one user may ask the app's API: a steady rate with a burst, as a person tapping
/// through screens needs and a script hammering them does not get. Each user's pace is a cell of
/// the generic cell rate algorithm; cells idle longer than their burst are forgotten.
final class MiniAppRequestLimit: Sendable {
    /// Seconds between requests at the steady rate.
    let interval: Double
    /// How far ahead of the steady rate a burst may run, in seconds.
    let tolerance: Double
    /// Each user's theoretical time of the next request at the steady rate.
    private let arrivals = Mutex<[Int64: Double]>([:])

    init(perMinute: Int = 60, burst: Int = 20) {
        interval = 60 / Double(max(perMinute, 1))
        tolerance = Double(max(burst - 1, 0)) * interval
    }

    /// Counts a request of `user` at `now` (seconds) and says whether it may be answered.
    func admits(_ user: Int64, at now: Double) -> Bool {
        arrivals.withLock { arrivals in
            if arrivals.count > 10_000 { arrivals = arrivals.filter { $0.value > now } }
            let arrival = arrivals[user] ?? now
            guard arrival - tolerance <= now else { return false }
            arrivals[user] = max(arrival, now) + interval
            return true
        }
    }
}
