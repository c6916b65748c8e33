import NIOCore
import NIOPosix

/// The TCP plumbing the loopback proxy and forwarder share: a listener on 127.0.0.1 that serves
/// each connection in a task of its own, and the relay of bytes both ways to a loopback port.
enum LoopbackTCP {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// A listener on a free port of 127.0.0.1, serving each connection with `serve` until the
    /// listener is closed and the task cancelled.
    static func listen(
        group: MultiThreadedEventLoopGroup, _ serve: @escaping @Sendable (Connection) async -> Void
    ) async throws -> (server: NIOAsyncChannel<Connection, Never>, accepting: Task<Void, Never>, port: Int) {
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            }
        let accepting = Task<Void, Never> {
            _ = try? await server.executeThenClose { connections in
                await withDiscardingTaskGroup { tasks in
                    do {
                        for try await connection in connections {
                            tasks.addTask { await serve(connection) }
                        }
                    } catch {}
                    tasks.cancelAll()
                }
            }
        }
        return (server, accepting, server.channel.localAddress?.port ?? 0)
    }

    /// A connection to `port` on 127.0.0.1.
    static func connect(toPort port: Int, group: MultiThreadedEventLoopGroup) async throws -> Connection {
        try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
        }
    }

    /// Bytes both ways between `client` and `upstream` until either side closes: `early`, what
    /// the client sent before the relay began, then the rest of what `inbound` reads.
    static func relay(
        _ client: Connection, reading inbound: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, early: ByteBuffer,
        writing outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, to upstream: Connection
    ) async throws {
        try await upstream.executeThenClose { upstreamIn, upstreamOut in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    defer { client.channel.close(promise: nil) }
                    for try await chunk in upstreamIn { try await outbound.write(chunk) }
                }
                defer { upstream.channel.close(promise: nil) }
                if early.readableBytes > 0 { try await upstreamOut.write(early) }
                while let chunk = try await inbound.next() { try await upstreamOut.write(chunk) }
            }
        }
    }
}
