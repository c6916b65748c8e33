#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A bare TCP connection to a loopback port, for what no HTTP client does: saying nothing, or
/// trickling a request in.
final class RawConnection {
    private let socket: Int32

    /// - Parameter source: the loopback address the connection comes from (any of 127.0.0.0/8),
    ///   so that a test can be several clients.
    init(port: Int, from source: String = "127.0.0.1") throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = Self.address(source, port: 0)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var address = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard socket >= 0, bound == 0, connected == 0 else {
            close(socket)
            throw Refused(errno: errno)
        }
    }

    struct Refused: Error { var errno: Int32 }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    deinit { close(socket) }

    /// Sends `text`; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What the server sent within `timeout`, up to the connection's end: nil when nothing came
    /// and it is still open; "" when it closed without a word. Waits by sleeping between looks,
    /// never blocking a thread of the test's concurrency pool.
    func receive(within timeout: Duration) async -> String? {
        var received: [UInt8] = []
        var quietSince: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            switch take() {
            case .closed: return String(decoding: received, as: UTF8.self)
            case .bytes(let bytes):
                received += bytes
                quietSince = nil
            case .nothing:
                // Once something came, what follows it closely belongs to it.
                if !received.isEmpty {
                    if let quietSince, ContinuousClock.now - quietSince > .milliseconds(100) { return String(decoding: received, as: UTF8.self) }
                    quietSince = quietSince ?? .now
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return received.isEmpty ? nil : String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closed the connection within `timeout`, whatever it said first.
    func isClosed(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            switch take() {
            case .closed: return true
            case .bytes: continue
            case .nothing: try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return false
    }

    /// Sends up to `total` bytes as fast as the server takes them, never blocking, and reads what
    /// it says meanwhile, until it closes the connection or `timeout` passes: what it said,
    /// whether it closed, and how much was sent.
    func stream(_ total: Int, within timeout: Duration) async -> (received: String, closed: Bool, sent: Int) {
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 65_536)
        var received: [UInt8] = []
        var sent = 0
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            switch take() {
            case .closed: return (String(decoding: received, as: UTF8.self), true, sent)
            case .bytes(let bytes): received += bytes
            case .nothing: break
            }
            let count = sent < total ? chunk.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, min($0.count, total - sent), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } : 0
            if count > 0 {
                sent += count
            } else if count < 0, errno != EAGAIN, errno != EWOULDBLOCK {
                // Reset: whatever the server said before is still to be read.
                while case .bytes(let bytes) = take() { received += bytes }
                return (String(decoding: received, as: UTF8.self), true, sent)
            } else {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return (String(decoding: received, as: UTF8.self), false, sent)
    }

    private enum Taken {
        case bytes([UInt8])
        case nothing
        case closed
    }

    /// What is there to read now, without waiting.
    private func take() -> Taken {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        if ready < 0 { return .closed }
        if ready == 0 { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count <= 0 ? .closed : .bytes(Array(buffer[..<count]))
    }
}
