import Foundation
import HTTPTransport

/// A GET through the bot's own HTTP client, in a file of its own: where Hummingbird is imported,
/// its `HTTPRequest` takes the name.
func loopbackGET(_ url: URL, through transport: AsyncHTTPTransport) async throws -> (status: Int, body: Data) {
    let response = try await transport.send(HTTPRequest(url: url))
    return (response.status, response.body)
}
