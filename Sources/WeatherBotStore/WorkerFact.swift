public import Foundation

/// The small facts every engine keeps about the worker itself, by name, in a table of text values.
public enum WorkerFact {
    /// The names the facts are stored under; files and databases written earlier use them too.
    public enum Key: String, Sendable, CaseIterable {
        /// The id of the last update taken from Telegram (the offset is one more).
        case lastUpdateID = "lastUpdateId"
        /// When getUpdates last answered, in seconds since 1970.
        case lastSuccessfulPoll = "lastSuccessfulPollAt"
        /// "1" once the worker stopped cleanly, "0" while it runs.
        case stoppedCleanly
        /// The secret Telegram sends with each webhook request, when generated rather than configured.
        case webhookSecret
        /// How many daily forecasts were skipped, missed for longer than the grace period (the bot
        /// was down, or OpenWeather was and no earlier weather of the place was known), since the
        /// database began.
        case dailyForecastsSkipped
        /// OpenWeather's calls in the last minute by second, as the active worker last kept them
        /// (``WorkerFact/openWeatherMinute(_:)-(Dictionary<Int, Int>)``): a worker starting counts
        /// them against its first minute.
        case openWeatherLastMinute
        /// What the notice checker's last round did (``NoticeRound/stored``).
        case noticeRound
    }

    /// Calls by second since 1970 as they are stored: "second:calls" pairs, by commas.
    public static func openWeatherMinute(_ calls: [Int: Int]) -> String {
        calls.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }

    /// Calls by second read back; whatever is not a pair of numbers is left out.
    public static func openWeatherMinute(_ stored: String?) -> [Int: Int] {
        var calls: [Int: Int] = [:]
        for pair in (stored ?? "").split(separator: ",") {
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let second = Int(parts[0]), let count = Int(parts[1]), count > 0 else { continue }
            calls[second, default: 0] += count
        }
        return calls
    }

    /// The fact counting OpenWeather's calls on a UTC day (days since 1970) to `endpoint`; all
    /// such start with ``openWeatherCallsPrefix``. Without an endpoint: the day's calls counted
    /// before they were counted by endpoint, read as ``openWeatherUncounted``.
    public static func openWeatherCalls(onDay day: Int, endpoint: String? = nil) -> String {
        openWeatherCallsPrefix + String(day) + (endpoint.map { "." + $0 } ?? "")
    }

    /// The facts of `day`'s calls read back by endpoint: `(key, value)` pairs of any facts.
    public static func openWeatherCalls(onDay day: Int, from facts: some Sequence<(String, String)>) -> [String: Int] {
        let base = openWeatherCalls(onDay: day)
        var calls: [String: Int] = [:]
        for (key, value) in facts {
            guard let count = Int(value) else { continue }
            if key == base {
                calls[openWeatherUncounted, default: 0] += count
            } else if key.hasPrefix(base + ".") {
                calls[String(key.dropFirst(base.count + 1)), default: 0] += count
            }
        }
        return calls
    }

    /// The endpoint the calls stored without one are read as.
    public static let openWeatherUncounted = "other"
    /// The start of every fact counting a day's OpenWeather calls: `openWeatherCalls.<day>[.<endpoint>]`.
    public static let openWeatherCallsPrefix = "openWeatherCalls."

    /// A stored time as it is written: seconds since 1970.
    public static func time(_ date: Date) -> String { String(date.timeIntervalSince1970) }

    /// A stored time read back; nil for nothing or anything unreadable.
    public static func time(_ stored: String?) -> Date? {
        stored.flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }
}
