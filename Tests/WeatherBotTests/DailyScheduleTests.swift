import BotClock
import Foundation
import Testing
@testable import WeatherBot

@Suite struct DailyScheduleTests {
    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

    @Test func anOrdinaryDayInMoscow() {
        let next = DailySchedule.nextSend(after: utc("2026-11-21T04:00:00Z"), hour: 8, minute: 0, in: zone("Europe/Moscow"))
        #expect(next.date == utc("2026-11-21T05:00:00Z"))
        #expect(next.day == "2026-11-21")
        // Exactly at the time: the next day's.
        let after = DailySchedule.nextSend(after: next.date, hour: 8, minute: 0, in: zone("Europe/Moscow"))
        #expect(after.date == utc("2026-11-22T05:00:00Z"))
        #expect(after.day == "2026-11-22")
    }

    @Test func londonAcrossBothChanges() {
        let london = zone("Europe/London")
        // Spring: 08:00 is 08:00 GMT on Saturday, 08:00 BST (07:00 UTC) on Sunday.
        let saturday = DailySchedule.nextSend(after: utc("2026-03-28T09:00:00Z"), hour: 8, minute: 0, in: london)
        #expect(saturday.date == utc("2026-03-29T07:00:00Z"))
        #expect(saturday.day == "2026-03-29")
        #expect(saturday.date.timeIntervalSince(utc("2026-03-28T08:00:00Z")) == 23 * 3600)
        // 01:30 does not exist on that Sunday: the first moment after the jump.
        let gap = DailySchedule.nextSend(after: utc("2026-03-29T00:00:00Z"), hour: 1, minute: 30, in: london)
        #expect(gap.date == utc("2026-03-29T01:00:00Z"))
        #expect(gap.day == "2026-03-29")
        // Autumn: 08:00 BST on Saturday, 08:00 GMT on Sunday: 25 hours apart.
        let autumn = DailySchedule.nextSend(after: utc("2026-10-24T07:00:00Z"), hour: 8, minute: 0, in: london)
        #expect(autumn.date == utc("2026-10-25T08:00:00Z"))
        // 01:30 happens twice: the first.
        let twice = DailySchedule.nextSend(after: utc("2026-10-24T23:00:00Z"), hour: 1, minute: 30, in: london)
        #expect(twice.date == utc("2026-10-25T00:30:00Z"))
        let following = DailySchedule.nextSend(after: twice.date, hour: 1, minute: 30, in: london)
        #expect(following.day == "2026-10-26")  // not the repeated 01:30 of the same day
    }

    @Test func newYorkAcrossBothChanges() {
        let newYork = zone("America/New_York")
        let spring = DailySchedule.nextSend(after: utc("2026-03-07T14:00:00Z"), hour: 7, minute: 30, in: newYork)
        #expect(spring.date == utc("2026-03-08T11:30:00Z"))  // EDT, UTC-4
        let gap = DailySchedule.nextSend(after: utc("2026-03-08T06:00:00Z"), hour: 2, minute: 30, in: newYork)
        #expect(gap.date == utc("2026-03-08T07:00:00Z"))  // 03:00 EDT
        let autumn = DailySchedule.nextSend(after: utc("2026-10-31T12:00:00Z"), hour: 7, minute: 30, in: newYork)
        #expect(autumn.date == utc("2026-11-01T12:30:00Z"))  // EST, UTC-5
    }

    @Test func kathmanduAtMidnight() {
        let kathmandu = zone("Asia/Kathmandu")
        let next = DailySchedule.nextSend(after: utc("2026-11-21T18:00:00Z"), hour: 0, minute: 0, in: kathmandu)
        #expect(next.date == utc("2026-11-21T18:15:00Z"))
        #expect(next.day == "2026-11-22")
        let then = DailySchedule.nextSend(after: next.date, hour: 0, minute: 0, in: kathmandu)
        #expect(then.date == utc("2026-11-22T18:15:00Z"))
        #expect(DailySchedule.day(of: utc("2026-11-21T18:14:59Z"), in: kathmandu) == "2026-11-21")
    }

