public import Foundation
public import HTTPTransport
public import OpenWeather

/// The Open-Meteo client shared by all chats: the forecast, place search, the air and pollen,
/// read into the OpenWeather module's models so that the bot shows either source alike.
///
/// Open-Meteo needs no key: nothing secret is sent or logged. Its answers are columns with a
/// `null` wherever a model has nothing; each is read as the field's absence, never as a zero it
/// did not send. Every call waits for the ``CallBudget`` first, when there is one.
public final class OpenMeteoClient: Sendable, CustomStringConvertible {
    private let apiURL: URL
    private let geocodingURL: URL
    private let airQualityURL: URL
    private let get: JSONGet
    /// What the bot lets itself spend; nil: no limit of its own.
    public let budget: CallBudget?

    /// - Parameters:
    ///   - apiURL: the forecast's host, `https://api.open-meteo.com` unless configured (a fake in tests).
    ///   - geocodingURL: place search's, `https://geocoding-api.open-meteo.com`.
    ///   - airQualityURL: the air's and pollen's, `https://air-quality-api.open-meteo.com`.
    ///   - requestTimeout: how long one request may take before it fails.
    ///   - budget: what the bot may spend; nil calls without a limit of its own.
    public init(
        apiURL: URL, geocodingURL: URL, airQualityURL: URL, transport: any HTTPTransport, requestTimeout: Duration = .seconds(10),
        budget: CallBudget? = nil
    ) {
        self.apiURL = apiURL
        self.geocodingURL = geocodingURL
        self.airQualityURL = airQualityURL
        get = JSONGet(transport: transport, timeout: requestTimeout)
        self.budget = budget
    }

    /// The hosts the client calls: safe for the log.
    public var description: String { "OpenMeteoClient(\(apiURL.host ?? "?"), \(geocodingURL.host ?? "?"), \(airQualityURL.host ?? "?"))" }

    static let forecastPath = "/v1/forecast"
    static let searchPath = "/v1/search"
    static let airPath = "/v1/air-quality"

