import Foundation

// The wire shapes of OpenWeather's answers. Every number is read as a Double, since the API sends
// the same field as 3 or 3.0; every field the views can do without is optional. Each type names
// its snake_case keys itself: with a decoder converting every key of every object, a One Call
// answer's decoding cost twice as much (measured in the worker's profile at 20 updates a second).

/// `{"cod": 401, "message": "..."}` where `cod` is a number or a string (and is not read).
struct ErrorBody: Decodable {
    var message: String?
}

struct ConditionBody: Decodable {
    var id: Double?
    var description: String?
    var icon: String?
}

extension Array where Element == ConditionBody {
    var condition: Condition {
        // A code is three digits; anything else (NaN, 1e300) is no code, never a trap.
        let id = first?.id.flatMap { (100..<1000).contains($0) ? Int($0) : nil }
        return Condition(description: first?.description ?? "", icon: first?.icon ?? "", id: id)
    }
}

/// Precipitation: `{"1h": 0.62}` or `{"3h": 0.22}` for current and hourly data, a plain number for days.
struct PrecipitationBody: Decodable {
    var amount: Double

    private struct Keys: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let number = try? single.decode(Double.self) {
            amount = number
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        amount = 0
        for key in container.allKeys {
            if let value = try? container.decode(Double.self, forKey: key) { amount += value }
        }
    }
}

/// `/data/3.0/onecall`.
struct OneCallBody: Decodable {
    struct Current: Decodable {
        var dt: Double
        var sunrise: Double?
        var sunset: Double?
        var temp: Double
        var feelsLike: Double?
        var pressure: Double?
        var humidity: Double?
        var clouds: Double?
        var windSpeed: Double?
        var windGust: Double?
        var windDeg: Double?
        var weather: [ConditionBody]?
        var rain: PrecipitationBody?
        var snow: PrecipitationBody?
        var uvi: Double?

        enum CodingKeys: String, CodingKey {
            case dt, sunrise, sunset, temp, pressure, humidity, clouds, weather, rain, snow, uvi
            case feelsLike = "feels_like", windSpeed = "wind_speed", windGust = "wind_gust", windDeg = "wind_deg"
        }
    }

    struct Hour: Decodable {
        var dt: Double
        var temp: Double
        var feelsLike: Double?
        var pressure: Double?
        var humidity: Double?
        var clouds: Double?
        var windSpeed: Double?
        var windDeg: Double?
        var pop: Double?
        var weather: [ConditionBody]?
        var rain: PrecipitationBody?
        var snow: PrecipitationBody?

        enum CodingKeys: String, CodingKey {
            case dt, temp, pressure, humidity, clouds, pop, weather, rain, snow
            case feelsLike = "feels_like", windSpeed = "wind_speed", windDeg = "wind_deg"
        }
    }

    struct Day: Decodable {
        struct Temperatures: Decodable {
            var day: Double
            var min: Double?
            var max: Double?
            var night: Double?
            var eve: Double?
            var morn: Double?
        }
        var dt: Double
        var summary: String?
        var temp: Temperatures
        var pressure: Double?
        var humidity: Double?
        var windSpeed: Double?
        var windDeg: Double?
        var weather: [ConditionBody]?
        var clouds: Double?
        var pop: Double?
        var rain: PrecipitationBody?
        var snow: PrecipitationBody?
        var uvi: Double?

        enum CodingKeys: String, CodingKey {
            case dt, summary, temp, pressure, humidity, weather, clouds, pop, rain, snow, uvi
            case windSpeed = "wind_speed", windDeg = "wind_deg"
        }
    }

    struct Alert: Decodable {
        var senderName: String?
        var event: String?
        var start: Double
        var end: Double
        var description: String?
        var tags: [String]?

        enum CodingKeys: String, CodingKey {
            case event, start, end, description, tags
            case senderName = "sender_name"
        }
    }

    struct Minute: Decodable {
        var dt: Double
        var precipitation: Double?
    }

    var timezone: String?
    var timezoneOffset: Double?
    var current: Current
    var minutely: [Minute]?
    var hourly: [Hour]?
    var daily: [Day]?
    var alerts: [Alert]?

    enum CodingKeys: String, CodingKey {
        case timezone, current, minutely, hourly, daily, alerts
        case timezoneOffset = "timezone_offset"
    }

    /// A UV index as One Call gives it: finite and not negative, or none.
    private func uvIndex(_ value: Double) -> Double? {
        value.isFinite && value >= 0 ? value : nil
    }

