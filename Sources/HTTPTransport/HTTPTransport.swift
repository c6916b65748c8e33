/// The single seam between the API clients and the network.
///
/// Production uses ``AsyncHTTPTransport``; tests and benchmarks can put any other in its place.
/// An implementation throws ``TransportError`` for anything that is not an HTTP response, and
/// never includes the request URL in what it throws: bot URLs carry the token.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
