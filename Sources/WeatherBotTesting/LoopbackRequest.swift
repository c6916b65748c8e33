public import Foundation

/// A request as the loopback server received it.
public struct LoopbackRequest: Sendable {
    /// The HTTP method, such as `POST`.
    public var method: String
    /// The path without the query, such as `/bot123:abc/getUpdates`.
    public var path: String
    /// The query's items, decoded.
    public var query: [String: String]
    /// The request's headers by lowercased name; of repeated headers, the last.
    public var headers: [String: String]
    /// The body as received, empty when there was none.
    public var body: Data

    /// The body as JSON, when it is a JSON object.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
}
