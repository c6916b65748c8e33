public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/1.1 server on 127.0.0.1 with an ephemeral port, answering every request with an async
/// handler. For tests and benchmarks: the fake Telegram and OpenWeather run on it.
///
/// A channel handler of its own rather than Hummingbird: served by Hummingbird, the benchmark's
/// fake Telegram took a fifth more CPU on the two cores it shares with the worker, and the
/// worker's throughput fell with it (BENCHMARKS.md).
public final class LoopbackServer: Sendable {
    /// Answers one request; ``LoopbackResponse/noAnswer`` closes the connection instead.
    public typealias Handler = @Sendable (LoopbackRequest) async -> LoopbackResponse

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let log: RequestLog?
    /// Requests being answered: their answers are written on the event loop, which must outlive them.
    private let answering: Answering
    /// The port the server listens on.
    public let port: Int

    private let secure: Bool

    /// The server's base URL, such as `http://127.0.0.1:40123` (`https://` with TLS).
    public var url: URL { URL(string: "\(secure ? "https" : "http")://127.0.0.1:\(port)")! }

    /// Every request received so far, in order of arrival (empty when not recording).
    public var requests: [LoopbackRequest] { log?.requests.withLock { $0 } ?? [] }

    /// - Parameters:
    ///   - recording: whether to keep every request for ``requests``; benchmarks turn it off.
    ///   - tls: serve https with ``LoopbackTLS``'s certificate for 127.0.0.1.
    ///   - port: the port to listen on; 0 for one the system chooses.
    public init(threads: Int = 1, recording: Bool = true, tls: Bool = false, port: Int = 0, handler: @escaping Handler) async throws {
        let log = recording ? RequestLog() : nil
        let answering = Answering()
        self.answering = answering
        secure = tls
        let context = tls ? try LoopbackTLS.serverContext() : nil
        self.log = log
        let handler: Handler = { request in
            log?.requests.withLock { $0.append(request) }
            return await handler(request)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let context { try pipeline.addHandler(NIOSSLServerHandler(context: context)) }
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(RequestHandler(handler: handler, answering: answering))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
            self.channel = channel
            self.port = channel.localAddress?.port ?? 0
            self.group = group
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// A port nothing listens on now: the one the system chose for a server that then stopped,
    /// for a process that must be told its port before it starts.
    public static func freePort() async throws -> Int {
        let server = try await LoopbackServer(recording: false) { _ in LoopbackResponse(body: Data()) }
        let port = server.port
        await server.shutdown()
        return port
    }

    /// Closes the listening socket and every connection.
    public func shutdown() async {
        try? await channel.close()
        // A handler still working (a long poll) writes its answer on the event loop when it ends:
        // the loop stays up until it has, for a few seconds at most.
        let deadline = ContinuousClock.now + .seconds(5)
        while answering.count.withLock({ $0 }) > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        try? await group.shutdownGracefully()
    }
}

private final class RequestLog: Sendable {
    let requests = Mutex<[LoopbackRequest]>([])
}

private final class Answering: Sendable {
    let count = Mutex(0)
}

private final class RequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let handler: LoopbackServer.Handler
    private let answering: Answering
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(handler: @escaping LoopbackServer.Handler, answering: Answering) {
        self.handler = handler
        self.answering = answering
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            let request = Self.request(head, body: Data(body.readableBytesView))
            let keepAlive = head.isKeepAlive
            let version = head.version
            let handler = handler
            let loop = context.eventLoop
            let promise = loop.makePromise(of: LoopbackResponse.self)
            let answering = answering
            answering.count.withLock { $0 += 1 }
            promise.completeWithTask { await handler(request) }
            let boundContext = NIOLoopBound(context, eventLoop: loop)
            promise.futureResult.whenSuccess { response in
                if response.dropsConnection {
                    boundContext.value.close(promise: nil)
                    return
                }
                Self.write(response, version: version, keepAlive: keepAlive, context: boundContext.value)
            }
            // After the answer is written: the loop is needed until then.
            promise.futureResult.whenComplete { _ in answering.count.withLock { $0 -= 1 } }
        }
    }

    private static func write(_ response: LoopbackResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        let done = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private static func request(_ head: HTTPRequestHead, body: Data) -> LoopbackRequest {
        let components = URLComponents(string: head.uri)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        return LoopbackRequest(
            method: head.method.rawValue, path: components?.path ?? head.uri, query: query, headers: headers, body: body)
    }
}
