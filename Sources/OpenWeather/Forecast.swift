public import Foundation

/// How a place keeps time: an IANA zone when One Call names it, a fixed offset otherwise.
public enum PlaceTimeZone: Codable, Sendable, Hashable {
    case identifier(String)
    case offset(seconds: Int)

    /// A Foundation time zone; GMT when the identifier is unknown to this system.
    public var timeZone: TimeZone {
        switch self {
        case .identifier(let identifier):
            return TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        case .offset(let seconds):
            return TimeZone(secondsFromGMT: seconds) ?? TimeZone(secondsFromGMT: 0)!
        }
    }
}

extension PlaceTimeZone {
    /// The form kept in the store: an IANA identifier, or `UTC+05:45` for a fixed offset.
    public var stored: String {
        switch self {
        case .identifier(let identifier):
            return identifier
        case .offset(let seconds):
            let sign = seconds < 0 ? "-" : "+"
            let minutes = abs(seconds) / 60
            return String(format: "UTC%@%02d:%02d", sign, minutes / 60, minutes % 60)
        }
    }

    /// Reads the stored form back; nil when it is neither.
    public init?(stored: String) {
        if stored.hasPrefix("UTC"), stored.count == 9 {
            let body = stored.dropFirst(3)
            let sign = body.first == "-" ? -1 : 1
            let digits = body.dropFirst().split(separator: ":")
            guard digits.count == 2, let hours = Int(digits[0]), let minutes = Int(digits[1]) else { return nil }
            self = .offset(seconds: sign * (hours * 3600 + minutes * 60))
        } else if TimeZone(identifier: stored) != nil {
            self = .identifier(stored)
        } else {
            return nil
        }
    }
}

/// What the sky does: OpenWeather's description and icon code (`01d`, `10n`, …).
public struct Condition: Codable, Sendable, Hashable {
    /// OpenWeather's words for it, in the language the forecast was fetched in.
    public var description: String
    public var icon: String
    /// OpenWeather's condition code (800 clear, 500 light rain…), which the bot words itself in
    /// each reader's language; nil when the answer had none.
    public var id: Int?

    public init(description: String, icon: String, id: Int? = nil) {
        self.description = description
        self.icon = icon
        self.id = id
    }
}

/// The weather at a place now.
public struct CurrentWeather: Codable, Sendable, Hashable {
    public var time: Date
    public var temperature: Double
    public var feelsLike: Double
    public var clouds: Int
    public var humidity: Int
    /// hPa
    public var pressure: Double
    /// m/s
    public var windSpeed: Double
    public var windGust: Double?
    /// Degrees the wind comes from.
    public var windDegrees: Double
    public var condition: Condition
    public var sunrise: Date?
    public var sunset: Date?
    /// mm in the last hour.
    public var rain: Double?
    /// mm in the last hour.
    public var snow: Double?
    /// The UV index now (One Call only; none on the free plan).
    public var uvIndex: Double?

    public init(
        time: Date, temperature: Double, feelsLike: Double, clouds: Int, humidity: Int, pressure: Double,
        windSpeed: Double, windGust: Double? = nil, windDegrees: Double, condition: Condition,
        sunrise: Date? = nil, sunset: Date? = nil, rain: Double? = nil, snow: Double? = nil, uvIndex: Double? = nil
    ) {
        self.uvIndex = uvIndex
        self.time = time
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.clouds = clouds
        self.humidity = humidity
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windGust = windGust
        self.windDegrees = windDegrees
        self.condition = condition
        self.sunrise = sunrise
        self.sunset = sunset
        self.rain = rain
        self.snow = snow
    }
}

/// One step of the hourly forecast: an hour with One Call, three hours on the free plan.
public struct HourlyForecast: Codable, Sendable, Hashable {
    public var time: Date
    public var temperature: Double
    public var clouds: Int
    public var humidity: Int
    public var pressure: Double
    public var windSpeed: Double
    public var windDegrees: Double
    /// Chance of precipitation, 0…1.
    public var precipitationChance: Double
    /// mm over the step.
    public var precipitation: Double
    public var condition: Condition
    /// How the temperature feels, when OpenWeather gives it.
    public var feelsLike: Double?

    public init(
        time: Date, temperature: Double, clouds: Int, humidity: Int, pressure: Double, windSpeed: Double,
        windDegrees: Double, precipitationChance: Double, precipitation: Double, condition: Condition, feelsLike: Double? = nil
    ) {
        self.time = time
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.clouds = clouds
        self.humidity = humidity
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windDegrees = windDegrees
        self.precipitationChance = precipitationChance
        self.precipitation = precipitation
        self.condition = condition
    }
}

