public import Foundation
public import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// Which notices a place cell's chats get from its weather, and which are held back and why: the
/// rules of the messages the bot sends unasked about a city, as ``Conversation/handle(_:chat:)``
/// is for the messages it answers. Pure: the checker (WeatherBotService) reads the chats and the
/// weather, asks these, commits the deliveries and counts the outcomes.
///
/// A new kind of notice goes here: a case of ``Kind``, its rule in ``decide(_:cell:report:rain:now:rules:)``
/// giving ``Outcome``s, its text in ``NoticeViews``, its words in `Texts`.
public enum NoticeDecision {
    /// What the decisions depend on besides the chats and the weather.
    public struct Rules: Sendable, Hashable {
        /// How often each cell is checked: rain is told only from weather fetched for this check.
        public var interval: TimeInterval
        /// Rain coming sooner than this is not told: the notice would come too late to be of use.
        public var leastLead: TimeInterval
        /// The quiet hours of chats that chose none; nil for none.
        public var quietHours: QuietHours?

        /// Rules as the checker is configured: its interval and least lead in seconds, the default quiet hours.
        public init(interval: TimeInterval, leastLead: TimeInterval, quietHours: QuietHours?) {
            self.interval = interval
            self.leastLead = leastLead
            self.quietHours = quietHours
        }
    }

