public import BotClock
import Foundation

/// Places found by name, shared by all chats: the same name typed by many users, or by one user
/// again, costs one call a day.
///
/// The key is the name as people vary it without meaning another place: case, and spaces around
/// and between words. A name that found nothing is kept too, for less time (a typo is typed
/// again, but a place may be added). Concurrent look-ups of one name share one call
/// (``SingleFlight``); a failure is not kept.
public actor GeocodingCache {
    private struct Entry {
        var places: [GeoPlace]
        var fetchedAt: Date
    }

    private let keptFor: TimeInterval
    private let emptyKeptFor: TimeInterval
    private let capacity: Int
    private let clock: any WallClock
    private var entries: [String: Entry] = [:]
    /// The look-ups under way, each shared by everyone asking for its name meanwhile.
    private let flights = SingleFlight<String, [GeoPlace], Void>()
    /// The places found by name, by their point: a message sent from an inline result names its
    /// place only by the point, and is shown again under the name it was found by.
    private var byPoint: [PointKey: GeoPlace] = [:]
    /// Look-ups answered without a call: for `/metrics` and the tests.
    public private(set) var hits = 0

    /// - Parameters:
    ///   - keptFor: how long a name that found places is answered without a call (a day).
    ///   - emptyKeptFor: the same for a name that found nothing (an hour).
    ///   - capacity: the most names kept, at least 1.
    public init(
        keptFor: Duration = .seconds(86_400), emptyKeptFor: Duration = .seconds(3600), capacity: Int = 20_000,
        clock: any WallClock = SystemWallClock()
    ) {
        self.keptFor = keptFor.timeInterval
        self.emptyKeptFor = emptyKeptFor.timeInterval
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// «  New   york » and «New York» are one name.
    static func key(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The places named `name`: kept ones while they are young enough (`cached`), else what
    /// `fetch` finds, or the look-up of the name under way. Only what is kept, or a look-up under
    /// way, answers a `context` that is ``CallContext/cachedOnly``; `fetch` is paid as it says.
    public func places(
        named name: String, for context: CallContext, fetch: @escaping @Sendable () async throws -> [GeoPlace]
    ) async throws -> (places: [GeoPlace], cached: Bool) {
        let key = Self.key(name)
        let now = clock.date
        if let entry = entries[key], now.timeIntervalSince(entry.fetchedAt) < (entry.places.isEmpty ? emptyKeptFor : keptFor) {
            hits += 1
            return (entry.places, true)
        }
        if context.cachedOnly {
            guard let joined = try await flights.join(key) else { throw NotCached() }
            hits += 1
            return (joined, true)
        }
        let (places, started) = try await flights.value(for: key) { [weak self] in
            let places = try await fetch()
            await self?.keep(places, for: key)
            return places
        }
        if !started { hits += 1 }
        return (places, !started)
    }

    /// Keeps what a look-up found, part of the look-up (kept even when its askers stopped waiting).
    private func keep(_ places: [GeoPlace], for key: String) {
        if entries[key] == nil, entries.count >= capacity {
            // The oldest tenth goes: eviction stays rare and cheap.
            for (victim, _) in entries.sorted(by: { $0.value.fetchedAt < $1.value.fetchedAt }).prefix(max(1, capacity / 10)) {
                entries[victim] = nil
            }
        }
        entries[key] = Entry(places: places, fetchedAt: clock.date)
        if byPoint.count >= capacity * 2 { byPoint.removeAll(keepingCapacity: true) }
        for place in places { byPoint[PointKey(latitude: place.lat, longitude: place.lon, digits: 4)] = place }
    }

    /// The places at a point, by ``PointKey`` at two decimals (about a kilometre): people asking
    /// for where they stand again and again, or near each other, cost one call a day. Shares the
    /// name look-ups' keeping and capacity.
    public func places(
        atLatitude latitude: Double, longitude: Double, for context: CallContext, fetch: @escaping @Sendable () async throws -> [GeoPlace]
    ) async throws -> (places: [GeoPlace], cached: Bool) {
        try await places(named: PointKey(latitude: latitude, longitude: longitude, digits: 2).text, for: context, fetch: fetch)
    }

    /// A place some look-up by name found at this point (to four decimals), while it is kept.
    public func place(atLatitude latitude: Double, longitude: Double) -> GeoPlace? {
        byPoint[PointKey(latitude: latitude, longitude: longitude, digits: 4)]
    }

    /// A point rounded to `digits` decimals, as a key.
    struct PointKey: Hashable {
        var latitude: Int
        var longitude: Int
        var digits: Int

        init(latitude: Double, longitude: Double, digits: Int) {
            let scale = Double([1, 10, 100, 1000, 10_000][min(max(digits, 0), 4)])
            self.latitude = Int((latitude * scale).rounded())
            self.longitude = Int((longitude * scale).rounded())
            self.digits = digits
        }

        /// Never a name anyone types: it starts with a character the name keys never hold.
        var text: String { "\u{1}\(digits):\(latitude):\(longitude)" }
    }

    /// Names held now, fresh or not (those that found nothing too), up to the capacity.
    public var count: Int { entries.count }
}