    @Test func aroundMidnightAndFixedOffsets() {
        let utcZone = TimeZone(secondsFromGMT: 0)!
        let late = DailySchedule.nextSend(after: utc("2026-12-31T23:59:30Z"), hour: 0, minute: 0, in: utcZone)
        #expect(late.date == utc("2027-01-01T00:00:00Z"))
        #expect(late.day == "2027-01-01")
        let offset = TimeZone(secondsFromGMT: 4 * 3600)!  // the free plan's fixed offset
        let tbilisi = DailySchedule.nextSend(after: utc("2026-11-21T20:30:00Z"), hour: 0, minute: 15, in: offset)
        #expect(tbilisi.date == utc("2026-11-21T20:15:00Z").addingTimeInterval(86_400))
        #expect(tbilisi.day == "2026-11-23")
    }

    /// Where `Calendar.nextDate` errs: on spring-forward days it skipped a whole local date for
    /// times later in the day (Nuuk at 23:00 after 2025-03-28 gave 2025-03-30).
    @Test func nuukOnTheDayItsClocksSprangForward() {
        let nuuk = zone("America/Nuuk")
        let friday = DailySchedule.nextSend(after: utc("2025-03-28T12:00:00Z"), hour: 23, minute: 0, in: nuuk)
        #expect(friday.day == "2025-03-28")
        let saturday = DailySchedule.nextSend(after: friday.date, hour: 23, minute: 0, in: nuuk)
        #expect(saturday.day == "2025-03-29")
        #expect(saturday.date == utc("2025-03-30T01:00:00Z"))  // 23:00 at UTC-2, after the change
    }

    /// Every zone the system knows, two years of daily times (midnight, a time the clocks often
    /// skip, a late one, the last minute): each local date exactly once, in order, each moment
    /// showing the time asked for unless the clocks skipped it that day.
    @Test(arguments: [(0, 0), (2, 30), (23, 0), (23, 59)])
    func everyZoneGetsEveryDateOnceAcrossTwoYears(_ time: (hour: Int, minute: Int)) async {
        let start = utc("2025-01-01T00:00:00Z")
        let firstDay = ZoneTime.localDay(of: start, in: zone("UTC"))
        var failures: [String] = []
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            // Seconds of work in all: the other tests, which share the two cores' threads, get
            // their turn between zones instead of timing out behind it.
            await Task.yield()
            let zone = zone(identifier)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            var instant = start
            var expected = ZoneTime.localDay(of: start, in: zone)
            if ZoneTime.firstMoment(on: expected, hour: time.hour, minute: time.minute, in: zone) <= start { expected += 1 }
            while expected < firstDay + 730 {
                let next = DailySchedule.nextSend(after: instant, hour: time.hour, minute: time.minute, in: zone)
                if next.day != DailySchedule.dayText(expected) {
                    failures.append("\(identifier): \(next.day) after \(instant), expected \(DailySchedule.dayText(expected))")
                    break
                }
                // Read back with Foundation's calendar: the date and time asked for, or else a
                // jump of the clocks over that time, at this very moment.
                let shown = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: next.date)
                let shownDay = String(format: "%04d-%02d-%02d", shown.year ?? 0, shown.month ?? 0, shown.day ?? 0)
                if shown.hour != time.hour || shown.minute != time.minute || shownDay != next.day {
                    let wall = { (date: Date) in date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date)) }
                    let asked = Double(expected * 86_400 + time.hour * 3600 + time.minute * 60)
                    if !(wall(next.date.addingTimeInterval(-1)) < asked && asked < wall(next.date)) {
                        failures.append("\(identifier): \(next.date) shows \(shownDay) \(shown.hour ?? -1):\(shown.minute ?? -1)")
                        break
                    }
                }
                instant = next.date
                expected += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test func daysAreCountedAsTheGregorianCalendarDoes() {
        #expect(DailySchedule.dayText(0) == "1970-01-01")
        #expect(DailySchedule.dayText(-1) == "1969-12-31")
        #expect(DailySchedule.dayText(11_016) == "2000-02-29")
        #expect(DailySchedule.dayText(20_513) == "2026-03-01")
        #expect(ZoneTime.localDay(of: utc("2026-11-25T23:30:00Z"), in: zone("Europe/Moscow")) == 20_783)
    }
}
