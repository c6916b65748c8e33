import Foundation

// The wire shapes of Open-Meteo's answers. A section (`current`, `hourly`, `daily`,
// `minutely_15`) is a set of columns, one array per variable asked for, each as long as `time`;
// any value may be `null` (a model that does not reach the point or the hour), so every column is
// `[Double?]` and every one but `time` optional. Each type names its snake_case keys itself, as
// the OpenWeather module's models do.

/// A time as the answer gives it: seconds since 1970 (`timeformat=unixtime`, what the client
/// asks for), or a local ISO 8601 time such as `2026-10-03T12:00` or `2026-10-03` (the default
/// format), read with the answer's `utc_offset_seconds`.
enum WireTime: Decodable, Hashable {
    case unix(Double)
    case local(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            self = .unix(seconds)
        } else {
            self = .local(try container.decode(String.self))
        }
    }

    /// The instant, or nil for a string that is no local time.
    func date(offset: Int) -> Date? {
        switch self {
        case .unix(let seconds):
            return seconds.isFinite ? Date(timeIntervalSince1970: seconds) : nil
        case .local(let text):
            var calendar = Calendar(identifier: .gregorian)
            guard let zone = TimeZone(secondsFromGMT: offset) else { return nil }
            calendar.timeZone = zone
            let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0) }
            guard parts.count == 3 || parts.count == 5, parts.allSatisfy({ $0 != nil }) else { return nil }
            let numbers = parts.map { $0! }
            let components = DateComponents(
                year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers.count == 5 ? numbers[3] : 0,
                minute: numbers.count == 5 ? numbers[4] : 0)
            return calendar.date(from: components)
        }
    }
}

/// `{"error": true, "reason": "…"}` from Open-Meteo with a 400; `{"error": "…"}` from Nominatim.
struct ErrorBody: Decodable {
    var reason: String?
    var message: String?

    private enum CodingKeys: String, CodingKey {
        case reason, error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        message = try? container.decodeIfPresent(String.self, forKey: .error)
    }

    /// What the server said, for the log.
    var text: String? { reason ?? message }
}

/// `/v1/forecast`.
struct ForecastBody: Decodable {
    struct Current: Decodable {
        var time: WireTime
        var temperature: Double?
        var apparentTemperature: Double?
        var humidity: Double?
        var cloudCover: Double?
        var pressure: Double?
        var windSpeed: Double?
        var windDirection: Double?
        var windGusts: Double?
        var weatherCode: Double?
        var isDay: Double?
        var precipitation: Double?
        var rain: Double?
        var showers: Double?
        var snowfall: Double?
        var uvIndex: Double?
        /// Seconds the sums (precipitation, rain, showers, snowfall) are over: 900 for a quarter hour.
        var interval: Double?

        enum CodingKeys: String, CodingKey {
            case time, precipitation, rain, showers, snowfall, interval
            case temperature = "temperature_2m", apparentTemperature = "apparent_temperature", humidity = "relative_humidity_2m"
            case cloudCover = "cloud_cover", pressure = "pressure_msl", windSpeed = "wind_speed_10m"
            case windDirection = "wind_direction_10m", windGusts = "wind_gusts_10m", weatherCode = "weather_code"
            case isDay = "is_day", uvIndex = "uv_index"
        }
    }

    struct Hourly: Decodable {
        var time: [WireTime]
        var temperature: [Double?]?
        var apparentTemperature: [Double?]?
        var humidity: [Double?]?
        var precipitationProbability: [Double?]?
        var precipitation: [Double?]?
        var weatherCode: [Double?]?
        var isDay: [Double?]?
        var cloudCover: [Double?]?
        var pressure: [Double?]?
        var windSpeed: [Double?]?
        var windDirection: [Double?]?

        enum CodingKeys: String, CodingKey {
            case time, precipitation
            case temperature = "temperature_2m", apparentTemperature = "apparent_temperature", humidity = "relative_humidity_2m"
            case precipitationProbability = "precipitation_probability", weatherCode = "weather_code", isDay = "is_day"
            case cloudCover = "cloud_cover", pressure = "pressure_msl", windSpeed = "wind_speed_10m"
            case windDirection = "wind_direction_10m"
        }
    }

    struct Daily: Decodable {
        var time: [WireTime]
        var weatherCode: [Double?]?
        var maximum: [Double?]?
        var minimum: [Double?]?
        var sunrise: [WireTime?]?
        var sunset: [WireTime?]?
        var uvIndexMax: [Double?]?
        var precipitationSum: [Double?]?
        var precipitationProbabilityMax: [Double?]?
        var windSpeedMax: [Double?]?
        var windDirectionDominant: [Double?]?

        enum CodingKeys: String, CodingKey {
            case time, sunrise, sunset
            case weatherCode = "weather_code", maximum = "temperature_2m_max", minimum = "temperature_2m_min"
            case uvIndexMax = "uv_index_max", precipitationSum = "precipitation_sum"
            case precipitationProbabilityMax = "precipitation_probability_max", windSpeedMax = "wind_speed_10m_max"
            case windDirectionDominant = "wind_direction_10m_dominant"
        }
    }

    struct QuarterHours: Decodable {
        var time: [WireTime]
        var precipitation: [Double?]?
    }

    var timezone: String?
    var utcOffsetSeconds: Double?
    var current: Current
    var hourly: Hourly?
    var daily: Daily?
    var minutely15: QuarterHours?

