import Foundation
import GRDB
import Testing
@testable import WeatherBotSQLite

@Suite struct StoredDateTests {
    /// Dates across the years the bot meets and beyond, with fractions near every boundary.
    static var dates: [Date] {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 1_795_000_000.9999),
            Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 951_868_799.999), Date(timeIntervalSince1970: 4_107_542_400),
            .distantPast, .distantFuture, Date(),
        ]
        for _ in 0..<50_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...8_000_000_000, using: &generator)))
            dates.append(Date(timeIntervalSince1970: Double(Int.random(in: 1_600_000_000...1_900_000_000, using: &generator)) + 0.999_9))
        }
        return dates
    }

    @Test func aDateIsBoundAsTheSameTextGRDBStores() throws {
        for date in Self.dates {
            #expect(StoredDate(date).databaseValue == date.databaseValue, "\(date.timeIntervalSince1970)")
        }
    }

    @Test func aStoredDateReadsBackAsADate() throws {
        let queue = try DatabaseQueue()
        let now = Date()
        let read = try queue.read { db in try Date.fetchOne(db, sql: "SELECT ?", arguments: [StoredDate(now)]) }
        #expect(abs(try #require(read).timeIntervalSince(now)) < 0.001)
    }
}
