import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The connections the server holds: how many each client address holds, and how many hold one
/// of the slots any request may use. Shared by every connection's ``ConnectionGuard``, which may
/// run on different event loops; touched once when a connection opens and once when it closes.
final class ConnectionCensus: Sendable {
    /// What a connection was let in as.
    enum Admission {
        /// Its address holds as many as it may: it is closed at once.
        case refused
        /// It holds one of the slots any request may use.
        case shared
        /// Those were all taken: it may ask only for the operator's endpoints.
        case operatorOnly
    }

    private struct Counts {
        var byAddress: [String: Int] = [:]
        var shared = 0
    }

    let perAddress: Int
    let sharedSlots: Int
    private let counts = Mutex(Counts())

    init(perAddress: Int, shared: Int) {
        self.perAddress = perAddress
        self.sharedSlots = shared
    }

    func admit(_ address: String) -> Admission {
        counts.withLock { counts in
            let held = counts.byAddress[address, default: 0]
            guard held < perAddress else { return .refused }
            counts.byAddress[address] = held + 1
            guard counts.shared < sharedSlots else { return .operatorOnly }
            counts.shared += 1
            return .shared
        }
    }

    func release(_ address: String, _ admission: Admission) {
        counts.withLock { counts in
            if admission == .shared { counts.shared -= 1 }
            let held = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = held > 0 ? held : nil
        }
    }
}

/// Each connection's own bounds, before anything of its requests is read: one over its address's
/// share is closed as soon as it opens, one on an operator's slot asking for another path is
/// answered 503, and a response that says `Connection: close` (a refused post: 401, 413), or
/// comes before its request's body was all read (a 404 to a post), closes the connection once
/// written, without reading on the body its request announced.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let census: ConnectionCensus
    let operatorPaths: Set<String>
    /// The address it is counted under, and as what; nil before it opens and once it is released.
    private var admitted: (address: String, admission: ConnectionCensus.Admission)?
    /// A response that closes the connection is on its way: nothing more is read.
    private var closing = false
    /// A request's head was read and its end not yet.
    private var bodyUnread = false

    init(census: ConnectionCensus, operatorPaths: Set<String>) {
        self.census = census
        self.operatorPaths = operatorPaths
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard admitted == nil, !closing else { return }
        let address = context.channel.remoteAddress?.ipAddress ?? ""
        let admission = census.admit(address)
        guard admission != .refused else {
            closing = true
            context.close(promise: nil)
            return
        }
        admitted = (address, admission)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func release() {
        guard let (address, admission) = admitted else { return }
        admitted = nil
        census.release(address, admission)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        if admitted?.admission == .operatorOnly, case .head(let head) = unwrapInboundIn(data),
            !operatorPaths.contains(String(head.path?.prefix { $0 != "?" } ?? ""))
        {
            closing = true
            let busy = HTTPResponse(status: .serviceUnavailable, headerFields: [.connection: "close", .contentLength: "0", .retryAfter: "1"])
            context.write(wrapOutboundOut(.head(busy)), promise: nil)
            closeOnceWritten(context, wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case .head: bodyUnread = true
        case .end: bodyUnread = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        // A refused request's body stays unread in the socket until the close.
        if !closing { context.read() }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where bodyUnread || head.headerFields[.connection] == "close":
            closing = true
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closing:
            closeOnceWritten(context, data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    private func closeOnceWritten(_ context: ChannelHandlerContext, _ data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.writeAndFlush(data, promise: written)
    }
}
