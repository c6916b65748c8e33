public import Foundation

/// OpenWeather on loopback, for the tests and the benchmark: reverse and direct geocoding from
/// small tables, and One Call 3.0 answers shaped like the real ones, starting at the current hour
/// so that today's and tomorrow's forecasts are in them. It counts the forecasts asked for.
public final class FakeOpenWeather: Sendable {
    /// The only `appid` the fake accepts; any other is answered 401 as OpenWeather does.
    public static let apiKey = "fake-openweather-key"

    /// The loopback server answering; its URL is the client's `apiURL`.
    public let server: LoopbackServer
    private let calls: Locked<Int>
    private let all: Locked<Int>
    private let down: Locked<Bool>
    private let air: Locked<(index: Int, pm25: Double)?>
    private let airServed: Locked<Int>
    private let airHeld: Locked<Bool>
    private let airAnswered: Locked<Int>
    private let refused: Locked<Int>
    private let requestLog: Locked<[Call]>?
    private let sky: Locked<(@Sendable (_ latitude: Double, _ longitude: Double) -> Sky?)?>

    /// What the sky does at a point, beyond the usual dry forecast: rain or snow from a time, for
    /// some minutes, and warnings. One Call answers there carry the minutes ahead and the warnings.
    public struct Sky: Sendable {
        /// When the rain begins; nil: dry all along.
        public var rainStarts: Date?
        /// How long it rains from `rainStarts`, in minutes.
        public var rainMinutes: Int
        /// mm/h.
        public var rate: Double
        /// The warnings One Call lists at the point, as `alerts`.
        public var warnings: [Warning]

        /// Half an hour of rain at 1.5 mm/h from `rainStarts`, and no warnings, unless told otherwise.
        public init(rainStarts: Date? = nil, rainMinutes: Int = 30, rate: Double = 1.5, warnings: [Warning] = []) {
            self.rainStarts = rainStarts
            self.rainMinutes = rainMinutes
            self.rate = rate
            self.warnings = warnings
        }
    }

    /// A warning as the feed lists it (one entry per language).
    public struct Warning: Sendable {
        /// The issuing service, as `sender_name`.
        public var sender: String
        /// What it warns of, in the entry's language.
        public var event: String
        /// When it comes into force; sent as seconds since 1970.
        public var start: Date
        /// When it ends; sent as seconds since 1970.
        public var end: Date
        /// The feed's text of the warning.
        public var description: String
        /// The feed's kinds (`Rain`, `Wind`, …); the bot keys a warning by them, by `event` when there are none.
        public var tags: [String]

        /// One entry of the feed; list it once per language for a warning in several.
        public init(sender: String, event: String, start: Date, end: Date, description: String, tags: [String]) {
            self.sender = sender
            self.event = event
            self.start = start
            self.end = end
            self.description = description
            self.tags = tags
        }
    }

    /// From now on, One Call answers at each point as `sky` says (nil: the usual forecast).
    public func setSky(_ sky: @escaping @Sendable (_ latitude: Double, _ longitude: Double) -> Sky?) {
        self.sky.withLock { $0 = sky }
    }

    /// The server's base URL.
    public var url: URL { server.url }
    /// The port it listens on.
    public var port: Int { server.port }
    /// Forecast calls so far (geocoding not counted).
    public var forecastCalls: Int { calls.withLock { $0 } }
    /// Requests of every kind so far, geocoding included: what a key is billed for.
    public var requests: Int { all.withLock { $0 } }
    /// Requests answered 429 for going over `perMinute`.
    public var tooManyRequests: Int { refused.withLock { $0 } }

    /// A request as it came, when `logging`: its time of arrival, endpoint, query (without the key)
    /// and the status it was answered with.
    public struct Call: Sendable {
        /// When the request arrived, on the wall clock.
        public var at: Date
        /// The endpoint's path, such as `/data/3.0/onecall`.
        public var path: String
        /// The query's items, without `appid`.
        public var query: [String: String]
        /// The HTTP status it was answered with.
        public var status: Int
    }

    /// Every request so far in order of arrival, 429s included (empty unless `logging`).
    public var log: [Call] { requestLog?.withLock { $0 } ?? [] }

    /// The air index (1…5) and PM2.5 every place has now and for the next four days; nil: the Air
    /// Pollution API answers 503. `held`: its answers wait until ``releaseAir()`` (or a minute),
    /// an answer that is slow for as long as a test needs, whatever the machine's speed.
    public func setAir(_ air: (index: Int, pm25: Double)?, held: Bool = false) {
        self.air.withLock { $0 = air }
        airHeld.withLock { $0 = held }
    }

    /// Lets the held air answers go.
    public func releaseAir() {
        airHeld.withLock { $0 = false }
    }

    /// How many calls of the Air Pollution API came.
    public var airCalls: Int { airServed.withLock { $0 } }

    /// How many of them have been answered.
    public var airAnswers: Int { airAnswered.withLock { $0 } }

    /// From now on, forecasts fail with 503 (OpenWeather is down), or succeed again.
    public func failForecasts(_ failing: Bool) {
        down.withLock { $0 = failing }
    }

