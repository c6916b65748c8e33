public import Foundation

/// One HTTP request, as the API clients describe it to a transport.
public struct TransportRequest: Sendable {
    /// The HTTP method: the bot only ever reads with GET and sends with POST.
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    /// How the request is sent; GET unless there is a body to post.
    public var method: Method
    /// Where the request goes: an http or https URL, which may hold a secret (the bot token in
    /// Telegram's paths, the API key in OpenWeather's query), so it is never logged.
    public var url: URL
    /// Headers to send as they are; the transport adds `Host` and, for a body or a POST,
    /// `Content-Length`.
    public var headers: [String: String]
    /// The body to send, already encoded (JSON or a multipart form); nil for none.
    public var body: Data?
    /// How long the whole exchange may take before it fails with ``TransportError/Code/timedOut``.
    public var timeout: Duration
    /// The largest answer body taken; a larger one fails with ``TransportError/Code/tooLarge``.
    /// Nil: the transport's own limit.
    public var maximumBodySize: Int?
    /// False: the answer's status and headers are all that is wanted (where a redirect leads);
    /// its body is not read, and its connection is closed.
    public var readsBody: Bool

    /// A request; by default a GET without a body, given 15 seconds, held to the transport's body
    /// limit, and with its answer's body read.
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
