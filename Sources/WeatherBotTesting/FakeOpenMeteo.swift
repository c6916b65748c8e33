public import Foundation
public import OpenWeather

/// Open-Meteo on loopback, for the tests and the benchmark: one server answering the forecast
/// (`/v1/forecast`), place search (`/v1/search`) and the air and pollen (`/v1/air-quality`), so
/// its ``url`` serves as all three of the client's base URLs.
///
/// Its forecasts are a Moscow-like winter sky shaped like the real answers (columns, unix times,
/// hours and days from the place's midnight, the current quarter hour now), so that they are
/// always today's. It is **−4.1 °C now**, where ``FakeOpenWeather`` says −2.6 °C: a test can tell
/// which source answered.
public final class FakeOpenMeteo: Sendable {
    /// The loopback server answering; its URL is every base URL of the client.
    public let server: LoopbackServer
    private let counts: Locked<Counts>
    private let failure: Locked<Int?>
    private let rain: Locked<(start: Date, minutes: Int)?>
    private let pollen: Locked<(@Sendable (_ latitude: Double, _ longitude: Double) -> [PollenReading.Kind: Double]?)?>

    struct Counts {
        var forecast = 0
        var geocode = 0
        var air = 0
        var pollen = 0
        var all = 0
    }

    /// The temperature now in every forecast, °C.
    public static let temperatureNow = -4.1

    /// The server's base URL: pass it as the forecast's, place search's and air's.
    public var url: URL { server.url }
    /// Forecasts asked for.
    public var forecastCalls: Int { counts.withLock { $0.forecast } }
    /// Place searches.
    public var geocodeCalls: Int { counts.withLock { $0.geocode } }
    /// Air quality calls, now or by the hour (pollen not counted).
    public var airCalls: Int { counts.withLock { $0.air } }
    /// Pollen calls.
    public var pollenCalls: Int { counts.withLock { $0.pollen } }
    /// Requests of every kind, failed ones included.
    public var requests: Int { counts.withLock { $0.all } }

    /// From now on every request is answered with `status` and Open-Meteo's error object (an
    /// outage); nil: healthy again.
    public func failAll(status: Int?) {
        failure.withLock { $0 = status }
    }

    /// From now on it rains everywhere from `startsAt` for `minutes` (nil: dry): the quarter
    /// hours and hours it touches have 0.5 mm a quarter hour (2 mm an hour), rain's code and a
    /// high chance. As Open-Meteo gives them, each sum and chance is of the interval before its
    /// time: the rain of the quarter hour from T is the value at T + 15 min, of the hour from T
    /// the value at T + 1 h. Where the quarter hours are not the model's own (outside Central
    /// Europe and North America) the client tells rain from the hours: start it on a whole hour
    /// for the hours to say it begins then.
    public func setRain(startsAt: Date?, minutes: Int) {
        rain.withLock { $0 = startsAt.map { ($0, minutes) } }
    }

    /// Pollen at each point from now on: the grains of each kind, or nil for none at all (every
    /// value `null`, as outside the European model's range). Nil restores the default: birch 120
    /// (high) and grass 3 (low) inside Europe's box (``PollenReading/covers(latitude:longitude:)``),
    /// nothing outside it.
    public func setPollen(_ pollen: (@Sendable (_ latitude: Double, _ longitude: Double) -> [PollenReading.Kind: Double]?)?) {
        self.pollen.withLock { $0 = pollen }
    }