    /// What a notice tells.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// Rain or snow about to begin.
        case rain
        /// An official warning the chat was not told of.
        case warning
        /// A warning the chat was told of has changed (a new end).
        case update
        /// A day of high pollen, told once that day.
        case pollen
    }

    /// What became of one notice a chat could be told.
    public enum Outcome: Sendable, Hashable {
        /// Sent now (a warning in quiet hours without a sound), with the mark that says so.
        case send(Kind, NoticeDelivery)
        /// Rain beginning sooner than ``Rules/leastLead``: nothing is sent or marked.
        case tooLate(chatID: Int64)
        /// Rain beginning within the chat's quiet hours: never sent now (the delivery has no
        /// requests), and marked as kept quiet (``NoticeViews/quietValue(of:)``), not as told:
        /// later checks decide it again, and tell it once the chat's quiet hours, city or
        /// notices changed so that it is no longer quiet.
        case quiet(NoticeDelivery)
        /// Held until the chat's quiet hours end: the first check after then tells it, if it is
        /// still ahead.
        case held(Kind, chatID: Int64, until: Date)
        /// The chat was told of this rain already, or it was kept quiet already and still is.
        case toldAlready(chatID: Int64)

        /// What is committed: the mark, and the messages if any.
        public var delivery: NoticeDelivery? {
            switch self {
            case .send(_, let delivery), .quiet(let delivery): delivery
            case .tooLate, .held, .toldAlready: nil
            }
        }

        /// The chat the outcome is for, whichever the case.
        public var chatID: Int64 {
            switch self {
            case .send(_, let delivery), .quiet(let delivery): delivery.chatID
            case .tooLate(let chatID), .held(_, let chatID, _), .toldAlready(let chatID): chatID
            }
        }
    }

    /// One cell's notices.
    public struct Decision: Sendable, Hashable {
        /// Chat by chat, rain first, then warnings.
        public var outcomes: [Outcome]
        /// Entries of the feed's warnings not told again: other languages of one warning, and
        /// warnings a chat was told of as they stand.
        public var deduplicated: Int

        /// What to commit, in order.
        public var deliveries: [NoticeDelivery] { outcomes.compactMap(\.delivery) }
    }

    /// The chats of one place cell, checked with one weather fetch.
    public struct Cell: Sendable, Hashable {
        /// The cell whose weather is fetched for all of them.
        public var cell: PlaceCell
        /// The active chats in the cell with a notice on, each with its marks not yet expired.
        public var chats: [NoticeChat]

        /// The chats of one cell, as the checker groups them.
        public init(cell: PlaceCell, chats: [NoticeChat]) {
            self.cell = cell
            self.chats = chats
        }
    }

    /// Whether a chat with `settings` and its city at `place` may be told anything: pollen counts
    /// only where the place has pollen data; elsewhere the setting is kept for a city that has.
    public static func tellsAnything(_ settings: NoticeSettings, at place: Place) -> Bool {
        settings.rain || settings.warnings || (settings.pollen && hasPollen(place))
    }

    /// Whether the place has pollen data (``PollenReading/covers(latitude:longitude:)``): outside
    /// it none is asked for, and none told.
    public static func hasPollen(_ place: Place) -> Bool {
        PollenReading.covers(latitude: place.latitude, longitude: place.longitude)
    }

    /// The chats grouped by place cell, the cells with most chats first: when OpenWeather's
    /// budget cannot cover them all, most people are told. A chat that can be told nothing where
    /// its city is (pollen alone, outside its data) costs no check.
    public static func cells(of chats: [NoticeChat]) -> [Cell] {
        Dictionary(grouping: chats.filter { tellsAnything($0.settings, at: $0.place) }, by: \.place.cell)
            .map { Cell(cell: $0.key, chats: $0.value) }
            .sorted { $0.chats.count != $1.chats.count ? $0.chats.count > $1.chats.count : $0.cell < $1.cell }
    }

    /// The rain ahead at the cell that a chat not told of it yet is to be told, as `watch` (the
    /// episodes seen by earlier checks) takes in this check's weather. Rain is told only from
    /// weather fetched for this check: older weather (a failed refresh) is no ground for «через
    /// 20 минут», and is not taken in.
    public static func rainAhead(in report: WeatherReport, cell: PlaceCell, now: Date, rules: Rules, watch: inout RainWatch) -> RainWatch.Episode? {
        let fresh = !report.isStale && now.timeIntervalSince(report.fetchedAt) <= rules.interval + 60
        return fresh ? watch.observe(report.forecast, cell: cell.key, at: now) : nil
    }

    /// The notices of one cell's chats from its weather: the rain ahead (``rainAhead(in:cell:now:rules:watch:)``),
    /// a high pollen day from `pollen` by the hour (where the place has it), and the warnings new
    /// or changed, each by the chat's settings, marks and quiet hours.
    public static func decide(
        _ chats: [NoticeChat], cell: PlaceCell, report: WeatherReport, rain episode: RainWatch.Episode?, pollen: [PollenReading]? = nil,
        now: Date, rules: Rules
    ) -> Decision {
        let forecast = report.forecast
        let zone = forecast.timeZone.timeZone
        let feedEntries = forecast.alerts.filter { $0.end > now }.count
        var outcomes: [Outcome] = []
        var deduplicated = 0
        // Chats of one cell mostly share the language, the clock and the place: the rain's text
        // is written once for them.
        var rainTexts: [RainText: String] = [:]
        for chat in chats {
            let words = Texts.for(chat.language, settings: chat.chatSettings)
            let quiet = chat.settings.quietHours(default: rules.quietHours)
            if chat.settings.rain, let episode {
                if NoticeViews.wasTold(chat.marks[NoticeViews.rainKey], of: episode) {
                    outcomes.append(.toldAlready(chatID: chat.chatID))
                } else {
                    let mark = NoticeMark(key: NoticeViews.rainKey, value: episode.id, expiresAt: episode.start.addingTimeInterval(6 * 3600))
                    if episode.start.timeIntervalSince(now) < rules.leastLead {
                        outcomes.append(.tooLate(chatID: chat.chatID))
                    } else {
                        switch NoticeViews.rainTiming(start: episode.start, at: now, quiet: quiet, zone: zone) {
                        case .dropped where chat.marks[NoticeViews.rainKey] == NoticeViews.quietValue(of: episode):
                            outcomes.append(.toldAlready(chatID: chat.chatID))
                        case .dropped:
                            // Kept quiet, not told: decided again at each check, so quiet hours
                            // turned off (or a new city, or rain notices on) tell it after all.
                            var kept = mark
                            kept.value = NoticeViews.quietValue(of: episode)
                            outcomes.append(.quiet(NoticeDelivery(chatID: chat.chatID, mark: kept, requests: [], deadline: episode.start)))
                        case .held(let until):
                            outcomes.append(.held(.rain, chatID: chat.chatID, until: until))
                        case .now:
                            let key = RainText(language: chat.language, clock: chat.chatSettings.clock, place: chat.place.name)
                            let text = rainTexts[key] ?? NoticeViews.rain(episode, place: chat.place, forecast: forecast, now: now, texts: words)
                            rainTexts[key] = text
                            // After its start the notice would mislead: the sender leaves it unsent.
                            let delivery = NoticeDelivery(
                                chatID: chat.chatID, mark: mark, requests: [.sendMessage(chatID: chat.chatID, text: text)], deadline: episode.start)
                            outcomes.append(.send(.rain, delivery))
                        }
                    }
                }
            }
            if chat.settings.pollen, let pollen, hasPollen(chat.place),
                let outcome = pollenDay(chat, readings: pollen, zone: zone, quiet: quiet, now: now, texts: words)
            {
                outcomes.append(outcome)
            }
            guard chat.settings.warnings, feedEntries > 0 else { continue }
            let due = NoticeViews.dueWarnings(forecast.alerts, cell: cell.key, language: chat.language, marks: chat.marks, now: now)
            deduplicated += feedEntries - due.count
            for warning in due {
                let kind: Kind = warning.isUpdate ? .update : .warning
                switch NoticeViews.warningTiming(start: warning.alert.start, at: now, quiet: quiet, zone: zone) {
                case .held(let until):
                    outcomes.append(.held(kind, chatID: chat.chatID, until: until))
                case .dropped:
                    // Warnings are never dropped; were one, it would wait as a held one does.
                    outcomes.append(.held(kind, chatID: chat.chatID, until: now))
                case .now(let silent):
                    let text = NoticeViews.warning(warning, place: chat.place, zone: zone, texts: words)
                    let request: BotRequest = silent ? .sendSilently(chatID: chat.chatID, text: text) : .sendMessage(chatID: chat.chatID, text: text)
                    outcomes.append(.send(kind, NoticeDelivery(chatID: chat.chatID, mark: warning.mark, requests: [request], deadline: warning.alert.end)))
                }
            }
        }
        return Decision(outcomes: outcomes, deduplicated: deduplicated)
    }

    /// A high pollen day, told once that local day (its mark holds the day), from the morning
    /// and outside the quiet hours (``NoticeViews/pollenTiming(at:quiet:zone:)``); nil for a day
    /// below high, or one too late in the day to tell.
    private static func pollenDay(
        _ chat: NoticeChat, readings: [PollenReading], zone: TimeZone, quiet: QuietHours?, now: Date, texts: Texts
    ) -> Outcome? {
        let day = DailySchedule.day(of: now, in: zone)
        if chat.marks[NoticeViews.pollenKey] == day { return .toldAlready(chatID: chat.chatID) }
        guard let peak = NoticeViews.highPollen(readings, day: day, zone: zone) else { return nil }
        switch NoticeViews.pollenTiming(at: now, quiet: quiet, zone: zone) {
        case .dropped:
            return nil
        case .held(let until):
            return .held(.pollen, chatID: chat.chatID, until: until)
        case .now:
            let deadline = NoticeViews.pollenDeadline(at: now, zone: zone)
            // Kept past the day's end: the day told is not told again however late it is checked.
            let mark = NoticeMark(key: NoticeViews.pollenKey, value: day, expiresAt: deadline.addingTimeInterval(86_400))
            let text = NoticeViews.pollen(peak, place: chat.place, texts: texts)
            return .send(.pollen, NoticeDelivery(chatID: chat.chatID, mark: mark, requests: [.sendMessage(chatID: chat.chatID, text: text)], deadline: deadline))
        }
    }

    /// What a rain notice's text depends on besides the episode.
    private struct RainText: Hashable {
        var language: Language
        var clock: ChatSettings.Clock?
        var place: String
    }
}
