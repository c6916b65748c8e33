import Foundation

/// `{"cod": 401, "message": "..."}` where `cod` is a number or a string.
struct ErrorBody: Decodable {
    var message: String?
}

struct ConditionBody: Decodable {
    var id: Int?
    var description: String
    var icon: String
}

/// `/data/3.0/onecall` with only `current` kept.
struct OneCallBody: Decodable {
    struct Current: Decodable {
        var dt: Int
        var temp: Double
        var feelsLike: Double
        var pressure: Double
        var humidity: Double
        var clouds: Double
        var windSpeed: Double?
        var windDeg: Double?
        var weather: [ConditionBody]
    }

    var timezone: String?
    var timezoneOffset: Int
    var current: Current

    var now: WeatherNow {
        let condition = current.weather.first
        let zone: PlaceTimeZone =
            if let timezone, TimeZone(identifier: timezone) != nil { .identifier(timezone) } else { .offset(seconds: timezoneOffset) }
        return WeatherNow(
            observedAt: Date(timeIntervalSince1970: TimeInterval(current.dt)),
            timeZone: zone,
            temperature: current.temp,
            feelsLike: current.feelsLike,
            clouds: Int(current.clouds.rounded()),
            humidity: Int(current.humidity.rounded()),
            pressure: current.pressure,
            windSpeed: current.windSpeed ?? 0,
            windDegrees: current.windDeg ?? 0,
            description: condition?.description ?? "",
            icon: condition?.icon ?? ""
        )
    }
}

/// `/data/2.5/weather`, the free plan's current weather.
struct CurrentWeatherBody: Decodable {
    struct Main: Decodable {
        var temp: Double
        var feelsLike: Double
        var pressure: Double
        var humidity: Double
    }
    struct Clouds: Decodable {
        var all: Double
    }
    struct Wind: Decodable {
        var speed: Double?
        var deg: Double?
    }

    var weather: [ConditionBody]
    var main: Main
    var clouds: Clouds?
    var wind: Wind?
    var dt: Int
    var timezone: Int

    var now: WeatherNow {
        let condition = weather.first
        return WeatherNow(
            observedAt: Date(timeIntervalSince1970: TimeInterval(dt)),
            timeZone: .offset(seconds: timezone),
            temperature: main.temp,
            feelsLike: main.feelsLike,
            clouds: Int((clouds?.all ?? 0).rounded()),
            humidity: Int(main.humidity.rounded()),
            pressure: main.pressure,
            windSpeed: wind?.speed ?? 0,
            windDegrees: wind?.deg ?? 0,
            description: condition?.description ?? "",
            icon: condition?.icon ?? ""
        )
    }
}
