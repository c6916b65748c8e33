import Foundation
import Testing
import WeatherBotStore

/// Where quiet hours end: at the next showing of their end time on the place's clock, also on
/// the days its clocks change.
@Suite struct QuietHoursTests {
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// Nuuk's clocks jump from 23:00 to 00:00 on Saturday 2025-03-29: quiet hours until 23:00
    /// end at the jump, not on Sunday evening (where `Calendar.nextDate` put them).
    @Test func quietHoursEndingInNuuksSpringJumpEndAtTheJump() throws {
        let nuuk = try #require(TimeZone(identifier: "America/Nuuk"))
        let hours = try #require(QuietHours(stored: "13:00-23:00"))
        let afternoon = Self.utc("2025-03-29T16:00:00Z")  // 14:00 at UTC−2
        #expect(hours.contains(afternoon, in: nuuk))
        #expect(hours.end(after: afternoon, in: nuuk) == Self.utc("2025-03-30T01:00:00Z"))
    }

    /// London's clocks go back from 02:00 to 01:00 on 2026-10-25: an end at 01:30 comes twice,
    /// and quiet hours that hold the second 01:10 end twenty minutes later, not the next night.
    @Test func quietHoursEndingInTheHourShownTwiceEndAtItsNextShowing() throws {
        let london = try #require(TimeZone(identifier: "Europe/London"))
        let hours = try #require(QuietHours(stored: "22:00-01:30"))
        #expect(hours.end(after: Self.utc("2026-10-25T00:10:00Z"), in: london) == Self.utc("2026-10-25T00:30:00Z"))
        #expect(hours.end(after: Self.utc("2026-10-25T01:10:00Z"), in: london) == Self.utc("2026-10-25T01:30:00Z"))
    }

    /// Every zone the system knows, around each of its clock changes in 2026, every two hours and
    /// a quarter from a day before the change to two hours after (odd steps, to fall at every
    /// quarter of the hour in turn), for quiet hours of several lengths:
    /// they end at the next moment the clock shows their end time (a second showing when the
    /// clocks went back over it; on a day they jump over it, the jump), never a day later.
    @Test func quietHoursEndAtTheNextShowingOfTheirEndAroundEveryZonesClockChanges() async throws {
        let spans = try ["22:00-08:00", "13:00-23:00", "21:00-02:30", "01:00-23:00"].map { try #require(QuietHours(stored: $0)) }
        let first = Self.utc("2026-01-01T00:00:00Z"), last = Self.utc("2027-01-01T00:00:00Z")
        var failures: [String] = []
        var checked = 0
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            // Seconds of work in all: the other tests get their turn between zones.
            await Task.yield()
            guard let zone = TimeZone(identifier: identifier) else { continue }
            var change = zone.nextDaylightSavingTimeTransition(after: first)
            while let moment = change, moment < last {
                let minute = (moment.timeIntervalSince1970 / 60).rounded(.down) * 60
                for step in stride(from: -26 * 3600, through: 2 * 3600, by: 8100) {
                    let instant = Date(timeIntervalSince1970: minute + Double(step))
                    for hours in spans where hours.contains(instant, in: zone) {
                        checked += 1
                        let end = hours.end(after: instant, in: zone)
                        let expected = Self.nextShowing(of: hours.end, after: instant, in: zone, changing: moment)
                        if end != expected || end.timeIntervalSince(instant) > 25 * 3600 {
                            failures.append("\(identifier) \(hours) at \(instant): ends at \(end), not \(expected)")
                        }
                    }
                }
                change = zone.nextDaylightSavingTimeTransition(after: moment)
            }
        }
        #expect(checked > 1_000)
        #expect(failures.isEmpty, "\(failures.count) wrong, such as \(failures.prefix(5))")
    }

    /// The next moment after `instant` that the clock shows `minute` of the day, worked out from
    /// the one change of the zone's offset near it, at `change`: readings before it at the old
    /// offset, from it on at the new one, and the change itself when the clocks jump over the time.
    static func nextShowing(of minute: Int, after instant: Date, in zone: TimeZone, changing change: Date) -> Date {
        let now = instant.timeIntervalSince1970, jump = change.timeIntervalSince1970
        let before = Double(zone.secondsFromGMT(for: change.addingTimeInterval(-1)))
        let after = Double(zone.secondsFromGMT(for: change))
        var moments: [Double] = []
        let today = ((now + min(before, after)) / 86_400).rounded(.down)
        for day in stride(from: today - 1, through: today + 3, by: 1) {
            let reading = day * 86_400 + Double(minute * 60)
            if reading - before > now && reading - before < jump { moments.append(reading - before) }
            if reading - after >= jump && reading - after > now { moments.append(reading - after) }
            if jump > now && jump + before <= reading && reading < jump + after { moments.append(jump) }
        }
        return Date(timeIntervalSince1970: moments.min() ?? 0)
    }
}
