public import BotClock
public import Foundation
import Synchronization

/// Forecasts shared by all chats, fetched at most once per place per `freshFor`.
///
/// The key is the place rounded to 0.01° (about 1 km) plus the language (units are always
/// metric). Concurrent requests for one key share one fetch. When a refresh fails, an entry up
/// to `staleFor` old is returned marked stale, so the user sees the last known weather with its
/// time. An entry is kept up to `keptFor` as the last known forecast (``lastKnown(latitude:longitude:language:)``),
/// which a daily forecast falls back on while OpenWeather does not answer. At most `capacity`
/// entries are kept; the least recently fetched go first.
public actor WeatherCache {
    /// A forecast and how old it is.
    public struct Entry: Sendable {
        public var forecast: Forecast
        public var fetchedAt: Date
        /// True when a refresh failed and this older entry stands in.
        public var isStale: Bool
    }

    struct Key: Hashable {
        var cell: PlaceCell
        var language: String

        init(latitude: Double, longitude: Double, language: String) {
            self.cell = PlaceCell(latitude: latitude, longitude: longitude)
            self.language = language
        }
    }

    public typealias Fetch = @Sendable (_ latitude: Double, _ longitude: Double, _ language: String) async throws -> Forecast

    private let fetch: Fetch
    private let freshFor: TimeInterval
    private let staleFor: TimeInterval
    private let keptFor: TimeInterval
    /// «Обновить» on an entry younger than this returns it: OpenWeather has nothing newer, and a
    /// user pressing again and again costs no calls.
    private let refreshAfter: TimeInterval
    private let capacity: Int
    private let clock: any WallClock
    private var entries: [Key: Entry] = [:]
    private var inFlight: [Key: Flight] = [:]

    /// A fetch under way, shared by everyone asking for its key meanwhile.
    private struct Flight {
        var id: Int
        var task: Task<Forecast, any Error>
        /// The most urgent of theirs, for OpenWeather's budget.
        var priority: SharedPriority
        /// Those waiting for it and not cancelled.
        var waiting = Waiting()

        final class Waiting: Sendable {
            let count = Mutex(0)
        }

        /// The fetch's forecast. When everyone waiting for it is cancelled (the bot stops), so is
        /// the fetch: one waiting for its slot in the budget does not hold the stop up.
        func result() async throws -> Forecast {
            waiting.count.withLock { $0 += 1 }
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: { [task, waiting] in
                if waiting.count.withLock({ count in
                    count -= 1
                    return count == 0
                }) {
                    task.cancel()
                }
            }
        }
    }
    /// How many fetches were started: for tests and the benchmark.
    public private(set) var fetches = 0
    private let watchers = FetchWatchers()

    public init(
        freshFor: Duration = .seconds(600),
        staleFor: Duration = .seconds(3 * 3600),
        keptFor: Duration = .seconds(36 * 3600),
        refreshAfter: Duration = .seconds(60),
        capacity: Int = 10_000,
        clock: any WallClock = SystemWallClock(),
        fetch: @escaping Fetch
    ) {
        self.fetch = fetch
        self.freshFor = Double(freshFor.components.seconds)
        self.staleFor = Double(staleFor.components.seconds)
        self.keptFor = Double(keptFor.components.seconds)
        self.refreshAfter = Double(refreshAfter.components.seconds)
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// A fresh forecast for the point, fetching when needed; a stale one when fetching fails.
    /// - Parameter refresh: fetch even when the entry is fresh (the user pressed «Обновить»),
    ///   unless it is younger than a minute; concurrent requests still share one fetch.
    public func forecast(latitude: Double, longitude: Double, language: String, refresh: Bool = false) async throws -> Entry {
        let now = clock.date
        return try await forecast(
            latitude: latitude, longitude: longitude, language: language, fetchedAfter: now.addingTimeInterval(-(refresh ? refreshAfter : freshFor)),
            staleWhenFailed: refresh)
    }

    /// A forecast fetched after `date`, fetching when the entry is older; one older when fetching
    /// fails, marked stale. A daily forecast takes weather fetched ahead of its minute this way.
    public func forecast(latitude: Double, longitude: Double, language: String, fetchedAfter date: Date) async throws -> Entry {
        try await forecast(latitude: latitude, longitude: longitude, language: language, fetchedAfter: date, staleWhenFailed: true)
    }

    /// - Parameter staleWhenFailed: an older entry that stands in for a failed fetch is stale even
    ///   when it is younger than `freshFor`.
    private func forecast(latitude: Double, longitude: Double, language: String, fetchedAfter date: Date, staleWhenFailed: Bool) async throws -> Entry {
        let key = Key(latitude: latitude, longitude: longitude, language: language)
        if let entry = entries[key], entry.fetchedAt > date {
            return entry
        }
        let flight: Flight
        if let running = inFlight[key] {
            // Someone waiting for it makes a fetch ahead waiting for its slot urgent.
            running.priority.raise(to: CallContext.currentPriority)
            flight = running
        } else if CallContext.cachedOnly {
            throw NotCached()
        } else {
            fetches += 1
            let fetch = fetch
            let priority = SharedPriority(CallContext.currentPriority)
            // With an entry to fall back on, a person is not kept waiting long for a slot.
            let hasLastKnown = entries[key].map { clock.date.timeIntervalSince($0.fetchedAt) < staleFor } ?? false
            flight = Flight(
                id: fetches,
                task: Task {
                    try await CallContext.$shared.withValue(priority) {
                        try await CallContext.$hasLastKnown.withValue(hasLastKnown) { try await fetch(latitude, longitude, language) }
                    }
                }, priority: priority)
            inFlight[key] = flight
        }
        defer { if inFlight[key]?.id == flight.id { inFlight[key] = nil } }
        do {
            let forecast = try await flight.result()
            let entry = Entry(forecast: forecast, fetchedAt: clock.date, isStale: false)
            if entries[key] == nil || entries[key]!.fetchedAt <= entry.fetchedAt {
                store(entry, for: key)
                // The first of those waiting tells the watchers, once the entry is there to read.
                if inFlight[key]?.id == flight.id {
                    watchers.tell(FetchedForecast(latitude: latitude, longitude: longitude, fetchedAt: entry.fetchedAt))
                }
            }
            return entries[key] ?? entry
        } catch {
            if let entry = entries[key], clock.date.timeIntervalSince(entry.fetchedAt) < staleFor {
                var stale = entry
                stale.isStale = clock.date.timeIntervalSince(entry.fetchedAt) >= freshFor || staleWhenFailed
                return stale
            }
            throw error
        }
    }

    /// The last forecast fetched for the point, up to `keptFor` old, marked stale; nothing is
    /// fetched. A forecast of yesterday morning still tells today's day.
    public func lastKnown(latitude: Double, longitude: Double, language: String) -> Entry? {
        guard var entry = entries[Key(latitude: latitude, longitude: longitude, language: language)],
            clock.date.timeIntervalSince(entry.fetchedAt) < keptFor
        else { return nil }
        entry.isStale = true
        return entry
    }

    private func store(_ entry: Entry, for key: Key) {
        if entries[key] == nil && entries.count >= capacity {
            // Evict the oldest tenth, so eviction is rare and cheap on average.
            let victims = entries.sorted { $0.value.fetchedAt < $1.value.fetchedAt }.prefix(max(1, capacity / 10))
            for (victim, _) in victims { entries[victim] = nil }
        }
        entries[key] = entry
    }

    public var count: Int { entries.count }

    /// Each forecast fetched from now on, whoever asked for it, told once its entry is in the
    /// cache: the notice checker looks at every fresh forecast of a place it watches, so rain a
    /// card's fetch shows is told then, not at the place's next check. Up to `buffer` wait for a
    /// slow reader, the oldest let go first; the stream ends when the reader stops reading.
    public nonisolated func fetched(buffer: Int = 10_000) -> AsyncStream<FetchedForecast> {
        watchers.watch(buffer: buffer)
    }
}

/// A forecast the cache fetched: for the point asked, at `fetchedAt`.
public struct FetchedForecast: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var fetchedAt: Date

    public init(latitude: Double, longitude: Double, fetchedAt: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.fetchedAt = fetchedAt
    }
}

/// Those reading ``WeatherCache/fetched(buffer:)``.
final class FetchWatchers: Sendable {
    private let readers = Mutex<(next: Int, all: [Int: AsyncStream<FetchedForecast>.Continuation])>((0, [:]))

    func watch(buffer: Int) -> AsyncStream<FetchedForecast> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedForecast.self, bufferingPolicy: .bufferingNewest(max(1, buffer)))
        let id = readers.withLock { readers in
            readers.next += 1
            readers.all[readers.next] = continuation
            return readers.next
        }
        continuation.onTermination = { [weak self] _ in self?.readers.withLock { _ = $0.all.removeValue(forKey: id) } }
        return stream
    }

    func tell(_ fetched: FetchedForecast) {
        for continuation in readers.withLock({ Array($0.all.values) }) { continuation.yield(fetched) }
    }
}
