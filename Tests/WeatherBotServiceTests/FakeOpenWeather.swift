import Foundation
import LoopbackHTTP

/// OpenWeather on loopback: reverse and direct geocoding from small tables, and One Call 3.0
/// answers shaped like the real ones.
enum FakeOpenWeather {
    static let apiKey = "fake-openweather-key"

    /// - Parameter forecastDelay: how long a forecast takes to come (a slow OpenWeather).
    static func start(forecastDelay: Duration = .zero) async throws -> LoopbackServer {
        try await LoopbackServer { request in
            guard request.query["appid"] == apiKey else {
                return .json(["cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."], status: 401)
            }
            switch request.path {
            case "/geo/1.0/reverse":
                let latitude = Double(request.query["lat"] ?? "") ?? 0
                // The open sea: nothing near (0, -30).
                if abs(latitude) < 1 { return .json([Any]()) }
                return .json([saransk])
            case "/geo/1.0/direct":
                switch request.query["q"] {
                case "Саранск": return .json([saransk])
                case "Париж": return .json([paris("FR", "Ile-de-France", 48.8589, 2.32), paris("US", "Texas", 33.66, -95.55)])
                case "Казань": return .json([city("Kazan", "Казань", "Tatarstan", 55.7887, 49.1221)])
                case "Уфа": return .json([city("Ufa", "Уфа", "Bashkortostan", 54.7348, 55.9578)])
                default: return .json([Any]())
                }
            case "/data/3.0/onecall":
                if forecastDelay > .zero { try? await Task.sleep(for: forecastDelay) }
                return .json([
                    "lat": 54.18, "lon": 45.17, "timezone": "Europe/Moscow", "timezone_offset": 10800,
                    "current": [
                        "dt": 1_700_000_000, "sunrise": 1_699_936_000, "sunset": 1_699_967_000, "temp": -2.6, "feels_like": -7,
                        "pressure": 1018, "humidity": 86, "dew_point": -4.5, "uvi": 0, "clouds": 100, "visibility": 10000,
                        "wind_speed": 4.1, "wind_deg": 210,
                        "weather": [["id": 804, "main": "Clouds", "description": "пасмурно", "icon": "04n"]],
                    ],
                    "hourly": hours,
                    "daily": days,
                ])
            default:
                return .json(["cod": "404", "message": "Internal error"], status: 404)
            }
        }
    }

    /// This hour, on the hour, so the forecast always covers today and tomorrow.
    static var thisHour: Int { Int(Date().timeIntervalSince1970) / 3600 * 3600 }

    static var hours: [[String: Any]] {
        let start = thisHour
        return (0..<48).map { index in
            let weather: [[String: Any]] = [["id": 804, "main": "Clouds", "description": "пасмурно", "icon": "04n"]]
            let hour: [String: Any] = [
                "dt": start + index * 3600, "temp": -3 + index % 5, "pressure": 1018, "humidity": 86, "clouds": 100,
                "wind_speed": 4.1, "wind_deg": 210, "pop": 0.1, "weather": weather,
            ]
            return hour
        }
    }

    static var days: [[String: Any]] {
        let noon = Int(Date().timeIntervalSince1970) / 86_400 * 86_400 + 9 * 3600  // noon in Moscow
        return (0..<8).map { index in
            let weather: [[String: Any]] = [["id": 600, "main": "Snow", "description": "небольшой снег", "icon": "13d"]]
            let temperatures: [String: Any] = ["day": -1 + index, "min": -8, "max": 1 + index, "night": -6, "eve": -3, "morn": -5]
            let day: [String: Any] = [
                "dt": noon + index * 86400, "temp": temperatures, "pressure": 1016, "humidity": 80, "wind_speed": 5,
                "wind_deg": 270, "clouds": 90, "pop": 0.4, "snow": 1.5, "weather": weather,
            ]
            return day
        }
    }

    static var saransk: [String: Any] {
        [
        "name": "Saransk", "local_names": ["ru": "Саранск", "en": "Saransk", "ascii": "Saransk", "feature_name": "Saransk"],
        "lat": 54.1838, "lon": 45.1749, "country": "RU", "state": "Mordovia",
        ]
    }

    static func city(_ name: String, _ russian: String, _ state: String, _ lat: Double, _ lon: Double) -> [String: Any] {
        ["name": name, "local_names": ["ru": russian, "en": name], "lat": lat, "lon": lon, "country": "RU", "state": state]
    }

    static func paris(_ country: String, _ state: String, _ lat: Double, _ lon: Double) -> [String: Any] {
        ["name": "Paris", "local_names": ["ru": "Париж"], "lat": lat, "lon": lon, "country": country, "state": state]
    }
}