    /// - Parameter recording: whether the server keeps every request; the benchmark turns it off.
    public init(recording: Bool = true) async throws {
        let counts = Locked(Counts())
        self.counts = counts
        let failure = Locked<Int?>(nil)
        self.failure = failure
        let rain = Locked<(start: Date, minutes: Int)?>(nil)
        self.rain = rain
        let pollen = Locked<(@Sendable (_ latitude: Double, _ longitude: Double) -> [PollenReading.Kind: Double]?)?>(nil)
        self.pollen = pollen
        server = try await LoopbackServer(recording: recording) { request in
            counts.withLock { $0.all += 1 }
            let latitude = Double(request.query["latitude"] ?? "") ?? 0
            let longitude = Double(request.query["longitude"] ?? "") ?? 0
            switch request.path {
            case "/v1/forecast": counts.withLock { $0.forecast += 1 }
            case "/v1/search": counts.withLock { $0.geocode += 1 }
            case "/v1/air-quality" where (request.query["hourly"] ?? "").contains("pollen"): counts.withLock { $0.pollen += 1 }
            case "/v1/air-quality": counts.withLock { $0.air += 1 }
            default: return .json(["error": true, "reason": "Not Found"], status: 404)
            }
            if let status = failure.withLock({ $0 }) {
                return .json(["error": true, "reason": "Service unavailable"], status: status)
            }
            let now = Date()
            switch request.path {
            case "/v1/forecast":
                return .json(Self.forecast(now: now, rain: rain.withLock { $0 }))
            case "/v1/search":
                let found = Self.places(named: request.query["name"] ?? "", language: request.query["language"] ?? "en")
                let limit = Int(request.query["count"] ?? "") ?? 10
                // Nothing found is no `results` key at all, as Open-Meteo answers.
                var body: [String: Any] = ["generationtime_ms": 0.1]
                if !found.isEmpty { body["results"] = Array(found.prefix(limit)) }
                return .json(body)
            default:
                if (request.query["hourly"] ?? "").contains("pollen") {
                    let grains: [PollenReading.Kind: Double]? =
                        if let chosen = pollen.withLock({ $0 }) { chosen(latitude, longitude) } else {
                            PollenReading.covers(latitude: latitude, longitude: longitude) ? [.birch: 120.0, .grass: 3.0] : nil
                        }
                    return .json(Self.pollen(now: now, grains: grains))
                }
                return .json(Self.air(now: now, current: request.query["current"] != nil))
            }
        }
    }

    /// Stops the loopback server.
    public func shutdown() async {
        await server.shutdown()
    }

    /// Moscow's offset: the fake's place keeps Moscow's clock wherever it is asked about.
    static let offset = 3 * 3600

    /// The start of the fake place's day that holds `now`, seconds since 1970.
    static func midnight(_ now: Date) -> Int {
        (Int(now.timeIntervalSince1970) + offset) / 86_400 * 86_400 - offset
    }

    /// Whether seconds `time` are wet under `rain`, over a step of `length` seconds from it.
    static func wet(_ time: Int, length: Int, _ rain: (start: Date, minutes: Int)?) -> Bool {
        guard let rain else { return false }
        let start = rain.start.timeIntervalSince1970, end = start + Double(rain.minutes * 60)
        return Double(time) < end && Double(time + length) > start
    }

