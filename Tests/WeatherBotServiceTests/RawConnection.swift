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

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard socket >= 0, connected == 0 else {
            close(socket)
            throw Refused(errno: errno)
        }
    }

    struct Refused: Error { var errno: Int32 }

    deinit { close(socket) }

    /// Sends `text`; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What the server sent within `timeout`, up to the connection's end: nil when nothing came
    /// and it is still open; "" when it closed without a word.
    func receive(within timeout: Duration) -> String? {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(max(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000, 1))
            // Once something came, what follows it closely belongs to it.
            guard poll(&descriptor, 1, received.isEmpty ? milliseconds : min(milliseconds, 100)) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { return String(decoding: received, as: UTF8.self) }
            received += buffer[..<count]
        }
        return received.isEmpty ? nil : String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closed the connection within `timeout`, whatever it said first.
    func isClosed(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) >= 0 else { return true }
            if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var buffer = [UInt8](repeating: 0, count: 4_096)
                if recv(socket, &buffer, buffer.count, 0) <= 0 { return true }
            }
        }
        return false
    }
}
