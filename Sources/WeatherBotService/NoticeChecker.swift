public import BotClock
import Foundation
public import Logging
public import OpenWeather
public import ServiceLifecycle
import Synchronization
public import WeatherBot
public import WeatherBotStore

/// Tells chats unasked about their city: rain or snow about to begin, official warnings, and a
/// day of high pollen where the city has pollen data.
///
/// Every `interval` a round reads the chats with notices on, groups them by place cell (about
/// 1 km), and takes each cell's weather through the shared cache: fetched once per cell and
/// interval at the most, not at all when a card viewed in the interval fetched it. Cells with the
/// most chats go first, spread evenly over most of the interval, at the budget's background
/// priority, so people's own requests are never starved. Each cell's notices are decided by the
/// core (``NoticeDecision``: what is told, what is held back and why) and committed as soon as its
/// weather comes, in the notice lane with the marks that say they were sent, so a rain notice
/// leaves within seconds of the check that saw it, and never twice. This only fetches, commits
/// and counts.
///
/// Any fetch is a check: when a card viewed or a daily forecast fetches a watched cell's weather,
/// the cell's notices are decided from it at once (``watchFetches()``), not at the cell's turn in
/// the round, minutes later. One check of a cell runs at a time, and each commit's marks are kept
/// with the round's chats, so a cell checked twice in a round tells nothing twice.
public struct NoticeChecker: Service {
    let store: any NoticeStore
    let weather: any WeatherSource
    let outbox: OutboxSender?
    let metrics: BotMetrics
    let logger: Logger
    let clock: any WallClock
    let configuration: Configuration
    let budget: CallBudget?
    let state: State

    /// How often cells are checked and what quiet hours are by default; each default is here and only here.
    public struct Configuration: Sendable {
        /// How often each cell with a chat's notices is checked (`ALERTS_CHECK_INTERVAL`, 10 s to 1 h).
        public var interval: Duration
        /// The quiet hours of chats that chose none (`ALERTS_QUIET_HOURS`); nil for none.
        public var quietHours: QuietHours?
        /// Weather fetches under way at once.
        public var maximumConcurrentFetches: Int
        /// A rain notice decided less than this before its rain would come too late to be of use.
        public var leastLead: Duration

        /// The intervals allowed, in seconds: 10 s to an hour; ``init(interval:quietHours:maximumConcurrentFetches:leastLead:)`` clamps to it.
        public static let intervalRange: ClosedRange<Int> = 10...3600

        /// Every 10 minutes, night quiet hours, 8 fetches at once, rain told at least a minute ahead, unless told otherwise.
        /// The interval is clamped to ``intervalRange``, and at least one fetch runs.
        public init(
            interval: Duration = .seconds(600), quietHours: QuietHours? = .night, maximumConcurrentFetches: Int = 8, leastLead: Duration = .seconds(60)
        ) {
            let seconds = Int(interval.components.seconds)
            self.interval = .seconds(min(max(seconds, Self.intervalRange.lowerBound), Self.intervalRange.upperBound))
            self.quietHours = quietHours
            self.maximumConcurrentFetches = max(1, maximumConcurrentFetches)
            self.leastLead = leastLead
        }
    }