    /// A forecast answer: now (the current quarter hour, its sums those of the quarter hour
    /// before), 8 days of hours and days from the place's midnight, and 24 hours of quarter hours
    /// from now, each sum of the interval before its time as Open-Meteo's are.
    static func forecast(now: Date, rain: (start: Date, minutes: Int)?) -> [String: Any] {
        let midnight = midnight(now)
        let quarter = Int(now.timeIntervalSince1970) / 900 * 900
        let hours = (0..<192).map { midnight + $0 * 3600 }
        func isDay(_ time: Int) -> Int { (9..<16).contains((time - midnight) % 86_400 / 3600) ? 1 : 0 }
        let quarters = (0..<96).map { quarter + $0 * 900 }
        let days = (0..<8).map { midnight + $0 * 86_400 }
        return [
            "latitude": 54.1875, "longitude": 45.1875, "generationtime_ms": 0.2, "utc_offset_seconds": offset, "timezone": "Europe/Moscow",
            "timezone_abbreviation": "GMT+3", "elevation": 141.0,
            "current": [
                "time": quarter, "interval": 900, "temperature_2m": temperatureNow, "relative_humidity_2m": 88, "apparent_temperature": -9.0,
                "is_day": isDay(quarter), "precipitation": wet(quarter - 900, length: 900, rain) ? 0.5 : 0.0,
                "rain": wet(quarter - 900, length: 900, rain) ? 0.5 : 0.0, "showers": 0.0, "snowfall": 0.0,
                "weather_code": wet(quarter, length: 900, rain) ? 61 : 3, "cloud_cover": 100, "pressure_msl": 1019.4,
                "wind_speed_10m": 4.3, "wind_direction_10m": 200, "wind_gusts_10m": 9.1, "uv_index": 0.0,
            ] as [String: Any],
            "minutely_15": [
                "time": quarters, "precipitation": quarters.map { wet($0 - 900, length: 900, rain) ? 0.5 : 0.0 },
            ] as [String: Any],
            "hourly": [
                "time": hours,
                "temperature_2m": hours.indices.map { -6.0 + Double($0 % 24) / 4 },
                "apparent_temperature": hours.indices.map { -11.0 + Double($0 % 24) / 4 },
                "relative_humidity_2m": hours.map { _ in 88 },
                "precipitation_probability": hours.map { wet($0 - 3600, length: 3600, rain) ? 90 : 10 },
                "precipitation": hours.map { wet($0 - 3600, length: 3600, rain) ? 2.0 : 0.0 },
                "weather_code": hours.map { wet($0, length: 3600, rain) ? 61 : 3 },
                "is_day": hours.map(isDay),
                "cloud_cover": hours.map { _ in 100 },
                "pressure_msl": hours.map { _ in 1019.4 },
                "wind_speed_10m": hours.map { _ in 4.3 },
                "wind_direction_10m": hours.map { _ in 200 },
            ] as [String: Any],
            "daily": [
                "time": days,
                "weather_code": days.map { wet($0, length: 86_400, rain) ? 61 : 71 },
                "temperature_2m_max": days.indices.map { -0.5 + Double($0) },
                "temperature_2m_min": days.indices.map { -8.0 + Double($0) / 2 },
                "sunrise": days.map { $0 + 8 * 3600 + 40 * 60 },
                "sunset": days.map { $0 + 16 * 3600 + 5 * 60 },
                "uv_index_max": days.map { _ in 0.4 },
                "precipitation_sum": days.map { wet($0, length: 86_400, rain) ? 2.0 : 0.7 },
                "precipitation_probability_max": days.map { wet($0, length: 86_400, rain) ? 90 : 35 },
                "wind_speed_10m_max": days.map { _ in 6.2 },
                "wind_direction_10m_dominant": days.map { _ in 230 },
            ] as [String: Any],
        ]
    }

    /// The air now (`current`) or by the hour for 4 days from the place's midnight: a European
    /// AQI of 35 (OpenWeather's 2, fair) and 12.4 µg/m³ of PM2.5.
    static func air(now: Date, current: Bool) -> [String: Any] {
        if current {
            return [
                "utc_offset_seconds": offset, "timezone": "Europe/Moscow",
                "current": ["time": Int(now.timeIntervalSince1970) / 3600 * 3600, "interval": 3600, "european_aqi": 35, "pm2_5": 12.4],
            ]
        }
        let hours = (0..<96).map { midnight(now) + $0 * 3600 }
        return [
            "utc_offset_seconds": offset, "timezone": "Europe/Moscow",
            "hourly": ["time": hours, "european_aqi": hours.map { _ in 35 }, "pm2_5": hours.map { _ in 12.4 }] as [String: Any],
        ]
    }

