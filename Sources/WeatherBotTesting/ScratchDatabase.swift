import Foundation
import Logging
import PostgresNIO
import WeatherBotPostgres

/// An empty database created on a server for one test or benchmark run, and dropped after it.
public struct ScratchDatabase: Sendable {
    /// The database's URL: the server's, with the database's name.
    public let url: String
    private let server: PostgresLocation
    private let name: String

    /// Creates a database named `prefix` and a random suffix on the server `serverURL` names.
    public static func create(on serverURL: String, prefix: String) async throws -> ScratchDatabase {
        let server = try PostgresLocation(url: serverURL)
        let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
        guard var components = URLComponents(string: serverURL) else { throw NotAURL(url: serverURL) }
        components.path = "/" + name
        try await Self.withServer(server) { client, logger in try await client.query("CREATE DATABASE \(unescaped: name)", logger: logger) }
        return ScratchDatabase(url: components.string ?? serverURL, server: server, name: name)
    }

    /// Drops the database, whoever is still connected to it.
    public func drop() async {
        try? await Self.withServer(server) { [name] client, logger in
            try await client.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)", logger: logger)
        }
    }

    /// The server's URL does not read as a URL.
    struct NotAURL: Error {
        var url: String
    }

    private static func withServer(_ server: PostgresLocation, _ body: (PostgresClient, Logger) async throws -> Void) async throws {
        var logger = Logger(label: "weatherbot.postgres.scratch")
        logger.logLevel = .critical
        let client = PostgresClient(configuration: server.configuration, backgroundLogger: logger)
        try await withRunning([client]) { try await body(client, logger) }
    }
}
