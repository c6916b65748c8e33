import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPTransport`` over one shared `URLSession` (libcurl on Linux), keeping connections alive.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameter maximumConnectionsPerHost: how many requests may run at once against one host.
    public init(maximumConnectionsPerHost: Int = 32) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // Long polls set their own, longer timeout per request.
        configuration.timeoutIntervalForRequest = 120
        configuration.timeoutIntervalForResource = 300
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        // libcurl takes whole seconds here; a fraction below one would time out at once.
        urlRequest.timeoutInterval = max(1, request.timeout.timeInterval.rounded(.up))
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let host = request.url.host ?? "unknown host"
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw TransportError(code: .other, host: host, reason: "the response was not HTTP")
            }
            var headers: [String: String] = [:]
            for case let (name as String, value as String) in http.allHeaderFields {
                headers[name.lowercased()] = value
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as TransportError {
            throw error
        } catch let error as URLError {
            throw TransportError(urlError: error, host: host)
        } catch is CancellationError {
            throw TransportError(code: .cancelled, host: host, reason: "cancelled")
        } catch {
            // Foundation errors may carry the URL in their user info; keep only the domain and code.
            let nsError = error as NSError
            throw TransportError(code: .other, host: host, reason: "\(nsError.domain) \(nsError.code)")
        }
    }
}

extension TransportError {
    init(urlError: URLError, host: String) {
        let code: Code
        switch urlError.code {
        case .timedOut:
            code = .timedOut
        case .cancelled:
            code = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet,
            .dnsLookupFailed, .secureConnectionFailed, .badServerResponse, .cannotParseResponse:
            code = .connectionFailed
        default:
            code = .other
        }
        // `URLError.localizedDescription` can embed the URL; the numeric code is enough for a log.
        self.init(code: code, host: host, reason: "URLError \(urlError.code.rawValue)")
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's time intervals want it.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
