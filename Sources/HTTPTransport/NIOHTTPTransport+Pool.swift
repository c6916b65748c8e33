import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One request on its way: waiting for a connection, written, being answered. It completes once,
/// whichever comes first: its answer, its timeout, its cancellation, or its connection closing.
/// Lives on the pool's event loop.
final class Exchange: @unchecked Sendable {
    let request: TransportRequest
    let target: Target
    private var promise: EventLoopPromise<TransportResponse>?
    var timeout: Scheduled<Void>?
    /// The connection it was written on; nil while it waits for one.
    var connection: Connection?
    var status = 0
    var headers: [String: String] = [:]
    var body = ByteBuffer()

    init(request: TransportRequest, target: Target, promise: EventLoopPromise<TransportResponse>) {
        self.request = request
        self.target = target
        self.promise = promise
    }

    var isDone: Bool { promise == nil }

    func succeed() {
        guard let promise else { return }
        self.promise = nil
        timeout?.cancel()
        promise.succeed(TransportResponse(status: status, headers: headers, body: Data(body.readableBytesView)))
    }

    func fail(_ error: TransportError) {
        guard let promise else { return }
        self.promise = nil
        timeout?.cancel()
        promise.fail(error)
        // Whatever else its connection brings belongs to no one: the connection goes.
        if let connection {
            connection.exchange = nil
            connection.isReusable = false
            connection.channel.close(promise: nil)
        }
    }

    func fail(_ code: TransportError.Code, _ reason: String, bodyStart: Data? = nil) {
        fail(TransportError(code: code, host: target.host, reason: reason, bodyStart: bodyStart))
    }
}

/// A connection of the pool and the exchange it carries, if any.
final class Connection: @unchecked Sendable {
    let channel: any Channel
    let key: String
    var exchange: Exchange?
    /// False once the server asked to close it, or an exchange was given up on it.
    var isReusable = true
    var idleClose: Scheduled<Void>?

    init(channel: any Channel, key: String) {
        self.channel = channel
        self.key = key
    }
}

/// The connections of one transport, by scheme, host and port: kept alive between requests, at
/// most `connectionsPerHost` to one host (further requests wait their turn). Every member is used
/// on `loop` only.
final class ConnectionPool: @unchecked Sendable {
    struct Settings: Sendable {
        var proxy: HTTPProxy?
        var maximumBodySize: Int
        var connectTimeout: Duration
        var tls: TLSConfiguration
        var idleTimeout: Duration
        var connectionsPerHost: Int
    }

    let loop: any EventLoop
    let settings: Settings
    private var tlsContext: NIOSSLContext?
    private var idle: [String: [Connection]] = [:]
    /// Connections open or being opened, by key.
    private var opened: [String: Int] = [:]
    private var waiting: [String: [Exchange]] = [:]
    private var isShutDown = false

    init(loop: any EventLoop, settings: Settings) {
        self.loop = loop
        self.settings = settings
    }

    func start(_ exchange: Exchange) {
        guard !isShutDown else { return exchange.fail(.connectionFailed, "the transport was shut down") }
        exchange.timeout = loop.scheduleTask(in: TimeAmount(exchange.request.timeout)) {
            exchange.fail(.timedOut, "no answer within \(exchange.request.timeout)")
        }
        serve(exchange)
    }

    /// Closes the idle connections and fails every request waiting for one; a request under way
    /// finishes (or times out) on its connection, which then closes.
    func shutdown() {
        isShutDown = true
        for exchange in waiting.values.joined() { exchange.fail(.connectionFailed, "the transport was shut down") }
        waiting.removeAll()
        for connection in idle.values.joined() { connection.channel.close(promise: nil) }
        idle.removeAll()
    }

    private func serve(_ exchange: Exchange) {
        guard !exchange.isDone else { return }
        let key = exchange.target.key
        while let connection = idle[key]?.popLast() {
            connection.idleClose?.cancel()
            // One the server closed while it was idle is replaced: nothing was written on it yet.
            if connection.channel.isActive && connection.isReusable { return write(exchange, on: connection) }
        }
        guard opened[key, default: 0] < settings.connectionsPerHost else {
            waiting[key, default: []].append(exchange)
            return
        }
        opened[key, default: 0] += 1
        connect(exchange.target).whenComplete { result in
            switch result {
            case .success(let connection):
                if exchange.isDone { self.release(connection) } else { self.write(exchange, on: connection) }
            case .failure(let error):
                self.opened[key, default: 1] -= 1
                exchange.fail(TransportError(error, host: exchange.target.host))
                self.serveWaiting(key)
            }
        }
    }