    /// Pollen by the hour for 4 days from the place's midnight: `grains` every hour, every kind
    /// not in it `null`; every value `null` when `grains` is nil.
    static func pollen(now: Date, grains: [PollenReading.Kind: Double]?) -> [String: Any] {
        let hours = (0..<96).map { midnight(now) + $0 * 3600 }
        var columns: [String: Any] = ["time": hours]
        for kind in PollenReading.Kind.allCases {
            let value: Any = grains?[kind] ?? NSNull()
            columns["\(kind.rawValue)_pollen"] = hours.map { _ in value }
        }
        return ["utc_offset_seconds": offset, "timezone": "Europe/Moscow", "hourly": columns]
    }

    /// A place the search finds: its names, the country's, the region's, in Russian and English.
    private struct Place {
        var id: Int
        var name: (ru: String, en: String)
        var latitude: Double
        var longitude: Double
        var code: String
        var country: (ru: String, en: String)
        var region: (ru: String, en: String)
        var zone: String

        func json(russian: Bool) -> [String: Any] {
            [
                "id": id, "name": russian ? name.ru : name.en, "latitude": latitude, "longitude": longitude, "feature_code": "PPLA",
                "country_code": code, "timezone": zone, "country": russian ? country.ru : country.en,
                "admin1": russian ? region.ru : region.en,
            ]
        }
    }

    private static let russia = (ru: "Россия", en: "Russia")

    /// The places each name finds, under every name they are searched by.
    private static let known: [String: [Place]] = {
        let saransk = Place(
            id: 498_677, name: ("Саранск", "Saransk"), latitude: 54.1838, longitude: 45.1749, code: "RU", country: russia,
            region: ("Мордовия", "Mordoviya"), zone: "Europe/Moscow")
        let kazan = Place(
            id: 551_487, name: ("Казань", "Kazan"), latitude: 55.7887, longitude: 49.1221, code: "RU", country: russia,
            region: ("Татарстан", "Tatarstan"), zone: "Europe/Moscow")
        let ufa = Place(
            id: 479_561, name: ("Уфа", "Ufa"), latitude: 54.7348, longitude: 55.9578, code: "RU", country: russia,
            region: ("Башкортостан", "Bashkortostan"), zone: "Asia/Yekaterinburg")
        let london = Place(
            id: 2_643_743, name: ("Лондон", "London"), latitude: 51.5073, longitude: -0.1277, code: "GB",
            country: ("Великобритания", "United Kingdom"), region: ("Англия", "England"), zone: "Europe/London")
        let paris = [
            Place(
                id: 2_988_507, name: ("Париж", "Paris"), latitude: 48.8589, longitude: 2.32, code: "FR", country: ("Франция", "France"),
                region: ("Иль-де-Франс", "Île-de-France"), zone: "Europe/Paris"),
            Place(
                id: 4_717_560, name: ("Париж", "Paris"), latitude: 33.66, longitude: -95.55, code: "US", country: ("США", "United States"),
                region: ("Техас", "Texas"), zone: "America/Chicago"),
        ]
        return [
            "Саранск": [saransk], "Saransk": [saransk], "Казань": [kazan], "Kazan": [kazan], "Уфа": [ufa], "Ufa": [ufa],
            "London": [london], "Лондон": [london], "Париж": paris, "Paris": paris,
        ]
    }()

    /// The places a name finds (in Russian or English), named in `language` (`ru`, else English):
    /// Саранск, Казань, Уфа, London, two Parises (France and Texas), and «Place N», a place of
    /// its own N degrees from the others, as ``FakeOpenWeather/places(named:)`` has.
    public static func places(named name: String, language: String) -> [[String: Any]] {
        if let places = known[name] { return places.map { $0.json(russian: language == "ru") } }
        guard name.hasPrefix("Place "), let number = Int(name.dropFirst("Place ".count)) else { return [] }
        return [
            [
                "id": 1_000_000 + number, "name": name, "latitude": Double(40 + number), "longitude": 30.0, "country_code": "RU",
                "timezone": "Europe/Moscow",
            ]
        ]
    }
}
