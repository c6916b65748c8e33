import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
@testable import WeatherBot
import WeatherBotStore

/// The messages the bot sends unasked, as screens: fixed chats, weather and marks given to the
/// core's decisions (``NoticeDecision``, ``DailyDecision``), every message written out in full
/// and compared with the text here, and each one held back shown with why.
@Suite struct UnaskedScreensTests {
    /// 2023-11-14 22:00 UTC, 01:00 in Moscow and Saransk: the sample forecast's first hour.
    static let t0 = Date(timeIntervalSince1970: 1_699_999_200)
    static let rules = NoticeDecision.Rules(interval: 600, leastLead: 60, quietHours: .night)

    static func at(minute: Int) -> Date { t0.addingTimeInterval(Double(minute) * 60) }

    /// The outcomes as a person reads them: each message in full, each held back with why.
    static func screen(_ outcomes: [NoticeDecision.Outcome], now: Date = t0) -> String {
        var lines: [String] = []
        func minutes(_ date: Date) -> String { "+\(Int(date.timeIntervalSince(now) / 60)) min" }
        for outcome in outcomes {
            switch outcome {
            case .send(let kind, let delivery):
                for request in delivery.requests {
                    guard case .sendMessage(let message) = request.call else { continue }
                    let silently = message.disableNotification == true ? ", silently" : ""
                    lines.append("< chat \(delivery.chatID), \(kind)\(silently), unsent after \(minutes(delivery.deadline)): \(message.text)")
                }
            case .quiet(let delivery):
                lines.append("· chat \(delivery.chatID), rain: in the quiet hours; marked, never sent")
            case .held(let kind, let chatID, let until):
                lines.append("· chat \(chatID), \(kind): held for the quiet hours' end, \(minutes(until))")
            case .tooLate(let chatID):
                lines.append("· chat \(chatID), rain: too late to be of use; not sent")
            case .toldAlready(let chatID):
                lines.append("· chat \(chatID), rain: told already")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func expectScreen(_ written: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if written != expected {
            let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let new = written.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
            Issue.record(
                """
                the screen differs from line \(first + 1):
                  expected: \(first < old.count ? old[first] : "(end)")
                  now:      \(first < new.count ? new[first] : "(end)")
                the whole screen now:
                \(written)
                """, sourceLocation: sourceLocation)
        }
    }

    /// Weather fetched at `fetched`, the sample's hours above freezing, raining from minute
    /// `from` to `until` (after t0) at `rate` mm/h, with `alerts`.
    static func report(
        fetched: Date = t0, rainFrom from: Int? = nil, until: Int = 50, rate: Double = 3, alerts: [WeatherAlert] = [], stale: Bool = false
    ) -> WeatherReport {
        var forecast = Forecast.sample
        for index in forecast.hourly.indices { forecast.hourly[index].temperature = 6 }
        forecast.minutely = (0..<60).map { index in
            let time = fetched.addingTimeInterval(Double(index) * 60)
            let minute = Int(time.timeIntervalSince(t0) / 60)
            return MinutePrecipitation(time: time, precipitation: from.map { minute >= $0 && minute < until } == true ? rate : 0)
        }
        forecast.alerts = alerts
        return WeatherReport(forecast: forecast, fetchedAt: fetched, isStale: stale)
    }

    static func chat(
        _ id: Int64, _ language: Language, rain: Bool = true, warnings: Bool = true, quiet: QuietChoice? = .off, marks: [String: String] = [:],
        settings: ChatSettings = .defaults
    ) -> NoticeChat {
        NoticeChat(
            chatID: id, language: language, place: .saransk, settings: NoticeSettings(rain: rain, warnings: warnings, quiet: quiet), marks: marks,
            chatSettings: settings)
    }

    static let imperial = ChatSettings(temperature: .fahrenheit, windSpeed: .milesPerHour, pressure: .inchesOfMercury, clock: .twelveHour)

    static func notices(_ chats: [NoticeChat], report: WeatherReport, now: Date = t0) -> NoticeDecision.Decision {
        var watch = RainWatch()
        let cell = Place.saransk.cell
        let episode = NoticeDecision.rainAhead(in: report, cell: cell, now: now, rules: rules, watch: &watch)
        return NoticeDecision.decide(chats, cell: cell, report: report, rain: episode, now: now, rules: rules)
    }

    // MARK: Notices

    @Test func rainSoonIsToldToEachChatInItsLanguageAndClockAndAGroupAlike() {
        let decision = Self.notices(
            [Self.chat(7, .ru), Self.chat(8, .en), Self.chat(9, .en, settings: Self.imperial), Self.chat(-100, .ru), Self.chat(10, .ru, rain: false)],
            report: Self.report(rainFrom: 20))
        Self.expectScreen(
            Self.screen(decision.outcomes),
            """
            < chat 7, rain, unsent after +20 min: ☔ Дождь через 20 минут, около 01:20, примерно на 30 минут.
            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            < chat 8, rain, unsent after +20 min: ☔ Rain in 20 minutes, at about 01:20, for about 30 minutes.
            📍 <b>Saransk</b>, Республика Мордовия, Russia 🇷🇺
            < chat 9, rain, unsent after +20 min: ☔ Rain in 20 minutes, at about 1:20 AM, for about 30 minutes.
            📍 <b>Saransk</b>, Республика Мордовия, Russia 🇷🇺
            < chat -100, rain, unsent after +20 min: ☔ Дождь через 20 минут, около 01:20, примерно на 30 минут.
            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            """)
        #expect(decision.deliveries.map(\.mark.key) == ["rain", "rain", "rain", "rain"])
        #expect(decision.deliveries.allSatisfy { $0.mark.value == "\(Place.saransk.cell.key)@\(Int(Self.at(minute: 20).timeIntervalSince1970))" })
    }

    @Test func warningsAreToldNewOrAsAShortUpdateAndInQuietHoursSilentlyOrAtTheirEnd() {
        let soon = WeatherAlert(
            sender: "Росгидромет", event: "Сильный ветер", start: Self.at(minute: 120), end: Self.at(minute: 900),
            description: "Порывы до 25 м/с.", tags: ["Wind"])
        var soonEnglish = soon
        soonEnglish.event = "Strong wind"
        soonEnglish.description = "Gusts up to 25 m/s."
        // From 09:00 local, after the night's quiet hours end at 08:00.
        let morning = WeatherAlert(sender: "Росгидромет", event: "Гололёд", start: Self.at(minute: 480), end: Self.at(minute: 1200), description: "")
        let told = NoticeViews.dueWarnings([soon], cell: Place.saransk.cell.key, language: .ru, marks: [:], now: Self.t0)[0].mark
        var extended = soon
        extended.end = Self.at(minute: 1500)
        let decision = Self.notices(
            [
                Self.chat(7, .en, rain: false), Self.chat(8, .ru, rain: false, marks: [told.key: told.value]),
                Self.chat(9, .ru, rain: false, quiet: nil),
            ],
            report: Self.report(alerts: [extended, soonEnglish.with(end: extended.end), morning]))
        Self.expectScreen(
            Self.screen(decision.outcomes),
            """
            < chat 7, warning, unsent after +1500 min: ⚠️ <b>Strong wind</b>
            15 Nov 03:00 – 16 Nov 02:00
            From: Росгидромет

            Gusts up to 25 m/s.

            📍 <b>Saransk</b>, Республика Мордовия, Russia 🇷🇺
            < chat 7, warning, unsent after +1200 min: ⚠️ <b>Гололёд</b>
            15 Nov 09:00–21:00
            From: Росгидромет

            📍 <b>Saransk</b>, Республика Мордовия, Russia 🇷🇺
            < chat 8, update, unsent after +1500 min: ⚠️ Предупреждение «Сильный ветер» изменилось: теперь 15 ноября 03:00 – 16 ноября 02:00.
            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            < chat 8, warning, unsent after +1200 min: ⚠️ <b>Гололёд</b>
            15 ноября 09:00–21:00
            Источник: Росгидромет

            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            < chat 9, warning, silently, unsent after +1500 min: ⚠️ <b>Сильный ветер</b>
            15 ноября 03:00 – 16 ноября 02:00
            Источник: Росгидромет

            Порывы до 25 м/с.

            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            · chat 9, warning: held for the quiet hours' end, +420 min
            """)
        // Each chat reads one of the warning's two entries: the other is not told again.
        #expect(decision.deduplicated == 3)
    }

    @Test func rainIsHeldBackWhenTooNearInTheQuietHoursOrToldAlready() {
        // Rain from 01:40 to 01:55.
        let night = Self.report(rainFrom: 40, until: 55)
        var watch = RainWatch()
        let episode = NoticeDecision.rainAhead(in: night, cell: Place.saransk.cell, now: Self.t0, rules: Self.rules, watch: &watch)
        let decision = Self.notices(
            [
                // The default quiet hours, 22:00–08:00: the rain falls within them.
                Self.chat(7, .ru, quiet: nil),
                // Its own, 00:00–01:30: the rain comes after them, so it waits for 01:30.
                Self.chat(8, .en, quiet: .hours(QuietHours(start: 0, end: 90)!)),
                Self.chat(9, .ru, marks: ["rain": episode?.id ?? ""]),
                Self.chat(10, .ru),
            ],
            report: night)
        Self.expectScreen(
            Self.screen(decision.outcomes),
            """
            · chat 7, rain: in the quiet hours; marked, never sent
            · chat 8, rain: held for the quiet hours' end, +30 min
            · chat 9, rain: told already
            < chat 10, rain, unsent after +40 min: ☔ Дождь через 40 минут, около 01:40, примерно на 15 минут.
            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            """)
        // Marked as kept quiet, not as told; the others are not committed.
        #expect(decision.deliveries.map(\.chatID) == [7, 10])
        #expect(decision.deliveries[0].requests.isEmpty)

        // Half a minute before it begins, rain is not news.
        let near = Self.report(rainFrom: 1)
        let late = Self.notices([Self.chat(7, .ru)], report: near, now: Self.t0.addingTimeInterval(30))
        Self.expectScreen(Self.screen(late.outcomes, now: Self.t0.addingTimeInterval(30)), "· chat 7, rain: too late to be of use; not sent")
        #expect(late.deliveries.isEmpty)
    }

    /// Rain kept quiet at 01:00 in the default quiet hours is still news: while they hold it
    /// stays quiet, and once the chat turns them off the next check tells it, once; told, it is
    /// never told again, quiet hours back on or not.
    @Test func rainKeptForQuietHoursIsToldOnceTheyAreTurnedOffAndNeverTwice() {
        let first = Self.notices([Self.chat(7, .ru, quiet: nil)], report: Self.report(rainFrom: 40, until: 55))
        Self.expectScreen(Self.screen(first.outcomes), "· chat 7, rain: in the quiet hours; marked, never sent")
        var marks = Dictionary(uniqueKeysWithValues: first.deliveries.map { ($0.mark.key, $0.mark.value) })

        let fetched = Self.at(minute: 1)
        let stillQuiet = Self.notices(
            [Self.chat(7, .ru, quiet: nil, marks: marks)], report: Self.report(fetched: fetched, rainFrom: 40, until: 55), now: fetched)
        Self.expectScreen(Self.screen(stillQuiet.outcomes, now: fetched), "· chat 7, rain: told already")
        #expect(stillQuiet.deliveries.isEmpty)

        // «/alerts quiet off» a minute later: the next check tells the rain.
        let later = Self.at(minute: 10)
        let afterOff = Self.notices(
            [Self.chat(7, .ru, quiet: .off, marks: marks)], report: Self.report(fetched: later, rainFrom: 40, until: 55), now: later)
        Self.expectScreen(
            Self.screen(afterOff.outcomes, now: later),
            """
            < chat 7, rain, unsent after +30 min: ☔ Дождь через 30 минут, около 01:40, примерно на 15 минут.
            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            """)
        for delivery in afterOff.deliveries { marks[delivery.mark.key] = delivery.mark.value }

        let next = Self.at(minute: 20)
        for quiet in [QuietChoice.off, nil] {
            let again = Self.notices(
                [Self.chat(7, .ru, quiet: quiet, marks: marks)], report: Self.report(fetched: next, rainFrom: 40, until: 55), now: next)
            Self.expectScreen(Self.screen(again.outcomes, now: next), "· chat 7, rain: told already")
            #expect(again.deliveries.isEmpty)
        }
    }

    /// One warning listed in Russian and English, each naming the sender in its language, is one
    /// event at one time: the English chat is told it once, in English, and the Russian chat in
    /// Russian under the same mark; the card lists it once.
    @Test func aWarningWhoseSenderIsNamedInEachLanguageIsToldOnce() {
        let russian = WeatherAlert(
            sender: "Росгидромет", event: "Сильный ветер", start: Self.at(minute: 120), end: Self.at(minute: 900),
            description: "Порывы до 25 м/с.", tags: ["Wind"])
        let english = WeatherAlert(
            sender: "Roshydromet", event: "Strong wind", start: Self.at(minute: 120), end: Self.at(minute: 900),
            description: "Gusts up to 25 m/s.", tags: ["Wind"])
        let report = Self.report(alerts: [russian, english])
        let decision = Self.notices([Self.chat(7, .en, rain: false), Self.chat(8, .ru, rain: false)], report: report)
        Self.expectScreen(
            Self.screen(decision.outcomes),
            """
            < chat 7, warning, unsent after +900 min: ⚠️ <b>Strong wind</b>
            15 Nov 03:00–16:00
            From: Roshydromet

            Gusts up to 25 m/s.

            📍 <b>Saransk</b>, Республика Мордовия, Russia 🇷🇺
            < chat 8, warning, unsent after +900 min: ⚠️ <b>Сильный ветер</b>
            15 ноября 03:00–16:00
            Источник: Росгидромет

            Порывы до 25 м/с.

            📍 <b>Саранск</b>, Республика Мордовия, Россия 🇷🇺
            """)
        #expect(decision.deduplicated == 2)
        #expect(Set(decision.deliveries.map(\.mark.key)).count == 1)
        let marks = Dictionary(uniqueKeysWithValues: [(decision.deliveries[0].mark.key, decision.deliveries[0].mark.value)])
        let next = Self.notices([Self.chat(7, .en, rain: false, marks: marks)], report: Self.report(alerts: [english, russian]))
        #expect(next.outcomes.isEmpty)
        #expect(WeatherViews.warnings([russian, english], in: .en).map(\.sender) == ["Roshydromet"])
        #expect(WeatherViews.warnings([russian, english], in: .ru).map(\.sender) == ["Росгидромет"])
    }

    @Test func rainIsToldOnlyFromWeatherFetchedForTheCheck() {
        let cell = Place.saransk.cell
        var watch = RainWatch()
        let stale = NoticeDecision.rainAhead(in: Self.report(rainFrom: 20, stale: true), cell: cell, now: Self.t0, rules: Self.rules, watch: &watch)
        #expect(stale == nil)
        // Fetched more than an interval and a minute before the check.
        let old = Self.report(fetched: Self.t0.addingTimeInterval(-661), rainFrom: 20)
        #expect(NoticeDecision.rainAhead(in: old, cell: cell, now: Self.t0, rules: Self.rules, watch: &watch) == nil)
        #expect(watch.episode(of: cell.key) == nil)
        let fresh = NoticeDecision.rainAhead(in: Self.report(rainFrom: 20), cell: cell, now: Self.t0, rules: Self.rules, watch: &watch)
        #expect(fresh?.start == Self.at(minute: 20))
        // Without weather for the check nothing is decided at all: no notice, nothing held.
        #expect(NoticeDecision.decide([Self.chat(7, .ru)], cell: cell, report: Self.report(rainFrom: 20), rain: nil, now: Self.t0, rules: Self.rules).outcomes.isEmpty)
    }

    @Test func chatsAreCheckedByPlaceCellTheCellsWithMostChatsFirst() {
        let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], country: "RU", latitude: 55.7963, longitude: 49.1088)
        // A few hundred metres from Saransk's point: the same cell.
        var nearby = Self.chat(3, .ru)
        nearby.place = Place(name: "Saransk", latitude: 54.1811, longitude: 45.1738)
        var inKazan = Self.chat(4, .ru)
        inKazan.place = kazan
        let cells = NoticeDecision.cells(of: [inKazan, Self.chat(1, .ru), nearby])
        #expect(cells.map(\.cell.key) == ["5418:4517", "5580:4911"])
        #expect(cells.map { $0.chats.map(\.chatID) } == [[1, 3], [4]])
    }

    // MARK: Daily forecasts

    /// 08:00 in Moscow on 15 November 2023, and ten seconds past.
    static let eight = Date(timeIntervalSince1970: 1_700_024_400)
    static let daily = DailyDecision.Rules(gracePeriod: 7200, lastKnownAfter: 900)
    static let moscow = Place(name: "Moscow", localNames: ["ru": "Москва", "en": "Moscow"], country: "RU", latitude: 55.7558, longitude: 37.6173)

    static func due(
        _ id: Int64, chat: Int64, _ language: Language, settings: ChatSettings = .defaults, chart: Bool = false, at due: Date = eight
    ) -> DueSubscription {
        DueSubscription(
            subscription: Subscription(
                id: id, chatID: chat, place: moscow, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: due, withChart: chart),
            language: language, settings: settings)
    }

    /// The sample weather as OpenWeather gives it in `language`.
    static func weather(_ language: Language, fetched: Date = eight.addingTimeInterval(-300), stale: Bool = false) -> WeatherReport {
        var forecast = Forecast.sample
        let description = language == .ru ? "облачно с прояснениями" : "broken clouds"
        for index in forecast.daily.indices { forecast.daily[index].condition.description = description }
        return WeatherReport(forecast: forecast, fetchedAt: fetched, isStale: stale)
    }

    static func screen(_ outcomes: [DailyDecision.Outcome], now: Date = eight.addingTimeInterval(10)) -> String {
        var lines: [String] = []
        func next(_ delivery: DailyDelivery) -> String {
            "\(delivery.day) done, next in \(Int(delivery.nextSendAt.timeIntervalSince(now) / 3600)) h"
        }
        for outcome in outcomes {
            switch outcome {
            case .sent(let delivery), .sentLastKnown(let delivery):
                let how = if case .sentLastKnown = outcome { ", with the last known weather" } else { "" }
                lines.append("· subscription \(delivery.subscriptionID) sent\(how); \(next(delivery))")
                for request in delivery.requests {
                    switch request.call {
                    case .sendMessage(let message):
                        lines.append("< chat \(delivery.chatID): \(message.text)")
                        if case .inline(let keyboard)? = message.replyMarkup {
                            for row in keyboard.inlineKeyboard { lines.append("  " + row.map { "[\($0.text)]" }.joined(separator: " ")) }
                        }
                    case .sendPhoto(let photo):
                        lines.append("< chat \(delivery.chatID): [chart] \(photo.caption ?? "")")
                        for row in photo.replyMarkup?.inlineKeyboard ?? [] { lines.append("  " + row.map { "[\($0.text)]" }.joined(separator: " ")) }
                    default:
                        lines.append("< chat \(delivery.chatID): \(request.method)")
                    }
                }
            case .skipped(let delivery):
                lines.append("· subscription \(delivery.subscriptionID) missed for too long; skipped, \(next(delivery))")
            case .waiting(let id):
                lines.append("· subscription \(id) waits for weather")
            case .unschedulable(let chatID):
                lines.append("· chat \(chatID): cannot be scheduled")
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func theMorningForecastInEachLanguageAndUnitsWithItsButtonsAndAGroupsChart() {
        let now = Self.eight.addingTimeInterval(10)
        var russian = DailyDecision(report: Self.weather(.ru), now: now, rules: Self.daily)
        let ru = russian.decide([Self.due(1, chat: 7, .ru), Self.due(2, chat: -100, .ru, chart: true)])
        var english = DailyDecision(report: Self.weather(.en), now: now, rules: Self.daily)
        let en = english.decide([Self.due(3, chat: 8, .en), Self.due(4, chat: 9, .en, settings: Self.imperial)])
        Self.expectScreen(
            Self.screen(ru + en),
            """
            · subscription 1 sent; 2023-11-15 done, next in 23 h
            < chat 7: 🗓 <b>Прогноз на сегодня</b> — ср, 15 ноября
            📍 <b>Москва</b>, Россия 🇷🇺

            🌅 Утро: -4°C · ☀️ День: 0°C
            🌆 Вечер: -2°C · 🌙 Ночь: -5°C
            ☁️ облачно с прояснениями (60%)
            💨 Ветер: 5 м/с, В

            <i>Температура от -7°C до +1°C. Осадков не ожидается.</i>
              [По часам] [На 7 дней]
            · subscription 2 sent; 2023-11-15 done, next in 23 h
            < chat -100: 🗓 <b>Прогноз на сегодня</b> — ср, 15 ноября
            📍 <b>Москва</b>, Россия 🇷🇺

            🌅 Утро: -4°C · ☀️ День: 0°C
            🌆 Вечер: -2°C · 🌙 Ночь: -5°C
            ☁️ облачно с прояснениями (60%)
            💨 Ветер: 5 м/с, В

            <i>Температура от -7°C до +1°C. Осадков не ожидается.</i>
              [По часам] [На 7 дней]
            < chat -100: [chart] 📍 <b>Москва</b>, Россия 🇷🇺 — 48 часов
              [· 48 часов ·] [Неделя]
            · subscription 3 sent; 2023-11-15 done, next in 23 h
            < chat 8: 🗓 <b>Today's forecast</b> — Wed, 15 Nov
            📍 <b>Moscow</b>, Russia 🇷🇺

            🌅 Morning: -4°C · ☀️ Day: 0°C
            🌆 Evening: -2°C · 🌙 Night: -5°C
            ☁️ broken clouds (60%)
            💨 Wind: 5 m/s, E

            <i>Temperatures from -7°C to +1°C. No precipitation expected.</i>
              [Hourly] [7 days]
            · subscription 4 sent; 2023-11-15 done, next in 23 h
            < chat 9: 🗓 <b>Today's forecast</b> — Wed, 15 Nov
            📍 <b>Moscow</b>, Russia 🇷🇺

            🌅 Morning: +25°F · ☀️ Day: +32°F
            🌆 Evening: +28°F · 🌙 Night: +23°F
            ☁️ broken clouds (60%)
            💨 Wind: 11 mph, E

            <i>Temperatures from +19°F to +34°F. No precipitation expected.</i>
              [Hourly] [7 days]
            """)
        // Without a day kept before, nothing to compare; today's is kept for tomorrow.
        #expect(russian.todays.map(\.day) == ["2023-11-15"])
        #expect(russian.todays.map(\.cell) == ["5576:3762"])
    }

    @Test func theNextMorningSaysHowTheDayComparesWithTheOneKept() throws {
        let due = [Self.due(1, chat: 7, .ru)]
        var decision = DailyDecision(report: Self.weather(.ru), now: Self.eight.addingTimeInterval(10), rules: Self.daily)
        let days = decision.comparedDays(due)
        #expect(days == ["2023-11-14": [Self.moscow.cell]])
        decision.know([DayTemperatures(cell: "5576:3762", day: "2023-11-14", minimum: -8, maximum: -3)])
        let outcomes = decision.decide(due)
        let text = try #require(outcomes.first?.delivery?.requests.first.flatMap { request -> String? in
            if case .sendMessage(let message) = request.call { message.text } else { nil }
        })
        #expect(text.contains("🌡 Днём на 4 градуса теплее, чем вчера"), "\(text)")
    }

    @Test func aForecastMissedForMoreThanTheGracePeriodIsSkippedAndItsDayMarkedDone() {
        // The bot was down from before 08:00 until 10:00:10; another chat's forecast was due at 09:00.
        let now = Self.eight.addingTimeInterval(7210)
        let batch = [Self.due(1, chat: 7, .ru), Self.due(2, chat: 8, .ru, at: Self.eight.addingTimeInterval(3600))]
        #expect(DailyDecision.weatherWanted(by: batch, now: now, rules: Self.daily)?.subscription.id == 2)
        var decision = DailyDecision(report: Self.weather(.ru), now: now, rules: Self.daily)
        let outcomes = decision.decide(batch)
        Self.expectScreen(
            Self.screen(Array(outcomes.prefix(1)), now: now),
            """
            · subscription 1 missed for too long; skipped, 2023-11-15 done, next in 21 h
            """)
        #expect(outcomes.count == 2)
        if case .sent = outcomes[1] {} else { Issue.record("\(outcomes[1])") }
        #expect(DailyDecision.weatherWanted(by: Array(batch.prefix(1)), now: now, rules: Self.daily) == nil)
    }

    @Test func withoutWeatherAForecastWaitsThenGoesWithTheLastKnownMarkedWithItsAge() {
        let due = [Self.due(1, chat: 7, .ru), Self.due(2, chat: 8, .en)]
        // OpenWeather does not answer and nothing is known: both wait.
        var nothing = DailyDecision(report: nil, now: Self.eight.addingTimeInterval(10), rules: Self.daily)
        Self.expectScreen(Self.screen(nothing.decide(due)), "· subscription 1 waits for weather\n· subscription 2 waits for weather")
        // Yesterday evening's weather is known: it stands in only once a forecast has waited 15 minutes.
        let lastKnown = Self.weather(.ru, fetched: Self.eight.addingTimeInterval(-11 * 3600), stale: true)
        var early = DailyDecision(report: lastKnown, now: Self.eight.addingTimeInterval(600), rules: Self.daily)
        let waiting = early.decide(Array(due.prefix(1)))
        #expect(waiting == [.waiting(subscriptionID: 1)])
        let later = Self.eight.addingTimeInterval(900)
        var decision = DailyDecision(report: lastKnown, now: later, rules: Self.daily)
        Self.expectScreen(
            Self.screen(decision.decide(Array(due.prefix(1))), now: later),
            """
            · subscription 1 sent, with the last known weather; 2023-11-15 done, next in 23 h
            < chat 7: 🗓 <b>Прогноз на сегодня</b> — ср, 15 ноября
            📍 <b>Москва</b>, Россия 🇷🇺

            🌅 Утро: -4°C · ☀️ День: 0°C
            🌆 Вечер: -2°C · 🌙 Ночь: -5°C
            ☁️ облачно с прояснениями (60%)
            💨 Ветер: 5 м/с, В

            <i>Температура от -7°C до +1°C. Осадков не ожидается.</i>

            ⚠️ Сервис погоды сейчас не отвечает, поэтому это последний известный прогноз: от 14 ноября 21:00, 11 ч назад
              [По часам] [На 7 дней]
            """)
        #expect(decision.todays.isEmpty, "older weather is not kept as the day's")
        // Weather that does not reach the day is no forecast of it.
        var short = lastKnown
        short.forecast.daily = Array(short.forecast.daily.prefix(1))
        var tooOld = DailyDecision(report: short, now: later, rules: Self.daily)
        let notTold = tooOld.decide(Array(due.prefix(1)))
        #expect(notTold == [.waiting(subscriptionID: 1)])
    }

    @Test func subscriptionsShareABatchByPlaceCellAndLanguage() {
        var nearby = Self.due(3, chat: 9, .ru)
        nearby.subscription.place = Place(name: "Zaryadye", latitude: 55.7562, longitude: 37.6190)
        var elsewhere = Self.due(4, chat: 10, .ru)
        elsewhere.subscription.place = Place(name: "Kazan", latitude: 55.79, longitude: 49.12)
        let batches = DailyDecision.batches(of: [Self.due(1, chat: 7, .ru), Self.due(2, chat: 8, .en), nearby, elsewhere])
        #expect(Set(batches.map { $0.compactMap(\.subscription.id) }) == [[1, 3], [2], [4]])
    }
}

extension WeatherAlert {
    fileprivate func with(end: Date) -> WeatherAlert {
        var alert = self
        alert.end = end
        return alert
    }
}
