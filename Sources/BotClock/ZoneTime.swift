public import Foundation

/// When the clock in a time zone shows a given time: worked out day by day from the zone's
/// offsets, so DST changes and zones such as +5:45 come out right; never a fixed 24-hour step.
///
/// Not with `Calendar.nextDate`: on some spring-forward days (America/Nuuk, Australia/Lord_Howe,
/// Pacific/Chatham, Antarctica/Troll among them) that call skips a whole local date for times
/// later in the day. Daily forecasts and the end of quiet hours both use this rule.
public enum ZoneTime {
    /// The first moment after `instant` at which the clock in `zone` shows `hour:minute`, and the
    /// local date (days since 1970-01-01) it falls on. When that time does not exist on a day (the
    /// clocks jump over it), the first moment after the jump is used.
    ///
    /// - Parameter onceADay: a time the clocks show twice (they go back over it) counts at its
    ///   first showing only, as a forecast due once a day does; otherwise its second showing is
    ///   the next one too, as for the end of quiet hours that came back with the clocks.
    public static func next(after instant: Date, hour: Int, minute: Int, in zone: TimeZone, onceADay: Bool) -> (date: Date, day: Int) {
        let today = localDay(of: instant, in: zone)
        // A local date two days on always has its moment after `instant`.
        for day in today...(today + 2) {
            let moments = self.moments(on: day, hour: hour, minute: minute, in: zone)
            if let moment = (onceADay ? Array(moments.prefix(1)) : moments).first(where: { $0 > instant }) { return (moment, day) }
        }
        return (moments(on: today + 3, hour: hour, minute: minute, in: zone)[0], today + 3)
    }

    /// The first moment the clock in `zone` shows `hour:minute` on local date `day` (days since
    /// 1970-01-01); the end of the jump when the clocks skip that time.
    public static func firstMoment(on day: Int, hour: Int, minute: Int, in zone: TimeZone) -> Date {
        moments(on: day, hour: hour, minute: minute, in: zone)[0]
    }

    /// Each moment the clock in `zone` shows `hour:minute` on local date `day`, earliest first:
    /// one on most days, two when the clocks go back over that time, and the end of the jump
    /// when they skip it. Never empty.
    static func moments(on day: Int, hour: Int, minute: Int, in zone: TimeZone) -> [Date] {
        // The wall-clock time as seconds since 1970 as if it were UTC; each offset the zone has
        // around it gives a moment, real when the zone has that offset then.
        let wall = Double(day * 86_400 + hour * 3600 + minute * 60)
        let offsets = Set([-86_400.0, 0, 86_400].map { Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + $0))) })
        let real = offsets.map { Date(timeIntervalSince1970: wall - $0) }.filter { Double(zone.secondsFromGMT(for: $0)) == wall - $0.timeIntervalSince1970 }
        if !real.isEmpty { return real.sorted() }
        // Skipped: the clocks jump from before this time to after it. The jump is the first
        // moment with the later offset, between the two readings of the time.
        var low = wall - (offsets.max() ?? 0)
        var high = wall - (offsets.min() ?? 0)
        let later = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: high)))
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: middle))) == later { high = middle } else { low = middle }
        }
        return [Date(timeIntervalSince1970: high)]
    }

    /// The local date of `instant` in `zone`, as days since 1970-01-01.
    public static func localDay(of instant: Date, in zone: TimeZone) -> Int {
        let local = instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
        return Int((local / 86_400).rounded(.down))
    }
}
