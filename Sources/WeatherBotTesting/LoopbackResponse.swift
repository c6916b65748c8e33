public import Foundation

/// A response for the loopback server to send.
public struct LoopbackResponse: Sendable {
    /// The HTTP status, 200 unless told.
    public var status: Int
    /// Headers to send as given; the server sets `Content-Length` and `Connection` itself.
    public var headers: [String: String]
    /// The bytes sent as the body.
    public var body: Data
    /// Close the connection without answering, as a server that dies mid-request does.
    public var dropsConnection = false

    /// An answer with `body`, JSON by default.
    public init(status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// No answer at all: the connection is closed once the request has been read.
    public static var noAnswer: LoopbackResponse {
        var response = LoopbackResponse(body: Data())
        response.dropsConnection = true
        return response
    }

    /// A JSON response from any JSON-serialisable value.
    public static func json(_ value: Any, status: Int = 200) -> LoopbackResponse {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data()
        return LoopbackResponse(status: status, body: data)
    }
}
