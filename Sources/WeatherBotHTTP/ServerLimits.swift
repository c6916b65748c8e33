#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// How much of the machine any client of the HTTP endpoints can hold. Without bounds, idle
/// connections, requests whose head or body trickles in, and more connections than the process
/// may open files kept the server from answering Telegram's posts and the health check.
public struct ServerLimits: Sendable {
    /// A connection that has not completed a request's head for this long is closed: one idle
    /// between requests, or one sending its head slowly.
    public var headTimeout: Duration
    /// A request whose body has not all arrived this long after its head is closed unanswered.
    public var bodyTimeout: Duration
    /// Connections open at once for any request; more wait in the listen queue until one closes.
    public var maximumConnections: Int
    /// Connections one client address may hold at once; one more is closed as soon as it is
    /// accepted, so that it never holds a slot of ``maximumConnections``.
    public var connectionsPerAddress: Int
    /// Connections beyond ``maximumConnections`` kept for the operator's endpoints: while the
    /// others are all taken, a request to any other path on one of these is answered 503.
    public var operatorConnections: Int

    /// Limits, by default: 10 seconds for a head, 15 for a body, as many connections as
    /// ``connectionsAllowed(openFiles:)`` gives, 128 from one address and 4 kept for the operator.
    public init(
        headTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(15), maximumConnections: Int = ServerLimits.connectionsAllowed(),
        connectionsPerAddress: Int = 128, operatorConnections: Int = 4
    ) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
        self.connectionsPerAddress = connectionsPerAddress
        self.operatorConnections = operatorConnections
    }

    /// Half the files the process may open (the soft `RLIMIT_NOFILE`), which the store, Telegram's
    /// and OpenWeather's connections also need; between 16 and 1,000.
    public static func connectionsAllowed(openFiles: Int? = nil) -> Int {
        min(max((openFiles ?? Self.openFilesAllowed) / 2, 16), 1_000)
    }

    /// The soft limit on open files; 1,024, the usual default, when it cannot be read.
    static var openFilesAllowed: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return Int(clamping: min(limit.rlim_cur, 1 << 20))
    }

    /// The HTTP/1 server with these bounds, its operator's connections kept for `operatorPaths`.
    /// Hummingbird's idle timeout is the head timeout: it runs from the connection's start or
    /// its last answer until a whole head is read.
    func server(operatorPaths: Set<String>) -> HTTPServerBuilder {
        let (bodyTimeout, census) = (bodyTimeout, ConnectionCensus(perAddress: connectionsPerAddress, shared: maximumConnections))
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(census: census, operatorPaths: operatorPaths), BodyDeadline(timeout: bodyTimeout)],
                idleTimeout: .init(headTimeout)))
    }

    /// Hummingbird's cap, which stops accepting once every connection, the operator's too, is taken.
    var acceptedConnections: Int { maximumConnections + operatorConnections }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// Closes a connection whose request's body has not all arrived `timeout` after its head.
final class BodyDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: Duration) {
        self.timeout = TimeAmount(timeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}
