public import Foundation

/// A date of the proleptic Gregorian calendar, from a count of days since 1970-01-01, by
/// integer arithmetic: no `Calendar` or formatter on the paths that run for every update.
public struct CivilDate: Sendable, Hashable {
    /// The year, such as 2026; can be zero or negative far before the Common Era.
    public var year: Int
    /// The month, 1 (January) to 12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int

    /// The date `days` days after 1970-01-01 (before it for a negative count); 0 is 1970-01-01 itself.
    public init(daysSince1970 days: Int) {
        // Counted in eras of 400 years (146,097 days) from 0000-03-01, so that leap days fall last.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}

extension CivilDate {
    /// The UTC day of `date`, in days since 1970-01-01: the day OpenWeather counts a call in.
    public static func utcDay(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