    private func serveWaiting(_ key: String) {
        while var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            if !next.isDone { return serve(next) }
        }
    }

    private func write(_ exchange: Exchange, on connection: Connection) {
        connection.exchange = exchange
        exchange.connection = connection
        let request = exchange.request
        var head = HTTPRequestHead(version: .http1_1, method: request.method == .get ? .GET : .POST, uri: exchange.target.uri)
        head.headers.reserveCapacity(request.headers.count + 2)
        head.headers.add(name: "Host", value: exchange.target.hostHeader)
        for (name, value) in request.headers { head.headers.add(name: name, value: value) }
        if request.body != nil || request.method == .post { head.headers.add(name: "Content-Length", value: String(request.body?.count ?? 0)) }
        let channel = connection.channel
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body = request.body, !body.isEmpty {
            channel.write(HTTPClientRequestPart.body(.byteBuffer(channel.allocator.buffer(bytes: body))), promise: nil)
        }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil)).whenFailure { error in
            exchange.fail(TransportError(error, host: exchange.target.host))
        }
    }

    /// The answer on `connection` is complete: it carries the next request waiting for its host,
    /// waits idle for one, or closes.
    func finished(_ connection: Connection) {
        let exchange = connection.exchange
        connection.exchange = nil
        exchange?.connection = nil
        exchange?.succeed()
        release(connection)
    }

    private func release(_ connection: Connection) {
        guard connection.isReusable, connection.channel.isActive, !isShutDown else {
            connection.channel.close(promise: nil)
            return
        }
        if var queue = waiting[connection.key] {
            while !queue.isEmpty {
                let next = queue.removeFirst()
                if next.isDone { continue }
                waiting[connection.key] = queue.isEmpty ? nil : queue
                return write(next, on: connection)
            }
            waiting[connection.key] = nil
        }
        idle[connection.key, default: []].append(connection)
        connection.idleClose = loop.scheduleTask(in: TimeAmount(settings.idleTimeout)) {
            connection.isReusable = false
            connection.channel.close(promise: nil)
        }
    }

    /// The connection closed: its exchange, if any, failed; it is forgotten, and a request waiting
    /// for its host may open another.
    func closed(_ connection: Connection) {
        opened[connection.key, default: 1] -= 1
        connection.idleClose?.cancel()
        idle[connection.key]?.removeAll { $0 === connection }
        connection.isReusable = false
        connection.exchange?.fail(.connectionFailed, "the connection closed before the whole answer came")
        serveWaiting(connection.key)
    }

    // MARK: Opening connections

    private func connect(_ target: Target) -> EventLoopFuture<Connection> {
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(TimeAmount(settings.connectTimeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        let opening: EventLoopFuture<any Channel>
        switch settings.proxy {
        case nil:
            opening = bootstrap.connect(host: target.host, port: target.port)
        case let proxy?:
            opening = bootstrap.connect(host: proxy.host, port: proxy.port).flatMap { channel in
                let tunnel = proxy.kind == .http ? self.tunnel(channel, to: target, through: proxy) : self.socks(channel, to: target)
                return tunnel.map { channel }.flatMapErrorThrowing { error in
                    channel.close(promise: nil)
                    throw error
                }
            }
        }
        return opening.flatMapThrowing { channel in
            do {
                return try self.speakHTTP(on: channel, to: target)
            } catch {
                channel.close(promise: nil)
                throw error
            }
        }
    }

    /// Adds TLS (for https) and HTTP/1.1 to a connected channel, and the handler that collects
    /// answers.
    private func speakHTTP(on channel: any Channel, to target: Target) throws -> Connection {
        let pipeline = channel.pipeline.syncOperations
        if target.isSecure {
            let context = try tlsContext ?? NIOSSLContext(configuration: settings.tls)
            tlsContext = context
            // An address is checked against the certificate's IP entries; only a name goes as SNI.
            let isAddress = (try? SocketAddress(ipAddress: target.host, port: 0)) != nil
            try pipeline.addHandler(try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : target.host))
        }
        try pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .fireError)
        let connection = Connection(channel: channel, key: target.key)
        try pipeline.addHandler(AnswerHandler(pool: self, connection: connection, limit: settings.maximumBodySize))
        return connection
    }
}

/// Collects the answer to the exchange its connection carries, and tells the pool when the
/// answer is whole and when the connection closes.
final class AnswerHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let pool: ConnectionPool
    private let connection: Connection
    private let defaultLimit: Int

    init(pool: ConnectionPool, connection: Connection, limit: Int) {
        self.pool = pool
        self.connection = connection
        self.defaultLimit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange = connection.exchange else {
            // Bytes nobody asked for: the connection cannot be trusted with another request.
            connection.isReusable = false
            context.close(promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            exchange.status = Int(head.status.code)
            for (name, value) in head.headers { exchange.headers[name.lowercased()] = value }
            if !head.isKeepAlive { connection.isReusable = false }
            if !exchange.request.readsBody {
                // Only the status and headers were wanted: the rest is not read, so the connection goes.
                connection.isReusable = false
                pool.finished(connection)
                context.close(promise: nil)
            }
        case .body(var part):
            let limit = exchange.request.maximumBodySize ?? defaultLimit
            if exchange.body.readableBytes + part.readableBytes > limit {
                exchange.body.writeBuffer(&part)
                exchange.fail(.tooLarge, "the answer is larger than allowed", bodyStart: Data(exchange.body.readableBytesView.prefix(256)))
                return
            }
            exchange.body.writeBuffer(&part)
        case .end:
            pool.finished(connection)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        connection.isReusable = false
        connection.exchange?.fail(TransportError(error, host: connection.exchange?.target.host ?? connection.key))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pool.closed(connection)
        context.fireChannelInactive()
    }
}
