import NIOCore
import NIOPosix
import Synchronization

/// A TCP forwarder on 127.0.0.1 to a server on another loopback port, which a test can cut off
/// as if the server had stopped: the connections through it are closed, and new ones are closed
/// as soon as they are accepted, until it is restored. For a database outage without stopping a
/// server other tests share.
public final class LoopbackForwarder: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let accepting: Task<Void, Never>
    private let links: Links
    /// The port the forwarder listens on.
    public let port: Int

    /// Listens on a new loopback port and forwards each connection to `targetPort` on 127.0.0.1.
    public init(to targetPort: Int) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let links = Links()
        self.group = group
        self.links = links
        (server, accepting, port) = try await LoopbackTCP.listen(group: group) { connection in
            await Self.forward(connection, to: targetPort, group: group, links: links)
        }
    }

    /// Closes every connection through the forwarder, and every new one until ``restore()``.
    public func cut() {
        let open = links.state.withLock { state in
            state.cut = true
            defer { state.open = [] }
            return state.open
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// Forwards new connections again.
    public func restore() {
        links.state.withLock { $0.cut = false }
    }

    /// Cuts every connection, stops listening and waits for it.
    public func shutdown() async {
        cut()
        server.channel.close(promise: nil)
        accepting.cancel()
        await accepting.value
        try? await group.shutdownGracefully()
    }

    private static func forward(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, to targetPort: Int, group: MultiThreadedEventLoopGroup, links: Links) async {
        guard links.add(connection.channel) else {
            try? await connection.channel.close()
            return
        }
        try? await connection.executeThenClose { inbound, outbound in
            let upstream = try await LoopbackTCP.connect(toPort: targetPort, group: group)
            guard links.add(upstream.channel) else {
                try? await upstream.channel.close()
                return
            }
            var reading = inbound.makeAsyncIterator()
            try await LoopbackTCP.relay(connection, reading: &reading, early: ByteBuffer(), writing: outbound, to: upstream)
        }
    }
}

/// The channels open through the forwarder, and whether it is cut.
private final class Links: Sendable {
    struct State {
        var cut = false
        var open: [any Channel] = []
    }

    let state = Mutex(State())

    /// Keeps `channel` to close on a cut; false when the forwarder is cut already.
    func add(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.cut else { return false }
            state.open.removeAll { !$0.isActive }
            state.open.append(channel)
            return true
        }
    }
}
