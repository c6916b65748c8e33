import Foundation
public import WeatherBotStore

extension QuietHours {
    /// Reads hours as people type them after `/alerts quiet` (and as `ALERTS_QUIET_HOURS` is
    /// set): two times ``TypedTime`` reads, between a hyphen or a dash, «23:00-07:00», «7 - 23»,
    /// «22.30–08.15», «10 pm — 6 am». Nil when either end is not a time, or both are the same.
    public init?(typed text: String) {
        guard let span = Self.typedSpan(text) else { return nil }
        self.init(start: span.start, end: span.end)
    }

    /// The start and end such a text names, as minutes since midnight, equal or not.
    static func typedSpan(_ text: String) -> (start: Int, end: Int)? {
        let ends = text.split(whereSeparator: { "-–—".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard ends.count == 2, let start = TypedTime.leading(ends[0]), start.rest.isEmpty, let end = TypedTime.leading(ends[1]), end.rest.isEmpty
        else { return nil }
        return (start.hour * 60 + start.minute, end.hour * 60 + end.minute)
    }
}
