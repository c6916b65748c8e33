import BotClock
import Foundation
import OpenWeather
import Synchronization
import Testing

/// Places by name kept for everyone: one call a day for a name, however it is typed.
@Suite struct GeocodingCacheTests {
    let kazan = GeoPlace(name: "Kazan", lat: 55.79, lon: 49.12, country: "RU")
    /// A chat's look-up that only the cache may answer.
    static let cachedOnly = {
        var context = CallContext.chat(1)
        context.cachedOnly = true
        return context
    }()

    @Test func aNameTypedAgainInAnyCaseOrSpacingCostsNoCall() async throws {
        let clock = ManualClock()
        let cache = GeocodingCache(clock: clock)
        let calls = Mutex(0)
        let kazan = kazan
        let fetch: @Sendable () async throws -> [GeoPlace] = {
            calls.withLock { $0 += 1 }
            return [kazan]
        }
        #expect(try await cache.places(named: "Kazan", for: .chat(1), fetch: fetch) == ([kazan], false))
        #expect(try await cache.places(named: "  kazan ", for: .chat(1), fetch: fetch).cached)
        #expect(try await cache.places(named: "KAZAN", for: .chat(1), fetch: fetch).places == [kazan])
        #expect(calls.withLock { $0 } == 1)
        // A day later it is asked again.
        clock.advance(by: .seconds(86_400))
        #expect(try await cache.places(named: "Kazan", for: .chat(1), fetch: fetch).cached == false)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func aNameThatFoundNothingIsKeptAnHourAndAFailureNotAtAll() async throws {
        let clock = ManualClock()
        let cache = GeocodingCache(clock: clock)
        let calls = Mutex(0)
        let nothing: @Sendable () async throws -> [GeoPlace] = {
            calls.withLock { $0 += 1 }
            return []
        }
        _ = try await cache.places(named: "Асдфгх", for: .chat(1), fetch: nothing)
        #expect(try await cache.places(named: "асдфгх", for: .chat(1), fetch: nothing).cached)
        clock.advance(by: .seconds(3600))
        #expect(try await cache.places(named: "асдфгх", for: .chat(1), fetch: nothing).cached == false)
        #expect(calls.withLock { $0 } == 2)

        struct Outage: Error {}
        await #expect(throws: Outage.self) { try await cache.places(named: "Уфа", for: .chat(1)) { throw Outage() } }
        let kazan = kazan
        #expect(try await cache.places(named: "Уфа", for: .chat(1)) { [kazan] }.cached == false)
    }

    @Test func lookUpsOfOneNameAtOnceShareOneCall() async throws {
        let cache = GeocodingCache(clock: ManualClock())
        let calls = Mutex(0)
        let kazan = kazan
        let fetch: @Sendable () async throws -> [GeoPlace] = {
            calls.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(100))
            return [kazan]
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try await cache.places(named: "Kazan", for: .chat(1), fetch: fetch) } }
            try await group.waitForAll()
        }
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func placesAtAPointAreKeptByTheKilometreAndNamesByTheirPoint() async throws {
        let cache = GeocodingCache(clock: ManualClock())
        let calls = Mutex(0)
        let kazan = kazan
        let fetch: @Sendable () async throws -> [GeoPlace] = {
            calls.withLock { $0 += 1 }
            return [kazan]
        }
        #expect(try await cache.places(atLatitude: 55.7912, longitude: 49.1234, for: .chat(1), fetch: fetch).cached == false)
        // A few hundred metres away: the same place, no call.
        #expect(try await cache.places(atLatitude: 55.7881, longitude: 49.1199, for: .chat(1), fetch: fetch) == ([kazan], true))
        #expect(try await cache.places(atLatitude: 55.80, longitude: 49.12, for: .chat(1), fetch: fetch).cached == false)
        #expect(calls.withLock { $0 } == 2)
        // A point is never taken for a name, nor a name for a point.
        #expect(try await cache.places(named: "55.79 49.12", for: .chat(1), fetch: { [] }).places.isEmpty)

        // A place found by name is known again by its point, to four decimals, and by nothing nearer.
        let ufa = GeoPlace(name: "Ufa", lat: 54.734_79, lon: 55.957_83, country: "RU")
        _ = try await cache.places(named: "Уфа", for: .chat(1)) { [ufa] }
        #expect(await cache.place(atLatitude: 54.7348, longitude: 55.9578) == ufa)
        #expect(await cache.place(atLatitude: 54.7350, longitude: 55.9578) == nil)
    }

    @Test func askedOnlyForWhatIsKeptItCallsForNothing() async throws {
        let cache = GeocodingCache(clock: ManualClock())
        let calls = Mutex(0)
        let kazan = kazan
        let fetch: @Sendable () async throws -> [GeoPlace] = {
            calls.withLock { $0 += 1 }
            return [kazan]
        }
        await #expect(throws: NotCached.self) {
            try await cache.places(named: "Kazan", for: Self.cachedOnly, fetch: fetch)
        }
        #expect(calls.withLock { $0 } == 0)
        _ = try await cache.places(named: "Kazan", for: .chat(1), fetch: fetch)
        let kept = try await cache.places(named: "kazan", for: Self.cachedOnly, fetch: fetch)
        #expect(kept == ([kazan], true) && calls.withLock { $0 } == 1)
    }
}
