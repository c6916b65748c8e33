public import BotClock
import Foundation
public import Logging
public import OpenWeather
public import ServiceLifecycle
public import WeatherBotStore

/// Keeps OpenWeather's day count in the store: the calls this worker made are added every few
/// seconds and at the stop, and the sum of every replica's calls comes back as the budget's count
/// for the day; the last minute's calls are kept too. A restart or a takeover starts from both
/// (``budget(_:from:source:clock:)``), so the new worker neither resets the day nor spends a minute twice.
///
/// Open-Meteo's fair use is kept alike, its day's calls stored apart under its name
/// (`open-meteo.forecast`); its last minute is not kept.
public struct OpenWeatherUsage: Service {
    let budget: CallBudget
    /// Nil for OpenWeather; the name another source's calls are stored under.
    let source: String?
    let store: any BotStore
    let interval: Duration
    let metrics: BotMetrics
    let logger: Logger

    /// Saves `budget`'s calls to `store` every `interval`; `source` names another source than OpenWeather.
    public init(
        budget: CallBudget, source: String? = nil, store: any BotStore, interval: Duration = .seconds(10), metrics: BotMetrics = BotMetrics(),
        logger: Logger
    ) {
        self.budget = budget
        self.source = source
        self.store = store
        self.interval = interval
        self.metrics = metrics
        self.logger = logger
    }

    /// A budget that starts from today's stored count and the last minute's calls kept; from
    /// nothing what the store cannot tell.
    public static func budget(
        _ limits: CallBudget.Limits, from store: any BotStore, source: String? = nil, clock: any WallClock = SystemWallClock()
    ) async -> CallBudget {
        let day = CivilDate.utcDay(of: clock.date)
        let today = (try? await store.addOpenWeatherCalls([:], onDay: day)).map { CallBudget.DayCount(day: day, calls: Self.endpoints($0, source: source)) }
        let lastMinute = source == nil ? (try? await store.openWeatherMinute()) ?? [:] : [:]
        return CallBudget(limits, clock: clock, restored: today, lastMinute: lastMinute)
    }

    /// Saves at once, then every interval until a graceful shutdown, and once more after it; never throws, a failed save is tried again.
    public func run() async throws {
        await save()
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { break }
                await save()
            }
        }
        // The last calls before the stop.
        await save()
    }

    /// Adds the calls made since the last save to the stored count, and takes the sum back.
    /// The last minute is kept again only when there were calls since: what is kept is by the
    /// second, and a reader forgets what is older than a minute, so a quiet worker writes nothing.
    public func save() async {
        let taken = budget.takeUnsaved()
        do {
            let prefix = source.map { "\($0)." } ?? ""
            let stored = try await store.addOpenWeatherCalls(
                Dictionary(uniqueKeysWithValues: taken.calls.map { (prefix + $0.key.rawValue, $0.value) }), onDay: taken.day)
            budget.adopt(CallBudget.DayCount(day: taken.day, calls: Self.endpoints(stored, source: source)))
            if !taken.calls.isEmpty && source == nil { try await store.keepOpenWeatherMinute(budget.recentCalls) }
        } catch {
            // Counted again next time: a call is never lost from the day's count.
            budget.giveBack(taken)
            logger.warning("\(source ?? "OpenWeather")'s day count could not be stored", metadata: ["error": "\(store.describe(error))"])
        }
        guard source == nil else { return }
        metrics.openWeatherBudget(
            callsToday: budget.today.calls, callsLastMinute: budget.lastMinute, perDay: budget.limits.perDay, perMinute: budget.limits.perMinute)
    }

    /// `source`'s stored counts by endpoint name (OpenWeather's have no source's name before
    /// them); a name this version does not know counts as `other`.
    static func endpoints(_ stored: [String: Int], source: String?) -> [OpenWeatherEndpoint: Int] {
        stored.reduce(into: [:]) { calls, entry in
            let parts = entry.key.split(separator: ".", maxSplits: 1).map(String.init)
            let (owner, name) = parts.count == 2 ? (parts[0], parts[1]) : (nil, entry.key)
            guard owner == source else { return }
            calls[OpenWeatherEndpoint(rawValue: name) ?? .other, default: 0] += entry.value
        }
    }
}