    /// - Parameters:
    ///   - forecastDelay: how long a forecast takes to come (a slow OpenWeather).
    ///   - geocodeDelay: how long a search by name takes.
    ///   - recording: whether the server keeps every request; the benchmark turns it off.
    ///   - perMinute: as a key's rate, requests beyond this many in any 60 seconds are answered
    ///     429 (and not counted as served); nil for no limit.
    ///   - logging: whether to keep ``log``, each request's time, endpoint and query.
    public init(
        forecastDelay: Duration = .zero, geocodeDelay: Duration = .zero, recording: Bool = true, perMinute: Int? = nil, logging: Bool = false
    ) async throws {
        let calls = Locked(0)
        self.calls = calls
        let air = Locked<(index: Int, pm25: Double)?>((2, 12.4))
        self.air = air
        let airServed = Locked(0)
        self.airServed = airServed
        let airHeld = Locked(false)
        self.airHeld = airHeld
        let airAnswered = Locked(0)
        self.airAnswered = airAnswered
        let all = Locked(0)
        self.all = all
        let down = Locked(false)
        self.down = down
        let refused = Locked(0)
        self.refused = refused
        let log = logging ? Locked<[Call]>([]) : nil
        requestLog = log
        let sky = Locked<(@Sendable (_ latitude: Double, _ longitude: Double) -> Sky?)?>(nil)
        self.sky = sky
        let served = Locked<[ContinuousClock.Instant]>([])
        // Written once: the benchmark asks for thousands.
        let forecast = LoopbackResponse.json(Self.forecast(from: Int(Date().timeIntervalSince1970) / 3600 * 3600))
        let reverse = LoopbackResponse.json([Self.saransk])
        let cities = ["Саранск", "Париж", "Paris", "London", "Казань", "Уфа"].reduce(into: [String: LoopbackResponse]()) { $0[$1] = .json(Self.places(named: $1)) }
        let answer: LoopbackServer.Handler = { request in
            all.withLock { $0 += 1 }
            guard request.query["appid"] == Self.apiKey else {
                return .json(["cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."], status: 401)
            }
            if let perMinute {
                let now = ContinuousClock.now
                let over = served.withLock { served in
                    served.removeAll { now - $0 >= .seconds(60) }
                    if served.count >= perMinute { return true }
                    served.append(now)
                    return false
                }
                if over {
                    refused.withLock { $0 += 1 }
                    return .json(
                        ["cod": 429, "message": "Your account is temporary blocked due to exceeding of requests limitation of your subscription type."],
                        status: 429)
                }
            }
            switch request.path {
            case "/geo/1.0/reverse":
                let latitude = Double(request.query["lat"] ?? "") ?? 0
                // The open sea: nothing near (0, -30).
                if abs(latitude) < 1 { return .json([Any]()) }
                return reverse
            case "/geo/1.0/direct":
                let name = request.query["q"] ?? ""
                if geocodeDelay > .zero { try? await Task.sleep(for: geocodeDelay) }
                return cities[name] ?? .json(Self.places(named: name))
            case "/data/3.0/onecall":
                calls.withLock { $0 += 1 }
                if down.withLock({ $0 }) { return .json(["cod": 503, "message": "Service Unavailable"], status: 503) }
                if forecastDelay > .zero { try? await Task.sleep(for: forecastDelay) }
                let latitude = Double(request.query["lat"] ?? "") ?? 0, longitude = Double(request.query["lon"] ?? "") ?? 0
                if let weather = sky.withLock({ $0 })?(latitude, longitude) {
                    return .json(Self.forecast(from: Int(Date().timeIntervalSince1970) / 3600 * 3600, sky: weather, now: Date()))
                }
                return forecast
            case "/data/2.5/air_pollution", "/data/2.5/air_pollution/forecast":
                airServed.withLock { $0 += 1 }
                let holdUntil = ContinuousClock.now + .seconds(60)
                while airHeld.withLock({ $0 }), ContinuousClock.now < holdUntil { try? await Task.sleep(for: .milliseconds(5)) }
                defer { airAnswered.withLock { $0 += 1 } }
                guard let (index, pm25) = air.withLock({ $0 }) else { return .json(["cod": 503, "message": "Service Unavailable"], status: 503) }
                let hour = Int(Date().timeIntervalSince1970) / 3600 * 3600
                let hours = request.path.hasSuffix("/forecast") ? 96 : 1
                return .json([
                    "coord": ["lon": Double(request.query["lon"] ?? "") ?? 0, "lat": Double(request.query["lat"] ?? "") ?? 0],
                    "list": (0..<hours).map { ["dt": hour + $0 * 3600, "main": ["aqi": index], "components": ["pm2_5": pm25, "pm10": pm25 * 1.4]] },
                ])
            default:
                return .json(["cod": "404", "message": "Internal error"], status: 404)
            }
        }
        server = try await LoopbackServer(recording: recording) { request in
            guard let log else { return await answer(request) }
            let arrived = Date()
            let response = await answer(request)
            let call = Call(at: arrived, path: request.path, query: request.query.filter { $0.key != "appid" }, status: response.status)
            log.withLock { $0.append(call) }
            return response
        }
    }

