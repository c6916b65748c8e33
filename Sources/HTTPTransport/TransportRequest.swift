public import Foundation

/// One HTTP request, as the API clients describe it to a transport.
public struct TransportRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// How long the whole exchange may take before it fails with ``TransportError/Code/timedOut``.
    public var timeout: Duration
    /// The largest answer body taken; a larger one fails with ``TransportError/Code/tooLarge``.
    /// Nil: the transport's own limit.
    public var maximumBodySize: Int?
    /// False: the answer's status and headers are all that is wanted (where a redirect leads);
    /// its body is not read, and its connection is closed.
    public var readsBody: Bool

    public init(
        method: Method = .get,
        url: URL,
        headers: [String: String] = [:],
        body: Data? = nil,
        timeout: Duration = .seconds(15),
        maximumBodySize: Int? = nil,
        readsBody: Bool = true
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.readsBody = readsBody
    }
}
