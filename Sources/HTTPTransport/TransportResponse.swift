public import Foundation

/// What came back: a status, the headers that matter, and the body.
public struct TransportResponse: Sendable {
    /// The HTTP status code, such as 200 or 429.
    public var status: Int
    /// The response's headers by lower-case name (`retry-after`, `location`); of a header sent
    /// twice, the last value.
    public var headers: [String: String]
    /// The body as received, undecoded; empty when the request did not read it.
    public var body: Data

    /// A response as a transport or a test's fake server hands it back.
    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
