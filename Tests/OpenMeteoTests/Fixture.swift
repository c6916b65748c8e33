import Foundation
import WeatherBotTesting

/// Real answers of Open-Meteo and Nominatim, as kept in `Fixtures/` (where each comes from is in
/// `Fixtures/SOURCES.md`).
enum Fixture {
    static func data(_ name: String) -> Data {
        let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json")!
        return try! Data(contentsOf: url)
    }

    static func response(_ name: String, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(status: status, body: data(name))
    }

    /// A fixture with one value replaced, at a path of keys (and indices into arrays).
    static func data(_ name: String, setting path: [String], to value: Any) -> Data {
        data(data(name), setting: path, to: value)
    }

    /// An answer with one value replaced, at a path of keys (and indices into arrays).
    static func data(_ data: Data, setting path: [String], to value: Any) -> Data {
        jsonSetting(path, to: value, in: data)
    }

    /// The hourly variables the recorded forecasts (`forecast-brno`, `forecast-bergen-minutely15`)
    /// were not asked for, as a test adds them: the client leaves out an hour lacking any, and
    /// takes what the weather now lacks from its hour, so without them the recorded answers are
    /// no forecast at all. The values are the test's own, the same every hour, in the units the
    /// recording used (wind in km/h): humidity 60 %, cloud cover 40 %, 1015 hPa, wind 10.8 km/h
    /// (3 m/s) from 180°, apparent temperature one degree below the temperature, and no
    /// precipitation but `precipitation` (hour index: mm, the sum of the hour before it).
    static func completed(_ name: String, precipitation: [Int: Double] = [:]) -> Data {
        var body = (try? JSONSerialization.jsonObject(with: data(name))) as? [String: Any] ?? [:]
        var hourly = body["hourly"] as? [String: Any] ?? [:]
        let temperatures = (hourly["temperature_2m"] as? [Any] ?? []).map { ($0 as? NSNumber)?.doubleValue ?? 0 }
        let count = temperatures.count
        hourly["relative_humidity_2m"] = Array(repeating: 60, count: count)
        hourly["cloud_cover"] = Array(repeating: 40, count: count)
        hourly["pressure_msl"] = Array(repeating: 1015.0, count: count)
        hourly["wind_speed_10m"] = Array(repeating: 10.8, count: count)
        hourly["wind_direction_10m"] = Array(repeating: 180, count: count)
        hourly["apparent_temperature"] = temperatures.map { $0 - 1 }
        hourly["precipitation"] = (0..<count).map { precipitation[$0] ?? 0.0 }
        body["hourly"] = hourly
        var units = body["hourly_units"] as? [String: Any] ?? [:]
        units["wind_speed_10m"] = "km/h"
        units["precipitation"] = "mm"
        body["hourly_units"] = units
        return (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
    }
}
