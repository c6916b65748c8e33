import Foundation
public import HTTPTransport
import OpenWeather

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

    /// Sends through the wrapped transport, counting the request (for OpenWeather) and any failure other than a cancellation.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        if countsOpenWeatherRequests { metrics.openWeatherRequestSent(OpenWeatherEndpoint(path: request.url.path).rawValue) }
        do {
            return try await base.send(request)
        } catch {
            if error.code != .cancelled { metrics.httpClientFailed(error.code.rawValue) }
            throw error
        }
    }
}
