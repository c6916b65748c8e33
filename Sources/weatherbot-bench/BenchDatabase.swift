import Foundation
import Logging
import PostgresNIO
import WeatherBotPostgres

/// An empty database on a PostgreSQL server for one run of the worker, dropped after.
struct BenchDatabase: Sendable {
    let url: String
    private let server: String
    private let name: String

    init(server: String) async throws {
        let name = "weatherbot_bench_\(UInt32.random(in: 0...UInt32.max))"
        self.server = server
        self.name = name
        try await Self.withServer(server) { client, logger in try await client.query("CREATE DATABASE \(unescaped: name)", logger: logger) }
        guard var components = URLComponents(string: server) else { throw BenchDatabaseError.notAURL }
        components.path = "/" + name
        url = components.string ?? server
    }

    func drop() async {
        try? await Self.withServer(server) { client, logger in
            try await client.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)", logger: logger)
        }
    }

    private static func withServer(_ url: String, _ body: (PostgresClient, Logger) async throws -> Void) async throws {
        var logger = Logger(label: "weatherbot.bench.postgres")
        logger.logLevel = .critical
        let client = PostgresClient(configuration: try PostgresLocation(url: url).configuration, backgroundLogger: logger)
        let pool = Task { await client.run() }
        defer { pool.cancel() }
        try await Task.sleep(for: .milliseconds(50))
        try await body(client, logger)
    }
}

enum BenchDatabaseError: Error {
    case notAURL
}
