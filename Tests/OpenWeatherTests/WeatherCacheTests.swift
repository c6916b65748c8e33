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

    /// A chat's look-up that only the cache may answer.
    static let cachedOnly = {
        var context = CallContext.chat(1)
        context.cachedOnly = true
        return context
    }()

    @Test func concurrentRequestsForOnePlaceShareOneHTTPCall() async throws {
        let server = try await LoopbackServer { _ in
            try? await Task.sleep(for: .milliseconds(200))
            return Fixture.response("onecall-kazan-ru")
        }
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(apiKey: "k", apiURL: server.url, transport: NIOHTTPTransport())
        let cache = WeatherCache { latitude, longitude, language, context in
            try await client.forecast(latitude: latitude, longitude: longitude, language: language, for: context)
        }
        // 50 requests within about 1 km of each other, all at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let entry = try await cache.forecast(latitude: 55.7887 + Double(index % 5) * 0.0005, longitude: 49.1221, language: "ru", for: .chat(1))
                    #expect(entry.forecast.current.condition.description == "снег")
                }
            }
            try await group.waitForAll()
        }
        #expect(server.requests.count == 1)
        #expect(await cache.fetches == 1)
    }

    @Test func askedOnlyForWhatIsKeptItStartsNoFetchButJoinsOneUnderWay() async throws {
        let calls = Mutex(0)
        let cache = WeatherCache(clock: ManualClock()) { _, _, _, _ in
            calls.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(200))
            return Self.sample
        }
        await #expect(throws: NotCached.self) {
            try await cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: Self.cachedOnly)
        }
        #expect(calls.withLock { $0 } == 0)
        // Someone's fetch under way answers it too; then the entry does, without a call.
        async let fetched = cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: .chat(1))
        try await Task.sleep(for: .milliseconds(50))
        let joined = try await cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: Self.cachedOnly)
        _ = try await fetched
        _ = try await cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: Self.cachedOnly)
        #expect(joined.forecast == Self.sample && calls.withLock { $0 } == 1)
    }

    @Test func entriesStayFreshForTenMinutesThenAreFetchedAgain() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_763_730_000))
        let calls = Mutex(0)
        let cache = WeatherCache(clock: clock) { _, _, _, _ in
            calls.withLock { $0 += 1 }
            return Self.sample
        }
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        clock.advance(by: .seconds(599))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(calls.withLock { $0 } == 1)
        // Another language or a place 2 km away is another entry.
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "en", for: .chat(1))
        _ = try await cache.forecast(latitude: 55.77, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(calls.withLock { $0 } == 3)
        clock.advance(by: .seconds(2))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(calls.withLock { $0 } == 4)
        // «Обновить» fetches even a fresh entry, once it is a minute old; pressed again at once, it
        // costs nothing.
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", refresh: true, for: .chat(1))
        #expect(calls.withLock { $0 } == 4)
        clock.advance(by: .seconds(60))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", refresh: true, for: .chat(1))
        #expect(calls.withLock { $0 } == 5)
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", refresh: true, for: .chat(1))
        #expect(calls.withLock { $0 } == 5)
    }

    /// A watcher hears of each fetch once, however many shared it, and of no answer from the
    /// cache; a failed fetch is no news.
    @Test func watchersHearOfEachFetchOnceAndOfNoCacheHit() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_763_730_000))
        let failing = Mutex(false)
        let cache = WeatherCache(clock: clock) { _, _, _, _ in
            try await Task.sleep(for: .milliseconds(50))
            if failing.withLock({ $0 }) { throw OpenWeatherError(code: .server(503), endpoint: "/data/3.0/onecall", message: "") }
            return Self.sample
        }
        var heard = cache.fetched().makeAsyncIterator()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "en", for: .chat(1)) } }
            try await group.waitForAll()
        }
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "en", for: .chat(1))
        clock.advance(by: .seconds(601))
        failing.withLock { $0 = true }
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "en", for: .chat(1))
        failing.withLock { $0 = false }
        _ = try await cache.forecast(latitude: 55.77, longitude: 37.62, language: "en", for: .chat(1))
        let first = await heard.next()
        let second = await heard.next()
        #expect(first == FetchedForecast(latitude: 55.75, longitude: 37.62, fetchedAt: Date(timeIntervalSince1970: 1_763_730_000)))
        #expect(second == FetchedForecast(latitude: 55.77, longitude: 37.62, fetchedAt: Date(timeIntervalSince1970: 1_763_730_601)))
    }

    @Test func aFailedRefreshServesTheStaleEntryForUpToThreeHours() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_763_730_000))
        let failing = Mutex(false)
        let cache = WeatherCache(clock: clock) { _, _, _, _ in
            if failing.withLock({ $0 }) { throw OpenWeatherError(code: .server(503), endpoint: "/data/3.0/onecall", message: "") }
            return Self.sample
        }
        let fresh = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(!fresh.isStale)
        failing.withLock { $0 = true }
        clock.advance(by: .seconds(3600))
        let stale = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(stale.isStale)
        #expect(stale.fetchedAt == fresh.fetchedAt)
        clock.advance(by: .seconds(2 * 3600 + 1))
        await #expect(throws: OpenWeatherError.self) {
            try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        }
    }

    /// A fetch is told whether there is older weather to show should it not be made: an entry
    /// younger than `staleFor`, which stands in when the fetch fails.
    @Test func aFetchKnowsWhetherThereIsOlderWeatherToShow() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_763_730_000))
        let seen = Mutex<[Bool]>([])
        let cache = WeatherCache(clock: clock) { _, _, _, context in
            seen.withLock { $0.append(context.hasLastKnown) }
            return Self.sample
        }
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        clock.advance(by: .seconds(601))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        clock.advance(by: .seconds(3 * 3600))
        _ = try await cache.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(seen.withLock { $0 } == [false, true, false])
    }

    @Test func memoryIsBounded() async throws {
        let cache = WeatherCache(capacity: 100) { _, _, _, _ in Self.sample }
        for index in 0..<1000 {
            _ = try await cache.forecast(latitude: Double(index) * 0.1, longitude: 0, language: "ru", for: .chat(1))
        }
        #expect(await cache.count <= 100)
    }
}

