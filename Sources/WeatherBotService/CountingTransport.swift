public import HTTPTransport

/// A transport that counts the requests another one could not get an answer for, by kind, for
/// `/metrics`; answers (whatever their status) pass through untouched.
public struct CountingTransport: HTTPTransport {
    let base: any HTTPTransport
    let metrics: BotMetrics

    public init(_ base: any HTTPTransport, metrics: BotMetrics) {
        self.base = base
        self.metrics = metrics
    }

    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        do {
            return try await base.send(request)
        } catch {
            if error.code != .cancelled { metrics.httpClientFailed(error.code.rawValue) }
            throw error
        }
    }
}
