import Synchronization
import WeatherBotService

/// How often one user may ask the app's API: a steady rate with a burst, as a person tapping
/// through screens needs and a script hammering them does not get. Each user's pace is a
/// ``RateCell``, as each chat's is in the outbox; cells idle longer than their burst are forgotten.
final class MiniAppRequestLimit: Sendable {
    private let perSecond: Double
    private let burst: Int
    private let cells = Mutex<[Int64: RateCell]>([:])

    init(perMinute: Int = 60, burst: Int = 20) {
        perSecond = Double(max(perMinute, 1)) / 60
        self.burst = burst
    }

    /// Counts a request of `user` at `now` (seconds) and says whether it may be answered.
    func admits(_ user: Int64, at now: Double) -> Bool {
        cells.withLock { cells in
            if cells.count > 10_000 { cells = cells.filter { $0.value.arrival > now } }
            var cell = cells[user] ?? RateCell(ratePerSecond: perSecond, burst: burst)
            guard cell.earliest(notBefore: now) <= now else { return false }
            cell.consume(at: now)
            cells[user] = cell
            return true
        }
    }
}
