import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// ``HTTPTransport`` over AsyncHTTPClient (SwiftNIO): one connection pool shared by the API
/// clients, keeping connections alive.
///
/// Foundation's `URLSession` on Linux (libcurl) was measured spending most of a core while a
/// request waits for its answer; a long-polling worker has one waiting almost all the time, so
/// the transport is NIO's, which sleeps in epoll instead.
public final class NIOHTTPTransport: HTTPTransport {
    private let client: HTTPClient
    private let maximumBodySize: Int

    /// - Parameters:
    ///   - maximumConnectionsPerHost: connections kept to one host; more requests wait for one.
    ///   - maximumBodySize: answers larger than this fail instead of filling memory.
    public init(maximumConnectionsPerHost: Int = 32, maximumBodySize: Int = 4 << 20) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnectionsPerHost)
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: .seconds(10))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.maximumBodySize = maximumBodySize
    }

    deinit {
        // The pool closes its connections in the background; nothing waits for it.
        client.shutdown { _ in }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let host = request.url.host ?? "unknown host"
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == .get ? .GET : .POST
        for (name, value) in request.headers {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let timeout = TimeAmount.nanoseconds(Int64(request.timeout.timeInterval * 1e9))
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: maximumBodySize)
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                headers[name.lowercased()] = value
            }
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            throw TransportError(error, host: host)
        }
    }

    /// Closes the pool's connections; the transport cannot be used afterwards.
    public func shutdown() async throws {
        try await client.shutdown().get()
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
        if error is CancellationError {
            self.init(code: .cancelled, host: host, reason: "cancelled")
            return
        }
        if let error = error as? HTTPClientError {
            let code: Code
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                code = .timedOut
            case .cancelled, .requestStreamCancelled:
                code = .cancelled
            case .remoteConnectionClosed, .invalidProxyResponse, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                code = .connectionFailed
            default:
                code = .other
            }
            self.init(code: code, host: host, reason: Self.kind(of: error))
            return
        }
        // NIO's connection errors (refused, reset, unreachable) and the like.
        self.init(code: .connectionFailed, host: host, reason: "\(type(of: error))")
    }

    /// «HTTPClientError.deadlineExceeded»: the case name, without any associated value.
    private static func kind(of error: HTTPClientError) -> String {
        let text = String(describing: error)
        let name = text.prefix { $0 != "(" && $0 != ":" }
        return String(name.prefix(80))
    }
}

extension Duration {
    /// The duration in seconds.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
