public import Foundation
public import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// What becomes of the daily forecasts due: which go out with fresh weather, which with the last
/// known weather, which wait for weather and which were missed for too long; and what each says.
/// The rules of the morning forecast, as ``Conversation/handle(_:chat:)`` is for the messages the
/// bot answers. Pure: the scheduler (WeatherBotService) reads what is due and fetches the weather,
/// asks this, commits the deliveries and counts the outcomes.
///
/// One value decides one batch (``batches(of:)``: one place cell in one language) in one pass, in
/// as many calls of ``decide(_:)`` as the scheduler likes; the texts shared by the batch's
/// subscribers are written once.
public struct DailyDecision: Sendable {
    /// What the decisions depend on besides the subscriptions and the weather.
    public struct Rules: Sendable, Hashable {
        /// How late (after downtime) a forecast may still be sent; one missed by more is skipped.
        public var gracePeriod: TimeInterval
        /// How long after its time a forecast waits for fresh weather before it goes with the
        /// last known weather of its place, marked with its age (when that tells its day).
        public var lastKnownAfter: TimeInterval

        /// Rules as the scheduler is configured, both in seconds.
        public init(gracePeriod: TimeInterval, lastKnownAfter: TimeInterval) {
            self.gracePeriod = gracePeriod
            self.lastKnownAfter = lastKnownAfter
        }
    }

    /// What became of one subscription due.
    public enum Outcome: Sendable, Hashable {
        /// Sent with fresh weather: marked done for its day, due next at ``DailyDelivery/nextSendAt``.
        case sent(DailyDelivery)
        /// Sent with the last known weather while OpenWeather does not answer, marked with its age.
        case sentLastKnown(DailyDelivery)
        /// Missed by more than the grace period (the bot was down): marked done for its day, unsent.
        case skipped(DailyDelivery)
        /// No weather yet, or only older weather it may not take yet: left due for the next pass.
        case waiting(subscriptionID: Int64)
        /// Without an id or a zone it cannot be marked or scheduled: left as it is.
        case unschedulable(chatID: Int64)

        /// What is committed: the day marked done, the next time, and the messages if any.
        public var delivery: DailyDelivery? {
            switch self {
            case .sent(let delivery), .sentLastKnown(let delivery), .skipped(let delivery): delivery
            case .waiting, .unschedulable: nil
            }
        }
    }

    /// Subscriptions due together that share one weather fetch and one text: one place cell's,
    /// in one language.
    public static func batches(of due: [DueSubscription]) -> [[DueSubscription]] {
        Dictionary(grouping: due, by: { Batch(cell: $0.subscription.place.cell, language: $0.language) }).map(\.value)
    }

    /// The subscription whose place and language the batch's weather is fetched for: the first
    /// not missed for too long; nil when none needs weather.
    public static func weatherWanted(by batch: [DueSubscription], now: Date, rules: Rules) -> DueSubscription? {
        batch.first { !isMissed($0.subscription, now: now, rules: rules) }
    }

    /// The batch's weather: fresh, or the last known (stale) while OpenWeather does not answer,
    /// or nil when there is none.
    public let report: WeatherReport?
    /// The air by the hour, when it came with fresh weather.
    public let air: [AirQuality]?
    /// Pollen by the hour where the place has it, when it came with fresh weather.
    public let pollen: [PollenReading]?
    /// The moment the batch is decided at: whether a forecast is missed or waits is told against it.
    public let now: Date
    /// The grace period and the wait for fresh weather.
    public let rules: Rules
    /// The temperatures kept of the days before, which the forecasts compare with (``know(_:)``).
    private var kept: [DayKey: DayTemperatures] = [:]
    /// Each forecast day's temperatures from fresh weather, to be kept for tomorrow's comparison.
    public private(set) var todays: [DayTemperatures] = []
    private var told: Set<DayKey> = []
    private var texts: [TextKey: String] = [:]
    private var schedules = Schedules()

    /// A decision for one batch: `report` fresh, stale or nil (none to be had), `air` and `pollen`
    /// only with fresh weather.
    public init(report: WeatherReport?, air: [AirQuality]? = nil, pollen: [PollenReading]? = nil, now: Date, rules: Rules) {
        self.report = report
        self.air = air
        self.pollen = pollen
        self.now = now
        self.rules = rules
    }

    /// The days before the forecasts of `due` that will go out, by day, with their cells: the
    /// temperatures kept of them are what the forecasts compare with.
    public mutating func comparedDays(_ due: [DueSubscription]) -> [String: Set<PlaceCell>] {
        var days: [String: Set<PlaceCell>] = [:]
        for due in due {
            guard case .tell(_, let day, _) = plan(due), let before = DailySchedule.day(before: day) else { continue }
            days[before, default: []].insert(due.subscription.place.cell)
        }
        return days
    }

    /// Temperatures kept of days before (read for ``comparedDays(_:)``): a forecast of the day
    /// after says how it compares. What cannot be read is left out, and the comparison with it.
    public mutating func know(_ temperatures: some Sequence<DayTemperatures>) {
        for known in temperatures { kept[DayKey(cell: known.cell, day: known.day)] = known }
    }

    /// The outcome of each of `due`, in order.
    public mutating func decide(_ due: [DueSubscription]) -> [Outcome] {
        due.map { decide($0) }
    }

    private enum Plan {
        case unschedulable
        case skip(id: Int64, day: String, zone: TimeZone)
        case wait(id: Int64)
        case tell(id: Int64, day: String, zone: TimeZone)
    }

