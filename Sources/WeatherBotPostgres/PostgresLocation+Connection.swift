public import Logging
import PostgresNIO
import NIOSSL

extension PostgresLocation {
    /// Opens one connection, outside any pool, and closes it again: the server answers and takes
    /// the user and password, or the error says why not. (A client's pool keeps trying instead,
    /// and whoever waits for a connection waits as long.)
    public func checkConnection(logger: Logger) async throws {
        let tls: PostgresConnection.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer(let configuration): .prefer(try NIOSSLContext(configuration: configuration))
            case .require(let configuration): .require(try NIOSSLContext(configuration: configuration))
            }
        var single = PostgresConnection.Configuration(
            host: configuration.host ?? "localhost", port: configuration.port ?? 5432, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: tls)
        single.options.tlsServerName = configuration.options.tlsServerName
        let connection = try await PostgresConnection.connect(configuration: single, id: 0, logger: logger)
        try await connection.close()
    }
}
