import BotClock
public import Foundation
public import HTTPTransport
public import OpenWeather

/// The place at a point from Nominatim (OpenStreetMap), for the bot that runs without an
/// OpenWeather key.
///
/// Nominatim's usage policy asks for at most one request a second and a User-Agent that names the
/// application: requests start no closer than ``init(url:userAgent:transport:requestTimeout:minimumInterval:budget:)``'s
/// `minimumInterval`, in the order they come, for everyone using this client. One that would wait
/// longer than its caller can (a person: 5 s; work due soon: a minute; background work: ten) is
/// refused at once as rate limited, without being sent.
public final class NominatimClient: Sendable, CustomStringConvertible {
    private let url: URL
    private let get: JSONGet
    private let pacer: RequestPacer
    private let minimumInterval: Duration
    /// What the bot lets itself spend; nil: no limit of its own.
    public let budget: CallBudget?

    static let reversePath = "/reverse"

    /// - Parameters:
    ///   - url: where Nominatim answers, `https://nominatim.openstreetmap.org` unless configured.
    ///   - userAgent: names the bot to Nominatim, as its usage policy asks.
    ///   - requestTimeout: how long one request may take before it fails.
    ///   - minimumInterval: the least time between two requests' starts: a second, the policy's limit.
    ///   - budget: what the bot may spend; nil calls without a limit of its own.
    public init(
        url: URL, userAgent: String, transport: any HTTPTransport, requestTimeout: Duration = .seconds(10),
        minimumInterval: Duration = .seconds(1), budget: CallBudget? = nil
    ) {
        self.url = url
        get = JSONGet(
            transport: transport, timeout: requestTimeout,
            // English: the address (the state) comes as OpenWeather gives it, and the bot
            // translates English region names itself; the names by language come from
            // `namedetails` whatever this says.
            headers: ["Accept": "application/json", "User-Agent": userAgent, "Accept-Language": "en"])
        pacer = RequestPacer(interval: minimumInterval)
        self.minimumInterval = minimumInterval
        self.budget = budget
    }

    /// The host the client calls: safe for the log.
    public var description: String { "NominatimClient(\(url.host ?? "?"))" }

    /// How long a request of `priority` may wait for its turn.
    static func patience(_ priority: CallPriority) -> Duration {
        switch priority {
        case .interactive: .seconds(5)
        case .soon: .seconds(60)
        case .background: .seconds(600)
        }
    }

    /// The place at a point, at the level of a town (`zoom=10`), with its names by language
    /// (Nominatim's `namedetails`, `name:ru` kept under `ru`), its ISO country code in upper case
    /// and its state; none for a point with nothing near, such as the open sea.
    public func reverse(latitude: Double, longitude: Double, for context: CallContext) async throws(OpenWeatherError) -> [GeoPlace] {
        let path = Self.reversePath
        try await budget.admit(context, to: .reverse, path: path)
        let patience = Self.patience(context.currentPriority)
        guard let start = pacer.reserve(patience: patience) else {
            let interval = minimumInterval.timeInterval.formatted(), wait = patience.timeInterval.formatted()
            throw OpenWeatherError(
                code: .rateLimited, endpoint: path, message: "one request every \(interval) s: the next turn is over \(wait) s away",
                refusedLocally: true)
        }
        do {
            try await Task.sleep(until: start, clock: .continuous)
        } catch {
            throw OpenWeatherError(code: .network, endpoint: path, message: "cancelled while waiting for its turn")
        }
        let body: ReverseBody = try await get.get(
            url, path,
            [
                "format": "jsonv2", "lat": JSONGet.coordinate(latitude), "lon": JSONGet.coordinate(longitude), "zoom": "10",
                "addressdetails": "1", "namedetails": "1",
            ])
        guard let place = body.place else { return [] }
        return [place]
    }
}

/// `/reverse?format=jsonv2`: a place, or `{"error": "Unable to geocode"}` where there is none.
/// Its coordinates are strings.
struct ReverseBody: Decodable, PlausibleBody {
    struct Address: Decodable {
        var state: String?
        var countryCode: String?

        enum CodingKeys: String, CodingKey {
            case state
            case countryCode = "country_code"
        }
    }

    var error: String?
    var lat: String?
    var lon: String?
    var name: String?
    var displayName: String?
    var address: Address?
    var namedetails: [String: String]?

    enum CodingKeys: String, CodingKey {
        case error, lat, lon, name, address, namedetails
        case displayName = "display_name"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // An error object (`{"error": {"code": 400, …}}`) is not the place's absence: only the
        // string is, which `place` reads; the object fails the decoding as any other oddity.
        error = try container.decodeIfPresent(String.self, forKey: .error)
        lat = try container.decodeIfPresent(String.self, forKey: .lat)
        lon = try container.decodeIfPresent(String.self, forKey: .lon)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        address = try container.decodeIfPresent(Address.self, forKey: .address)
        namedetails = try container.decodeIfPresent([String: String].self, forKey: .namedetails)
        if error == nil, lat == nil || lon == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "neither a place nor an error"))
        }
    }

    var latitude: Double? { lat.flatMap(Double.init) }
    var longitude: Double? { lon.flatMap(Double.init) }

    func check(_ check: inout PlausibilityCheck) {
        guard error == nil else { return }
        // A coordinate that is no number is as broken as one out of range.
        check.check("lat", latitude ?? .nan, Plausible.latitude)
        check.check("lon", longitude ?? .nan, Plausible.longitude)
    }

    /// The place; nil for Nominatim's "Unable to geocode" or a place without a name.
    var place: GeoPlace? {
        guard error == nil, let latitude, let longitude else { return nil }
        let firstOfDisplay = displayName?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = [namedetails?["name"], name, firstOfDisplay].compactMap({ $0 }).first(where: { !$0.isEmpty }) else { return nil }
        var local: [String: String] = [:]
        for (key, value) in namedetails ?? [:] where key.hasPrefix("name:") && !value.isEmpty {
            local[String(key.dropFirst("name:".count))] = value
        }
        return GeoPlace(
            name: name, localNames: local.isEmpty ? nil : local, lat: latitude, lon: longitude,
            country: address?.countryCode?.uppercased(), state: address?.state)
    }
}
