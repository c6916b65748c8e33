import Foundation
import OpenWeather
import Synchronization
import WeatherBot
import WeatherBotStore

/// A geocoder answering from tables, counting its calls.
final class FakeGeocoder: Geocoder {
    let byName: [String: [Place]]
    let reverse: [Place]
    let failure: OpenWeatherError?
    let calls = Mutex(0)

    init(byName: [String: [Place]] = [:], reverse: [Place] = [], failure: OpenWeatherError? = nil) {
        self.byName = byName
        self.reverse = reverse
        self.failure = failure
    }

    func places(named name: String, language: Language) async throws -> [Place] {
        calls.withLock { $0 += 1 }
        if let failure { throw failure }
        return byName[name] ?? []
    }

    func places(atLatitude latitude: Double, longitude: Double, language: Language) async throws -> [Place] {
        calls.withLock { $0 += 1 }
        if let failure { throw failure }
        return reverse
    }
}

/// Weather that is always the same, or always fails.
struct FakeWeather: WeatherSource {
    var failure: OpenWeatherError?

    func weatherNow(at place: Place, language: Language) async throws -> WeatherNow {
        if let failure { throw failure }
        return WeatherNow(
            observedAt: Date(timeIntervalSince1970: 1_700_000_000), timeZone: .identifier("Europe/Moscow"),
            temperature: -3.4, feelsLike: -7.6, clouds: 75, humidity: 80, pressure: 1012, windSpeed: 4,
            windDegrees: 200, description: language == .ru ? "облачно с прояснениями" : "broken clouds", icon: "04d")
    }
}

/// Counts «typing…» calls.
final class FakeActivity: ChatActivity {
    let chats = Mutex<[Int64]>([])
    func typing(in chatID: Int64) async { chats.withLock { $0.append(chatID) } }
}

extension Place {
    static let saransk = Place(
        name: "Saransk", localNames: ["ru": "Саранск", "en": "Saransk"], region: "Республика Мордовия", country: "RU",
        latitude: 54.1838, longitude: 45.1749)
    static let parisFR = Place(name: "Paris", localNames: ["ru": "Париж"], region: "Ile-de-France", country: "FR", latitude: 48.8589, longitude: 2.32)
    static let parisUS = Place(name: "Paris", localNames: ["ru": "Париж"], region: "Texas", country: "US", latitude: 33.66, longitude: -95.55)
}
