import BotClock
public import Foundation

/// When daily forecasts are due: computed from the local date and time in the place's zone, so
/// DST changes and zones such as +5:45 come out right; never a fixed 24-hour step.
public enum DailySchedule {
    /// The first moment after `instant` at which the clock in `zone` shows `hour:minute`, and the
    /// local date it falls on. When that time does not exist on a day (the clocks jump over it),
    /// the first moment after the jump is used; when it happens twice, the first.
    ///
    /// Worked out from the zone's offsets, not with `Calendar.nextDate`: on some spring-forward
    /// days (America/Nuuk, Australia/Lord_Howe, Pacific/Chatham among them) that call skips a
    /// whole local date for times later in the day.
    public static func nextSend(after instant: Date, hour: Int, minute: Int, in zone: TimeZone) -> (date: Date, day: String) {
        let today = localDay(of: instant, in: zone)
        for offset in 0...2 {
            let day = today + offset
            let moment = firstMoment(on: day, hour: hour, minute: minute, in: zone)
            if moment > instant { return (moment, dayText(day)) }
        }
        // Unreachable: a local date two days on always has its moment after `instant`.
        let moment = firstMoment(on: today + 3, hour: hour, minute: minute, in: zone)
        return (moment, dayText(today + 3))
    }

    /// The first moment the clock in `zone` shows `hour:minute` on local date `day` (days since
    /// 1970-01-01); the end of the jump when the clocks skip that time.
    static func firstMoment(on day: Int, hour: Int, minute: Int, in zone: TimeZone) -> Date {
        // The wall-clock time as seconds since 1970 as if it were UTC; each offset the zone has
        // around it gives a moment, real when the zone has that offset then.
        let wall = Double(day * 86_400 + hour * 3600 + minute * 60)
        let offsets = Set([-86_400.0, 0, 86_400].map { Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + $0))) })
        let real = offsets.map { Date(timeIntervalSince1970: wall - $0) }.filter { Double(zone.secondsFromGMT(for: $0)) == wall - $0.timeIntervalSince1970 }
        if let first = real.min() { return first }
        // Skipped: the clocks jump from before this time to after it. The jump is the first
        // moment with the later offset, between the two readings of the time.
        var low = wall - (offsets.max() ?? 0)
        var high = wall - (offsets.min() ?? 0)
        let later = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: high)))
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: middle))) == later { high = middle } else { low = middle }
        }
        return Date(timeIntervalSince1970: high)
    }

    /// The local date of `instant` in `zone`, as days since 1970-01-01.
    static func localDay(of instant: Date, in zone: TimeZone) -> Int {
        let local = instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
        return Int((local / 86_400).rounded(.down))
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
