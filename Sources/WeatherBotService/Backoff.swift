import Foundation
import BotClock

/// Exponential backoff with full jitter: each failure doubles the ceiling up to `maximum`, and the
/// wait is drawn between half the ceiling and the ceiling, so many clients do not retry in step.
public struct Backoff: Sendable {
    var initial: Duration = .milliseconds(500)
    var maximum: Duration = .seconds(30)
    private(set) var failures = 0

    /// A backoff whose first wait is at most `initial`, and no wait longer than `maximum`.
    public init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait before the next try, counting one more failure.
    mutating func next() -> Duration {
        failures += 1
        return Self.delay(afterFailures: failures, initial: initial, maximum: maximum)
    }

    mutating func reset() {
        failures = 0
    }

    /// Runs `attempt` until it returns, waiting after each failure. `failed` sees each error
    /// with the wait before the next try: it logs it, and throws to give up. A cancelled task
    /// stops waiting and throws `CancellationError`.
    public mutating func retry<T>(
        _ attempt: () async throws -> T,
        failed: (_ error: any Error, _ delay: Duration) async throws -> Void
    ) async throws -> T {
        while true {
            do {
                let value = try await attempt()
                reset()
                return value
            } catch {
                let delay = next()
                try await failed(error, delay)
                try Task.checkCancellation()
                try await Task.sleep(for: delay)
            }
        }
    }

    static func delay(afterFailures failures: Int, initial: Duration, maximum: Duration) -> Duration {
        let exponent = min(max(failures - 1, 0), 20)
        let ceiling = min(initial * (1 << exponent), maximum)
        let seconds = ceiling.timeInterval
        return .seconds(Double.random(in: (seconds / 2)...seconds))
    }
}

extension Duration {
    /// «0.43 s», for log lines.
    public var logDescription: String {
        String(format: "%.2f s", timeInterval)
    }
}
