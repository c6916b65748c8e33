public import BotClock
public import Foundation
import Synchronization

/// Forecasts shared by all chats, fetched at most once per place per `freshFor`.
///
/// The key is the place rounded to 0.01° (about 1 km) plus the language (units are always
/// metric). Concurrent requests for one key share one fetch (``SingleFlight``). When a refresh fails, an entry up
/// to `staleFor` old is returned marked stale, so the user sees the last known weather with its
/// time. An entry is kept up to `keptFor` as the last known forecast (``lastKnown(latitude:longitude:language:)``),
/// which a daily forecast falls back on while OpenWeather does not answer. At most `capacity`
/// entries are kept; the least recently fetched go first.
public actor WeatherCache {
    /// A forecast and how old it is.
    public struct Entry: Sendable {
        /// What OpenWeather answered for the entry's point, in metric units and the key's language.
        public var forecast: Forecast
        /// When the fetch that brought it ended, on the cache's clock: the time a card shows for stale weather.
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

    /// Fetches a forecast, its calls paid as `context` says.
    public typealias Fetch = @Sendable (_ latitude: Double, _ longitude: Double, _ language: String, _ context: CallContext) async throws -> Forecast

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
    /// The fetches under way, each shared by everyone asking for its key meanwhile, with the most
    /// urgent of their priorities for OpenWeather's budget.
    private let flights = SingleFlight<Key, Entry, SharedPriority>()
    /// How many fetches were started: for tests and the benchmark.
    public var fetches: Int { fetchCount.load(ordering: .relaxed) }
    private let fetchCount = Atomic(0)
    private let watchers = FetchWatchers()

    /// - Parameters:
    ///   - freshFor: how long an entry is served without a call (10 minutes).
    ///   - staleFor: how old an entry may be and still stand in, marked stale, when a refresh fails (3 hours).
    ///   - keptFor: how long an entry stays the place's last known forecast (36 hours).
    ///   - refreshAfter: how young an entry is returned to «Обновить» as it is (a minute).
    ///   - capacity: the most entries kept, at least 1; the oldest tenth goes when it is reached.
    ///   - fetch: OpenWeather's call, made at most once at a time per key.
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

    /// A fresh forecast for the point, fetching when needed (paid as `context` says); a stale one
    /// when fetching fails.
    /// - Parameter refresh: fetch even when the entry is fresh (the user pressed «Обновить»),
    ///   unless it is younger than a minute; concurrent requests still share one fetch.
    public func forecast(latitude: Double, longitude: Double, language: String, refresh: Bool = false, for context: CallContext) async throws -> Entry {
        let now = clock.date
        return try await forecast(
            latitude: latitude, longitude: longitude, language: language, fetchedAfter: now.addingTimeInterval(-(refresh ? refreshAfter : freshFor)),
            staleWhenFailed: refresh, context)
    }

    /// A forecast fetched after `date`, fetching when the entry is older; one older when fetching
    /// fails, marked stale. A daily forecast takes weather fetched ahead of its minute this way.
    public func forecast(latitude: Double, longitude: Double, language: String, fetchedAfter date: Date, for context: CallContext) async throws -> Entry {
        try await forecast(latitude: latitude, longitude: longitude, language: language, fetchedAfter: date, staleWhenFailed: true, context)
    }

    /// - Parameter staleWhenFailed: an older entry that stands in for a failed fetch is stale even
    ///   when it is younger than `freshFor`.
    private func forecast(
        latitude: Double, longitude: Double, language: String, fetchedAfter date: Date, staleWhenFailed: Bool, _ context: CallContext
    ) async throws -> Entry {
        let key = Key(latitude: latitude, longitude: longitude, language: language)
        if let entry = entries[key], entry.fetchedAt > date {
            return entry
        }
        do {
            // Someone waiting for it makes a fetch ahead waiting for its slot urgent.
            flights.note(of: key)?.raise(to: context.priority)
            if context.cachedOnly {
                guard let joined = try await flights.join(key) else { throw NotCached() }
                return joined
            }
            // The fetch is paid by whoever starts it, at the most urgent priority of those
            // waiting; with an entry to fall back on, a person is not kept waiting long for a slot.
            var fetching = context
            fetching.hasLastKnown = entries[key].map { clock.date.timeIntervalSince($0.fetchedAt) < staleFor } ?? false
            let fetch = fetch
            return try await flights.value(for: key, note: SharedPriority(context.priority)) { [weak self, fetching] shared in
                self?.fetchCount.add(1, ordering: .relaxed)
                var context = fetching
                context.shared = shared
                let forecast = try await fetch(latitude, longitude, language, context)
                guard let self else { throw CancellationError() }
                return await self.keep(forecast, for: key, latitude: latitude, longitude: longitude)
            }.value
        } catch is NotCached {
            throw NotCached()
        } catch {
            if let entry = entries[key], clock.date.timeIntervalSince(entry.fetchedAt) < staleFor {
                var stale = entry
                stale.isStale = clock.date.timeIntervalSince(entry.fetchedAt) >= freshFor || staleWhenFailed
                return stale
            }
            throw error
        }
    }

    /// Keeps a forecast just fetched, part of its fetch (kept even when everyone waiting for it
    /// stopped), and tells the watchers once it is there to read; returns the entry now kept.
    private func keep(_ forecast: Forecast, for key: Key, latitude: Double, longitude: Double) -> Entry {
        let entry = Entry(forecast: forecast, fetchedAt: clock.date, isStale: false)
        if entries[key] == nil || entries[key]!.fetchedAt <= entry.fetchedAt {
            store(entry, for: key)
            watchers.tell(FetchedForecast(latitude: latitude, longitude: longitude, fetchedAt: entry.fetchedAt))
        }
        return entries[key] ?? entry
    }

    /// Cancels the fetches under way, for the owner's stop: see ``SingleFlight``.
    public nonisolated func cancelFetches() {
        flights.cancelAll()
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

    /// Entries held now, fresh or not, up to the capacity.
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
    /// The point's latitude as the caller asked for it, in degrees (not rounded to the cell).
    public var latitude: Double
    /// The point's longitude as the caller asked for it, in degrees.
    public var longitude: Double
    /// When the fetch ended, as its entry says.
    public var fetchedAt: Date

    /// A fetch's announcement; the cache makes them, tests make their own.
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
