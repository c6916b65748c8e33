import BotClock
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
        let civil = CivilDate(daysSince1970: Int(days))
        // Each part's value and digits, and the character after it.
        let parts: [(Int64, Int, UInt8?)] = [
            (Int64(civil.year), 4, UInt8(ascii: "-")), (Int64(civil.month), 2, UInt8(ascii: "-")), (Int64(civil.day), 2, UInt8(ascii: " ")),
            (inDay / 3_600_000, 2, UInt8(ascii: ":")), (inDay / 60_000 % 60, 2, UInt8(ascii: ":")), (inDay / 1000 % 60, 2, UInt8(ascii: ".")),
            (inDay % 1000, 3, nil),
        ]
        return String(unsafeUninitializedCapacity: 23) { buffer in
            var end = 0
            for (value, digits, separator) in parts {
                var value = value
                for index in stride(from: end + digits - 1, through: end, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                end += digits
                if let separator {
                    buffer[end] = separator
                    end += 1
                }
            }
            return end
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }
}
