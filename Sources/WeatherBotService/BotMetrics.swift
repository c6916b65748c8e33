public import CoreMetrics
import Foundation
import OpenWeather
import Synchronization
import WeatherBot

/// What the bot counts, for `/metrics`, and when it last heard from Telegram, for `/healthz`.
///
/// The metrics are made by the factory given (Prometheus's in the executable), not the process's
/// global one, so that each test counts on its own. Without a factory, nothing is counted.
public final class BotMetrics: Sendable {
    private let factory: (any MetricsFactory)?
    private let updatesReceived: Counter?
    private let updatesHandled: Counter?
    private let stepDuration: CoreMetrics.Timer?
    private let rateLimited: Counter?
    /// Posts to the webhook by result, made once: one is counted with every update.
    private let webhookRequests: [String: Counter]
    /// On the monotonic clock: a step of the wall clock neither ages nor rejuvenates it.
    private let lastContact = Mutex<ContinuousClock.Instant?>(nil)
    /// Why Telegram cannot post to the webhook, while getWebhookInfo says so.
    private let webhookTrouble = Mutex<String?>(nil)
    /// Since when the database has not answered, and why, while it does not.
    private let databaseTrouble = Mutex<DatabaseOutage?>(nil)

    /// Metrics recorded through `factory` for `/metrics`; nil records nothing, the health figures still kept (tests, one-off commands).
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
        updatesReceived = factory.map { Counter(label: "weatherbot_updates_received_total", factory: $0) }
        updatesHandled = factory.map { Counter(label: "weatherbot_updates_handled_total", factory: $0) }
        stepDuration = factory.map { CoreMetrics.Timer(label: "weatherbot_step_duration_seconds", preferredDisplayUnit: .seconds, factory: $0) }
        rateLimited = factory.map { Counter(label: "weatherbot_telegram_rate_limited_total", factory: $0) }
        webhookRequests = factory.map { factory in
            Dictionary(uniqueKeysWithValues: Self.webhookResults.map { result in
                (result, Counter(label: "weatherbot_webhook_requests_total", dimensions: [("result", result)], factory: factory))
            })
        } ?? [:]
        databaseUp(true)
    }

    /// What becomes of a post to the webhook.
    static let webhookResults = ["accepted", "repeated", "unauthorized", "too_large", "unreadable", "failed"]

    /// Updates taken from Telegram into the inbox.
    func received(_ count: Int) {
        updatesReceived?.increment(by: Int64(count))
    }

    /// An inbox item was handled: its step committed with its replies, `took` after it was taken.
    func handled(took: Duration) {
        updatesHandled?.increment()
        stepDuration?.recordNanoseconds(took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
    }

    /// A Bot API call that sends a reply ended: `result` is `ok`, `rate_limited`, `blocked` or
    /// `failed`; a 429 also counts on its own. An edit never made because a later edit of the
    /// same message replaced it counts as `superseded`, one not made because the message shows
    /// that already (a double tap's second press) as `unchanged`.
    func replySent(method: String, result: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_replies_total", dimensions: [("method", method), ("result", result)], factory: factory).increment()
        if result == "rate_limited" { rateLimited?.increment() }
    }

    /// An inline query or a press under an inline message ended: `answered` (or `partial`, some
    /// places left out), `superseded` by the user's newer query, `ignored` (too short), `failed`,
    /// `dropped` (too many at once), `pressed`; an answer sent `took` after the query came.
    func inline(_ outcome: String, took: Duration? = nil) {
        guard let factory else { return }
        Counter(label: "weatherbot_inline_total", dimensions: [("outcome", outcome)], factory: factory).increment()
        if let took {
            CoreMetrics.Timer(label: "weatherbot_inline_answer_seconds", preferredDisplayUnit: .seconds, factory: factory)
                .recordNanoseconds(took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
        }
    }

    /// A forecast was asked of the shared cache: `hit` when it was there already, fresh; `stale`
    /// when an older one stood in for a fetch that failed or was refused.
    func weatherRequested(hit: Bool, stale: Bool = false) {
        guard let factory else { return }
        let label =
            stale ? "weatherbot_weather_stale_served_total" : hit ? "weatherbot_weather_cache_hits_total" : "weatherbot_weather_cache_misses_total"
        Counter(label: label, factory: factory).increment()
    }

    /// A place was looked up by name: `hit` when the geocoding cache had it (or was fetching it).
    func geocodingRequested(hit: Bool) {
        guard let factory else { return }
        Counter(label: hit ? "weatherbot_geocoding_cache_hits_total" : "weatherbot_geocoding_cache_misses_total", factory: factory).increment()
    }

    /// A request went to OpenWeather over HTTP.
    func openWeatherRequestSent(_ endpoint: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_openweather_requests_total", dimensions: [("endpoint", endpoint)], factory: factory).increment()
    }

    /// The client refused a call without sending it, for `reason`: `paused` (OpenWeather said 429
    /// a moment ago) or `budget` (the bot's own budget, ``CallBudget``).
    func openWeatherRefused(_ endpoint: String, reason: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_openweather_refused_total", dimensions: [("endpoint", endpoint), ("reason", reason)], factory: factory).increment()
    }

    /// A call went to the OpenWeather client (`forecast`, `geocode`, `reverse`), sent or refused.
    func openWeatherCalled(_ endpoint: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_openweather_calls_total", dimensions: [("endpoint", endpoint)], factory: factory).increment()
    }

    /// A call went to a weather source's client, sent or refused: `openweather`, `open-meteo` or
    /// `nominatim`, and what for (`forecast`, `geocode`, `reverse`, `air`, `pollen`).
    func sourceCalled(_ source: String, _ endpoint: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_source_calls_total", dimensions: [("source", source), ("endpoint", endpoint)], factory: factory).increment()
    }

    /// Open-Meteo answered a call OpenWeather could not, for `reason`: `outage` (no answer, 5xx,
    /// 429, a refused key), `away` (OpenWeather failed a moment ago and is left alone a while) or
    /// `budget` (the bot's minute or day for OpenWeather is spent).
    func fellBack(_ reason: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_source_fallbacks_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// 1 while the second source answers `endpoint`'s calls (`forecast`, `geocode`, …) in
    /// OpenWeather's place, 0 while OpenWeather answers them.
    func openWeatherAway(_ away: Bool, _ endpoint: String) {
        guard let factory else { return }
        Gauge(label: "weatherbot_openweather_away", dimensions: [("endpoint", endpoint)], factory: factory).record(away ? 1 : 0)
    }

    /// What became of a daily forecast due, as `weatherbot_daily_forecasts_due_total` counts it.
    enum DailyDue: CaseIterable {
        /// Queued to send with fresh weather.
        case queued
        /// Queued with the last known weather while OpenWeather did not answer.
        case lastKnown
        /// Missed for longer than the grace period.
        case skipped

        var label: String {
            switch self {
            case .queued: "queued"
            case .lastKnown: "last_known"
            case .skipped: "skipped"
            }
        }
    }

    /// A pass of the scheduler dealt with these forecasts due; every outcome is counted (from
    /// zero) once any is.
    func dailyDue(_ counts: [DailyDue: Int]) {
        guard let factory, counts.values.reduce(0, +) > 0 else { return }
        for outcome in DailyDue.allCases {
            Counter(label: "weatherbot_daily_forecasts_due_total", dimensions: [("outcome", outcome.label)], factory: factory)
                .increment(by: Int64(counts[outcome] ?? 0))
        }
    }

    /// Updates of a flooding chat dropped beyond its share of the backlog.
    func droppedForFlood(_ count: Int) {
        guard let factory else { return }
        Counter(label: "weatherbot_updates_dropped_total", dimensions: [("reason", "flood")], factory: factory).increment(by: Int64(count))
    }

    // MARK: Notices

    /// What `weatherbot_notices_total` counts, by kind and outcome.
    enum Notice: Hashable {
        /// Decided by a check and queued.
        case queued(NoticeDecision.Kind)
        /// Rain too near to be told (it had begun, or nearly).
        case late
        /// Rain in the chat's quiet hours, dropped.
        case quiet
        /// Waiting for the quiet hours' end, counted at each check that holds it.
        case held(NoticeDecision.Kind)
        /// Telegram accepted a notice.
        case sent
        /// A notice in the outbox went unsent: its deadline passed before its turn.
        case lateInOutbox

        /// How a check's outcome is counted; nil for one that is not (a chat told already).
        init?(_ outcome: NoticeDecision.Outcome) {
            switch outcome {
            case .send(let kind, _): self = .queued(kind)
            case .tooLate: self = .late
            case .quiet: self = .quiet
            case .held(let kind, _, _): self = .held(kind)
            case .toldAlready: return nil
            }
        }

        var kind: String {
            switch self {
            case .queued(let kind), .held(let kind): Self.label(kind)
            case .late, .quiet: Self.label(.rain)
            case .sent, .lateInOutbox: "any"
            }
        }

        var outcome: String {
            switch self {
            case .queued: "queued"
            case .late: "late"
            case .quiet: "quiet"
            case .held: "held"
            case .sent: "sent"
            case .lateInOutbox: "late_in_outbox"
            }
        }

        static func label(_ kind: NoticeDecision.Kind) -> String {
            switch kind {
            case .rain: "rain"
            case .warning: "warning"
            case .update: "update"
            case .pollen: "pollen"
            }
        }
    }

    /// What a check decided, counted by kind and outcome.
    func notices(_ outcomes: [NoticeDecision.Outcome]) {
        guard factory != nil else { return }
        var counts: [Notice: Int] = [:]
        for outcome in outcomes {
            if let counted = Notice(outcome) { counts[counted, default: 0] += 1 }
        }
        for (notice, count) in counts { self.notice(notice, count) }
    }

    func notice(_ notice: Notice, _ count: Int = 1) {
        guard let factory, count > 0 else { return }
        Counter(label: "weatherbot_notices_total", dimensions: [("kind", notice.kind), ("outcome", notice.outcome)], factory: factory)
            .increment(by: Int64(count))
    }

    /// Entries of the feed's warnings not told again: other languages of one warning, and
    /// warnings a chat was told of as they stand.
    func warningsDeduplicated(_ count: Int) {
        guard let factory, count > 0 else { return }
        Counter(label: "weatherbot_warnings_deduplicated_total", factory: factory).increment(by: Int64(count))
    }

    /// A round of notice checks ended: the chats with notices on, the cells they make, the cells
    /// checked, how long the round took, the interval achieved between rounds, and how many cells
    /// the budget cannot check each interval.
    func noticeRound(chats: Int, cells: Int, checked: Int, seconds: Double, interval: Double, uncovered: Int) {
        guard let factory else { return }
        Gauge(label: "weatherbot_notice_chats", factory: factory).record(chats)
        Gauge(label: "weatherbot_notice_cells", factory: factory).record(cells)
        Gauge(label: "weatherbot_notice_cells_checked", factory: factory).record(checked)
        Gauge(label: "weatherbot_notice_round_seconds", factory: factory).record(seconds)
        Gauge(label: "weatherbot_notice_interval_seconds", factory: factory).record(interval)
        Gauge(label: "weatherbot_notice_cells_uncovered", factory: factory).record(uncovered)
    }

    /// Telegram accepted a daily forecast.
    func dailySent() {
        guard let factory else { return }
        Counter(label: "weatherbot_daily_forecasts_sent_total", factory: factory).increment()
    }

    /// A request to Telegram or OpenWeather got no HTTP answer: `kind` says why.
    func httpClientFailed(_ kind: String) {
        guard let factory else { return }
        Counter(label: "weatherbot_http_client_errors_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    /// A request came to the webhook: `result` is `accepted`, `repeated`, `unauthorized`,
    /// `too_large`, `unreadable` or `failed` (not stored, so Telegram posts it again).
    public func webhookRequest(_ result: String) {
        webhookRequests[result]?.increment()
    }

    /// OpenWeather's budget as it stands: the UTC day's calls by every replica and this worker's
    /// calls in the last minute, by endpoint, and the limits (0: none).
    func openWeatherBudget(callsToday: [OpenWeatherEndpoint: Int], callsLastMinute: [OpenWeatherEndpoint: Int], perDay: Int, perMinute: Int) {
        guard let factory else { return }
        for endpoint in OpenWeatherEndpoint.allCases {
            let dimensions = [("endpoint", endpoint.rawValue)]
            Gauge(label: "weatherbot_openweather_calls_today", dimensions: dimensions, factory: factory).record(callsToday[endpoint] ?? 0)
            Gauge(label: "weatherbot_openweather_calls_last_minute", dimensions: dimensions, factory: factory).record(callsLastMinute[endpoint] ?? 0)
        }
        Gauge(label: "weatherbot_openweather_budget_per_day", factory: factory).record(perDay)
        Gauge(label: "weatherbot_openweather_budget_per_minute", factory: factory).record(perMinute)
    }

    /// Updates Telegram holds for the webhook, as getWebhookInfo last told.
    func webhookPending(_ count: Int) {
        guard let factory else { return }
        Gauge(label: "weatherbot_webhook_pending_updates", factory: factory).record(count)
    }

    /// Telegram answered a poll, or posted an update or told of the webhook, and what it handed
    /// out is stored.
    func heardFromTelegram(at instant: ContinuousClock.Instant = .now) {
        lastContact.withLock { $0 = instant }
    }

    /// Telegram says it cannot post to the webhook, for `reason`; nil once it can.
    func webhookFailing(_ reason: String?) {
        webhookTrouble.withLock { $0 = reason }
    }

    /// Why Telegram cannot post to the webhook, while it cannot.
    public var webhookFailure: String? { webhookTrouble.withLock { $0 } }

    /// When Telegram last answered, if it did since the start.
    public var lastHeardFromTelegram: ContinuousClock.Instant? { lastContact.withLock { $0 } }

    /// The database did not answer, for `reason`: the outage that began, or nil when one was
    /// already going on.
    public func databaseFailed(_ reason: String, at instant: ContinuousClock.Instant = .now) -> DatabaseOutage? {
        let began: DatabaseOutage? = databaseTrouble.withLock { outage in
            guard outage == nil else {
                outage?.reason = reason
                return nil
            }
            outage = DatabaseOutage(since: instant, reason: reason)
            return outage
        }
        if began != nil { databaseUp(false) }
        return began
    }

    /// The database answered: the outage that ended, if one was going on.
    public func databaseAnswered() -> DatabaseOutage? {
        let ended = databaseTrouble.withLock { outage in
            defer { outage = nil }
            return outage
        }
        if ended != nil { databaseUp(true) }
        return ended
    }

    /// The database's outage going on now, if any.
    public var databaseOutage: DatabaseOutage? { databaseTrouble.withLock { $0 } }

    private func databaseUp(_ up: Bool) {
        guard let factory else { return }
        Gauge(label: "weatherbot_database_up", factory: factory).record(up ? 1 : 0)
    }
}

/// A time the database did not answer: since when, on the monotonic clock, and the last reason.
public struct DatabaseOutage: Sendable {
    /// The first failure of the outage, on the monotonic clock: a step of the wall clock does not change how long it has lasted.
    public let since: ContinuousClock.Instant
    /// The latest failure, as the store describes it (``BotStore/describe(_:)``).
    public var reason: String
}
