import Foundation
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOSOCKS

extension ConnectionPool {
    /// Asks an HTTP proxy for a `CONNECT` tunnel to the target, with its credentials when it has
    /// them; the HTTP handlers of that one request leave the pipeline once the tunnel stands.
    func tunnel(_ channel: any Channel, to target: Target, through proxy: HTTPProxy) -> EventLoopFuture<Void> {
        var headers = HTTPHeaders()
        if let username = proxy.username {
            let credentials = Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString()
            headers.add(name: "Proxy-Authorization", value: "Basic \(credentials)")
        }
        let established = channel.eventLoop.makePromise(of: Void.self)
        let encoder = HTTPRequestEncoder()
        let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
        let connect = NIOHTTP1ProxyConnectHandler(
            targetHost: target.shownHost, targetPort: target.port, headers: headers,
            deadline: .now() + TimeAmount(settings.connectTimeout), promise: established)
        do {
            try channel.pipeline.syncOperations.addHandlers([encoder, decoder, connect])
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let handlers = NIOLoopBound((decoder, encoder), eventLoop: channel.eventLoop)
        // The tunnel's handler leaves by itself once the tunnel stands. Its answer is read inside
        // the decoder, which leaves only once it is done with it: what follows is added after both
        // HTTP handlers are gone, or TLS's first bytes would meet them.
        return established.futureResult.flatMapErrorThrowing { error in
            throw Self.proxyError(error)
        }.flatMap {
            channel.pipeline.syncOperations.removeHandler(handlers.value.0)
        }.flatMap {
            channel.pipeline.syncOperations.removeHandler(handlers.value.1)
        }
    }

    /// Asks a SOCKS5 proxy to connect to the target by its name, which the proxy resolves.
    func socks(_ channel: any Channel, to target: Target) -> EventLoopFuture<Void> {
        let established = channel.eventLoop.makePromise(of: Void.self)
        let waiter = SOCKSEstablished(promise: established)
        do {
            try channel.pipeline.syncOperations.addHandlers([
                SOCKSClientHandler(targetAddress: .domain(target.host, port: target.port)), waiter,
            ])
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount(settings.connectTimeout)) {
            waiter.fail(ProxyRefused(reason: "the SOCKS5 proxy did not connect in time"))
        }
        return established.futureResult.always { _ in timeout.cancel() }.flatMapThrowing {
            channel.pipeline.syncOperations.removeHandler(waiter, promise: nil)
        }
    }

    /// What a proxy's refusal is said as: plain words, never its description (which names source files).
    static func proxyError(_ error: any Error) -> any Error {
        guard let refusal = error as? NIOHTTP1ProxyConnectHandler.Error else { return error }
        if refusal == .proxyAuthenticationRequired() { return ProxyRefused(reason: "the proxy asks for other credentials (407)") }
        if refusal == .httpProxyHandshakeTimeout() { return ProxyRefused(reason: "the proxy did not open the tunnel in time") }
        return ProxyRefused(reason: "the proxy did not open the tunnel")
    }
}

/// A proxy refused, or did not manage, to reach the target.
struct ProxyRefused: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// Waits for the SOCKS5 proxy to report the connection made.
final class SOCKSEstablished: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    /// Completed once, by whichever comes first.
    private var promise: EventLoopPromise<Void>?

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func fail(_ error: any Error) {
        promise?.fail(error)
        promise = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is SOCKSProxyEstablishedEvent {
            promise?.succeed()
            promise = nil
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(ProxyRefused(reason: "the SOCKS5 proxy did not connect (\(TransportError.kind(of: error)))"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ProxyRefused(reason: "the SOCKS5 proxy closed the connection"))
        context.fireChannelInactive()
    }
}
