import AsyncHTTPClient
import BotClock
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
public import NIOSSL

/// ``HTTPTransport`` on AsyncHTTPClient: kept-alive connections in its pool, TLS for https, an
/// optional HTTP or SOCKS5 proxy, and each answer collected whole.
///
/// AsyncHTTPClient never writes a request twice: when a kept-alive connection closes after the
/// request went out, the request fails (``TransportError/Code/connectionFailed``) and the caller
/// decides, so a `sendMessage` is never repeated behind the outbox's back.
public final class AsyncHTTPTransport: HTTPTransport {
    private let client: HTTPClient
    private let maximumBodySize: Int

    /// - Parameters:
    ///   - proxy: where every request goes through; nil for direct connections.
    ///   - maximumBodySize: answers larger than this fail instead of filling memory.
    ///   - tls: the TLS settings for https (tests add their own trust roots); nil for the system's.
    public init(
        proxy: HTTPProxy? = nil,
        maximumBodySize: Int = 4 << 20,
        connectTimeout: Duration = .seconds(10),
        tls: TLSConfiguration? = nil
    ) {
        self.maximumBodySize = maximumBodySize
        var pool = HTTPClient.Configuration.ConnectionPool(
            // Servers close idle connections after a minute or so; ours are dropped a little earlier.
            idleTimeout: .seconds(50),
            // The long poll holds one connection to Telegram while the sender uses others.
            concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
        // A connection that cannot be made fails its request at once. Retrying in the pool would
        // knock on a proxy that refused the credentials a dozen times a second until the deadline;
        // the poller and the sender back off on their own and log why.
        pool.retryConnectionEstablishment = false
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // A redirect from an API is an answer to report, not a place to send the token.
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(Int64(connectTimeout.timeInterval * 1e9))),
            connectionPool: pool,
            proxy: proxy.map(Self.proxy),
            decompression: .disabled)
        // The bot talks to two HTTP/1.1 APIs; HTTP/2 negotiation would only add a code path.
        configuration.httpVersion = .http1Only
        // No spans: nothing collects them, and making them costs CPU on every request.
        configuration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroup: Self.eventLoop, configuration: configuration)
    }

    /// One I/O thread for every connection, shared and never shut down. A request is a few
    /// microseconds of its work; a second thread only added hand-overs between threads, on a
    /// machine whose cores the chats and the database need.
    static let eventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    deinit {
        // A transport dropped without `shutdown()` still closes its connections. The client keeps
        // itself alive until that is done; a second shutdown only reports that it already was.
        client.shutdown(queue: .global()) { _ in }
    }

    /// Closes the pool's connections; requests still running fail.
    public func shutdown() async throws {
        do {
            try await client.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            // Shut down before: nothing left to do.
        }
    }

    private static func proxy(_ proxy: HTTPProxy) -> HTTPClient.Configuration.Proxy {
        switch proxy.kind {
        case .http:
            let authorization = proxy.username.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
            return .server(host: proxy.host, port: proxy.port, authorization: authorization)
        case .socks5:
            return .socksServer(host: proxy.host, port: proxy.port)
        }
    }

    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let host = request.url.host ?? "unknown host"
        do {
            guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https", request.url.host != nil else {
                throw TransportError(code: .other, host: host, reason: "not an http or https URL")
            }
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = request.method == .get ? .GET : .POST
            for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
            if let body = request.body {
                outgoing.body = .bytes(ByteBuffer(bytes: body))
            }
            let deadline = NIODeadline.now() + .nanoseconds(Int64(request.timeout.timeInterval * 1e9))
            let response = try await client.execute(outgoing, deadline: deadline)
            let limit = request.maximumBodySize ?? maximumBodySize
            var body = ByteBuffer()
            // Left unread, the body is cancelled with its connection when the response goes.
            if request.readsBody {
                for try await var part in response.body {
                    body.writeBuffer(&part)
                    if body.readableBytes > limit {
                        // Leaving the loop cancels the rest of the answer and closes its connection.
                        throw TransportError(
                            code: .tooLarge, host: host, reason: "the answer is larger than allowed",
                            bodyStart: Data(body.readableBytesView.prefix(256)))
                    }
                }
            }
            var headers: [String: String] = [:]
            for (name, value) in response.headers { headers[name.lowercased()] = value }
            return TransportResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            throw TransportError(error, host: host)
        }
    }
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
        case let error as HTTPClientError where error == .cancelled:
            code = .cancelled
        case let error as HTTPClientError where [.deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout].contains(error):
            code = .timedOut
        case ChannelError.connectTimeout:
            code = .timedOut
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            code = .certificateRejected
        case let error as NIOSSLError where "\(error)".contains("CERTIFICATE_VERIFY_FAILED"):
            code = .certificateRejected
        default:
            // Refused, reset, closed, unreachable, TLS and proxy failures.
            code = .connectionFailed
        }
        self.init(code: code, host: host, reason: Self.kind(of: error))
    }

    /// «HTTPClientError.connectTimeout»: the type and case name, without any associated value.
    private static func kind(of error: any Error) -> String {
        if let error = error as? HTTPClientError {
            // Its description is already the type and the case, with nothing from the request.
            return String(error.description.prefix { $0 != "(" && $0 != ":" }.prefix(80))
        }
        let text = String(describing: error)
        let name = text.prefix { $0 != "(" && $0 != ":" }
        return "\(type(of: error)).\(name.prefix(60))"
    }
}
