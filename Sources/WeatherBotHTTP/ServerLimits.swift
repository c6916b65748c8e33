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
    public var idleTimeout: Duration
    /// A request whose body has not all arrived this long after its head is closed unanswered.
    public var bodyTimeout: Duration
    /// Connections open at once; more wait in the listen queue until one closes.
    public var maximumConnections: Int

    public init(idleTimeout: Duration = .seconds(15), bodyTimeout: Duration = .seconds(15), maximumConnections: Int = ServerLimits.connectionsAllowed()) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
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

    /// The HTTP/1 server with these bounds.
    var server: HTTPServerBuilder {
        let bodyTimeout = bodyTimeout
        return .http1(configuration: .init(additionalChannelHandlers: [BodyDeadline(timeout: bodyTimeout)], idleTimeout: .init(idleTimeout)))
    }
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
