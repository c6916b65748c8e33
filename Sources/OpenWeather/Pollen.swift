public import Foundation

/// Pollen in the air at a place for one hour, as Open-Meteo's air-quality API tells it: grains
/// per m³ of each kind the European model (CAMS) forecasts. Only Europe has it, and a kind out of
/// season or out of its range comes as nothing.
public struct PollenReading: Codable, Sendable, Hashable {
    /// The kinds the model forecasts.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
        case alder, birch, grass, mugwort, olive, ragweed

        /// Declaration order, for a steady order where levels tie.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// The least grains per m³ of each level from low up: the National Allergy Bureau's
        /// scale, whose limits differ for trees, grasses and weeds.
        var thresholds: (low: Double, moderate: Double, high: Double, veryHigh: Double) {
            switch self {
            case .alder, .birch, .olive: (1, 15, 90, 1500)
            case .grass: (1, 5, 20, 200)
            case .mugwort, .ragweed: (1, 10, 50, 500)
            }
        }

        /// The level `grains` per m³ of this kind make.
        public func level(grains: Double) -> Level {
            let limits = thresholds
            switch grains {
            case limits.veryHigh...: return .veryHigh
            case limits.high...: return .high
            case limits.moderate...: return .moderate
            case limits.low...: return .low
            default: return .none
            }
        }
    }

    /// How much of a kind there is, in the words people read: the grains are never shown.
    public enum Level: Int, Codable, Sendable, Hashable, Comparable, CaseIterable {
        case none, low, moderate, high, veryHigh

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The start of the hour the reading is for.
    public var time: Date
    /// Grains per m³ by kind; a kind the answer gave nothing for is absent.
    public var grains: [Kind: Double]

    /// A reading of the hour at `time`; grains that are not finite non-negative numbers are left out.
    public init(time: Date, grains: [Kind: Double]) {
        self.time = time
        self.grains = grains.filter { $0.value.isFinite && $0.value >= 0 }
    }

    /// The level of one kind; `.none` when the reading has nothing of it.
    public func level(of kind: Kind) -> Level {
        grains[kind].map(kind.level(grains:)) ?? .none
    }

    /// The kinds above none, the highest level first (kinds of one level in ``Kind``'s order).
    public var levels: [(kind: Kind, level: Level)] {
        Kind.allCases.map { ($0, level(of: $0)) }.filter { $0.1 > .none }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    }

    /// Each kind's mean grains over `readings` (a day's hours), as one reading at `time`, over the
    /// hours that have the kind. The National Allergy Bureau's levels are for a day's mean count:
    /// an hour's count, higher at its peak, is never read against them.
    public static func dayMean(of readings: some Sequence<PollenReading>, at time: Date) -> PollenReading {
        var sums: [Kind: (grains: Double, hours: Int)] = [:]
        for reading in readings {
            for (kind, grains) in reading.grains {
                let sum = sums[kind] ?? (0, 0)
                sums[kind] = (sum.grains + grains, sum.hours + 1)
            }
        }
        return PollenReading(time: time, grains: sums.mapValues { $0.grains / Double($0.hours) })
    }

    /// Whether the European model reaches the point: about 25° W to 45° E and 30° N to 72° N.
    /// Outside it no call is made and nothing is shown.
    public static func covers(latitude: Double, longitude: Double) -> Bool {
        (30...72).contains(latitude) && (-25...45).contains(longitude)
    }
}

extension Sequence<PollenReading> {
    /// The reading of the hour `date` falls in; nil when none covers it.
    public func reading(at date: Date) -> PollenReading? {
        first { $0.time <= date && date < $0.time.addingTimeInterval(3600) }
    }
}
