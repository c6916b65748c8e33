/// What weather and places can be. A number from OpenWeather outside these bounds (a temperature
/// of 1e300, a latitude of 1000, NaN) is a broken answer: it is refused where the answer is
/// decoded, before any view turns it into an integer.
enum Plausible {
    /// °C, feels-like included.
    static let temperature = -150.0...100
    /// hPa.
    static let pressure = 0.0...1_500
    static let percent = 0.0...100
    /// m/s.
    static let speed = 0.0...200
    static let degrees = -360.0...720
    static let chance = 0.0...1
    /// mm.
    static let precipitation = 0.0...2_000
    /// Seconds since 1970, up to 2100.
    static let time = 0.0...4_102_444_800
    /// Seconds from UTC.
    static let offset = -86_400.0...86_400
    static let latitude = -90.0...90
    static let longitude = -180.0...180
}

/// The first number of an answer found outside its bounds, if any.
struct PlausibilityCheck {
    private(set) var problem: String?

    mutating func check(_ name: String, _ value: Double?, _ range: ClosedRange<Double>) {
        // NaN is in no range.
        guard problem == nil, let value, !range.contains(value) else { return }
        problem = "\(name) \(value)"
    }
}

/// An answer whose numbers can be checked.
protocol PlausibleBody {
    func check(_ check: inout PlausibilityCheck)
}

extension OneCallBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        check.check("timezone_offset", timezoneOffset, Plausible.offset)
        check.check("current.dt", current.dt, Plausible.time)
        check.check("current.sunrise", current.sunrise, Plausible.time)
        check.check("current.sunset", current.sunset, Plausible.time)
        check.check("current.temp", current.temp, Plausible.temperature)
        check.check("current.feels_like", current.feelsLike, Plausible.temperature)
        check.check("current.pressure", current.pressure, Plausible.pressure)
        check.check("current.humidity", current.humidity, Plausible.percent)
        check.check("current.clouds", current.clouds, Plausible.percent)
        check.check("current.wind_speed", current.windSpeed, Plausible.speed)
        check.check("current.wind_gust", current.windGust, Plausible.speed)
        check.check("current.wind_deg", current.windDeg, Plausible.degrees)
        check.check("current.rain", current.rain?.amount, Plausible.precipitation)
        check.check("current.snow", current.snow?.amount, Plausible.precipitation)
        for hour in hourly ?? [] {
            check.check("hourly.dt", hour.dt, Plausible.time)
            check.check("hourly.temp", hour.temp, Plausible.temperature)
            check.check("hourly.pressure", hour.pressure, Plausible.pressure)
            check.check("hourly.humidity", hour.humidity, Plausible.percent)
            check.check("hourly.clouds", hour.clouds, Plausible.percent)
            check.check("hourly.wind_speed", hour.windSpeed, Plausible.speed)
            check.check("hourly.wind_deg", hour.windDeg, Plausible.degrees)
            check.check("hourly.pop", hour.pop, Plausible.chance)
            check.check("hourly.rain", hour.rain?.amount, Plausible.precipitation)
            check.check("hourly.snow", hour.snow?.amount, Plausible.precipitation)
        }
        for day in daily ?? [] {
            check.check("daily.dt", day.dt, Plausible.time)
            for (name, value) in [
                ("day", day.temp.day), ("min", day.temp.min), ("max", day.temp.max), ("night", day.temp.night), ("eve", day.temp.eve),
                ("morn", day.temp.morn),
            ] {
                check.check("daily.temp.\(name)", value, Plausible.temperature)
            }
            check.check("daily.pressure", day.pressure, Plausible.pressure)
            check.check("daily.humidity", day.humidity, Plausible.percent)
            check.check("daily.clouds", day.clouds, Plausible.percent)
            check.check("daily.wind_speed", day.windSpeed, Plausible.speed)
            check.check("daily.wind_deg", day.windDeg, Plausible.degrees)
            check.check("daily.pop", day.pop, Plausible.chance)
            check.check("daily.rain", day.rain?.amount, Plausible.precipitation)
            check.check("daily.snow", day.snow?.amount, Plausible.precipitation)
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
    func check(_ check: inout PlausibilityCheck) {
        for place in self {
            check.check("lat", place.lat, Plausible.latitude)
            check.check("lon", place.lon, Plausible.longitude)
        }
    }
}
