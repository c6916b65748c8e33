import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A forward proxy on 127.0.0.1 for tests: HTTP `CONNECT` (optionally asking for Basic
/// credentials) or SOCKS5 without authentication. It resolves only the names it was given, each to
/// 127.0.0.1, so a request that reaches such a name proves it went through the proxy.
public final class LoopbackProxy: Sendable {
    /// Which protocol the proxy speaks.
    public enum Kind: Sendable {
        /// HTTP `CONNECT`; with credentials, anything else is answered 407.
        case http(username: String? = nil, password: String? = nil)
        case socks5
    }

    private let group: MultiThreadedEventLoopGroup
    private let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let accepting: Task<Void, Never>
    private let record: Record
    /// The port the proxy listens on.
    public let port: Int

    /// Every tunnel asked for, as `host:port`, in order, whether or not it was opened.
    public var targets: [String] { record.targets.withLock { $0 } }
    /// Requests turned away for missing or wrong credentials.
    public var refusals: Int { record.refusals.withLock { $0 } }

    /// - Parameter names: host names the proxy resolves, each to 127.0.0.1.
    public init(_ kind: Kind, names: Set<String>) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let record = Record()
        let tunnel = Tunnel(kind: kind, names: names.union(["127.0.0.1", "localhost"]), group: group, record: record)
        self.group = group
        self.record = record
        (server, accepting, port) = try await LoopbackTCP.listen(group: group) { connection in await tunnel.serve(connection) }
    }

    /// The proxy's URL for the bot's configuration, with credentials when given.
    public func url(username: String? = nil, password: String? = nil, scheme: String) -> String {
        let credentials = username.map { user in
            let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
            return encode(user) + (password.map { ":" + encode($0) } ?? "") + "@"
        } ?? ""
        return "\(scheme)://\(credentials)127.0.0.1:\(port)"
    }

    /// Stops listening and shuts the proxy's event loop down, which closes any tunnel still open.
    public func shutdown() async {
        server.channel.close(promise: nil)
        accepting.cancel()
        await accepting.value
        try? await group.shutdownGracefully()
    }
}

private final class Record: Sendable {
    let targets = Mutex<[String]>([])
    let refusals = Mutex(0)
}

private struct ProxyFailure: Error {}

/// One client connection: the handshake, then bytes both ways until either side closes.
private struct Tunnel: Sendable {
    var kind: LoopbackProxy.Kind
    var names: Set<String>
    var group: MultiThreadedEventLoopGroup
    var record: Record

    func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var reader = ByteReader(iterator: inbound.makeAsyncIterator())
            let target: (host: String, port: Int)?
            switch kind {
            case .http(let username, let password):
                target = try await httpHandshake(&reader, outbound, username: username, password: password)
            case .socks5:
                target = try await socksHandshake(&reader, outbound)
            }
            guard let target else { return }
            let upstream = try await LoopbackTCP.connect(toPort: target.port, group: group)
            try await ready(outbound)
            try await LoopbackTCP.relay(connection, reading: &reader.iterator, early: reader.buffer, writing: outbound, to: upstream)
        }
    }

    /// What to write once the tunnel's far end is connected.
    private func ready(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        switch kind {
        case .http:
            try await outbound.write(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n"))
        case .socks5:
            try await outbound.write(ByteBuffer(bytes: [5, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
        }
    }

    private func resolves(_ host: String, _ port: Int) -> Bool {
        record.targets.withLock { $0.append("\(host):\(port)") }
        return names.contains(host.lowercased())
    }

    /// `CONNECT host:port HTTP/1.1` and its headers; nil when the request was answered here.
    private func httpHandshake(
        _ reader: inout ByteReader, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, username: String?, password: String?
    ) async throws -> (host: String, port: Int)? {
        let lines = try await reader.head().split(separator: "\r\n", omittingEmptySubsequences: false)
        let words = lines.first?.split(separator: " ") ?? []
        guard words.count == 3, words[0] == "CONNECT", let colon = words[1].lastIndex(of: ":"), let port = Int(words[1][words[1].index(after: colon)...]) else {
            try await outbound.write(ByteBuffer(string: "HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\n\r\n"))
            return nil
        }
        let host = String(words[1][..<colon])
        if let username {
            let expected = "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
            let given = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }
                .map { $0.dropFirst("proxy-authorization:".count).trimmingCharacters(in: .whitespaces) }
            guard given == expected else {
                record.refusals.withLock { $0 += 1 }
                try await outbound.write(ByteBuffer(string: "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"loopback\"\r\nContent-Length: 0\r\n\r\n"))
                return nil
            }
        }
        guard resolves(host, port) else {
            try await outbound.write(ByteBuffer(string: "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"))
            return nil
        }
        return (host, port)
    }

    /// RFC 1928 without authentication, `CONNECT` only; nil when the request was refused.
    private func socksHandshake(_ reader: inout ByteReader, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> (host: String, port: Int)? {
        let greeting = try await reader.bytes(2)
        guard greeting[0] == 5 else { throw ProxyFailure() }
        let methods = try await reader.bytes(Int(greeting[1]))
        guard methods.contains(0) else {
            try await outbound.write(ByteBuffer(bytes: [5, 0xFF]))
            return nil
        }
        try await outbound.write(ByteBuffer(bytes: [5, 0]))
        let request = try await reader.bytes(4)
        guard request[0] == 5, request[1] == 1 else {
            // Only CONNECT: «command not supported».
            try await outbound.write(ByteBuffer(bytes: [5, 7, 0, 1, 0, 0, 0, 0, 0, 0]))
            return nil
        }
        let host: String
        switch request[3] {
        case 1: host = try await reader.bytes(4).map(String.init).joined(separator: ".")
        case 3: host = String(decoding: try await reader.bytes(Int(try await reader.bytes(1)[0])), as: UTF8.self)
        default:
            // IPv6 and anything else: «address type not supported».
            try await outbound.write(ByteBuffer(bytes: [5, 8, 0, 1, 0, 0, 0, 0, 0, 0]))
            return nil
        }
        let portBytes = try await reader.bytes(2)
        let port = Int(portBytes[0]) << 8 | Int(portBytes[1])
        guard resolves(host, port) else {
            // «Host unreachable».
            try await outbound.write(ByteBuffer(bytes: [5, 4, 0, 1, 0, 0, 0, 0, 0, 0]))
            return nil
        }
        return (host, port)
    }
}

/// Reads a connection's bytes in the pieces a handshake needs, keeping what came early.
private struct ByteReader {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var buffer = ByteBuffer()

    private mutating func fill() async throws {
        guard var chunk = try await iterator.next() else { throw ProxyFailure() }
        buffer.writeBuffer(&chunk)
    }

    mutating func bytes(_ count: Int) async throws -> [UInt8] {
        while buffer.readableBytes < count { try await fill() }
        return buffer.readBytes(length: count) ?? []
    }

    /// An HTTP head up to its blank line, which is consumed too.
    mutating func head() async throws -> String {
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = Array(buffer.readableBytesView).firstRange(of: end) {
                let head = buffer.readString(length: range.lowerBound) ?? ""
                buffer.moveReaderIndex(forwardBy: end.count)
                return head
            }
            guard buffer.readableBytes < 16_384 else { throw ProxyFailure() }
            try await fill()
        }
    }
}
