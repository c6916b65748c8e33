import BotClock
import Foundation
import Synchronization
import OpenWeather

/// 10,000 weather requests for 100 places spread over a simulated hour, through the shared cache:
/// how many calls reach OpenWeather. The cache keeps a forecast fresh for 10 minutes, so physics
/// allows six calls per place in an hour.
struct CacheScenario {
    var quick: Bool

    func run() async throws -> [Result] {
        let requests = quick ? 2_000 : 10_000
        let places = 100
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let clock = ManualClock(start)
        let calls = Counter()
        let forecast = Forecast(
            timeZone: .identifier("Europe/Moscow"),
            current: CurrentWeather(
                time: Date(), temperature: 1, feelsLike: -2, clouds: 50, humidity: 80, pressure: 1013, windSpeed: 3,
                windDegrees: 90, condition: Condition(description: "облачно", icon: "04d")))
        let cache = WeatherCache(clock: clock) { _, _, _, _ in
            calls.increment()
            return forecast
        }
        var generator = SystemRandomNumberGenerator()
        // Requests in time order, each for a random place, some a few hundred metres off its centre.
        let times = (0..<requests).map { _ in Double.random(in: 0..<3600, using: &generator) }.sorted()
        for time in times {
            clock.set(start.addingTimeInterval(time))
            let place = Int.random(in: 0..<places, using: &generator)
            let jitter = Double.random(in: -0.002...0.002, using: &generator)
            _ = try await cache.forecast(latitude: 40 + Double(place) * 0.1 + jitter, longitude: 30 + jitter, language: "ru", for: .chat(Int64(place)))
        }
        let made = calls.value
        return [
            Result(scenario: "cache", figure: "requests", value: "\(requests) for \(places) places in 1 h", target: "", passed: nil),
            Result(scenario: "cache", figure: "OpenWeather calls", value: "\(made)", target: "≤ 600", passed: made <= 600),
        ]
    }
}

/// How many times something happened, counted from any task.
final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