    enum CodingKeys: String, CodingKey {
        case timezone, current, hourly, daily
        case utcOffsetSeconds = "utc_offset_seconds", minutely15 = "minutely_15"
        case currentUnits = "current_units", hourlyUnits = "hourly_units", dailyUnits = "daily_units"
        case minutely15Units = "minutely_15_units"
    }

    /// Decodes the answer and brings every value into the bot's units (°C, m/s, mm, cm of snow,
    /// hPa) by the units each section says it is in (`current_units`, …): the client asks for
    /// these, but an answer that says otherwise is read as it says. A unit that cannot be
    /// converted fails the decoding.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timezone = try container.decodeIfPresent(String.self, forKey: .timezone)
        utcOffsetSeconds = try container.decodeIfPresent(Double.self, forKey: .utcOffsetSeconds)
        current = try container.decode(Current.self, forKey: .current)
        hourly = try container.decodeIfPresent(Hourly.self, forKey: .hourly)
        daily = try container.decodeIfPresent(Daily.self, forKey: .daily)
        minutely15 = try container.decodeIfPresent(QuarterHours.self, forKey: .minutely15)
        func units(_ key: CodingKeys) throws -> WireUnits {
            WireUnits(said: try container.decodeIfPresent([String: String].self, forKey: key) ?? [:], section: key.stringValue)
        }
        let now = try units(.currentUnits)
        try now.convert(&current.temperature, "temperature_2m", .temperature)
        try now.convert(&current.apparentTemperature, "apparent_temperature", .temperature)
        try now.convert(&current.pressure, "pressure_msl", .pressure)
        try now.convert(&current.windSpeed, "wind_speed_10m", .speed)
        try now.convert(&current.windGusts, "wind_gusts_10m", .speed)
        try now.convert(&current.precipitation, "precipitation", .precipitation)
        try now.convert(&current.rain, "rain", .precipitation)
        try now.convert(&current.showers, "showers", .precipitation)
        try now.convert(&current.snowfall, "snowfall", .snowfall)
        if hourly != nil {
            let by = try units(.hourlyUnits)
            try by.convert(&hourly!.temperature, "temperature_2m", .temperature)
            try by.convert(&hourly!.apparentTemperature, "apparent_temperature", .temperature)
            try by.convert(&hourly!.pressure, "pressure_msl", .pressure)
            try by.convert(&hourly!.windSpeed, "wind_speed_10m", .speed)
            try by.convert(&hourly!.precipitation, "precipitation", .precipitation)
        }
        if daily != nil {
            let by = try units(.dailyUnits)
            try by.convert(&daily!.maximum, "temperature_2m_max", .temperature)
            try by.convert(&daily!.minimum, "temperature_2m_min", .temperature)
            try by.convert(&daily!.windSpeedMax, "wind_speed_10m_max", .speed)
            try by.convert(&daily!.precipitationSum, "precipitation_sum", .precipitation)
        }
        if minutely15 != nil {
            try units(.minutely15Units).convert(&minutely15!.precipitation, "precipitation", .precipitation)
        }
    }

    /// The offset every local time of the answer is read with.
    var offset: Int {
        guard let utcOffsetSeconds, utcOffsetSeconds.isFinite, abs(utcOffsetSeconds) <= 86_400 else { return 0 }
        return Int(utcOffsetSeconds)
    }
}

/// `/v1/search`: no `results` key at all when nothing is found.
struct SearchBody: Decodable {
    struct Result: Decodable {
        var name: String
        var latitude: Double
        var longitude: Double
        var countryCode: String?
        var admin1: String?
        /// Open-Meteo's (GeoNames') id of the place: the same place under every language.
        var id: Int?

        enum CodingKeys: String, CodingKey {
            case name, latitude, longitude, admin1, id
            case countryCode = "country_code"
        }
    }

    var results: [Result]?
}

/// `/v1/air-quality`: the air now (`current`) or by the hour (`hourly`), and pollen by the hour.
struct AirBody: Decodable {
    struct Current: Decodable {
        var time: WireTime
        var europeanAQI: Double?
        var pm25: Double?

        enum CodingKeys: String, CodingKey {
            case time
            case europeanAQI = "european_aqi", pm25 = "pm2_5"
        }
    }

    struct Hourly: Decodable {
        var time: [WireTime]
        var europeanAQI: [Double?]?
        var pm25: [Double?]?
        var alder: [Double?]?
        var birch: [Double?]?
        var grass: [Double?]?
        var mugwort: [Double?]?
        var olive: [Double?]?
        var ragweed: [Double?]?

        enum CodingKeys: String, CodingKey {
            case time
            case europeanAQI = "european_aqi", pm25 = "pm2_5", alder = "alder_pollen", birch = "birch_pollen"
            case grass = "grass_pollen", mugwort = "mugwort_pollen", olive = "olive_pollen", ragweed = "ragweed_pollen"
        }
    }

    var utcOffsetSeconds: Double?
    var current: Current?
    var hourly: Hourly?

    enum CodingKeys: String, CodingKey {
        case current, hourly
        case utcOffsetSeconds = "utc_offset_seconds"
    }

    var offset: Int {
        guard let utcOffsetSeconds, utcOffsetSeconds.isFinite, abs(utcOffsetSeconds) <= 86_400 else { return 0 }
        return Int(utcOffsetSeconds)
    }
}

extension Optional where Wrapped == [Double?] {
    /// The value at `index`; nil when the column is absent, shorter, or `null` there.
    subscript(at index: Int) -> Double? {
        guard let column = self, column.indices.contains(index) else { return nil }
        return column[index]
    }
}
