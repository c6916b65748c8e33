public import Foundation
public import HTTPTransport
import Synchronization

/// The OpenWeather client shared by all chats: geocoding and current weather.
///
/// Weather comes from One Call 3.0; when that answers 401 because the key has no One Call
/// subscription, the free plan's `/data/2.5` endpoints are used instead, and that choice is
/// remembered for ``fallbackMemory`` so each request does not hit the 401 again. Every 429 stops
/// every call for ``rateLimitPause`` (a minute): OpenWeather answers the key's rate and One Call's
/// daily cap with the same words, so no body tells them apart and the free plan is not asked at
/// once. A One Call 429 again after that silent minute is its daily cap when the free plan then
/// answers: the free plan serves the rest of the UTC day. Every call waits for the ``CallBudget``
/// first, when there is one.
public final class OpenWeatherClient: Sendable, CustomStringConvertible {
    private let apiKey: String
    private let apiURL: URL
    private let transport: any HTTPTransport
    private let requestTimeout: Duration
    private let fallbackMemory: Duration
    /// Until when One Call 3.0 is known to be unavailable for this key.
    private let oneCallUnavailableUntil = Mutex<ContinuousClock.Instant?>(nil)
    /// After a 429, no call is made until this instant: the answer would be 429 again.
    private let rateLimitedUntil = Mutex<ContinuousClock.Instant?>(nil)
    /// One Call answered 429 and has not answered since: its next 429, after the pause, may be
    /// its daily cap.
    private let oneCallRefused = Mutex(false)
    private let rateLimitPause: Duration
    /// What the key may spend; nil: no limit of the bot's own.
    public let budget: CallBudget?

    /// - Parameters:
    ///   - apiKey: the key sent as `appid`; never shown (``description`` redacts it).
    ///   - apiURL: where OpenWeather answers: `https://api.openweathermap.org` unless configured (a fake in tests).
    ///   - requestTimeout: how long one request may take before it fails.
    ///   - fallbackMemory: how long a 401 from One Call keeps the free plan's endpoints in use.
    ///   - rateLimitPause: how long no call is made after a 429.
    ///   - budget: what the key may spend; nil calls without a limit of the bot's own.
    public init(
        apiKey: String,
        apiURL: URL,
        transport: any HTTPTransport,
        requestTimeout: Duration = .seconds(10),
        fallbackMemory: Duration = .seconds(3600),
        rateLimitPause: Duration = .seconds(60),
        budget: CallBudget? = nil
    ) {
        self.apiKey = apiKey
        self.apiURL = apiURL
        self.transport = transport
        self.requestTimeout = requestTimeout
        self.fallbackMemory = fallbackMemory
        self.rateLimitPause = rateLimitPause
        self.budget = budget
    }

    /// The host the client calls, never the key: safe for the log.
    public var description: String { "OpenWeatherClient(\(apiURL.host ?? "?"), key: <redacted>)" }

    // MARK: Geocoding

    /// Places named `name`, at most `limit` of them; the call paid as `context` says.
    public func geocode(_ name: String, limit: Int = 5, for context: CallContext) async throws(OpenWeatherError) -> [GeoPlace] {
        try await get("/geo/1.0/direct", ["q": name, "limit": String(limit)], for: context)
    }

    /// Places at a point, nearest first; empty for the open sea.
    public func reverseGeocode(latitude: Double, longitude: Double, limit: Int = 1, for context: CallContext) async throws(OpenWeatherError) -> [GeoPlace] {
        try await get("/geo/1.0/reverse", ["lat": Self.coordinate(latitude), "lon": Self.coordinate(longitude), "limit": String(limit)], for: context)
    }

    // MARK: Air

