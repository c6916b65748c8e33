public import Foundation

/// What weather, air and places can be, whichever source tells them. A number outside these
/// bounds (a temperature of 1e300, a latitude of 1000, NaN) is a broken answer: it is refused where
/// the answer is decoded, before any view turns it into an integer.
public enum Plausible {
    /// °C, feels-like included.
    public static let temperature = -150.0...100
    /// hPa.
    public static let pressure = 0.0...1_500
    public static let percent = 0.0...100
    /// m/s.
    public static let speed = 0.0...200
    public static let degrees = -360.0...720
    public static let chance = 0.0...1
    /// mm, over an hour, a quarter hour or a day; cm for snowfall.
    public static let precipitation = 0.0...2_000
    /// Seconds since 1970, up to 2100.
    public static let time = 0.0...4_102_444_800
    /// Seconds from UTC.
    public static let offset = -86_400.0...86_400
    public static let latitude = -90.0...90
    public static let longitude = -180.0...180
    public static let uvIndex = 0.0...30
    /// The European AQI has no top, but nothing measured comes near this.
    public static let europeanAQI = 0.0...10_000
    /// Grains per m³; a heavy birch season peaks in the thousands.
    public static let pollen = 0.0...1_000_000
    /// µg/m³.
    public static let particles = 0.0...10_000
}

/// The first number of an answer found outside its bounds, if any.
public struct PlausibilityCheck: Sendable {
    public private(set) var problem: String?

    public init() {}

    public mutating func check(_ name: String, _ value: Double?, _ range: ClosedRange<Double>) {
        // NaN is in no range.
        guard problem == nil, let value, !range.contains(value) else { return }
        problem = "\(name) \(value)"
    }
}

extension PlausibilityCheck {
    /// The conditions One Call gives now, for each hour and for each day.
    mutating func conditions(
        _ part: String, pressure: Double?, humidity: Double?, clouds: Double?, windSpeed: Double?, windDeg: Double?, pop: Double?,
        rain: PrecipitationBody?, snow: PrecipitationBody?
    ) {
        check("\(part).pressure", pressure, Plausible.pressure)
        check("\(part).humidity", humidity, Plausible.percent)
        check("\(part).clouds", clouds, Plausible.percent)
        check("\(part).wind_speed", windSpeed, Plausible.speed)
        check("\(part).wind_deg", windDeg, Plausible.degrees)
        check("\(part).pop", pop, Plausible.chance)
        check("\(part).rain", rain?.amount, Plausible.precipitation)
        check("\(part).snow", snow?.amount, Plausible.precipitation)
    }
}

/// An answer whose numbers can be checked.
public protocol PlausibleBody {
    func check(_ check: inout PlausibilityCheck)
}

/// A 200 answer's body: decoded (each wire type names its snake_case keys: none is converted), and
/// checked when it can be (``PlausibleBody``). What does not decode, or holds an impossible
/// number, is `.undecodable` at `endpoint`, whichever source sent it.
public func decodePlausible<Body: Decodable>(_ type: Body.Type = Body.self, from data: Data, endpoint: String) throws(OpenWeatherError) -> Body {
    let body: Body
    do {
        body = try JSONDecoder().decode(Body.self, from: data)
    } catch {
        throw OpenWeatherError(code: .undecodable, endpoint: endpoint, message: "the answer did not decode")
    }
    if let checked = body as? any PlausibleBody {
        var check = PlausibilityCheck()
        checked.check(&check)
        if let problem = check.problem {
            throw OpenWeatherError(code: .undecodable, endpoint: endpoint, message: "the answer holds an impossible \(problem)")
        }
    }
    return body
}

extension OneCallBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        check.check("timezone_offset", timezoneOffset, Plausible.offset)
        check.check("current.dt", current.dt, Plausible.time)
        check.check("current.sunrise", current.sunrise, Plausible.time)
        check.check("current.sunset", current.sunset, Plausible.time)
        check.check("current.temp", current.temp, Plausible.temperature)
        check.check("current.feels_like", current.feelsLike, Plausible.temperature)
        check.check("current.wind_gust", current.windGust, Plausible.speed)
        check.conditions(
            "current", pressure: current.pressure, humidity: current.humidity, clouds: current.clouds, windSpeed: current.windSpeed,
            windDeg: current.windDeg, pop: nil, rain: current.rain, snow: current.snow)
        for hour in hourly ?? [] {
            check.check("hourly.dt", hour.dt, Plausible.time)
            check.check("hourly.temp", hour.temp, Plausible.temperature)
            check.check("hourly.feels_like", hour.feelsLike, Plausible.temperature)
            check.conditions(
                "hourly", pressure: hour.pressure, humidity: hour.humidity, clouds: hour.clouds, windSpeed: hour.windSpeed,
                windDeg: hour.windDeg, pop: hour.pop, rain: hour.rain, snow: hour.snow)
        }
        for day in daily ?? [] {
            check.check("daily.dt", day.dt, Plausible.time)
            for (name, value) in [
                ("day", day.temp.day), ("min", day.temp.min), ("max", day.temp.max), ("night", day.temp.night), ("eve", day.temp.eve),
                ("morn", day.temp.morn),
            ] {
                check.check("daily.temp.\(name)", value, Plausible.temperature)
            }
            check.conditions(
                "daily", pressure: day.pressure, humidity: day.humidity, clouds: day.clouds, windSpeed: day.windSpeed,
                windDeg: day.windDeg, pop: day.pop, rain: day.rain, snow: day.snow)
        }
        for alert in alerts ?? [] {
            check.check("alerts.start", alert.start, Plausible.time)
            check.check("alerts.end", alert.end, Plausible.time)
        }
    }
}

extension CurrentWeatherBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        check.check("dt", dt, Plausible.time)
        check.check("timezone", timezone, Plausible.offset)
        main.check(&check)
        check.check("clouds.all", clouds?.all, Plausible.percent)
        wind?.check(&check)
        check.check("sys.sunrise", sys?.sunrise, Plausible.time)
        check.check("sys.sunset", sys?.sunset, Plausible.time)
        check.check("rain", rain?.amount, Plausible.precipitation)
        check.check("snow", snow?.amount, Plausible.precipitation)
    }
}

extension CurrentWeatherBody.Main {
    func check(_ check: inout PlausibilityCheck) {
        check.check("main.temp", temp, Plausible.temperature)
        check.check("main.feels_like", feelsLike, Plausible.temperature)
        check.check("main.pressure", pressure, Plausible.pressure)
        check.check("main.humidity", humidity, Plausible.percent)
    }
}

extension CurrentWeatherBody.Wind {
    func check(_ check: inout PlausibilityCheck) {
        check.check("wind.speed", speed, Plausible.speed)
        check.check("wind.gust", gust, Plausible.speed)
        check.check("wind.deg", deg, Plausible.degrees)
    }
}

extension ForecastBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        check.check("city.timezone", city?.timezone, Plausible.offset)
        for entry in list {
            check.check("list.dt", entry.dt, Plausible.time)
            entry.main.check(&check)
            check.check("list.clouds.all", entry.clouds?.all, Plausible.percent)
            entry.wind?.check(&check)
            check.check("list.pop", entry.pop, Plausible.chance)
            check.check("list.rain", entry.rain?.amount, Plausible.precipitation)
            check.check("list.snow", entry.snow?.amount, Plausible.precipitation)
        }
    }
}

extension Array: PlausibleBody where Element == GeoPlace {
    public func check(_ check: inout PlausibilityCheck) {
        for place in self {
            check.check("lat", place.lat, Plausible.latitude)
            check.check("lon", place.lon, Plausible.longitude)
        }
    }
}