    /// Stops the loopback server, at the end of a test or a benchmark run.
    public func shutdown() async {
        await server.shutdown()
    }

    /// The places a name finds: a few cities, and «Place N», a place of its own N degrees from
    /// the others (the benchmark's many places).
    public static func places(named name: String) -> [[String: Any]] {
        switch name {
        case "Саранск": return [saransk]
        case "Париж", "Paris": return [paris("FR", "Ile-de-France", 48.8589, 2.32), paris("US", "Texas", 33.66, -95.55)]
        case "London": return [["name": "London", "local_names": ["ru": "Лондон", "en": "London"], "lat": 51.5073, "lon": -0.1277, "country": "GB", "state": "England"]]
        case "Казань": return [city("Kazan", "Казань", "Tatarstan", 55.7887, 49.1221)]
        case "Уфа": return [city("Ufa", "Уфа", "Bashkortostan", 54.7348, 55.9578)]
        default:
            guard name.hasPrefix("Place "), let number = Int(name.dropFirst("Place ".count)) else { return [] }
            return [["name": name, "lat": 40 + number, "lon": 30, "country": "RU"]]
        }
    }

    /// A One Call answer as `forecast(from:)`, with the minutes from `now` and the warnings of `sky`.
    static func forecast(from start: Int, sky: Sky, now: Date) -> [String: Any] {
        var body = forecast(from: start)
        let minute = Int(now.timeIntervalSince1970) / 60 * 60
        body["minutely"] = (0..<60).map { index -> [String: Any] in
            let time = minute + index * 60
            var wet = false
            if let starts = sky.rainStarts?.timeIntervalSince1970 {
                wet = Double(time) >= starts && Double(time) < starts + Double(sky.rainMinutes * 60)
            }
            return ["dt": time, "precipitation": wet ? sky.rate : 0]
        }
        if !sky.warnings.isEmpty {
            body["alerts"] = sky.warnings.map { warning -> [String: Any] in
                [
                    "sender_name": warning.sender, "event": warning.event, "start": Int(warning.start.timeIntervalSince1970),
                    "end": Int(warning.end.timeIntervalSince1970), "description": warning.description, "tags": warning.tags,
                ]
            }
        }
        return body
    }

    /// A One Call answer whose hours start at `start` (a whole hour, seconds since 1970).
    static func forecast(from start: Int) -> [String: Any] {
        let clouds: [[String: Any]] = [["id": 804, "main": "Clouds", "description": "пасмурно", "icon": "04n"]]
        let hours = (0..<48).map { index -> [String: Any] in
            [
                "dt": start + index * 3600, "temp": -3 + index % 5, "pressure": 1018, "humidity": 86, "clouds": 100,
                "wind_speed": 4.1, "wind_deg": 210, "pop": 0.1, "weather": clouds,
            ]
        }
        let noon = start / 86_400 * 86_400 + 9 * 3600  // noon in Moscow
        let snow: [[String: Any]] = [["id": 600, "main": "Snow", "description": "небольшой снег", "icon": "13d"]]
        let days = (0..<8).map { index -> [String: Any] in
            let temperatures: [String: Any] = ["day": -1 + index, "min": -8, "max": 1 + index, "night": -6, "eve": -3, "morn": -5]
            return [
                "dt": noon + index * 86400, "temp": temperatures, "pressure": 1016, "humidity": 80, "wind_speed": 5,
                "wind_deg": 270, "clouds": 90, "pop": 0.4, "snow": 1.5, "weather": snow,
            ]
        }
        return [
            "lat": 54.18, "lon": 45.17, "timezone": "Europe/Moscow", "timezone_offset": 10800,
            "current": [
                "dt": 1_700_000_000, "sunrise": 1_699_936_000, "sunset": 1_699_967_000, "temp": -2.6, "feels_like": -7,
                "pressure": 1018, "humidity": 86, "dew_point": -4.5, "uvi": 0, "clouds": 100, "visibility": 10000,
                "wind_speed": 4.1, "wind_deg": 210,
                "weather": clouds,
            ],
            "hourly": hours,
            "daily": days,
        ]
    }

    /// What reverse geocoding finds anywhere on land.
    public static var saransk: [String: Any] {
        [
            "name": "Saransk", "local_names": ["ru": "Саранск", "en": "Saransk", "ascii": "Saransk", "feature_name": "Saransk"],
            "lat": 54.1838, "lon": 45.1749, "country": "RU", "state": "Mordovia",
        ]
    }

    static func city(_ name: String, _ russian: String, _ state: String, _ lat: Double, _ lon: Double) -> [String: Any] {
        ["name": name, "local_names": ["ru": russian, "en": name], "lat": lat, "lon": lon, "country": "RU", "state": state]
    }

    static func paris(_ country: String, _ state: String, _ lat: Double, _ lon: Double) -> [String: Any] {
        ["name": "Paris", "local_names": ["ru": "Париж"], "lat": lat, "lon": lon, "country": country, "state": state]
    }
}