    /// The air at a point now (`/data/2.5/air_pollution`), or by the hour for the next days
    /// (`/data/2.5/air_pollution/forecast`); on every plan. Readings without an index from 1 to
    /// 5 are left out; none at all is an undecodable answer.
    public func airQuality(latitude: Double, longitude: Double, forecast: Bool = false, for context: CallContext) async throws(OpenWeatherError) -> [AirQuality] {
        let path = forecast ? "/data/2.5/air_pollution/forecast" : "/data/2.5/air_pollution"
        let body: AirPollutionBody = try await get(path, ["lat": Self.coordinate(latitude), "lon": Self.coordinate(longitude)], for: context)
        let readings = body.readings
        guard !readings.isEmpty else {
            throw OpenWeatherError(code: .undecodable, endpoint: path, message: "no air quality index from 1 to 5")
        }
        return readings
    }

    // MARK: Weather

    /// The weather at a point now, by the hour and by the day, with descriptions in `language`
    /// (`ru` or `en`) and metric units.
    public func forecast(latitude: Double, longitude: Double, language: String, for context: CallContext) async throws(OpenWeatherError) -> Forecast {
        let point = ["lat": Self.coordinate(latitude), "lon": Self.coordinate(longitude), "units": "metric", "lang": language]
        var capped = false
        if !isOneCallUnavailable {
            do {
                let body: OneCallBody = try await get(Self.oneCall, point, for: context)
                oneCallRefused.withLock { $0 = false }
                return body.forecast
            } catch where error.code == .subscriptionRequired {
                markOneCallUnavailable(until: ContinuousClock.now + fallbackMemory)
            } catch where error.code == .rateLimited && !error.refusedLocally {
                // The key's rate and One Call's cap answer alike: the first 429 is waited out,
                // with every other call; only one that comes again after the silent minute, when
                // the rate would have let it through, asks the free plan whether it is the cap.
                guard oneCallRefusedAgain() else { throw error }
                capped = true
            }
        }
        // The free plan's pair is admitted together: never one call of it without the other.
        try await admit(["/data/2.5/weather", "/data/2.5/forecast"], for: context)
        async let currentBody: CurrentWeatherBody = send("/data/2.5/weather", point)
        async let stepsBody: ForecastBody = send("/data/2.5/forecast", point)
        do {
            let (current, steps) = try await (currentBody, stepsBody)
            if capped {
                oneCallRefused.withLock { $0 = false }
                // The key still answers: One Call's calls for the UTC day are spent.
                let now = Date()
                let midnight = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 86_400
                markOneCallUnavailable(until: ContinuousClock.now + .seconds(midnight - now.timeIntervalSince1970))
            }
            let offset = Int(steps.city?.timezone ?? current.timezone ?? 0)
            return Forecast.fromFreePlan(current: current.current, steps: steps.hours, offsetSeconds: offset)
        } catch let error as OpenWeatherError {
            // The free plan refused too: the key's rate, not One Call's cap; its next 429 is
            // waited out again before the free plan is asked.
            if capped, error.code == .rateLimited { oneCallRefused.withLock { $0 = false } }
            throw error
        } catch {
            throw OpenWeatherError(code: .network, endpoint: "/data/2.5", message: String(describing: type(of: error)))
        }
    }

    /// Whether One Call 3.0 is being skipped for now.
    public var isOneCallUnavailable: Bool {
        oneCallUnavailableUntil.withLock { until in
            guard let deadline = until else { return false }
            if ContinuousClock.now < deadline { return true }
            until = nil
            return false
        }
    }

    /// Whether One Call's 429 comes after one waited out already; if not, it is remembered and
    /// every call waits out the pause.
    private func oneCallRefusedAgain() -> Bool {
        let again = oneCallRefused.withLock { refused in
            // A 429 of a call sent before the pause began is the same refusal.
            guard refused, !isPaused else { return false }
            return true
        }
        if !again {
            oneCallRefused.withLock { $0 = true }
            pause()
        }
        return again
    }

    private var isPaused: Bool {
        rateLimitedUntil.withLock { until in
            guard let deadline = until else { return false }
            if ContinuousClock.now < deadline { return true }
            until = nil
            return false
        }
    }

    /// No call is made for ``rateLimitPause`` from now.
    private func pause() {
        let deadline = ContinuousClock.now + rateLimitPause
        rateLimitedUntil.withLock { $0 = max($0 ?? deadline, deadline) }
    }

