public import Foundation

/// Nominatim on loopback: `/reverse` finds Saransk anywhere on land and answers "Unable to
/// geocode" within a degree of the equator (the open sea, as FakeOpenWeather has it). It keeps
/// each request's arrival and User-Agent, so a test can check the pace and the policy's name.
public final class FakeNominatim: Sendable {
    /// The loopback server answering; its URL is the client's `url`.
    public let server: LoopbackServer
    private let log: Locked<[(at: ContinuousClock.Instant, userAgent: String?)]>

    /// The server's base URL.
    public var url: URL { server.url }
    /// When each request arrived, in order.
    public var arrivals: [ContinuousClock.Instant] { log.withLock { $0.map(\.at) } }
    /// Each request's User-Agent header, in order of arrival (nil where there was none).
    public var userAgents: [String?] { log.withLock { $0.map(\.userAgent) } }
    /// Requests so far.
    public var requests: Int { log.withLock { $0.count } }

    /// - Parameter delay: how long each answer takes.
    public init(delay: Duration = .zero) async throws {
        let log = Locked<[(at: ContinuousClock.Instant, userAgent: String?)]>([])
        self.log = log
        server = try await LoopbackServer { request in
            let arrived = ContinuousClock.now
            log.withLock { $0.append((arrived, request.headers["user-agent"])) }
            guard request.path == "/reverse" else {
                return .json(["error": ["code": 404, "message": "Not found"]], status: 404)
            }
            if delay > .zero { try? await Task.sleep(for: delay) }
            let latitude = Double(request.query["lat"] ?? "") ?? 0
            if abs(latitude) < 1 { return .json(["error": "Unable to geocode"]) }
            return .json(Self.saransk)
        }
    }

    /// Stops the loopback server.
    public func shutdown() async {
        await server.shutdown()
    }

    /// What the reverse look-up finds anywhere on land: Saransk, as Nominatim's `jsonv2` with
    /// `addressdetails=1` and `namedetails=1` gives it (coordinates as strings).
    public static var saransk: [String: Any] {
        [
            "place_id": 11_984_532, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
            "osm_type": "relation", "osm_id": 1_430_437, "lat": "54.1807481", "lon": "45.1862032", "category": "boundary",
            "type": "administrative", "place_rank": 12, "importance": 0.55, "addresstype": "city", "name": "Саранск",
            "display_name": "Саранск, городской округ Саранск, Республика Мордовия, Приволжский федеральный округ, Россия",
            "address": [
                "city": "Саранск", "county": "городской округ Саранск", "state": "Республика Мордовия",
                "ISO3166-2-lvl4": "RU-MO", "region": "Приволжский федеральный округ", "country": "Россия", "country_code": "ru",
            ],
            "namedetails": ["name": "Саранск", "name:ru": "Саранск", "name:en": "Saransk", "name:de": "Saransk"],
            "boundingbox": ["54.0944412", "54.2690211", "45.0419145", "45.3419282"],
        ]
    }
}
