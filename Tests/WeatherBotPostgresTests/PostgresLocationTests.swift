import PostgresNIO
import Testing
@testable import WeatherBotPostgres

@Suite struct PostgresLocationTests {
    @Test func aURLGivesHostPortUserDatabaseAndAPasswordNeverShown() throws {
        let location = try PostgresLocation(url: "postgres://bot:s%40cret@db.internal:6543/weather?sslmode=disable")
        #expect(location.configuration.host == "db.internal")
        #expect(location.configuration.port == 6543)
        #expect(location.configuration.username == "bot")
        #expect(location.configuration.password == "s@cret")
        #expect(location.configuration.database == "weather")
        #expect(!location.description.contains("cret"))
        #expect(location.description.contains("db.internal:6543/weather"))
        #expect(try PostgresLocation(url: "postgresql://bot@localhost/weather").configuration.port == 5432)
    }

    @Test func everySSLModeReadsAndAnUnknownOneIsRefused() throws {
        for mode in ["disable", "prefer", "require", "verify-ca", "verify-full"] {
            _ = try PostgresLocation(url: "postgres://bot@localhost/weather?sslmode=\(mode)")
        }
        for bad in [
            "postgres://bot@localhost/weather?sslmode=sometimes", "mysql://bot@localhost/weather", "postgres://localhost/weather",
            "postgres://bot@localhost/", "not a url",
        ] {
            #expect(throws: PostgresLocation.Invalid.self, "\(bad)") { try PostgresLocation(url: bad) }
        }
    }
}
