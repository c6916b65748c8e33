public import Foundation
public import OpenWeather

/// Rain or snow ahead at each place cell, as the notice checks see it one after another.
///
/// An *episode* is precipitation with no dry hour inside it: it begins at a wet minute after at
/// least ``dryBetween`` without any (or none known), and every wet minute seen less than that
/// after the last one belongs to it. A chat is told of an episode once, before it begins
/// (``Episode/id`` is the mark that says so); a shower that pauses for half an hour is not news
/// twice. The minutes come from One Call's `minutely`; on the free plan, from the 3-hourly steps,
/// coarsely. Pure: the checker tells it the time.
public struct RainWatch: Sendable {
    /// Rain or snow at one cell, from its first wet minute.
    public struct Episode: Sendable, Hashable {
        /// What tells it from the cell's other episodes, kept as the mark of a chat told of it.
        public var id: String
        /// When it begins, as the latest check says.
        public var start: Date
        /// The end of the last wet minute seen.
        public var wetUntil: Date
        /// The strongest precipitation seen, in mm/h.
        public var peak: Double
        /// When it ends, when the data shows its end; nil when it goes beyond what is known.
        public var end: Date?
        /// From One Call's minutes; false for the free plan's 3-hourly steps («около 15:00»).
        public var isPrecise: Bool
    }

    /// Less than this (mm/h) is dry: One Call's minutes carry hundredths for a drizzle nobody sees.
    public static let wetThreshold = 0.1
    /// Dry time that ends an episode: a new one needs this long without precipitation before it.
    public static let dryBetween: TimeInterval = 3600
    /// The least dry time before a start told as news (``dryBetween`` is longer, so every new
    /// episode has it).
    public static let dryBefore: TimeInterval = 20 * 60

    private var episodes: [String: Episode] = [:]

    /// No cell watched yet: every cell's first episode is news.
    public init() {}

    /// The cell's episode as last seen.
    public func episode(of cell: String) -> Episode? { episodes[cell] }

    /// Takes in the forecast a check read for `cell` at `now` and returns the cell's episode when
    /// one is still ahead (it begins after `now`): a chat not told of it yet is to be told.
    public mutating func observe(_ forecast: Forecast, cell: String, at now: Date) -> Episode? {
        // An episode dry for an hour is over: a new start is news again.
        if let known = episodes[cell], now.timeIntervalSince(known.wetUntil) >= Self.dryBetween {
            episodes[cell] = nil
        }
        let steps = Self.steps(of: forecast)
        var current = episodes[cell]
        var lastWetEnd: Date?
        for step in steps where step.end > now && step.amount >= Self.wetThreshold {
            if var episode = current, step.time.timeIntervalSince(episode.wetUntil) < Self.dryBetween {
                // The forecast may move a start not yet come a little earlier: keep the earliest.
                if episode.start > now, step.time < episode.start { episode.start = max(step.time, now) }
                episode.wetUntil = max(episode.wetUntil, step.end)
                episode.peak = max(episode.peak, step.amount)
                current = episode
            } else {
                let id = "\(cell)@\(Int(step.time.timeIntervalSince1970))"
                current = Episode(id: id, start: step.time, wetUntil: step.end, peak: step.amount, end: nil, isPrecise: step.isPrecise)
            }
            lastWetEnd = step.end
        }
        guard var episode = current else { return nil }
        // The end shows when the data goes on dry after the last wet minute.
        if let lastWetEnd, let last = steps.last, last.end > lastWetEnd {
            episode.end = lastWetEnd
        } else if lastWetEnd != nil {
            episode.end = nil
        }
        episodes[cell] = episode
        return episode.start > now ? episode : nil
    }

    /// Forgets the cells not among `cells` (no chat asks about them any more).
    public mutating func keep(only cells: Set<String>) {
        episodes = episodes.filter { cells.contains($0.key) }
    }

    /// The precipitation known ahead, in time order: the minutes (One Call's, or Open-Meteo's
    /// quarter hours), or the hourly steps of the free plan or Open-Meteo.
    struct Step {
        var time: Date
        var end: Date
        /// mm/h.
        var amount: Double
        var isPrecise: Bool
    }

    static func steps(of forecast: Forecast) -> [Step] {
        if !forecast.minutely.isEmpty {
            return forecast.minutely.map {
                Step(time: $0.time, end: $0.time.addingTimeInterval(60), amount: $0.precipitation, isPrecise: true)
            }
        }
        // One Call without its minutes has nothing finer to tell; the free plan's and Open-Meteo's
        // hours tell it roughly («около 15:00»).
        guard forecast.source != .oneCall else { return [] }
        let hours = Double(forecast.hourlyStep)
        // The steps' amounts are millimetres per step.
        return forecast.hourly.map {
            Step(time: $0.time, end: $0.time.addingTimeInterval(hours * 3600), amount: $0.precipitation / hours, isPrecise: false)
        }
    }
}

/// What falls, and how hard.
public enum Precipitation: Int, Sendable, Hashable, CaseIterable {
    case rain, snow, sleet

    /// From the condition of the hour it begins in (snow, sleet, rain, drizzle, thunderstorm); for
    /// any other condition, from the temperature.
    public init(condition: Condition?, temperature: Double?) {
        switch condition?.id {
        case let id? where (611...616).contains(id) || id == 511: self = .sleet
        case let id? where (600...699).contains(id): self = .snow
        case let id? where (200...599).contains(id): self = .rain
        default:
            guard let temperature else { self = .rain; return }
            self = temperature <= 0 ? .snow : temperature < 2 ? .sleet : .rain
        }
    }

    /// How hard it rains or snows, from the peak in mm/h: it picks the rain notice's word for the precipitation.
    public enum Strength: Int, Sendable, Hashable, CaseIterable {
        case light, moderate, heavy

        /// By the usual bounds for rain (2.5 and 7.6 mm/h); snow is heavy with less water.
        public init(millimetresPerHour amount: Double, of kind: Precipitation) {
            let (moderate, heavy) = kind == .rain ? (2.5, 7.6) : (1.0, 2.5)
            self = amount >= heavy ? .heavy : amount >= moderate ? .moderate : .light
        }
    }
}
