import Foundation
public import HTTPTransport

/// A transport that counts the requests another one could not get an answer for, by kind, for
/// `/metrics`; answers (whatever their status) pass through untouched. For OpenWeather it counts
/// every request it sends too, by endpoint: what the key is billed and rate-limited for.
public struct CountingTransport: HTTPTransport {
    let base: any HTTPTransport
    let metrics: BotMetrics
    let countsOpenWeatherRequests: Bool

    /// - Parameter openWeather: count each request sent, by OpenWeather endpoint.
    public init(_ base: any HTTPTransport, metrics: BotMetrics, openWeather: Bool = false) {
        self.base = base
        self.metrics = metrics
        countsOpenWeatherRequests = openWeather
    }

    /// OpenWeather's endpoints by the end of their paths (the API's URL may have a path of its own).
    static let openWeatherEndpoints = [
        ("/data/3.0/onecall", "onecall"), ("/data/2.5/forecast", "forecast"), ("/data/2.5/weather", "weather"),
        ("/geo/1.0/direct", "geocode"), ("/geo/1.0/reverse", "reverse"),
    ]

    static func openWeatherEndpoint(of path: String) -> String {
        openWeatherEndpoints.first { path.hasSuffix($0.0) }?.1 ?? "other"
    }

    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        if countsOpenWeatherRequests { metrics.openWeatherRequestSent(Self.openWeatherEndpoint(of: request.url.path)) }
        do {
            return try await base.send(request)
        } catch {
            if error.code != .cancelled { metrics.httpClientFailed(error.code.rawValue) }
            throw error
        }
    }
}
