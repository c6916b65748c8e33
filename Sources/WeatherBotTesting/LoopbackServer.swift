public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// An HTTP/1.1 server on 127.0.0.1 with an ephemeral port, answering every request with an async
/// handler: Hummingbird, as the bot's own endpoints are served. For tests and benchmarks: the fake
/// Telegram and OpenWeather run on it.
public final class LoopbackServer: Sendable {
    public typealias Handler = @Sendable (LoopbackRequest) async -> LoopbackResponse

    private let group: MultiThreadedEventLoopGroup
    private let running: Task<Void, Never>
    private let log: RequestLog?
    private let secure: Bool
    /// The port the server listens on.
    public let port: Int

    /// The server's base URL, such as `http://127.0.0.1:40123` (`https://` with TLS).
    public var url: URL { URL(string: "\(secure ? "https" : "http")://127.0.0.1:\(port)")! }

    /// Every request received so far, in order of arrival (empty when not recording).
    public var requests: [LoopbackRequest] { log?.requests.withLock { $0 } ?? [] }

    /// - Parameters:
    ///   - threads: the event loops serving connections.
    ///   - recording: whether to keep every request for ``requests``; benchmarks turn it off.
    ///   - tls: serve https with ``LoopbackTLS``'s certificate for 127.0.0.1.
    public init(threads: Int = 1, recording: Bool = true, tls: Bool = false, handler: @escaping Handler) async throws {
        let log = recording ? RequestLog() : nil
        secure = tls
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let (listening, listens) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "weatherbot.loopback")
        logger.logLevel = .critical
        let application = Application(
            responder: Responder { request in
                log?.requests.withLock { $0.append(request) }
                return await handler(request)
            },
            server: tls ? try .tls(.http1(), tlsConfiguration: LoopbackTLS.serverConfiguration()) : .http1(),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), backlog: 256, reuseAddress: true),
            onServerRunning: { channel in
                listens.yield(channel.localAddress?.port ?? 0)
                listens.finish()
            },
            eventLoopGroupProvider: .shared(group), logger: logger)
        // A server that cannot listen ends at once, and the stream with it.
        running = Task {
            try? await application.run()
            listens.finish()
        }
        var ports = listening.makeAsyncIterator()
        guard let port = await ports.next() else {
            running.cancel()
            try? await group.shutdownGracefully()
            throw CannotListen()
        }
        self.port = port
        self.log = log
        self.group = group
    }

    /// The server did not start listening.
    struct CannotListen: Error {}

    /// A port nothing listens on now: the one the system chose for a server that then stopped,
    /// for a process that must be told its port before it starts.
    public static func freePort() async throws -> Int {
        let server = try await LoopbackServer(recording: false) { _ in LoopbackResponse(body: Data()) }
        let port = server.port
        await server.shutdown()
        return port
    }

    /// Closes the listening socket and every connection; a handler still working (a long poll)
    /// is cancelled.
    public func shutdown() async {
        running.cancel()
        await running.value
        try? await group.shutdownGracefully()
    }
}

private final class RequestLog: Sendable {
    let requests = Mutex<[LoopbackRequest]>([])
}

/// A request's context: the channel too, so that an answer can be no answer at all.
struct LoopbackContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}

/// Every request, whatever its method and path, to the handler.
private struct Responder: HTTPResponder {
    let handler: LoopbackServer.Handler

    func respond(to request: Request, context: LoopbackContext) async throws -> Response {
        let body = try await request.body.collect(upTo: .max)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        let answer = await handler(LoopbackRequest(
            method: request.method.rawValue, path: request.uri.path, query: query, headers: headers, body: Data(body.readableBytesView)))
        if answer.dropsConnection {
            // Closed before anything is written: the client sees its connection end mid-request.
            try? await context.channel.close()
            throw CancellationError()
        }
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
