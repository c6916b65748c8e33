import BotClock
public import Foundation

/// When daily forecasts are due: computed from the local date and time in the place's zone, so
/// DST changes and zones such as +5:45 come out right; never a fixed 24-hour step.
public enum DailySchedule {
    /// The first moment after `instant` at which the clock in `zone` shows `hour:minute`, and the
    /// local date it falls on. When that time does not exist on a day (the clocks jump over it),
    /// the first moment after the jump is used; when it happens twice, the first
    /// (``ZoneTime/next(after:hour:minute:in:onceADay:)``, worked out from the zone's offsets).
    public static func nextSend(after instant: Date, hour: Int, minute: Int, in zone: TimeZone) -> (date: Date, day: String) {
        let next = ZoneTime.next(after: instant, hour: hour, minute: minute, in: zone, onceADay: true)
        return (next.date, dayText(next.day))
    }

    /// Days since 1970-01-01 as `yyyy-MM-dd` in the proleptic Gregorian calendar.
    static func dayText(_ days: Int) -> String {
        let date = CivilDate(daysSince1970: days)
        return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }

    /// The local date of `instant` in `zone`, as `yyyy-MM-dd`.
    public static func day(of instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The date before a date (`yyyy-MM-dd`); nil when the text is not such a date.
    public static func day(before day: String) -> String? {
        let utc = TimeZone(identifier: "UTC") ?? .current
        return noon(of: day, in: utc).map { self.day(of: $0.addingTimeInterval(-86_400), in: utc) }
    }

    /// Noon of a local date (`yyyy-MM-dd`) in `zone`; nil when the text is not such a date.
    public static func noon(of day: String, in zone: TimeZone) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
    }
}
