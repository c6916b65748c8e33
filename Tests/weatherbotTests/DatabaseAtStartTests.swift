import Foundation
import Logging
import Testing
import WeatherBotPostgres
import WeatherBotTesting
@testable import weatherbot

/// A replica started while PostgreSQL cannot be reached waits for it, as for Telegram; one the
/// server refuses stops at once, saying why.
@Suite struct DatabaseAtStartTests {
    static let serverURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// The test server's URL, parts of it replaced.
    static func components() throws -> URLComponents {
        let url = try #require(serverURL)
        return try #require(URLComponents(string: url))
    }

    /// The test server's URL with another port, database or password.
    static func url(port: Int? = nil, database: String? = nil, password: String? = nil) throws -> PostgresLocation {
        var components = try components()
        if let port { components.port = port }
        if let database { components.path = "/\(database)" }
        if let password { components.password = password }
        return try PostgresLocation(url: try #require(components.string))
    }

    @Test(.enabled(if: serverURL != nil)) func aDatabaseNotReachableAtTheStartIsWaitedFor() async throws {
        let serverPort = try #require(try Self.components().port)
        let forwarder = try await LoopbackForwarder(to: serverPort)
        forwarder.cut()
        let password = "never-logged-7f3a"
        let location = try Self.url(port: forwarder.port, password: password)
        let log = CapturedLog()
        let waiting = Task { try await BotApplication.waitForDatabase(location, logger: log.logger()) }
        let deadline = ContinuousClock.now + .seconds(30)
        while !log.lines.contains(where: { $0.contains("the database is not reachable yet") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let retry = try #require(log.lines.first { $0.contains("the database is not reachable yet") })
        #expect(retry.hasPrefix("warning") && retry.contains("retry.in="), "\(retry)")
        forwarder.restore()
        try await waiting.value
        #expect(!log.lines.contains { $0.contains(password) })
        await forwarder.shutdown()
    }

    @Test func aRefusedConnectionIsOneToWaitFor() async throws {
        // Port 9 on loopback: nothing listens there.
        let location = try PostgresLocation(url: "postgres://weatherbot@127.0.0.1:9/weatherbot?sslmode=disable")
        let error = await #expect(throws: (any Error).self) { try await location.checkConnection(logger: Logger(label: "weatherbot.tests")) }
        #expect(error.map { PostgresStore.isUnreachable($0) } == true, "\(String(describing: error))")
    }

    @Test(.enabled(if: serverURL != nil)) func aDatabaseThatDoesNotExistStopsTheStartAtOnce() async throws {
        let location = try Self.url(database: "no_such_database_here")
        let error = await #expect(throws: BotApplication.StartFailure.self) {
            try await BotApplication.waitForDatabase(location, logger: Logger(label: "weatherbot.tests"))
        }
        #expect(error?.message.contains("does not exist") == true, "\(error?.message ?? "")")
    }
}
