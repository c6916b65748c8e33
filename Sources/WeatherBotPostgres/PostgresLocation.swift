import Foundation
import NIOSSL
public import PostgresNIO

/// Where the PostgreSQL database is, from a URL such as
/// `postgres://user:password@host:5432/name?sslmode=require`: the client's configuration, and a
/// description that never shows the password.
///
/// `sslmode` reads as libpq's: `disable`; `prefer` (the default: TLS when the server offers it);
/// `require` (TLS, the certificate not checked); `verify-ca` and `verify-full` (TLS with the
/// certificate checked against the system's roots, or `sslrootcert`'s; `verify-full` also checks
/// the host's name).
public struct PostgresLocation: Sendable, CustomStringConvertible {
    /// What PostgresNIO's client connects with: host, port (5432 when the URL names none), user, password, database and TLS.
    public var configuration: PostgresClient.Configuration
    /// The URL without its password.
    public let description: String
    /// The TLS the configuration asks for, as a single connection outside the pool is made with it.
    let tls: TLS

    enum TLS: Sendable {
        case disable
        case prefer(TLSConfiguration)
        case require(TLSConfiguration)
    }

    /// The URL cannot be used: not `postgres://` or `postgresql://`, no host, user or database, or an unknown `sslmode`.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong with the URL, in one line; it never quotes the password.
        public var description: String
    }

    /// Reads `text` as a PostgreSQL URL; the port defaults to 5432 and `sslmode` to `prefer`. Nothing connects yet.
    /// - Throws: ``Invalid`` for a URL that is not one, or lacks a host, a user or a database, or names an unknown `sslmode`.
    public init(url text: String) throws(Invalid) {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw Invalid(description: "not a postgres:// URL")
        }
        guard let host = url.host, !host.isEmpty else { throw Invalid(description: "the URL names no host") }
        guard let user = url.user, !user.isEmpty else { throw Invalid(description: "the URL names no user") }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        guard !database.isEmpty else { throw Invalid(description: "the URL names no database") }
        let parameters = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        switch parameters["sslmode"]?.lowercased() ?? "prefer" {
        case "disable":
            tls = .disable
        case "prefer", "allow":
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            tls = .prefer(unchecked)
        case "require":
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            tls = .require(unchecked)
        case let mode where mode == "verify-ca" || mode == "verify-full":
            var checked = TLSConfiguration.makeClientConfiguration()
            checked.certificateVerification = mode == "verify-full" ? .fullVerification : .noHostnameVerification
            if let root = parameters["sslrootcert"], !root.isEmpty { checked.trustRoots = .file(root) }
            tls = .require(checked)
        case let other:
            throw Invalid(description: "sslmode \(other) is not one of disable, prefer, require, verify-ca, verify-full")
        }
        let clientTLS: PostgresClient.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer(let configuration): .prefer(configuration)
            case .require(let configuration): .require(configuration)
            }
        configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user, password: url.password, database: database, tls: clientTLS)
        var shown = url
        if shown.password != nil { shown.password = "***" }
        description = shown.string ?? "postgres://\(host)/\(database)"
    }
}