    var forecast: Forecast {
        let zone: PlaceTimeZone =
            if let timezone, TimeZone(identifier: timezone) != nil { .identifier(timezone) }
            else { .offset(seconds: Int(timezoneOffset ?? 0)) }
        let current = CurrentWeather(
            time: date(current.dt), temperature: current.temp, feelsLike: current.feelsLike ?? current.temp,
            clouds: percent(current.clouds), humidity: percent(current.humidity), pressure: current.pressure ?? 0,
            windSpeed: current.windSpeed ?? 0, windGust: current.windGust, windDegrees: current.windDeg ?? 0,
            condition: (current.weather ?? []).condition, sunrise: current.sunrise.map(date), sunset: current.sunset.map(date),
            rain: current.rain?.amount, snow: current.snow?.amount, uvIndex: current.uvi.flatMap(uvIndex))
        let hours = (hourly ?? []).map { hour in
            HourlyForecast(
                time: date(hour.dt), temperature: hour.temp, clouds: percent(hour.clouds), humidity: percent(hour.humidity),
                pressure: hour.pressure ?? 0, windSpeed: hour.windSpeed ?? 0, windDegrees: hour.windDeg ?? 0,
                precipitationChance: hour.pop ?? 0, precipitation: (hour.rain?.amount ?? 0) + (hour.snow?.amount ?? 0),
                condition: (hour.weather ?? []).condition, feelsLike: hour.feelsLike)
        }
        let days = (daily ?? []).map { day in
            DailyForecast(
                time: date(day.dt), dayTemperature: day.temp.day, nightTemperature: day.temp.night ?? day.temp.min ?? day.temp.day,
                morningTemperature: day.temp.morn ?? day.temp.day, eveningTemperature: day.temp.eve ?? day.temp.day,
                minimumTemperature: day.temp.min ?? day.temp.day, maximumTemperature: day.temp.max ?? day.temp.day,
                clouds: percent(day.clouds), humidity: percent(day.humidity), pressure: day.pressure ?? 0,
                windSpeed: day.windSpeed ?? 0, windDegrees: day.windDeg ?? 0, precipitationChance: day.pop ?? 0,
                precipitation: (day.rain?.amount ?? 0) + (day.snow?.amount ?? 0), condition: (day.weather ?? []).condition,
                summary: day.summary, uvIndex: day.uvi.flatMap(uvIndex))
        }
        let warnings = (alerts ?? []).map { alert in
            WeatherAlert(
                sender: alert.senderName ?? "", event: alert.event ?? "", start: date(alert.start), end: date(alert.end),
                description: alert.description ?? "", tags: alert.tags ?? [])
        }
        // A minute without a finite, non-negative amount is no reading: the minutes stop there.
        var minutes: [MinutePrecipitation] = []
        for minute in minutely ?? [] {
            guard let amount = minute.precipitation, amount.isFinite, amount >= 0 else { break }
            minutes.append(MinutePrecipitation(time: date(minute.dt), precipitation: amount))
        }
        return Forecast(
            timeZone: zone, current: current, minutely: minutes, hourly: hours, daily: days, alerts: warnings, source: .oneCall)
    }
}

/// `/data/2.5/weather`, the free plan's current weather.
struct CurrentWeatherBody: Decodable {
    struct Main: Decodable {
        var temp: Double
        var feelsLike: Double?
        var pressure: Double?
        var humidity: Double?

        enum CodingKeys: String, CodingKey {
            case temp, pressure, humidity
            case feelsLike = "feels_like"
        }
    }
    struct Clouds: Decodable {
        var all: Double?
    }
    struct Wind: Decodable {
        var speed: Double?
        var deg: Double?
        var gust: Double?
    }
    struct Sys: Decodable {
        var sunrise: Double?
        var sunset: Double?
    }

    var weather: [ConditionBody]?
    var main: Main
    var clouds: Clouds?
    var wind: Wind?
    var rain: PrecipitationBody?
    var snow: PrecipitationBody?
    var sys: Sys?
    var dt: Double
    var timezone: Double?

    var current: CurrentWeather {
        CurrentWeather(
            time: date(dt), temperature: main.temp, feelsLike: main.feelsLike ?? main.temp, clouds: percent(clouds?.all),
            humidity: percent(main.humidity), pressure: main.pressure ?? 0, windSpeed: wind?.speed ?? 0, windGust: wind?.gust,
            windDegrees: wind?.deg ?? 0, condition: (weather ?? []).condition, sunrise: sys?.sunrise.map(date),
            sunset: sys?.sunset.map(date), rain: rain?.amount, snow: snow?.amount)
    }
}

/// `/data/2.5/forecast`: 3-hour steps for 5 days.
struct ForecastBody: Decodable {
    struct Entry: Decodable {
        var dt: Double
        var main: CurrentWeatherBody.Main
        var weather: [ConditionBody]?
        var clouds: CurrentWeatherBody.Clouds?
        var wind: CurrentWeatherBody.Wind?
        var pop: Double?
        var rain: PrecipitationBody?
        var snow: PrecipitationBody?
    }
    struct City: Decodable {
        var timezone: Double?
    }

    var list: [Entry]
    var city: City?

    var hours: [HourlyForecast] {
        list.map { entry in
            HourlyForecast(
                time: date(entry.dt), temperature: entry.main.temp, clouds: percent(entry.clouds?.all),
                humidity: percent(entry.main.humidity), pressure: entry.main.pressure ?? 0, windSpeed: entry.wind?.speed ?? 0,
                windDegrees: entry.wind?.deg ?? 0, precipitationChance: entry.pop ?? 0,
                precipitation: (entry.rain?.amount ?? 0) + (entry.snow?.amount ?? 0), condition: (entry.weather ?? []).condition,
                feelsLike: entry.main.feelsLike)
        }
    }
}

private func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

private func percent(_ value: Double?) -> Int {
    guard let value, value.isFinite else { return 0 }
    return Int(min(max(value, 0), 100).rounded())
}