    private func markOneCallUnavailable(until deadline: ContinuousClock.Instant) {
        oneCallUnavailableUntil.withLock { $0 = deadline }
    }

    static let oneCall = "/data/3.0/onecall"

    // MARK: Transport

    /// RFC 3986's unreserved characters, the only ones a query value keeps as they are.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes a query value: every byte but the unreserved characters.
    static func queryEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    static func coordinate(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    /// Throws while everyone waits out a 429.
    private func checkPause(_ path: String) throws(OpenWeatherError) {
        let pausedUntil = rateLimitedUntil.withLock { until -> ContinuousClock.Instant? in
            if let deadline = until, ContinuousClock.now >= deadline { until = nil }
            return until
        }
        if pausedUntil != nil {
            throw OpenWeatherError(code: .rateLimited, endpoint: path, message: "paused after a 429", refusedLocally: true)
        }
    }

    private func get<Body: Decodable>(_ path: String, _ query: [String: String], for context: CallContext) async throws(OpenWeatherError) -> Body {
        try await admit([path], for: context)
        return try await send(path, query)
    }

    /// Waits for the calls' slots in the budget, paid as `context` says, and throws while
    /// everyone waits out a 429.
    private func admit(_ paths: [String], for context: CallContext) async throws(OpenWeatherError) {
        for path in paths { try checkPause(path) }
        guard let budget else { return }
        for (index, path) in paths.enumerated() {
            // A pair is one look-up for the chat's share of the minute (what a person asked
            // for), two for the minute's and the day's budgets (what OpenWeather counts).
            var paid = context
            if index > 0 { paid.batch = true }
            do {
                try await budget.acquire(paid, for: OpenWeatherEndpoint(path: path))
            } catch {
                throw OpenWeatherError(
                    code: .overBudget(error.refusal), endpoint: path, message: "over the bot's budget", refusedLocally: true, chatToldAlready: error.repeated)
            }
        }
        // A 429 may have come while the calls waited for their slots.
        for path in paths { try checkPause(path) }
    }

    /// Sends a call admitted already.
    private func send<Body: Decodable>(_ path: String, _ query: [String: String]) async throws(OpenWeatherError) -> Body {
        var components = URLComponents(url: apiURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        // URLComponents leaves «+» as it is, which servers read as a space: encode it too.
        components.percentEncodedQueryItems = (query.sorted { $0.key < $1.key } + [("appid", apiKey)]).map { name, value in
            URLQueryItem(name: name, value: Self.queryEncoded(value))
        }
        guard let url = components.url else {
            throw OpenWeatherError(code: .undecodable, endpoint: path, message: "could not build the request")
        }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(url: url, headers: ["Accept": "application/json"], timeout: requestTimeout))
        } catch {
            throw OpenWeatherError(code: .network, endpoint: path, message: error.description.redacting(apiKey))
        }
        guard response.status == 200 else {
            // Any other 429 is the key's rate, and everyone waits it out; One Call's is decided
            // where it is read (``forecast(latitude:longitude:language:for:)``).
            if response.status == 429, path != Self.oneCall { pause() }
            throw Self.error(status: response.status, body: response.body, endpoint: path, hiding: apiKey)
        }
        return try decodePlausible(from: response.body, endpoint: path)
    }

    /// The error an answer other than 200 means; its message is the server's, without `secret`,
    /// since a server may quote the request's URL, key and all.
    static func error(status: Int, body: Data, endpoint: String, hiding secret: String = "") -> OpenWeatherError {
        let message = ((try? JSONDecoder().decode(ErrorBody.self, from: body))?.message ?? "HTTP \(status)").redacting(secret)
        let code: OpenWeatherError.Code
        switch status {
        case 401 where message.localizedLowercase.contains("subscription"):
            code = .subscriptionRequired
        case 401:
            code = .invalidKey
        case 404, 400:
            code = .notFound
        case 429:
            code = .rateLimited
        case 500...599:
            code = .server(status)
        default:
            code = .unexpectedStatus(status)
        }
        return OpenWeatherError(code: code, endpoint: endpoint, message: String(message.prefix(200)))
    }
}
