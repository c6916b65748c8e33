public import BotClock
import Foundation
public import Logging
public import OpenWeather
public import ServiceLifecycle
import TelegramBotAPI
public import WeatherBot
public import WeatherBotStore

/// Sends daily forecasts. Wakes every `interval`, finds the subscriptions that are due, takes
/// the weather once per place cell (about 1 km), and writes the forecasts to the outbox in the
/// same transaction that marks each subscription sent for its local date and sets its next time.
/// The weather is fetched ahead of the minute (``fetchAhead()``), spread over the minutes before
/// it as OpenWeather's budget allows, so a morning of many cells goes out on its minute. A
/// forecast missed by less than `gracePeriod` (after downtime) is sent late; older ones are
/// skipped. While OpenWeather does not answer, a forecast waits `lastKnownAfter` for it, then
/// goes with the last known weather of its place, marked with its age.
///
/// What each forecast says, and which go, wait or are skipped, the core decides
/// (``DailyDecision``); this fetches the weather and the day before's temperatures, commits and
/// counts.
public struct DailyScheduler: Service {
    let database: any BotStore
    /// Counts the forecasts due.
    let metrics: BotMetrics
    let weather: any WeatherSource
    let outbox: OutboxSender?
    let logger: Logger
    let clock: any WallClock
    let interval: Duration
    let gracePeriod: TimeInterval
    let lastKnownAfter: TimeInterval
    let maximumConcurrentFetches: Int
    /// How many due subscriptions are read and committed at a time.
    let batchSize: Int
    /// How old the weather in a daily forecast may be.
    let acceptedAge: TimeInterval
    /// How much earlier than the budget needs the weather is fetched ahead.
    let aheadMargin: TimeInterval
    /// OpenWeather's budget, whose share for work due soon sets how early the weather is fetched.
    let budget: CallBudget?

    /// When the scheduler wakes and how much it takes at once; each default is here and only here.
    public struct Configuration: Sendable {
        /// How often due subscriptions are looked for.
        public var interval: Duration
        /// How late (after downtime) a daily forecast may still be sent.
        public var gracePeriod: Duration
        /// How long after its time a daily forecast waits for fresh weather while OpenWeather does
        /// not answer; then it is sent with the last known weather of its place, marked with its
        /// age, when that tells its day.
        public var lastKnownAfter: Duration
        /// Weather fetches under way at once.
        public var maximumConcurrentFetches: Int
        /// How many due subscriptions are read and committed at a time.
        public var batchSize: Int
        /// How old the weather in a daily forecast may be: it is fetched ahead of the forecast's
        /// minute, never earlier than this before it (a day's outlook barely changes in that time).
        public var acceptedAge: Duration
        /// How much earlier than OpenWeather's budget needs the weather is fetched ahead of the
        /// minute: the time the last fetches of a morning take.
        public var aheadMargin: Duration

        /// Every 20 seconds, two hours' grace, the last known weather after 15 minutes, 8 fetches at once, batches of 10 000,
        /// weather fetched at most 30 minutes ahead with 2 minutes' margin, unless told otherwise.
        public init(
            interval: Duration = .seconds(20), gracePeriod: Duration = .seconds(2 * 3600), lastKnownAfter: Duration = .seconds(15 * 60),
            maximumConcurrentFetches: Int = 8, batchSize: Int = 10_000, acceptedAge: Duration = .seconds(30 * 60), aheadMargin: Duration = .seconds(120)
        ) {
            self.acceptedAge = acceptedAge
            self.aheadMargin = aheadMargin
            self.interval = interval
            self.gracePeriod = gracePeriod
            self.lastKnownAfter = lastKnownAfter
            self.maximumConcurrentFetches = maximumConcurrentFetches
            self.batchSize = batchSize
        }
    }

    /// A scheduler reading and committing through `database`, handing what it queues to `outbox` (nil: no sender to hand it to,
    /// as in tests); `budget`'s share for work due soon sets how early the weather is fetched.
    public init(
        database: any BotStore, weather: any WeatherSource, outbox: OutboxSender?, logger: Logger,
        clock: any WallClock = SystemWallClock(), configuration: Configuration = Configuration(), budget: CallBudget? = nil,
        metrics: BotMetrics = BotMetrics()
    ) {
        self.budget = budget
        self.acceptedAge = configuration.acceptedAge.timeInterval
        self.aheadMargin = configuration.aheadMargin.timeInterval
        self.metrics = metrics
        self.database = database
        self.weather = weather
        self.outbox = outbox
        self.logger = logger
        self.clock = clock
        self.interval = configuration.interval
        self.gracePeriod = TimeInterval(configuration.gracePeriod.components.seconds)
        self.lastKnownAfter = configuration.lastKnownAfter.timeInterval
        self.maximumConcurrentFetches = configuration.maximumConcurrentFetches
        self.batchSize = configuration.batchSize
    }

