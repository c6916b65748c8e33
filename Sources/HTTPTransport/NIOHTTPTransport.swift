import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// ``HTTPTransport`` straight on SwiftNIO: HTTP/1.1 over kept-alive connections, one request at a
/// time on each, TLS for https.
///
/// Foundation's `URLSession` on Linux (libcurl) was measured spending most of a core while a
/// request waits for its answer, and AsyncHTTPClient spent more CPU per request than the rest of
/// an answer's HTTP work together (its request state machines, pool manager and streamed bodies).
/// The bot's requests are small and answered whole, so this transport writes each request in one
/// flush and collects each answer in one buffer, and nothing else.
public final class NIOHTTPTransport: HTTPTransport {
    private struct Key: Hashable {
        var host: String
        var port: Int
        var secure: Bool
    }

    private struct Idle {
        var connection: Connection
        var since: NIODeadline
    }

    private let group: any EventLoopGroup
    private let maximumBodySize: Int
    private let maximumIdlePerHost: Int
    private let connectTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let idle = Mutex<[Key: [Idle]]>([:])
    private let tls = Mutex<NIOSSLContext?>(nil)

    /// - Parameters:
    ///   - maximumIdlePerHost: connections kept open to one host between requests.
    ///   - maximumBodySize: answers larger than this fail instead of filling memory.
    public init(maximumIdlePerHost: Int = 32, maximumBodySize: Int = 4 << 20, connectTimeout: Duration = .seconds(10)) {
        group = Self.eventLoop
        self.maximumBodySize = maximumBodySize
        self.maximumIdlePerHost = maximumIdlePerHost
        self.connectTimeout = .nanoseconds(Int64(connectTimeout.timeInterval * 1e9))
        // Servers close idle connections after a minute or so; ours are dropped a little earlier.
        idleTimeout = .seconds(50)
    }

    /// One I/O thread for every connection, shared and never shut down. A request is a few
    /// microseconds of its work; a second thread only added hand-overs between threads, on a
    /// machine whose cores the chats and the database need.
    static let eventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    deinit {
        for connection in idle.withLock({ $0.values.flatMap { $0 } }) {
            connection.connection.channel.close(promise: nil)
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let host = request.url.host ?? "unknown host"
        do {
            guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https", request.url.host != nil else {
                throw TransportError(code: .other, host: host, reason: "not an http or https URL")
            }
            let secure = scheme == "https"
            let key = Key(host: host, port: request.url.port ?? (secure ? 443 : 80), secure: secure)
            let deadline = NIODeadline.now() + .nanoseconds(Int64(request.timeout.timeInterval * 1e9))
            let outgoing = Outgoing(request, key: key)
            if let connection = takeIdle(key) {
                do {
                    return try await exchange(outgoing, on: connection, key: key, deadline: deadline)
                } catch ExchangeError.closedBeforeAnswer {
                    // The server had closed the kept-alive connection: nothing reached it, try a new one.
                }
            }
            let connection = try await connect(key, deadline: deadline)
            return try await exchange(outgoing, on: connection, key: key, deadline: deadline)
        } catch {
            throw TransportError(error, host: host)
        }
    }

    /// Closes the idle connections; requests still running finish on theirs.
    public func shutdown() async throws {
        let connections = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle.values.flatMap { $0 }
        }
        for connection in connections {
            try? await connection.connection.channel.close()
        }
    }

    // MARK: Connections

    private func takeIdle(_ key: Key) -> Connection? {
        let now = NIODeadline.now()
        var stale: [Connection] = []
        let found: Connection? = idle.withLock { idle in
            while let last = idle[key]?.popLast() {
                if last.connection.channel.isActive && now - last.since < idleTimeout { return last.connection }
                stale.append(last.connection)
            }
            return nil
        }
        for connection in stale { connection.channel.close(promise: nil) }
        return found
    }

    private func giveBack(_ connection: Connection, _ key: Key) {
        let kept = idle.withLock { idle in
            guard idle[key, default: []].count < maximumIdlePerHost else { return false }
            idle[key, default: []].append(Idle(connection: connection, since: .now()))
            return true
        }
        if !kept { connection.channel.close(promise: nil) }
    }

    private func connect(_ key: Key, deadline: NIODeadline) async throws -> Connection {
        let collector = ResponseCollector(maximumBodySize: maximumBodySize)
        let context = key.secure ? try tlsContext() : nil
        let timeout = min(connectTimeout, max(deadline - .now(), .milliseconds(1)))
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let context {
                        try pipeline.addHandler(NIOSSLClientHandler(context: context, serverHostname: key.host))
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(collector)
                }
            }
        let channel = try await bootstrap.connect(host: key.host, port: key.port).get()
        return Connection(channel: channel, collector: collector)
    }

    private func tlsContext() throws -> NIOSSLContext {
        try tls.withLock { tls in
            if let tls { return tls }
            let context = try NIOSSLContext(configuration: .makeClientConfiguration())
            tls = context
            return context
        }
    }

    // MARK: One exchange

    /// A request ready to write.
    private struct Outgoing: Sendable {
        var head: HTTPRequestHead
        var body: ByteBuffer?
        var maximumBodySize: Int?

        init(_ request: HTTPRequest, key: Key) {
            maximumBodySize = request.maximumBodySize
            let path = request.url.path(percentEncoded: true)
            var target = path.isEmpty ? "/" : path
            if let query = request.url.query(percentEncoded: true) { target += "?" + query }
            var headers = HTTPHeaders()
            let defaultPort = key.secure ? 443 : 80
            headers.add(name: "Host", value: key.port == defaultPort ? key.host : "\(key.host):\(key.port)")
            for (name, value) in request.headers { headers.add(name: name, value: value) }
            if let body = request.body {
                headers.add(name: "Content-Length", value: String(body.count))
                self.body = ByteBuffer(bytes: body)
            }
            head = HTTPRequestHead(version: .http1_1, method: request.method == .get ? .GET : .POST, uri: target, headers: headers)
        }
    }

    private func exchange(_ outgoing: Outgoing, on connection: Connection, key: Key, deadline: NIODeadline) async throws -> HTTPResponse {
        let channel = connection.channel
        let collector = connection.collector
        let promise = channel.eventLoop.makePromise(of: Answer.self)
        channel.eventLoop.execute {
            collector.begin(promise, channel: channel, deadline: deadline, maximumBodySize: outgoing.maximumBodySize)
            guard channel.isActive else {
                collector.fail(ExchangeError.closedBeforeAnswer)
                return
            }
            channel.write(HTTPClientRequestPart.head(outgoing.head), promise: nil)
            if let body = outgoing.body { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
        let answer = try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            channel.eventLoop.execute {
                collector.fail(CancellationError())
                channel.close(promise: nil)
            }
        }
        if answer.keepAlive {
            giveBack(connection, key)
        } else {
            channel.close(promise: nil)
        }
        return answer.response
    }
}

