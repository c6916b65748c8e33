/// The single seam between the API clients and the network.
///
/// Production uses ``AsyncHTTPTransport``; tests and benchmarks can put any other in its place.
/// Anything that is not an HTTP response is a ``TransportError``, which never includes the
/// request URL: bot URLs carry the token.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}
