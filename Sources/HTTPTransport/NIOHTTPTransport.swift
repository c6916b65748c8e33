import Foundation
import NIOCore
import NIOPosix
public import NIOSSL

/// ``HTTPTransport`` on SwiftNIO: HTTP/1.1 over kept-alive connections, TLS for https, an
/// optional HTTP or SOCKS5 proxy, each answer collected whole on the connection's event loop and
/// handed to the task that waits for it once.
///
/// Written for this bot, whose requests are small and answered whole, because AsyncHTTPClient's
/// own machinery (request state machines, the pool manager, bodies streamed between tasks) cost
/// twice what the bot's exchanges need: the floor of the benchmark's peer scenario, the same long
/// polls and replies on either client, read 0.61 against 0.31 ms of CPU per update at 20 a second
/// and 0.34 against 0.17 ms at 200 a second (BENCHMARKS.md, "The floor").
///
/// A request is written at most once: when its connection closes before the whole answer came,
/// the request fails (``TransportError/Code/connectionFailed``) and the caller decides, so a
/// `sendMessage` is never repeated behind the outbox's back. A kept-alive connection found closed
/// before anything was written is replaced. Every connection lives on one event loop
/// (``LoopExecutor``): work that prefers that executor sends and is answered without a thread
/// hand-off.
public final class NIOHTTPTransport: HTTPTransport, Sendable {
    /// One I/O thread for every connection of every transport, shared and never shut down. A
    /// request is a few microseconds of its work; a second thread only adds hand-overs.
    static let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    private let pool: ConnectionPool

    /// - Parameters:
    ///   - proxy: where every request goes through; nil for direct connections.
    ///   - maximumBodySize: answers larger than this, in bytes (4 MiB by default), fail instead of
    ///     filling memory; a request may set its own.
    ///   - connectTimeout: how long making a connection (with the proxy's and TLS's handshakes) may
    ///     take before the request fails as timed out.
    ///   - tls: the TLS settings for https (tests add their own trust roots); nil for the system's.
    public init(
        proxy: HTTPProxy? = nil,
        maximumBodySize: Int = 4 << 20,
        connectTimeout: Duration = .seconds(10),
        tls: TLSConfiguration? = nil
    ) {
        pool = ConnectionPool(
            loop: LoopExecutor.shared.loop,
            settings: ConnectionPool.Settings(
                proxy: proxy, maximumBodySize: maximumBodySize, connectTimeout: connectTimeout,
                tls: tls ?? .makeClientConfiguration(),
                // Servers close idle connections after a minute or so; ours are dropped a little earlier.
                idleTimeout: .seconds(50),
                // The long poll holds one connection to Telegram while the sender uses others.
                connectionsPerHost: 32))
    }

    deinit {
        // A transport dropped without `shutdown()` still closes its connections.
        let pool = pool
        pool.loop.execute { pool.shutdown() }
    }

    /// Closes the pool's connections; requests still waiting or running fail.
    public func shutdown() async throws {
        let pool = pool
        try await pool.loop.submit { pool.shutdown() }.get()
    }

    /// Sends `request` and waits for the whole answer, whatever its status: a 4xx or 5xx is a
    /// response, not an error. Throws ``TransportError`` for anything else: a URL that is not http
    /// or https (``TransportError/Code/other``), no connection, a timeout, a body over the limit,
    /// or the task's cancellation (a request already written then loses its connection with it).
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let host = request.url.host ?? "unknown host"
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https", let name = request.url.host, !name.isEmpty else {
            throw TransportError(code: .other, host: host, reason: "not an http or https URL")
        }
        let pool = pool
        let promise = pool.loop.makePromise(of: TransportResponse.self)
        let exchange = Exchange(request: request, target: Target(scheme: scheme, url: request.url, host: name), promise: promise)
        do {
            return try await withTaskCancellationHandler {
                if pool.loop.inEventLoop { pool.start(exchange) } else { pool.loop.execute { pool.start(exchange) } }
                return try await promise.futureResult.get()
            } onCancel: {
                pool.loop.execute { exchange.fail(TransportError(code: .cancelled, host: host, reason: "cancelled")) }
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(error, host: host)
        }
    }
}

/// Where a request goes: its scheme, host and port, and the request target written in its head.
struct Target: Hashable, Sendable {
    var scheme: String
    var host: String
    var port: Int
    /// The path and query as the URL has them, percent-encoded.
    var uri: String

    init(scheme: String, url: URL, host: String) {
        self.scheme = scheme
        // Square brackets belong to the URL, not to the address.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = url.port ?? (scheme == "https" ? 443 : 80)
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true)
        uri = (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "")
    }

    var isSecure: Bool { scheme == "https" }

    /// The `Host` header: the port only when it is not the scheme's own.
    var hostHeader: String {
        port == (isSecure ? 443 : 80) ? shownHost : "\(shownHost):\(port)"
    }

    /// The host as a Host header or a CONNECT target writes it: an IPv6 address in brackets.
    var shownHost: String { host.contains(":") ? "[\(host)]" : host }

    /// Connections are shared by requests to the same scheme, host and port.
    var key: String { "\(scheme)://\(host):\(port)" }
}

extension TransportError {
    /// Classifies whatever the HTTP stack threw. Only the error's kind is kept: some describe the
    /// request, whose URL may hold a secret.
    init(_ error: any Error, host: String) {
        if let error = error as? TransportError {
            self = error
            return
        }
        let code: Code
        switch error {
        case is CancellationError:
            code = .cancelled
        case ChannelError.connectTimeout:
            code = .timedOut
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            code = .certificateRejected
        case let error as NIOSSLError where "\(error)".contains("CERTIFICATE_VERIFY_FAILED"):
            code = .certificateRejected
        case let refusal as ProxyRefused:
            self.init(code: .connectionFailed, host: host, reason: refusal.reason)
            return
        default:
            // Refused, reset, closed, unreachable, TLS and proxy failures.
            code = .connectionFailed
        }
        self.init(code: code, host: host, reason: Self.kind(of: error))
    }

    /// «NIOSSLError.handshakeFailed»: the type and case name, without any associated value.
    static func kind(of error: any Error) -> String {
        let text = String(describing: error)
        let name = text.prefix { $0 != "(" && $0 != ":" && $0 != " " }
        let type = String(describing: Swift.type(of: error))
        return name.hasPrefix(type) ? String(name.prefix(80)) : "\(type).\(name.prefix(60))"
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