    /// Sends what is due and fetches ahead every interval, side by side, until graceful shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                // Fetching ahead may wait minutes for the budget; what is due goes out meanwhile.
                group.addTask { await self.everyInterval { await self.tick() } }
                group.addTask { await self.everyInterval { await self.fetchAhead() } }
            }
        }
        logger.info("daily scheduler stopped")
    }

    private func everyInterval(_ pass: () async -> Int) async {
        while !Task.isCancelled {
            _ = await pass()
            do { try await clock.sleep(for: interval) } catch { return }
        }
    }

    /// One pass over what is due now, in batches of `batchSize`. Returns how many forecasts were queued.
    @discardableResult
    public func tick() async -> Int {
        let now = clock.date
        var total = 0
        while !Task.isCancelled {
            let due: [DueSubscription]
            do {
                due = try await database.dueSubscriptions(at: now, limit: batchSize)
            } catch {
                logger.error("could not read due forecasts", metadata: ["error": "\(database.describe(error))"])
                break
            }
            guard !due.isEmpty else { break }
            let cells = DailyDecision.batches(of: due)
            let queued = await deliver(cells, now: now)
            if queued > 0 {
                logger.info("daily forecasts queued", metadata: ["forecasts": "\(queued)", "cells": "\(cells.count)"])
            }
            total += queued
            // A full batch may have more behind it; one that made no progress (OpenWeather is
            // down) is left for the next pass.
            if due.count < batchSize || queued == 0 { break }
        }
        return total
    }

    /// Delivers the cells of one batch, a few weather fetches at a time.
    private func deliver(_ cells: [[DueSubscription]], now: Date) async -> Int {
        await sum(over: cells) { await self.deliver($0, now: now) }
    }

    /// The sum of `work` over the items, done `maximumConcurrentFetches` at a time.
    private func sum<Item: Sendable>(over items: [Item], _ work: @escaping @Sendable (Item) async -> Int) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            var next = 0
            var running = 0
            var total = 0
            while next < items.count || running > 0 {
                while next < items.count && running < maximumConcurrentFetches {
                    let item = items[next]
                    group.addTask { await work(item) }
                    next += 1
                    running += 1
                }
                if let count = await group.next() {
                    total += count
                    running -= 1
                }
            }
            return total
        }
    }

    /// The rules the core decides forecasts by, from the configuration.
    var rules: DailyDecision.Rules {
        DailyDecision.Rules(gracePeriod: gracePeriod, lastKnownAfter: lastKnownAfter)
    }

    /// Fetches one cell's weather and the temperatures its forecasts compare with, has the core
    /// decide, commits the deliveries and counts them; returns how many replies were queued.
    private func deliver(_ cell: [DueSubscription], now: Date) async -> Int {
        var failure: (any Error)?
        var report: WeatherReport?
        var air: [AirQuality]?
        var pollen: [PollenReading]?
        if let first = DailyDecision.weatherWanted(by: cell, now: now, rules: rules) {
            let place = first.subscription.place
            do {
                report = try await weather.weather(at: place, language: first.language, fetchedAfter: now.addingTimeInterval(-acceptedAge), for: .soon)
            } catch {
                failure = error
                report = await weather.lastKnown(at: place, language: first.language)
            }
            // Fetched ahead with the weather, mostly; otherwise within the air's patience, or not at all.
            // Pollen alike, where the place has it.
            if report.map({ !$0.isStale }) == true {
                async let hours = weather.airForecast(at: place, for: .soon)
                async let grains = NoticeDecision.hasPollen(place) ? weather.pollen(at: place, for: .soon) : nil
                (air, pollen) = await (hours, grains)
            }
        }
        var decision = DailyDecision(report: report, air: air, pollen: pollen, now: now, rules: rules)
        for (day, cells) in decision.comparedDays(cell) {
            // What cannot be read leaves the comparison out, never the forecast.
            let kept = try? await database.dayTemperatures(cells: cells.map(\.key), day: day)
            decision.know(kept.map { Array($0.values) } ?? [])
        }
        var outcomes: [DailyDecision.Outcome] = []
        outcomes.reserveCapacity(cell.count)
        // A large cell is prepared in slices, so replies being sent meanwhile are not held up behind it.
        for start in stride(from: 0, to: cell.count, by: 64) {
            if start > 0 { await Task.yield() }
            outcomes += decision.decide(Array(cell[start..<min(start + 64, cell.count)]))
        }
        await keep(decision.todays, now: now)
        var counts: [BotMetrics.DailyDue: Int] = [:]
        var waiting = 0
        for outcome in outcomes {
            switch outcome {
            case .skipped: counts[.skipped, default: 0] += 1
            case .waiting: waiting += 1
            case .sent, .sentLastKnown, .unschedulable: break
            }
        }
        if let skipped = counts[.skipped] {
            logger.notice("daily forecasts missed for too long; skipped", metadata: ["count": "\(skipped)"])
        }
        // Left due: the next pass tries again, until the grace period runs out. Older weather
        // waiting its time was said by the weather source already.
        if waiting > 0, let failure {
            logger.warning("weather for daily forecasts unavailable; will retry", metadata: ["error": "\(failure)", "count": "\(waiting)"])
        }
        let deliveries = outcomes.compactMap(\.delivery)
        do {
            let ids = try await database.commitDeliveries(deliveries, at: clock.date)
            for (rows, outcome) in zip(ids, outcomes.filter { $0.delivery != nil }) where !rows.isEmpty {
                switch outcome {
                case .sent(let delivery) where !delivery.requests.isEmpty: counts[.queued, default: 0] += 1
                case .sentLastKnown(let delivery) where !delivery.requests.isEmpty: counts[.lastKnown, default: 0] += 1
                default: break
                }
            }
            metrics.dailyDue(counts)
            if let fallenBack = counts[.lastKnown] {
                logger.notice("daily forecasts sent with the last known weather, marked with its age", metadata: ["count": "\(fallenBack)"])
            }
            // Sending starts with the first cell, while the rest of the batch is being prepared.
            let queued = zip(ids, deliveries).flatMap { ids, delivery in
                zip(ids, delivery.requests).map { id, request in QueuedReply(id: id, chatID: delivery.chatID, lane: .bulk, request: request) }
            }
            outbox?.committed(queued)
            return queued.count
        } catch {
            logger.error("could not commit daily forecasts", metadata: ["error": "\(database.describe(error))"])
            return 0
        }
    }

    /// Keeps the day's temperatures from fresh weather for tomorrow's comparison, forgetting days
    /// older than the day before yesterday (in UTC, a day's margin for the zones ahead of it).
    /// What cannot be kept leaves tomorrow's comparison out, never a forecast.
    private func keep(_ todays: [DayTemperatures], now: Date) async {
        guard !todays.isEmpty else { return }
        let utc = TimeZone(identifier: "UTC") ?? .current
        let oldest = DailySchedule.day(of: now.addingTimeInterval(-3 * 86_400), in: utc)
        do {
            try await database.keepDayTemperatures(todays, forgettingBefore: oldest)
        } catch {
            logger.warning("could not keep the day's temperatures", metadata: ["error": "\(database.describe(error))"])
        }
    }

    // MARK: Ahead of the minute

    /// A place cell whose weather is fetched ahead, at its earliest subscription's minute.
    private struct Upcoming {
        var place: Place
        var language: Language
        var due: Date
    }

    /// Fetches the weather of the cells due within `acceptedAge` whose known weather will be too
    /// old at their minute, earliest first, as work due soon: each cell no earlier than the time
    /// the budget needs for all of them (``lead(for:)``) before its minute, so a small morning is
    /// fetched fresh and a large one starts early enough. Returns how many cells were fetched.
    @discardableResult
    public func fetchAhead() async -> Int {
        let now = clock.date
        let upcoming: [DueSubscription]
        do {
            upcoming = try await database.dueSubscriptions(at: now.addingTimeInterval(acceptedAge), limit: batchSize)
        } catch {
            logger.error("could not read the daily forecasts coming up", metadata: ["error": "\(database.describe(error))"])
            return 0
        }
        // Earliest first: each cell at its first minute. What is due already is the due pass's.
        var cells: [PlaceCell: Upcoming] = [:]
        for due in upcoming where due.subscription.nextSendAt > now {
            let cell = due.subscription.place.cell
            if cells[cell] == nil { cells[cell] = Upcoming(place: due.subscription.place, language: due.language, due: due.subscription.nextSendAt) }
        }
        var pending: [Upcoming] = []
        for cell in cells.values {
            let known = await weather.lastKnown(at: cell.place, language: cell.language)?.fetchedAt ?? .distantPast
            if known <= cell.due.addingTimeInterval(-acceptedAge) { pending.append(cell) }
        }
        let lead = lead(for: pending.count)
        let fetching = pending.filter { $0.due.timeIntervalSince(now) <= lead }.sorted { $0.due < $1.due }
        guard !fetching.isEmpty else { return 0 }
        let fetched = await sum(over: fetching) { cell in
            let report = try? await weather.weather(at: cell.place, language: cell.language, fetchedAfter: cell.due.addingTimeInterval(-acceptedAge), for: .soon)
            // The day's air and pollen too, after it (never ahead of it for the minute's calls):
            // the forecast then finds them kept.
            async let air = weather.airForecast(at: cell.place, for: .soon)
            async let pollen = NoticeDecision.hasPollen(cell.place) ? weather.pollen(at: cell.place, for: .soon) : nil
            _ = await (air, pollen)
            return report?.isStale == false ? 1 : 0
        }
        logger.info("weather fetched ahead for daily forecasts", metadata: ["cells": "\(fetched)", "of": "\(fetching.count)"])
        return fetched
    }

    /// How long before its minute a cell's weather is fetched, when `cells` wait for it: the time
    /// they take at the calls a minute work due soon gets however many people ask, and
    /// `aheadMargin`; never more than `acceptedAge`.
    func lead(for cells: Int) -> TimeInterval {
        let perMinute = budget?.callsPerMinute(for: .soon) ?? 0
        let needed = perMinute > 0 ? Double(cells) / Double(perMinute) * 60 : 0
        return min(acceptedAge, aheadMargin + needed)
    }
}
