import Foundation

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

/// The weather at a place now.
public struct WeatherNow: Codable, Sendable, Hashable {
    public var observedAt: Date
    public var timeZone: PlaceTimeZone
    /// °C
    public var temperature: Double
    /// °C
    public var feelsLike: Double
    /// Percent of the sky.
    public var clouds: Int
    public var humidity: Int
    /// hPa
    public var pressure: Double
    /// m/s
    public var windSpeed: Double
    /// Degrees the wind comes from.
    public var windDegrees: Double
    public var description: String
    /// OpenWeather's icon code, such as `01d`.
    public var icon: String

    public init(
        observedAt: Date, timeZone: PlaceTimeZone, temperature: Double, feelsLike: Double, clouds: Int,
        humidity: Int, pressure: Double, windSpeed: Double, windDegrees: Double, description: String, icon: String
    ) {
        self.observedAt = observedAt
        self.timeZone = timeZone
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.clouds = clouds
        self.humidity = humidity
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windDegrees = windDegrees
        self.description = description
        self.icon = icon
    }
}