/// A connection and the handler that collects its answers.
private struct Connection: Sendable {
    var channel: any Channel
    var collector: ResponseCollector
}

/// A whole answer, and whether its connection may carry another request.
private struct Answer: Sendable {
    var response: HTTPResponse
    var keepAlive: Bool
}

/// Why an exchange failed below HTTP.
enum ExchangeError: Error {
    /// The connection closed before any of the answer arrived.
    case closedBeforeAnswer
    /// The connection closed in the middle of the answer.
    case closedDuringAnswer
    case timedOut
    /// The answer passed the request's limit; its first bytes.
    case bodyTooLarge(start: Data)
}

/// Collects one answer at a time from its connection. Used only on the connection's event loop.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let defaultMaximumBodySize: Int
    private var maximumBodySize: Int
    private var promise: EventLoopPromise<Answer>?
    private var timeout: Scheduled<Void>?
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?

    init(maximumBodySize: Int) {
        self.defaultMaximumBodySize = maximumBodySize
        self.maximumBodySize = maximumBodySize
    }

    func begin(_ promise: EventLoopPromise<Answer>, channel: any Channel, deadline: NIODeadline, maximumBodySize: Int?) {
        self.promise = promise
        self.maximumBodySize = maximumBodySize ?? defaultMaximumBodySize
        head = nil
        body = nil
        timeout = channel.eventLoop.scheduleTask(deadline: deadline) { [weak self] in
            self?.fail(ExchangeError.timedOut)
            channel.close(promise: nil)
        }
    }

    /// Fails the answer in progress, if any; a promise is completed once only.
    func fail(_ error: any Error) {
        guard let promise else { return }
        finish()
        promise.fail(error)
    }

    private func finish() {
        timeout?.cancel()
        timeout = nil
        promise = nil
        head = nil
        body = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var part):
            if body == nil {
                body = part
            } else {
                body!.writeBuffer(&part)
            }
            if let body, body.readableBytes > maximumBodySize {
                fail(ExchangeError.bodyTooLarge(start: Data(body.readableBytesView.prefix(256))))
                context.close(promise: nil)
            }
        case .end:
            guard let promise, let head else { return }
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let bytes = body.map { Data($0.readableBytesView) } ?? Data()
            let answer = Answer(response: HTTPResponse(status: Int(head.status.code), headers: headers, body: bytes), keepAlive: head.isKeepAlive)
            finish()
            promise.succeed(answer)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(head == nil ? ExchangeError.closedBeforeAnswer : ExchangeError.closedDuringAnswer)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
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
        case ExchangeError.timedOut, ChannelError.connectTimeout:
            code = .timedOut
        case ExchangeError.bodyTooLarge(let start):
            self.init(code: .tooLarge, host: host, reason: "the answer is larger than allowed", bodyStart: start)
            return
        default:
            // Refused, reset, closed, unreachable, TLS failures.
            code = .connectionFailed
        }
        self.init(code: code, host: host, reason: Self.kind(of: error))
    }

    /// «ChannelError.connectTimeout»: the type and case name, without any associated value.
    private static func kind(of error: any Error) -> String {
        let text = String(describing: error)
        let name = text.prefix { $0 != "(" && $0 != ":" }
        return "\(type(of: error)).\(name.prefix(60))"
    }
}

extension Duration {
    /// The duration in seconds.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
