import Foundation
import Logging
import PostgresNIO
import Testing
import WeatherBotPostgres
import WeatherBotStore

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
            let server = try #require(Self.serverURL)
            let name = "weatherbot_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20))"
            try await Self.withServer(server) { client in
                try await client.query("CREATE DATABASE \(unescaped: name)", logger: Self.logger)
            }
            let drop = { try await Self.withServer(server) { try await $0.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)", logger: Self.logger) } }
            var url = try #require(URLComponents(string: server))
            url.path = "/" + name
            let store = PostgresStore(try PostgresLocation(url: try #require(url.string)), logger: Self.logger)
            do {
                let result = try await Self.running(store.client) {
                    try await store.migrate()
                    return try await body(store)
                }
                try await drop()
                return result
            } catch {
                try? await drop()
                throw error
            }
        }
    }

    /// Runs `body` with a client of the server's test database.
    static func withServer<T>(_ url: String, _ body: (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: try PostgresLocation(url: url).configuration, backgroundLogger: logger)
        return try await running(client) { try await body(client) }
    }

    /// Runs `body` while the client's pool runs.
    static func running<T>(_ client: PostgresClient, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}
