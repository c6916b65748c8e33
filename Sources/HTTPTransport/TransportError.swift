public import Foundation

/// A failure below HTTP: no response arrived.
///
/// Its description names the host at most, never the path or query, which may hold secrets.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it was, for the caller to decide whether to try again; the raw value
    /// is the `kind` of `weatherbot_http_client_errors_total`.
    public enum Code: String, Sendable, Hashable {
        /// No answer within the request's timeout.
        case timedOut
        /// The connection could not be made or broke off.
        case connectionFailed
        /// The server's TLS certificate was not trusted: the machine's CA certificates are missing
        /// or wrong, or something between intercepts TLS. Waiting does not mend it.
        case certificateRejected
        /// The task was cancelled.
        case cancelled
        /// The answer was larger than the request allowed.
        case tooLarge
        /// Anything else the HTTP stack reported.
        case other
    }

    /// What went wrong, as far as the caller needs to know to decide what to do next.
    public var code: Code
    /// The host the request went to, for the log.
    public var host: String
    /// A short reason from the HTTP stack, stripped of URLs.
    public var reason: String
    /// For ``Code/tooLarge``: the answer's first bytes, to find out what it was about; never printed.
    public var bodyStart: Data?

    /// A failure of the given kind; `reason` must not hold the request's URL.
    public init(code: Code, host: String, reason: String, bodyStart: Data? = nil) {
        self.code = code
        self.host = host
        self.reason = reason
        self.bodyStart = bodyStart
    }

    /// The kind, the host and the reason in one line for the log; safe to print, as it has no URL.
    public var description: String {
        "HTTP transport error (\(code.rawValue)) talking to \(host): \(reason)"
    }
}