    /// The variables asked for now, by the hour and by the day: what ``forecast(latitude:longitude:for:)`` reads.
    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation", "rain", "showers", "snowfall",
        "weather_code", "cloud_cover", "pressure_msl", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "uv_index",
    ].joined(separator: ",")
    static let hourlyVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "precipitation_probability", "precipitation", "weather_code",
        "is_day", "cloud_cover", "pressure_msl", "wind_speed_10m", "wind_direction_10m",
    ].joined(separator: ",")
    static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "sunrise", "sunset", "uv_index_max", "precipitation_sum",
        "precipitation_probability_max", "wind_speed_10m_max", "wind_direction_10m_dominant",
    ].joined(separator: ",")
    static let pollenVariables = PollenReading.Kind.allCases.map { "\($0.rawValue)_pollen" }.joined(separator: ",")

    // MARK: Weather

    /// The weather at a point now, by the hour from the current one (8 days of them), by the day
    /// (8 days), and by the minute for the next hour when the model has quarter hours there; in
    /// °C, m/s, hPa and mm, in the place's zone. Source ``Forecast/Source/openMeteo``, no warnings.
    public func forecast(latitude: Double, longitude: Double, for context: CallContext) async throws(OpenWeatherError) -> Forecast {
        let path = Self.forecastPath
        try await budget.admit(context, to: .forecast, path: path)
        let body: ForecastBody = try await get.get(
            apiURL, path,
            [
                "latitude": JSONGet.coordinate(latitude), "longitude": JSONGet.coordinate(longitude),
                "current": Self.currentVariables, "hourly": Self.hourlyVariables, "daily": Self.dailyVariables,
                "minutely_15": "precipitation", "timezone": "auto", "timeformat": "unixtime", "forecast_days": "8",
                "temperature_unit": "celsius", "wind_speed_unit": "ms", "precipitation_unit": "mm",
            ], badRequestIsNotFound: false)
        do throws(ForecastGap) {
            return try body.forecast(latitude: latitude, longitude: longitude)
        } catch {
            throw OpenWeatherError(code: .undecodable, endpoint: path, message: error.message)
        }
    }

    // MARK: Places

    /// Places named `name`, at most `limit`, named in `language` (`ru`, `en`, …) as Open-Meteo
    /// knows them; the name in `localNames` under `language` too, the country as an upper-case
    /// ISO code, the region (`admin1`, in `language` too) as the state. Nothing found is an
    /// empty list. A 400 here is a name it cannot look up: not found.
    public func geocode(_ name: String, language: String, limit: Int = 5, for context: CallContext) async throws(OpenWeatherError) -> [GeoPlace] {
        try await search(name, language: language, limit: limit, for: context).map(\.place)
    }

    /// Places named `name` as ``geocode(_:language:limit:for:)`` finds them in `languages[0]`,
    /// their names in every one of `languages` (the same place matched by Open-Meteo's id). The
    /// first language's search is paid by `context`; the others are asked as a batch of the same
    /// view, and when they fail the first answer stands alone. The state is the English one when
    /// `en` is among the languages (the bot translates English region names itself), else the
    /// first language's.
    public func geocodeInLanguages(
        _ name: String, languages: [String], limit: Int = 5, for context: CallContext
    ) async throws(OpenWeatherError) -> [GeoPlace] {
        guard let first = languages.first else { return [] }
        let found = try await search(name, language: first, limit: limit, for: context)
        guard !found.isEmpty else { return [] }
        var others = context
        others.batch = true
        var places = found.map(\.place)
        for language in languages.dropFirst() where language != first {
            guard let answer = try? await search(name, language: language, limit: limit, for: others) else { continue }
            for (index, result) in found.enumerated() {
                guard let id = result.id, let same = answer.first(where: { $0.id == id }) else { continue }
                places[index].localNames = (places[index].localNames ?? [:]).merging(same.place.localNames ?? [:]) { kept, _ in kept }
                if language == "en" { places[index].state = same.place.state }
            }
        }
        return places
    }

    /// One search: each place found with Open-Meteo's id (nil when the answer has none).
    private func search(
        _ name: String, language: String, limit: Int, for context: CallContext
    ) async throws(OpenWeatherError) -> [(id: Int?, place: GeoPlace)] {
        let path = Self.searchPath
        try await budget.admit(context, to: .geocode, path: path)
        let body: SearchBody = try await get.get(
            geocodingURL, path, ["name": name, "count": String(limit), "language": language, "format": "json"])
        return (body.results ?? []).map { result in
            (
                result.id,
                GeoPlace(
                    name: result.name, localNames: [language: result.name], lat: result.latitude, lon: result.longitude,
                    country: result.countryCode?.uppercased(), state: result.admin1)
            )
        }
    }

    // MARK: Air

    /// The air at a point now (one reading), or by the hour for the next 4 days (`forecast`),
    /// from the European AQI on OpenWeather's scale of 1 to 5 (up to 20 is 1, up to 40 is 2, up
    /// to 60 is 3, up to 80 is 4, above 80 is 5) and PM2.5. Hours without an index are left out; none at all is an undecodable answer, as
    /// OpenWeather's client says of its own.
    public func airQuality(latitude: Double, longitude: Double, forecast: Bool, for context: CallContext) async throws(OpenWeatherError) -> [AirQuality] {
        let path = Self.airPath
        try await budget.admit(context, to: .air, path: path)
        let point: KeyValuePairs<String, String> =
            forecast
            ? [
                "latitude": JSONGet.coordinate(latitude), "longitude": JSONGet.coordinate(longitude), "hourly": "european_aqi,pm2_5",
                "forecast_days": "4", "timezone": "auto", "timeformat": "unixtime",
            ]
            : [
                "latitude": JSONGet.coordinate(latitude), "longitude": JSONGet.coordinate(longitude), "current": "european_aqi,pm2_5",
                "timezone": "auto", "timeformat": "unixtime",
            ]
        let body: AirBody = try await get.get(airQualityURL, path, point, badRequestIsNotFound: false)
        let readings = forecast ? body.hourlyReadings : body.readingNow
        guard !readings.isEmpty else {
            throw OpenWeatherError(code: .undecodable, endpoint: path, message: "no European AQI")
        }
        return readings
    }

    /// Pollen at a point by the hour for the next 4 days, grains per m³ of each kind Open-Meteo's
    /// European model gives. Outside its range every value is `null`: the answer is then no
    /// readings at all, never zeros it did not send.
    public func pollen(latitude: Double, longitude: Double, for context: CallContext) async throws(OpenWeatherError) -> [PollenReading] {
        let path = Self.airPath
        try await budget.admit(context, to: .air, path: path)
        let body: AirBody = try await get.get(
            airQualityURL, path,
            [
                "latitude": JSONGet.coordinate(latitude), "longitude": JSONGet.coordinate(longitude), "hourly": Self.pollenVariables,
                "forecast_days": "4", "timezone": "auto", "timeformat": "unixtime",
            ], badRequestIsNotFound: false)
        return body.pollenReadings
    }
}
