import Foundation
import HTTPTransport

/// Requests through the bot's own HTTP client, in a file of their own: where Hummingbird is
/// imported, its `TransportRequest` and `TransportResponse` take the names.
func loopbackGET(_ url: URL, through transport: NIOHTTPTransport) async throws -> (status: Int, body: Data) {
    let response = try await transport.send(TransportRequest(url: url))
    return (response.status, response.body)
}

/// A POST of `body` with `headers` through `transport`.
func loopbackPOST(_ url: URL, body: Data, headers: [String: String], through transport: NIOHTTPTransport) async throws -> (status: Int, body: Data) {
    let response = try await transport.send(TransportRequest(method: .post, url: url, headers: headers, body: body))
    return (response.status, response.body)
}

/// One request through `transport`, to a host that is never reached.
func loopbackSend(through transport: any HTTPTransport) async throws {
    _ = try await transport.send(TransportRequest(url: URL(string: "http://127.0.0.1:9/")!))
}

/// A transport whose every request times out.
struct Unreachable: HTTPTransport {
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        throw TransportError(code: .timedOut, host: "api.telegram.org", reason: "no answer")
    }
}