    /// What rounds remember: the episodes of rain seen, when the last round began, and the cells
    /// being watched.
    final class State: Sendable {
        let rain = Mutex(RainWatch())
        let lastRound = Mutex<Date?>(nil)
        let watch = Mutex(Watch())
        /// Cells a chat just joined, to be checked from the weather in the cache.
        let joined = AsyncStream.makeStream(of: PlaceCell.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    /// The cells the last round found, with their chats as the checks since have left them.
    struct Watch {
        struct Watched {
            var cell: NoticeDecision.Cell
            /// A check of the cell is under way.
            var busy = false
            /// When the weather the last check decided from was fetched.
            var decided = Date.distantPast
        }

        var cells: [PlaceCell: Watched] = [:]
        /// What was told since a round began reading the chats, which that read may have missed;
        /// nil while no read is under way.
        var toldDuringRead: [Int64: [String: String]]?
        /// What checks outside the rounds' turns did, for the next round's figures.
        var between = Tally()

        /// The cell's chats, if it is watched, no check of it is under way and none decided from
        /// weather fetched at `fetched` or later; the cell is busy until ``release(_:decided:)``.
        mutating func claim(_ key: PlaceCell, unlessDecidedFrom fetched: Date? = nil) -> NoticeDecision.Cell? {
            guard var watched = cells[key], !watched.busy, fetched.map({ watched.decided < $0 }) ?? true else { return nil }
            watched.busy = true
            cells[key] = watched
            return watched.cell
        }

        mutating func release(_ key: PlaceCell, decided: Date?) {
            guard var watched = cells[key] else { return }
            watched.busy = false
            if let decided { watched.decided = max(watched.decided, decided) }
            cells[key] = watched
        }

        /// Keeps the marks of notices just committed, so later checks in the round know them.
        mutating func told(_ deliveries: [NoticeDelivery], in key: PlaceCell) {
            let marks = Dictionary(grouping: deliveries, by: \.chatID)
            if toldDuringRead != nil {
                for delivery in deliveries { toldDuringRead![delivery.chatID, default: [:]][delivery.mark.key] = delivery.mark.value }
            }
            guard var watched = cells[key] else { return }
            for index in watched.cell.chats.indices {
                for delivery in marks[watched.cell.chats[index].chatID] ?? [] {
                    watched.cell.chats[index].marks[delivery.mark.key] = delivery.mark.value
                }
            }
            cells[key] = watched
        }

        /// A chat's notices as a step just committed them: out of the cell it was watched in, and
        /// into its city's, created when none was watched there. Returns the cell it joined.
        mutating func rewatch(_ chatID: Int64, from old: NoticeChat?, to new: NoticeChat?) -> PlaceCell? {
            if let old, var watched = cells[old.place.cell] {
                watched.cell.chats.removeAll { $0.chatID == chatID }
                cells[watched.cell.cell] = watched
            }
            guard let new else { return nil }
            var joining = new
            let key = new.place.cell
            var watched = cells[key] ?? Watched(cell: NoticeDecision.Cell(cell: key, chats: []))
            // What the chat was told stays with it (a change of quiet hours, of language).
            if let index = watched.cell.chats.firstIndex(where: { $0.chatID == chatID }) {
                joining.marks = watched.cell.chats[index].marks
                watched.cell.chats.remove(at: index)
            }
            watched.cell.chats.append(joining)
            cells[key] = watched
            return key
        }

        /// A round's cells in place of the last's: what was told while they were read is added.
        mutating func replace(with fresh: [NoticeDecision.Cell]) {
            let told = toldDuringRead ?? [:]
            toldDuringRead = nil
            var next: [PlaceCell: Watched] = [:]
            for var cell in fresh {
                for index in cell.chats.indices {
                    cell.chats[index].marks.merge(told[cell.chats[index].chatID] ?? [:]) { _, told in told }
                }
                let old = cells[cell.cell]
                next[cell.cell] = Watched(cell: cell, busy: old?.busy ?? false, decided: old?.decided ?? .distantPast)
            }
            cells = next
        }
    }

    /// A checker committing to `store` and handing what it queues to `outbox` (nil: no sender to hand it to, as in tests); its
    /// fetches wait for `budget`'s background share when there is one.
    public init(
        store: any NoticeStore, weather: any WeatherSource, outbox: OutboxSender?, logger: Logger, clock: any WallClock = SystemWallClock(),
        configuration: Configuration = Configuration(), budget: CallBudget? = nil, metrics: BotMetrics = BotMetrics()
    ) {
        self.store = store
        self.weather = weather
        self.outbox = outbox
        self.logger = logger
        self.clock = clock
        self.configuration = configuration
        self.budget = budget
        self.metrics = metrics
        self.state = State()
    }

    /// Checks rounds every interval, and every watched cell's fresh forecast as it comes, until graceful shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.watchFetches() }
                group.addTask { await self.watchJoins() }
                while !Task.isCancelled {
                    let started = clock.date
                    await round()
                    // The next round an interval after this one began; at once when this one took longer.
                    let next = started.addingTimeInterval(configuration.interval.timeInterval)
                    let wait = max(0, next.timeIntervalSince(clock.date))
                    do { try await clock.sleep(for: .milliseconds(Int64(wait * 1000))) } catch { break }
                }
                group.cancelAll()
            }
        }
        logger.info("notice checker stopped")
    }

    /// A chat's step is committed: when it changed what notices watch for the chat (notices on or
    /// off, their settings, its city, language or units, a reset), the chat's cell watch changes now, not
    /// at the next round, and a cell it joins is checked at once from the weather in the cache, so
    /// a chat that turns notices on while rain is coming is told then.
    public func chatCommitted(before: ChatRecord?, after: ChatRecord, forgotten: Bool) {
        func watched(_ chat: ChatRecord?) -> NoticeChat? {
            guard let chat, chat.isActive, let place = chat.currentPlace, NoticeDecision.tellsAnything(chat.notices, at: place) else { return nil }
            return NoticeChat(chatID: chat.id, language: chat.language, place: place, settings: chat.notices, chatSettings: chat.settings)
        }
        let old = watched(before), new = forgotten ? nil : watched(after)
        guard old != new else { return }
        if let joined = state.watch.withLock({ $0.rewatch(after.id, from: old, to: new) }) {
            state.joined.continuation.yield(joined)
        }
    }

    /// Checks the cells chats joined (``chatCommitted(before:after:forgotten:)``), one at a time,
    /// until the task is cancelled.
    func watchJoins() async {
        for await key in state.joined.stream {
            let fetchedAfter = clock.date.addingTimeInterval(-configuration.interval.timeInterval * Self.acceptedAge)
            guard let tally = await check(key, fetchedAfter: fetchedAfter) else { continue }
            state.watch.withLock { $0.between.add(tally) }
        }
    }

    /// Decides a watched cell's notices as soon as anyone's fetch brings its weather, from that
    /// weather in the cache (no call of its own), until the task is cancelled.
    public func watchFetches() async {
        for await fetched in weather.fetched() {
            let key = PlaceCell(latitude: fetched.latitude, longitude: fetched.longitude)
            guard let tally = await check(key, fetchedAfter: fetched.fetchedAt.addingTimeInterval(-1), unlessDecidedFrom: fetched.fetchedAt)
            else { continue }
            state.watch.withLock { $0.between.add(tally) }
        }
    }

    /// One round over every cell with a chat's notices. Returns what it did, which it also
    /// keeps in the store for `weatherbot status`.
    @discardableResult
    public func round() async -> NoticeRound {
        let started = clock.date
        var round = NoticeRound(at: started)
        let chats: [NoticeChat]
        state.watch.withLock { $0.toldDuringRead = [:] }
        do {
            chats = try await store.noticeChats(at: started)
        } catch {
            state.watch.withLock { $0.toldDuringRead = nil }
            logger.error("could not read the chats with notices", metadata: ["error": "\(error)"])
            return round
        }
        let cells = NoticeDecision.cells(of: chats)
        state.rain.withLock { $0.keep(only: Set(cells.map(\.cell.key))) }
        state.watch.withLock { $0.replace(with: cells) }
        let interval = configuration.interval.timeInterval
        // What the budget's background share can fetch in an interval; cells beyond wait longer.
        let capacity = budget.map { $0.callsPerMinute(for: .background) * Int(interval) / 60 }
        let uncovered = capacity.map { max(0, cells.count - $0) } ?? 0
        if uncovered > 0 {
            logger.warning(
                "OpenWeather's budget cannot check every cell with notices each interval; the cells with most chats go first",
                metadata: ["cells": "\(cells.count)", "cells.per.interval": "\(capacity ?? 0)"])
        }
        (round.chats, round.cells, round.uncovered) = (chats.count, cells.count, uncovered)
        // The cells are checked evenly over most of the interval, not all at once: OpenWeather's
        // calls and the notices they bring come at a steady pace a sender can keep up with.
        let step = cells.count > 1 ? interval * Self.spreadOver / Double(cells.count) : 0
        let results = await withTaskGroup(of: Tally.self) { group in
            var next = 0
            var running = 0
            var results: [Tally] = []
            while next < cells.count || running > 0 {
                while next < cells.count && running < configuration.maximumConcurrentFetches {
                    let cell = cells[next]
                    let slot = started.addingTimeInterval(Double(next) * step)
                    group.addTask {
                        let wait = slot.timeIntervalSince(self.clock.date)
                        if wait > 0 { try? await self.clock.sleep(for: .milliseconds(Int64(wait * 1000))) }
                        // The worker stops: the cells not checked yet wait for the next run.
                        if Task.isCancelled { return Tally() }
                        // Weather fetched since the cell's last check (a card viewed meanwhile) will do;
                        // the last check's own, a moment less than an interval old, will not. A check
                        // under way meanwhile (someone's fetch brought the weather) is this one.
                        let fetchedAfter = self.clock.date.addingTimeInterval(-interval * Self.acceptedAge)
                        return await self.check(cell.cell, fetchedAfter: fetchedAfter) ?? Tally(checked: true)
                    }
                    next += 1
                    running += 1
                }
                if let result = await group.next() {
                    results.append(result)
                    running -= 1
                }
            }
            return results
        }
        var total = state.watch.withLock { watch in
            defer { watch.between = Tally() }
            return watch.between
        }
        for tally in results { total.add(tally) }
        round.checked = results.filter(\.checked).count
        (round.queued, round.late, round.quiet, round.held, round.deduplicated) = (total.queued, total.late, total.quiet, total.held, total.deduplicated)
        let previous = state.lastRound.withLock { last in
            defer { last = started }
            return last
        }
        round.seconds = clock.date.timeIntervalSince(started)
        round.interval = previous.map { started.timeIntervalSince($0) } ?? interval
        metrics.noticeRound(
            chats: round.chats, cells: round.cells, checked: round.checked, seconds: round.seconds, interval: round.interval, uncovered: uncovered)
        if round.queued > 0 {
            logger.info("notices queued", metadata: ["notices": "\(round.queued)", "cells": "\(round.cells)"])
        }
        do {
            try await store.keepNoticeRound(round)
        } catch {
            logger.warning("could not keep the notice round for status", metadata: ["error": "\(error)"])
        }
        return round
    }

    /// What checking one cell did.
    struct Tally: Sendable {
        var checked = false
        var queued = 0
        var late = 0
        var quiet = 0
        var held = 0
        var deduplicated = 0

        /// What a check's decision held back, and the warnings' entries not told again.
        init(checked: Bool = false, _ decision: NoticeDecision.Decision? = nil) {
            self.checked = checked
            guard let decision else { return }
            for outcome in decision.outcomes {
                switch outcome {
                case .tooLate: late += 1
                case .quiet: quiet += 1
                case .held: held += 1
                case .send, .toldAlready: break
                }
            }
            deduplicated = decision.deduplicated
        }

        mutating func add(_ other: Tally) {
            queued += other.queued
            late += other.late
            quiet += other.quiet
            held += other.held
            deduplicated += other.deduplicated
        }
    }

    /// Checks a watched cell: its weather fetched after `fetchedAfter`, then its chats' notices,
    /// committed together. Nil, having done nothing, when the cell is not watched, a check of it
    /// is under way, or one decided from weather fetched at `unlessDecidedFrom` or later.
    func check(_ key: PlaceCell, fetchedAfter: Date, unlessDecidedFrom fetched: Date? = nil) async -> Tally? {
        guard let cell = state.watch.withLock({ $0.claim(key, unlessDecidedFrom: fetched) }) else { return nil }
        var decided: Date?
        defer { state.watch.withLock { $0.release(key, decided: decided) } }
        guard let first = cell.chats.first else { return Tally() }
        let report: WeatherReport
        do {
            report = try await weather.weather(at: first.place, language: first.language, fetchedAfter: fetchedAfter, for: .background)
        } catch {
            logger.debug("weather for notices unavailable", metadata: ["cell": "\(key)", "error": "\(error)"])
            return Tally()
        }
        decided = report.fetchedAt
        // Asked first, when it is to be asked at all: the rain is decided at the moment after it.
        let pollen = await pollen(for: cell.chats, zone: report.forecast.timeZone.timeZone, now: clock.date)
        let now = clock.date
        let rules = self.rules
        let episode = state.rain.withLock { NoticeDecision.rainAhead(in: report, cell: key, now: now, rules: rules, watch: &$0) }
        let decision = NoticeDecision.decide(cell.chats, cell: key, report: report, rain: episode, pollen: pollen, now: now, rules: rules)
        metrics.notices(decision.outcomes)
        metrics.warningsDeduplicated(decision.deduplicated)
        var tally = Tally(checked: true, decision)
        let deliveries = decision.deliveries
        guard !deliveries.isEmpty else { return tally }
        do {
            let ids = try await store.commitNotices(deliveries, at: clock.date)
            state.watch.withLock { $0.told(deliveries, in: key) }
            let queued = zip(ids, deliveries).flatMap { ids, delivery in
                zip(ids, delivery.requests).map { id, request in
                    QueuedReply(id: id, chatID: delivery.chatID, lane: .notice, request: request, deadline: delivery.deadline)
                }
            }
            outbox?.committed(queued)
            tally.queued = queued.count
            return tally
        } catch {
            logger.error("could not commit notices", metadata: ["error": "\(error)", "cell": "\(key)"])
            return tally
        }
    }

    /// Pollen by the hour at the cell, asked (as background work) only when one of its chats has
    /// pollen notices on, its city has the data, it was not told of today yet, and a high day
    /// could be told it now (the morning has come, its quiet hours are over, the evening has not):
    /// the checks of a night or an evening cost no call. Nil otherwise, or when it cannot be had.
    func pollen(for chats: [NoticeChat], zone: TimeZone, now: Date) async -> [PollenReading]? {
        let today = DailySchedule.day(of: now, in: zone)
        let asking = chats.first { chat in
            chat.settings.pollen && NoticeDecision.hasPollen(chat.place) && chat.marks[NoticeViews.pollenKey] != today
                && NoticeViews.pollenTiming(at: now, quiet: chat.settings.quietHours(default: configuration.quietHours), zone: zone) == .now(silent: false)
        }
        guard let asking else { return nil }
        return await weather.pollen(at: asking.place, for: .background)
    }

    /// The rules the core decides notices by, from the configuration.
    var rules: NoticeDecision.Rules {
        NoticeDecision.Rules(
            interval: configuration.interval.timeInterval, leastLead: configuration.leastLead.timeInterval, quietHours: configuration.quietHours)
    }

    /// The part of the interval a round's checks are spread over; the rest is slack for the slowest.
    static let spreadOver = 0.8
    /// How old, in intervals, the weather a check takes may be.
    static let acceptedAge = 0.9
}