    /// The rules, before anything is written.
    private mutating func plan(_ due: DueSubscription) -> Plan {
        let subscription = due.subscription
        guard let id = subscription.id, let zone = PlaceTimeZone(stored: subscription.timeZone)?.timeZone else { return .unschedulable }
        let day = schedules.day(of: subscription.nextSendAt, in: zone)
        if Self.isMissed(subscription, now: now, rules: rules) { return .skip(id: id, day: day, zone: zone) }
        guard let report else { return .wait(id: id) }
        // Older weather stands in only for a subscriber who has waited `lastKnownAfter` for
        // fresh weather, and only when it tells the day; until then, or without it, the
        // subscription stays due and the next pass tries again.
        if report.isStale {
            guard now.timeIntervalSince(subscription.nextSendAt) >= rules.lastKnownAfter, DailyForecastView.tells(report.forecast, day: day) else {
                return .wait(id: id)
            }
        }
        return .tell(id: id, day: day, zone: zone)
    }

    private mutating func decide(_ due: DueSubscription) -> Outcome {
        let subscription = due.subscription
        switch plan(due) {
        case .unschedulable:
            return .unschedulable(chatID: subscription.chatID)
        case .wait(let id):
            return .waiting(subscriptionID: id)
        case .skip(let id, let day, let zone):
            return .skipped(delivery(id, subscription, day: day, zone: zone, requests: []))
        case .tell(let id, let day, let zone):
            guard let report else { return .waiting(subscriptionID: id) }
            let words = Texts.for(due.language, settings: due.settings)
            let yesterday = compared(day, cell: subscription.place.cell, report: report)
            // Subscribers of one cell mostly share the place, the day and the language: the text
            // is written once for them, and only the buttons name each subscription.
            let key = TextKey(place: subscription.place, day: day, language: due.language, settings: due.settings)
            let text =
                texts[key]
                ?? DailyForecastView.text(
                    place: subscription.place, forecast: report.forecast, day: day, texts: words,
                    lastKnown: report.isStale ? (report.fetchedAt, now) : nil, yesterday: yesterday, air: air, pollen: pollen)
            texts[key] = text
            let keyboard = DailyForecastView.keyboard(subscriptionID: id, texts: words, forecast: report.forecast)
            var replies = [Reply.send(text: text, markup: .inline(keyboard))]
            // The chart is drawn from the weather when it is sent: only with fresh weather.
            if subscription.withChart && !report.isStale {
                replies.append(DailyForecastView.chart(subscriptionID: id, place: subscription.place, report: report, texts: words))
            }
            let sent = delivery(id, subscription, day: day, zone: zone, requests: replies.map { $0.request(chatID: subscription.chatID) })
            return report.isStale ? .sentLastKnown(sent) : .sent(sent)
        }
    }

    /// The kept temperatures of the day before `day` at the cell; today's from fresh weather are
    /// noted to be kept.
    private mutating func compared(_ day: String, cell: PlaceCell, report: WeatherReport) -> DayTemperatures? {
        let today = DayKey(cell: cell.key, day: day)
        if !report.isStale, !told.contains(today) {
            let zone = report.forecast.timeZone.timeZone
            if let forecast = report.forecast.daily.first(where: { DailySchedule.day(of: $0.time, in: zone) == day }) {
                told.insert(today)
                todays.append(DayTemperatures(cell: cell.key, day: day, minimum: forecast.minimumTemperature, maximum: forecast.maximumTemperature))
            }
        }
        guard let before = DailySchedule.day(before: day) else { return nil }
        return kept[DayKey(cell: cell.key, day: before)]
    }

    /// Marks a subscription done for the local date it was due on, and schedules the next one.
    private mutating func delivery(_ id: Int64, _ subscription: Subscription, day: String, zone: TimeZone, requests: [BotRequest]) -> DailyDelivery {
        let next = schedules.nextSend(after: max(now, subscription.nextSendAt), hour: subscription.hour, minute: subscription.minute, in: zone)
        return DailyDelivery(subscriptionID: id, chatID: subscription.chatID, day: day, requests: requests, nextSendAt: next)
    }

    static func isMissed(_ subscription: Subscription, now: Date, rules: Rules) -> Bool {
        now.timeIntervalSince(subscription.nextSendAt) > rules.gracePeriod
    }

    private struct Batch: Hashable {
        var cell: PlaceCell
        var language: Language
    }

    private struct DayKey: Hashable {
        var cell: String
        var day: String
    }

    /// What a forecast's text depends on besides the weather of its cell.
    private struct TextKey: Hashable {
        var place: Place
        var day: String
        var language: Language
        var settings: ChatSettings
    }

    /// Local dates and next sending times, worked out once for subscriptions that share them.
    private struct Schedules {
        private struct Key: Hashable {
            var instant: Date
            var zone: TimeZone
            var hour = 0
            var minute = 0
        }

        private var days: [Key: String] = [:]
        private var next: [Key: Date] = [:]

        mutating func day(of instant: Date, in zone: TimeZone) -> String {
            let key = Key(instant: instant, zone: zone)
            if let day = days[key] { return day }
            let day = DailySchedule.day(of: instant, in: zone)
            days[key] = day
            return day
        }

        mutating func nextSend(after instant: Date, hour: Int, minute: Int, in zone: TimeZone) -> Date {
            let key = Key(instant: instant, zone: zone, hour: hour, minute: minute)
            if let date = next[key] { return date }
            let date = DailySchedule.nextSend(after: instant, hour: hour, minute: minute, in: zone).date
            next[key] = date
            return date
        }
    }
}
