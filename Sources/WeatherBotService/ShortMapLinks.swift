public import Foundation
public import HTTPTransport
public import Logging
public import WeatherBot

/// Follows a short map link one step: a single GET whose redirect is the answer, its body never
/// read, within a few seconds, and only to the hosts of ``ShortMapLink``.
public struct ShortMapLinks: MapLinkResolver {
    let transport: any HTTPTransport
    let timeout: Duration
    let server: URL?
    let logger: Logger

    /// - Parameter server: where the requests go instead of the link's own host, keeping its path
    ///   (a loopback server in tests); nil in production.
    public init(transport: any HTTPTransport, timeout: Duration = .seconds(3), server: URL? = nil, logger: Logger) {
        self.transport = transport
        self.timeout = timeout
        self.server = server
        self.logger = logger
    }

    public func target(of link: String) async -> String? {
        guard ShortMapLink.isShort(link), let url = URL(string: link), let asked = address(of: url) else { return nil }
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(url: asked, headers: ["Accept": "text/html"], timeout: timeout, readsBody: false))
        } catch {
            logger.info("a short map link could not be followed", metadata: ["host": "\(url.host ?? "")", "error": "\(error)"])
            return nil
        }
        guard (300..<400).contains(response.status), let location = response.headers["location"], !location.isEmpty else {
            logger.info("a short map link did not redirect", metadata: ["host": "\(url.host ?? "")", "status": "\(response.status)"])
            return nil
        }
        // A relative redirect is relative to the link.
        return URL(string: location, relativeTo: url)?.absoluteString
    }

    private func address(of url: URL) -> URL? {
        guard let server else { return url }
        var parts = URLComponents(url: server, resolvingAgainstBaseURL: false)
        parts?.percentEncodedPath = url.path(percentEncoded: true)
        parts?.percentEncodedQuery = url.query(percentEncoded: true)
        return parts?.url
    }
}
