import Foundation
import Logging
import PostgresNIO
import Testing
import WeatherBotPostgres
import WeatherBotStore
import WeatherBotTesting
import WeatherBotSQLite

/// The store engines a contract test runs on: SQLite always, PostgreSQL when `TEST_DATABASE_URL`
/// names a server (`.ci/run` starts one). Each test gets an empty store of its own: a file in a
/// temporary folder, or a database created for it and dropped after.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let serverURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    static var available: [Engine] { serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }

    static let logger: Logger = {
        var logger = Logger(label: "weatherbot.tests.store")
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` with an empty, migrated store of this engine.
    func withStore<T>(_ body: (any BotStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-contract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(try BotDatabase.open(path: folder.appendingPathComponent("bot.sqlite").path))
        case .postgres:
            let database = try await ScratchDatabase.create(on: try #require(Self.serverURL), prefix: "weatherbot_contract")
            let store = PostgresStore(try PostgresLocation(url: database.url), logger: Self.logger)
            do {
                let result = try await withRunning([store.client]) {
                    try await store.migrate()
                    return try await body(store)
                }
                await database.drop()
                return result
            } catch {
                await database.drop()
                throw error
            }
        }
    }
}
