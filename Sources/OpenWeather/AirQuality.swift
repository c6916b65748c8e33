public import BotClock
public import Foundation

/// The air at a place at one time, as OpenWeather's Air Pollution API tells it.
public struct AirQuality: Codable, Sendable, Hashable {
    /// OpenWeather's index: 1 good, 2 fair, 3 moderate, 4 poor, 5 very poor.
    public var index: Int
    /// Fine particles, µg/m³, when given.
    public var pm25: Double?
    /// The time the reading is for, from OpenWeather's `dt`: now, or an hour of the forecast.
    public var time: Date

    /// A reading; `index` on OpenWeather's scale of 1 to 5, `pm25` in µg/m³.
    public init(index: Int, pm25: Double? = nil, time: Date) {
        self.index = index
        self.pm25 = pm25
        self.time = time
    }
}

/// `/data/2.5/air_pollution` (one reading) and `/data/2.5/air_pollution/forecast` (one an hour).
struct AirPollutionBody: Decodable {
    struct Reading: Decodable {
        struct Main: Decodable {
            var aqi: Int
        }
        struct Components: Decodable {
            var pm25: Double?

            enum CodingKeys: String, CodingKey {
                case pm25 = "pm2_5"
            }
        }
        var dt: Double
        var main: Main
        var components: Components?
    }

    var list: [Reading]

    /// The readings whose index is one of OpenWeather's five, in time order; a PM2.5 that is not
    /// a finite non-negative number is left out.
    var readings: [AirQuality] {
        list.compactMap { reading in
            guard (1...5).contains(reading.main.aqi), reading.dt.isFinite else { return nil }
            let pm25 = reading.components?.pm25.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            return AirQuality(index: reading.main.aqi, pm25: pm25, time: Date(timeIntervalSince1970: reading.dt))
        }
        .sorted { $0.time < $1.time }
    }
}

/// The air's readings kept per place cell.
public typealias AirQualityCache = CellReadingsCache<AirQuality>

/// Pollen's hourly readings kept per place cell.
public typealias PollenCache = CellReadingsCache<PollenReading>

/// Readings of the air (or pollen) kept per place cell (the point to 0.01°, as the weather) for
/// half an hour unless told otherwise, the reading now and the forecast apart, shared by everyone
/// asking: concurrent look-ups of one cell share one call, and a failure is not kept.
public actor CellReadingsCache<Reading: Sendable> {
    /// Which of the two calls a reading came from: kept apart, each with its own freshness.
    public enum Kind: Sendable, Hashable {
        case now, forecast
    }

    private struct Key: Hashable {
        var kind: Kind
        var cell: PlaceCell
    }

    private let freshFor: TimeInterval
    private let capacity: Int
    private let clock: any WallClock
    private var entries: [Key: (readings: [Reading], fetchedAt: Date)] = [:]
    /// The look-ups under way, each shared by everyone asking for its cell meanwhile.
    private let flights = SingleFlight<Key, [Reading], Void>()

    /// - Parameters:
    ///   - freshFor: how long readings are answered without a call (half an hour).
    ///   - capacity: the most entries kept (a cell's reading now and its forecast are two), at least 1; when full, all are forgotten.
    public init(freshFor: Duration = .seconds(1800), capacity: Int = 10_000, clock: any WallClock = SystemWallClock()) {
        self.freshFor = freshFor.timeInterval
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// The readings of `kind` at a point fetched within ``freshFor``; nil when there are none.
    public func cached(_ kind: Kind, latitude: Double, longitude: Double) -> [Reading]? {
        let key = Key(kind: kind, cell: PlaceCell(latitude: latitude, longitude: longitude))
        guard let entry = entries[key], clock.date.timeIntervalSince(entry.fetchedAt) < freshFor else { return nil }
        return entry.readings
    }

    /// The readings of `kind` at a point: those fetched within ``freshFor``, else what `fetch`
    /// gets, or the look-up of the cell under way. A `context` that is ``CallContext/cachedOnly``
    /// starts none. The fetch runs on its own (``SingleFlight``): a caller that stops waiting
    /// leaves it to fill the cache.
    public func readings(
        _ kind: Kind, latitude: Double, longitude: Double, for context: CallContext, fetch: @escaping @Sendable () async throws -> [Reading]
    ) async throws -> [Reading] {
        let key = Key(kind: kind, cell: PlaceCell(latitude: latitude, longitude: longitude))
        if let entry = entries[key], clock.date.timeIntervalSince(entry.fetchedAt) < freshFor { return entry.readings }
        if context.cachedOnly {
            guard let joined = try await flights.join(key) else { throw NotCached() }
            return joined
        }
        return try await flights.value(for: key) { [weak self] in
            let readings = try await fetch()
            await self?.keep(readings, for: key)
            return readings
        }.value
    }

    private func keep(_ readings: [Reading], for key: Key) {
        if entries[key] == nil, entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = (readings, clock.date)
    }
}
