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
    /// OpenWeather's icon code, such as `10n`: the digits say the sky, `d` or `n` day or night; the bot picks its emoji by it.
    public var icon: String
    /// OpenWeather's condition code (800 clear, 500 light rain…), which the bot words itself in
    /// each reader's language; nil when the answer had none.
    public var id: Int?

    /// A condition as decoded, or built by hand in tests; `id` stays nil when the answer gave no code.
    public init(description: String, icon: String, id: Int? = nil) {
        self.description = description
        self.icon = icon
        self.id = id
    }
}

/// The weather at a place now.
public struct CurrentWeather: Codable, Sendable, Hashable {
    /// When OpenWeather measured it, not when the bot asked.
    public var time: Date
    /// °C: the bot always asks for metric units.
    public var temperature: Double
    /// °C as it feels with wind and humidity; the plain temperature when the answer left it out.
    public var feelsLike: Double
    /// Cloud cover in percent, 0…100.
    public var clouds: Int
    /// Relative humidity in percent.
    public var humidity: Int
    /// hPa
    public var pressure: Double
    /// m/s
    public var windSpeed: Double
    /// m/s; nil when the answer gave no gusts.
    public var windGust: Double?
    /// Degrees the wind comes from.
    public var windDegrees: Double
    /// The sky now, in the words and icon OpenWeather gives for this moment.
    public var condition: Condition
    /// Today's sunrise at the place; nil when the answer had none.
    public var sunrise: Date?
    /// Today's sunset at the place; nil like `sunrise`.
    public var sunset: Date?
    /// mm in the last hour.
    public var rain: Double?
    /// mm in the last hour.
    public var snow: Double?
    /// The UV index now (One Call only; none on the free plan).
    public var uvIndex: Double?

    /// Weather as decoded from either plan, or built by hand in tests; the optional parts default to unknown.
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
    /// The start of the step.
    public var time: Date
    /// °C.
    public var temperature: Double
    /// Cloud cover in percent, 0…100.
    public var clouds: Int
    /// Relative humidity in percent.
    public var humidity: Int
    /// hPa.
    public var pressure: Double
    /// m/s.
    public var windSpeed: Double
    /// Degrees the wind comes from.
    public var windDegrees: Double
    /// Chance of precipitation, 0…1.
    public var precipitationChance: Double
    /// mm over the step.
    public var precipitation: Double
    /// The sky over the step.
    public var condition: Condition
    /// How the temperature feels, when OpenWeather gives it.
    public var feelsLike: Double?

    /// A step as decoded from either plan, or built by hand in tests.
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
    /// °C for the afternoon (12–18 local when derived from 3-hour steps).
    public var dayTemperature: Double
    /// °C for the night (00–06 local when derived).
    public var nightTemperature: Double
    /// °C for the morning (06–12 local when derived).
    public var morningTemperature: Double
    /// °C for the evening (18–24 local when derived).
    public var eveningTemperature: Double
    /// The day's lowest °C.
    public var minimumTemperature: Double
    /// The day's highest °C.
    public var maximumTemperature: Double
    /// Cloud cover in percent, 0…100.
    public var clouds: Int
    /// Relative humidity in percent.
    public var humidity: Int
    /// hPa.
    public var pressure: Double
    /// m/s.
    public var windSpeed: Double
    /// Degrees the wind comes from.
    public var windDegrees: Double
    /// Chance of precipitation at some point in the day, 0…1.
    public var precipitationChance: Double
    /// mm over the day, rain and snow.
    public var precipitation: Double
    /// The sky that sums up the day.
    public var condition: Condition
    /// One Call 3.0's one-line summary of the day, when given.
    public var summary: String?
    /// The day's highest UV index (One Call only).
    public var uvIndex: Double?

    /// A day as decoded from One Call or derived from 3-hour steps, or built by hand in tests.
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
    /// The start of the minute.
    public var time: Date
    /// Millimetres an hour.
    public var precipitation: Double

    /// One minute of the next hour's precipitation, as decoded or built in tests.
    public init(time: Date, precipitation: Double) {
        self.time = time
        self.precipitation = precipitation
    }
}

/// A weather warning from a national service.
public struct WeatherAlert: Codable, Sendable, Hashable {
    /// The service that issued it, such as a national weather office; may be empty.
    public var sender: String
    /// The warning's short title in the sender's words, such as «Yellow wind warning».
    public var event: String
    /// When the warned weather begins.
    public var start: Date
    /// When the warning runs out.
    public var end: Date
    /// The sender's full text, often long and in the sender's own language.
    public var description: String
    /// The kinds of weather it is about («Rain», «Thunderstorm»), in English whatever the entry's language.
    public var tags: [String]

    /// A warning as decoded from One Call, or built by hand in tests.
    public init(sender: String, event: String, start: Date, end: Date, description: String, tags: [String] = []) {
        self.sender = sender
        self.event = event
        self.start = start
        self.end = end
        self.description = description
        self.tags = tags
    }

    /// What tells one warning from another: one event at one time. The feed often lists a warning
    /// once per language («Rain» and «Дождь», the same times and tags), the sender named in each
    /// language too («Росгидромет» and «Roshydromet»): those entries share an identity, whoever
    /// the sender is in each. Without tags nothing links the languages, and the event's words
    /// tell warnings apart.
    public struct Identity: Hashable, Sendable {
        var start: Date
        var end: Date
        var tags: [String]
        var event: String?
    }

    /// The key the views group this warning's language copies under, so each warning shows once.
    public var identity: Identity {
        Identity(start: start, end: end, tags: tags.sorted(), event: tags.isEmpty ? event : nil)
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
        /// Open-Meteo, the second source: hourly steps, 8 days, no warnings; the card names it.
        case openMeteo
    }

    /// The place's clock, for reading times and splitting days.
    public var timeZone: PlaceTimeZone
    /// The weather now.
    public var current: CurrentWeather
    /// Precipitation for each of the next 60 minutes (One Call only; empty on the free plan).
    public var minutely: [MinutePrecipitation]
    /// The coming hours, oldest first, `hourlyStep` hours apart; may be empty.
    public var hourly: [HourlyForecast]
    /// The coming days, today first; may be empty.
    public var daily: [DailyForecast]
    /// Warnings in force or coming at the place; empty when none, and always on the free plan.
    public var alerts: [WeatherAlert]
    /// Which source answered: an OpenWeather plan, or Open-Meteo.
    public var source: Source

    /// A forecast as decoded from either plan, or built by hand in tests; the lists default to empty.
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
    public var hourlyStep: Int { source == .freePlan ? 3 : 1 }
}