/// One day of the daily forecast.
public struct DailyForecast: Codable, Sendable, Hashable {
    /// A moment within the day (One Call gives local noon).
    public var time: Date
    public var dayTemperature: Double
    public var nightTemperature: Double
    public var morningTemperature: Double
    public var eveningTemperature: Double
    public var minimumTemperature: Double
    public var maximumTemperature: Double
    public var clouds: Int
    public var humidity: Int
    public var pressure: Double
    public var windSpeed: Double
    public var windDegrees: Double
    public var precipitationChance: Double
    /// mm over the day, rain and snow.
    public var precipitation: Double
    public var condition: Condition
    /// One Call 3.0's one-line summary of the day, when given.
    public var summary: String?
    /// The day's highest UV index (One Call only).
    public var uvIndex: Double?

    public init(
        time: Date, dayTemperature: Double, nightTemperature: Double, morningTemperature: Double,
        eveningTemperature: Double, minimumTemperature: Double, maximumTemperature: Double, clouds: Int,
        humidity: Int, pressure: Double, windSpeed: Double, windDegrees: Double, precipitationChance: Double,
        precipitation: Double, condition: Condition, summary: String? = nil, uvIndex: Double? = nil
    ) {
        self.uvIndex = uvIndex
        self.time = time
        self.dayTemperature = dayTemperature
        self.nightTemperature = nightTemperature
        self.morningTemperature = morningTemperature
        self.eveningTemperature = eveningTemperature
        self.minimumTemperature = minimumTemperature
        self.maximumTemperature = maximumTemperature
        self.clouds = clouds
        self.humidity = humidity
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windDegrees = windDegrees
        self.precipitationChance = precipitationChance
        self.precipitation = precipitation
        self.condition = condition
        self.summary = summary
    }
}

/// Precipitation expected in one minute of the next hour.
public struct MinutePrecipitation: Codable, Sendable, Hashable {
    public var time: Date
    /// Millimetres an hour.
    public var precipitation: Double

    public init(time: Date, precipitation: Double) {
        self.time = time
        self.precipitation = precipitation
    }
}

/// A weather warning from a national service.
public struct WeatherAlert: Codable, Sendable, Hashable {
    public var sender: String
    public var event: String
    public var start: Date
    public var end: Date
    public var description: String
    /// The kinds of weather it is about («Rain», «Thunderstorm»), in English whatever the entry's language.
    public var tags: [String]

    public init(sender: String, event: String, start: Date, end: Date, description: String, tags: [String] = []) {
        self.sender = sender
        self.event = event
        self.start = start
        self.end = end
        self.description = description
        self.tags = tags
    }

    /// What tells one warning from another. The feed often lists a warning once per language
    /// («Rain» and «Дождь», the same sender, times and tags): those entries share an identity.
    /// Without tags nothing links the languages, and the event's words tell warnings apart.
    public struct Identity: Hashable, Sendable {
        var sender: String
        var start: Date
        var end: Date
        var tags: [String]
        var event: String?
    }

    public var identity: Identity {
        Identity(sender: sender, start: start, end: end, tags: tags.sorted(), event: tags.isEmpty ? event : nil)
    }
}

/// Everything known about the weather at a place: now, by the hour, by the day, and warnings.
public struct Forecast: Codable, Sendable, Hashable {
    /// Where the data came from, which decides how fine the hourly steps are.
    public enum Source: String, Codable, Sendable, Hashable {
        /// One Call 3.0: hourly steps for 48 hours, 8 days.
        case oneCall
        /// The free plan (`/data/2.5`): 3-hour steps for 5 days, days derived from them.
        case freePlan
    }

    public var timeZone: PlaceTimeZone
    public var current: CurrentWeather
    /// Precipitation for each of the next 60 minutes (One Call only; empty on the free plan).
    public var minutely: [MinutePrecipitation]
    public var hourly: [HourlyForecast]
    public var daily: [DailyForecast]
    public var alerts: [WeatherAlert]
    public var source: Source

    public init(
        timeZone: PlaceTimeZone, current: CurrentWeather, minutely: [MinutePrecipitation] = [], hourly: [HourlyForecast] = [],
        daily: [DailyForecast] = [], alerts: [WeatherAlert] = [], source: Source = .oneCall
    ) {
        self.timeZone = timeZone
        self.current = current
        self.minutely = minutely
        self.hourly = hourly
        self.daily = daily
        self.alerts = alerts
        self.source = source
    }

    /// Hours between hourly steps.
    public var hourlyStep: Int { source == .oneCall ? 1 : 3 }
}