/// A fetch ahead waiting for its slot becomes urgent when someone asks for the same place.
@Suite struct SharedFetchPriorityTests {
    /// A clock whose sleepers wait until the test lets them go, then wake at their deadline.
    final class GatedClock: WallClock, Sendable {
        let manual: ManualClock
        private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])

        init(_ start: Date) { manual = ManualClock(start) }

        var now: WallInstant { manual.now }
        var minimumResolution: Duration { .zero }
        var sleepers: Int { waiting.withLock { $0.count } }

        func sleep(until deadline: WallInstant, tolerance: Duration? = nil) async throws {
            await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } }
            manual.set(max(manual.date, deadline.date))
        }

        func release() {
            for sleeper in waiting.withLock({ list in defer { list = [] }; return list }) { sleeper.resume() }
        }
    }

    @Test func someoneAskingForAPlaceBeingFetchedAheadMakesTheFetchUrgent() async throws {
        let start = Date(timeIntervalSince1970: 1_795_823_000)
        let clock = GatedClock(start)
        // Work due soon has spent its eight of the minute's ten; people waiting have two left.
        let budget = CallBudget(.init(perMinute: 10, perChat: 0), clock: clock)
        for _ in 0..<8 { #expect(budget.decide(.soon, chat: nil, at: start) == .go) }
        let shared = Locked<SharedPriority?>(nil)
        let cache = WeatherCache(clock: clock) { _, _, _, context in
            shared.withLock { $0 = context.shared }
            try await budget.acquire(context, for: .onecall)
            return WeatherCacheTests.sample
        }
        let ahead = Task { try await cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: .soon) }
        try await eventually("the fetch ahead waits for its slot") { clock.sleepers == 1 }
        #expect(shared.withLock { $0?.priority } == .soon)
        let asked = Task { try await cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: .chat(1)) }
        try await eventually("the user's request joins it") { shared.withLock { $0?.priority } == .interactive }
        // Every sleep is let go from now on: without the raise, the slot would be a minute away.
        let releasing = Task {
            while !Task.isCancelled {
                clock.release()
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        defer { releasing.cancel() }
        _ = try await (ahead.value, asked.value)
        // Made at the next look, a second later, not when work due soon had a slot again.
        #expect(clock.manual.date == start.addingTimeInterval(1))
        #expect(await cache.fetches == 1)
        #expect(budget.lastMinute == [.other: 8, .onecall: 1])
    }

    /// The bot stops while a fetch ahead waits for its slot: its caller stops waiting at once,
    /// rather than holding the stop up for its minute, and the cache's owner ends the fetch.
    @Test func aCancelledCallerStopsWaitingAtOnceAndTheOwnerEndsTheFetch() async throws {
        let budget = CallBudget(.init(perMinute: 1, perChat: 0))
        #expect(budget.decide(.soon, chat: nil, at: Date()) == .go)
        let cache = WeatherCache { _, _, _, context in
            try await budget.acquire(context, for: .onecall)
            return WeatherCacheTests.sample
        }
        let waiting = Task { try await cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: .soon) }
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        // Without the owner's cancelling, the slot would come in a minute and the forecast with it.
        cache.cancelFetches()
        try await Task.sleep(for: .milliseconds(200))
        #expect(budget.lastMinute.values.reduce(0, +) == 1)
        #expect(await cache.count == 0)
    }

    /// Who pays for a fetch several ask for is whoever started it: scheduled work a person joins
    /// stays scheduled work's (the person's chat is not charged for it), and a person's fetch
    /// that scheduled work joins stays the person's. Background work never takes a chat's share.
    @Test func aSharedFetchIsPaidByWhoStartedIt() async throws {
        let paid = Locked<[Int64?]>([])
        let cache = WeatherCache(clock: ManualClock()) { _, _, _, context in
            paid.withLock { $0.append(context.chatID) }
            try await Task.sleep(for: .milliseconds(200))
            return WeatherCacheTests.sample
        }
        async let ahead = cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: .background)
        try await Task.sleep(for: .milliseconds(50))
        async let person = cache.forecast(latitude: 55.79, longitude: 49.12, language: "en", for: .chat(5))
        _ = try await (ahead, person)
        async let card = cache.forecast(latitude: 54.18, longitude: 45.17, language: "en", for: .chat(6))
        try await Task.sleep(for: .milliseconds(50))
        async let notice = cache.forecast(latitude: 54.18, longitude: 45.17, language: "en", for: .background)
        _ = try await (card, notice)
        #expect(paid.withLock { $0 } == [nil, 6])
    }
}
