import BotClock
import Foundation
import HTTPTransport
import Synchronization
import Testing
@testable import OpenWeather
import WeatherBotTesting

@Suite struct WeatherCacheTests {
    static let sample = Forecast(
        timeZone: .identifier("Europe/Moscow"),
        current: CurrentWeather(
            time: Date(timeIntervalSince1970: 1_763_730_000), temperature: 1, feelsLike: -3, clouds: 100, humidity: 93,
            pressure: 1009, windSpeed: 5, windDegrees: 225, condition: Condition(description: "снег", icon: "13n")))

    @Test func concurrentRequestsForOnePlaceShareOneHTTPCall() async throws {
        let server = try await LoopbackServer { _ in
            try? await Task.sleep(for: .milliseconds(200))
            return Fixture.response("onecall-kazan-ru")
        }
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(apiKey: "k", apiURL: server.url, transport: AsyncHTTPTransport())
        let cache = WeatherCache { latitude, longitude, language in
            try await client.forecast(latitude: latitude, longitude: longitude, language: language)
        }
        // 50 requests within about 1 km of each other, all at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let entry = try await cache.forecast(latitude: 55.7887 + Double(index % 5) * 0.0005, longitude: 49.1221, language: "ru")
                    #expect(entry.forecast.current.condition.description == "снег")
                }
            }
            try await group.waitForAll()
        }
        #expect(server.requests.count == 1)
        #expect(await cache.fetches == 1)
    }

    @Test func entriesStayFreshForTenMinutesThenAreFetchedAgain() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_763_730_000))
        let calls = Mutex(0)
        let cache = WeatherCache(clock: clock) { _, _, _ in
            calls.withLock { $0 += 1 }
            return Self.sample
        }
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru")
        clock.advance(by: .seconds(599))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru")
        #expect(calls.withLock { $0 } == 1)
        // Another language or a place 2 km away is another entry.
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "en")
        _ = try await cache.forecast(latitude: 55.77, longitude: 37.62, language: "ru")
        #expect(calls.withLock { $0 } == 3)
        clock.advance(by: .seconds(2))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru")
        #expect(calls.withLock { $0 } == 4)
        // «Обновить» fetches even a fresh entry, once it is a minute old; pressed again at once, it
        // costs nothing.
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", refresh: true)
        #expect(calls.withLock { $0 } == 4)
        clock.advance(by: .seconds(60))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", refresh: true)
        #expect(calls.withLock { $0 } == 5)
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", refresh: true)
        #expect(calls.withLock { $0 } == 5)
    }

    @Test func aFailedRefreshServesTheStaleEntryForUpToThreeHours() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_763_730_000))
        let failing = Mutex(false)
        let cache = WeatherCache(clock: clock) { _, _, _ in
            if failing.withLock({ $0 }) { throw OpenWeatherError(code: .server(503), endpoint: "/data/3.0/onecall", message: "") }
            return Self.sample
        }
        let fresh = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru")
        #expect(!fresh.isStale)
        failing.withLock { $0 = true }
        clock.advance(by: .seconds(3600))
        let stale = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru")
        #expect(stale.isStale)
        #expect(stale.fetchedAt == fresh.fetchedAt)
        clock.advance(by: .seconds(2 * 3600 + 1))
        await #expect(throws: OpenWeatherError.self) {
            try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru")
        }
    }

    @Test func memoryIsBounded() async throws {
        let cache = WeatherCache(capacity: 100) { _, _, _ in Self.sample }
        for index in 0..<1000 {
            _ = try await cache.forecast(latitude: Double(index) * 0.1, longitude: 0, language: "ru")
        }
        #expect(await cache.count <= 100)
    }
}
