import Foundation
import GRDB

/// A date bound to a statement as the same text GRDB stores for a `Date` ("yyyy-MM-dd
/// HH:mm:ss.SSS" in UTC, to the nearest millisecond), made with integer arithmetic instead
/// of GRDB's `DateFormatter`: on a quiet day the dates of each step and each reply went through
/// that formatter, 5 % of the writer thread's CPU at 20 updates a second. Reads are GRDB's, and
/// a date outside the years 1 to 9999 is left to GRDB.
struct StoredDate: DatabaseValueConvertible, Sendable {
    let date: Date

    init(_ date: Date) {
        self.date = date
    }

    var databaseValue: DatabaseValue {
        Self.text(of: date).map(\.databaseValue) ?? date.databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        Date.fromDatabaseValue(dbValue).map(StoredDate.init)
    }

    /// The text GRDB would store for `date`; nil outside the years 1 to 9999.
    static func text(of date: Date) -> String? {
        // To the nearest, a half up, as the formatter rounds (before 1970 too).
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        // Years 1 to 9999, with a day's margin either side, in milliseconds since 1970.
        guard milliseconds > -62_135_596_800_000 + 86_400_000, milliseconds < 253_402_300_800_000 - 86_400_000 else { return nil }
        let total = Int64(milliseconds)
        let (days, inDay) = Self.floorDivision(total, 86_400_000)
        let (year, month, day) = Self.civil(fromDays: days)
        guard (1...9999).contains(year) else { return nil }
        let hour = inDay / 3_600_000, minute = inDay / 60_000 % 60, second = inDay / 1000 % 60, millisecond = inDay % 1000
        return String(unsafeUninitializedCapacity: 23) { buffer in
            func put(_ value: Int64, digits: Int, at offset: Int) {
                var value = value
                for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, digits: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            buffer[10] = UInt8(ascii: " ")
            put(hour, digits: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(minute, digits: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(second, digits: 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(millisecond, digits: 3, at: 20)
            return 23
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (the days-to-civil algorithm of
    /// H. Hinnant's "chrono-compatible low-level date algorithms").
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
