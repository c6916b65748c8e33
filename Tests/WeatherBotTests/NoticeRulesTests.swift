import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot

/// The rules of notices, with a hand-driven clock: when rain is news (one notice per episode),
/// which warnings are new or changed, what quiet hours hold back, and how notices read.
@Suite struct NoticeRulesTests {
    /// 2023-11-14 22:00 UTC (01:00 in Moscow), the sample forecast's first hour.
    static let t0 = Date(timeIntervalSince1970: 1_699_999_200)
    static let moscow = TimeZone(identifier: "Europe/Moscow")!

    /// The sample forecast with minutes from `from` (minutes after t0): wet where `wet` says, in mm/h.
    static func forecast(minutesFrom from: Int, wet: (Int) -> Double) -> Forecast {
        var forecast = Forecast.sample
        // Above freezing, so it rains.
        for index in forecast.hourly.indices { forecast.hourly[index].temperature = 6 }
        forecast.minutely = (0..<60).map { index in
            let minute = from + index
            return MinutePrecipitation(time: t0.addingTimeInterval(Double(minute) * 60), precipitation: wet(minute))
        }
        return forecast
    }

    static func at(_ minute: Int) -> Date { t0.addingTimeInterval(Double(minute) * 60) }

    // MARK: Rain

    @Test func rainAheadAfterADrySpellIsAnEpisodeToTellWithItsStartEndAndStrength() throws {
        var watch = RainWatch()
        // Rain from minute 20 to 49 at 3 mm/h, dry after.
        let forecast = Self.forecast(minutesFrom: 0) { (20..<50).contains($0) ? 3 : 0 }
        let seenEpisode = watch.observe(forecast, cell: "5418:4517", at: Self.at(0))
        let episode = try #require(seenEpisode)
        #expect(episode.start == Self.at(20))
        #expect(episode.end == Self.at(50))
        #expect(episode.peak == 3)
        #expect(episode.isPrecise)
        let text = NoticeViews.rain(episode, place: .saransk, forecast: forecast, now: Self.at(0), texts: .for(.ru))
        #expect(text.hasPrefix("☔ Дождь через 20 минут, около 01:20, примерно на 30 минут."))
        #expect(text.contains("Саранск"))
        let english = NoticeViews.rain(episode, place: .saransk, forecast: forecast, now: Self.at(0), texts: .for(.en))
        #expect(english.hasPrefix("☔ Rain in 20 minutes, at about 01:20, for about 30 minutes."))
    }

    @Test func theSameEpisodeSeenAtLaterChecksIsTheSameAndIsToldOnce() throws {
        var watch = RainWatch()
        let seenFirst = watch.observe(Self.forecast(minutesFrom: 0) { $0 >= 40 ? 1 : 0 }, cell: "c", at: Self.at(0))
        let first = try #require(seenFirst)
        // Ten minutes on, the forecast moves the start two minutes earlier: still that episode.
        let seenSecond = watch.observe(Self.forecast(minutesFrom: 10) { $0 >= 38 ? 1 : 0 }, cell: "c", at: Self.at(10))
        let second = try #require(seenSecond)
        #expect(second.id == first.id)
        #expect(second.start == Self.at(38))
        #expect(NoticeViews.wasTold(first.id, of: second))
        // Once it rains, nothing is ahead to tell.
        let nothing1 = watch.observe(Self.forecast(minutesFrom: 40) { _ in 1 }, cell: "c", at: Self.at(40))
        #expect(nothing1 == nil)
    }

    @Test func aShowerAfterLessThanADryHourIsTheSameEpisodeAndAfterAnHourANewOne() throws {
        var watch = RainWatch()
        // Raining now until minute 10: begun, nothing to tell.
        let nothing2 = watch.observe(Self.forecast(minutesFrom: 0) { $0 < 10 ? 2 : 0 }, cell: "c", at: Self.at(0))
        #expect(nothing2 == nil)
        // Rain again at minute 50: forty dry minutes, the same episode, told by no one.
        let nothing3 = watch.observe(Self.forecast(minutesFrom: 20) { $0 >= 50 ? 2 : 0 }, cell: "c", at: Self.at(20))
        #expect(nothing3 == nil)
        let nothing4 = watch.observe(Self.forecast(minutesFrom: 50) { _ in 0 }, cell: "c", at: Self.at(50))
        #expect(nothing4 == nil)
        // Dry from minute 51 for over an hour; rain at 140 is a new episode.
        let seenNext = watch.observe(Self.forecast(minutesFrom: 100) { $0 >= 140 ? 2 : 0 }, cell: "c", at: Self.at(100))
        let next = try #require(seenNext)
        #expect(next.start == Self.at(140))
    }

    @Test func aDrizzleBelowATenthOfAMillimetreAnHourIsDry() {
        var watch = RainWatch()
        let nothing5 = watch.observe(Self.forecast(minutesFrom: 0) { $0 >= 20 ? 0.05 : 0 }, cell: "c", at: Self.at(0))
        #expect(nothing5 == nil)
    }

    @Test func rainGoingBeyondTheHourHasNoEnd() throws {
        var watch = RainWatch()
        let seenEpisode = watch.observe(Self.forecast(minutesFrom: 0) { $0 >= 30 ? 9 : 0 }, cell: "c", at: Self.at(0))
        let episode = try #require(seenEpisode)
        #expect(episode.end == nil)
        let text = NoticeViews.rain(episode, place: .saransk, forecast: Self.forecast(minutesFrom: 0) { _ in 0 }, now: Self.at(0), texts: .for(.ru))
        // Below freezing the same minutes are snow.
        let cold = NoticeViews.rain(episode, place: .saransk, forecast: .sample, now: Self.at(0), texts: .for(.ru))
        #expect(cold.hasPrefix("🌨 Сильный снег через 30 минут"))
        #expect(text.hasPrefix("☔ Сильный дождь через 30 минут, около 01:30.\n"))
    }

    @Test func aStartSeenAgainAfterARestartWasToldAlready() throws {
        var before = RainWatch()
        let seenTold = before.observe(Self.forecast(minutesFrom: 0) { $0 >= 40 ? 1 : 0 }, cell: "c", at: Self.at(0))
        let told = try #require(seenTold)
        var after = RainWatch()
        let seenSeen = after.observe(Self.forecast(minutesFrom: 10) { $0 >= 43 ? 1 : 0 }, cell: "c", at: Self.at(10))
        let seen = try #require(seenSeen)
        #expect(seen.id != told.id)
        #expect(NoticeViews.wasTold(told.id, of: seen))
        // Another cell's episode, or one hours later, was not told.
        #expect(!NoticeViews.wasTold("d@\(Int(Self.at(40).timeIntervalSince1970))", of: seen))
        #expect(!NoticeViews.wasTold("c@\(Int(Self.at(-200).timeIntervalSince1970))", of: seen))
        #expect(!NoticeViews.wasTold(nil, of: seen))
    }

    @Test func snowAndSleetAreToldFromTheConditionOrTheTemperature() {
        #expect(Precipitation(condition: Condition(description: "", icon: "", id: 601), temperature: 5) == .snow)
        #expect(Precipitation(condition: Condition(description: "", icon: "", id: 613), temperature: -5) == .sleet)
        #expect(Precipitation(condition: Condition(description: "", icon: "", id: 501), temperature: -5) == .rain)
        #expect(Precipitation(condition: Condition(description: "", icon: "", id: 804), temperature: -1) == .snow)
        #expect(Precipitation(condition: Condition(description: "", icon: "", id: 804), temperature: 1) == .sleet)
        #expect(Precipitation(condition: nil, temperature: 10) == .rain)
        #expect(Precipitation.Strength(millimetresPerHour: 2.4, of: .rain) == .light)
        #expect(Precipitation.Strength(millimetresPerHour: 2.5, of: .rain) == .moderate)
        #expect(Precipitation.Strength(millimetresPerHour: 7.6, of: .rain) == .heavy)
        #expect(Precipitation.Strength(millimetresPerHour: 1.0, of: .snow) == .moderate)
    }

    @Test func theFreePlansStepsGiveACoarseNoticeOncePerEpisode() throws {
        var forecast = Forecast.sample
        forecast.source = .freePlan
        forecast.hourly = (0..<16).map { index in
            var hour = Forecast.sample.hourly[0]
            hour.time = Self.at(index * 180)
            hour.precipitation = index == 2 ? 1.2 : 0  // 06:00 Moscow: rain
            hour.condition = Condition(description: "", icon: "10d", id: index == 2 ? 500 : 804)
            hour.temperature = 4
            return hour
        }
        var watch = RainWatch()
        let seenEpisode = watch.observe(forecast, cell: "c", at: Self.at(0))
        let episode = try #require(seenEpisode)
        #expect(!episode.isPrecise)
        let text = NoticeViews.rain(episode, place: .saransk, forecast: forecast, now: Self.at(0), texts: .for(.ru))
        #expect(text.hasPrefix("☔ Около 07:00 ожидается: небольшой дождь."))
        #expect(NoticeViews.rain(episode, place: .saransk, forecast: forecast, now: Self.at(0), texts: .for(.en)).hasPrefix("☔ Light rain expected around 07:00."))
        let seenAgain = watch.observe(forecast, cell: "c", at: Self.at(30))
        let again = try #require(seenAgain)
        #expect(again.id == episode.id)
    }

    // MARK: Warnings

    static let rainRU = WeatherAlert(
        sender: "Гидрометцентр России", event: "Дождь", start: at(60), end: at(600), description: "Ожидается сильный дождь.", tags: ["Rain"])
    static let rainEN = WeatherAlert(
        sender: "Гидрометцентр России", event: "Rain", start: at(60), end: at(600), description: "Heavy rain expected.", tags: ["Rain"])

    @Test func aWarningListedInTwoLanguagesIsDueOnceInTheChatsLanguage() throws {
        let russian = NoticeViews.dueWarnings([Self.rainRU, Self.rainEN], cell: "c", language: .ru, marks: [:], now: Self.at(0))
        #expect(russian.map(\.alert.event) == ["Дождь"])
        let english = NoticeViews.dueWarnings([Self.rainRU, Self.rainEN], cell: "c", language: .en, marks: [:], now: Self.at(0))
        #expect(english.map(\.alert.event) == ["Rain"])
        #expect(russian[0].mark.key == english[0].mark.key)
        #expect(!russian[0].isUpdate)
        // Told: the next fetch, which lists it again, has nothing new.
        let marks = [russian[0].mark.key: russian[0].mark.value]
        #expect(NoticeViews.dueWarnings([Self.rainEN, Self.rainRU], cell: "c", language: .ru, marks: marks, now: Self.at(10)).isEmpty)
    }

    /// A chat told of a warning under the mark that named its sender is not told it again.
    @Test func aWarningMarkedWithItsSenderBeforeIsToldAlready() throws {
        let marks = [NoticeViews.senderWarningKey(Self.rainRU, cell: "c"): NoticeViews.warningValue(Self.rainRU)]
        #expect(NoticeViews.dueWarnings([Self.rainRU, Self.rainEN], cell: "c", language: .ru, marks: marks, now: Self.at(10)).isEmpty)
        #expect(NoticeViews.warningKey(Self.rainRU, cell: "c") != NoticeViews.senderWarningKey(Self.rainRU, cell: "c"))
    }

    @Test func anExtendedWarningIsAShortUpdateNotASecondWarning() throws {
        let told = try #require(NoticeViews.dueWarnings([Self.rainRU], cell: "c", language: .ru, marks: [:], now: Self.at(0)).first)
        var extended = Self.rainRU
        extended.end = Self.at(900)
        let due = NoticeViews.dueWarnings([extended], cell: "c", language: .ru, marks: [told.mark.key: told.mark.value], now: Self.at(10))
        #expect(due.count == 1)
        #expect(due[0].isUpdate)
        #expect(due[0].mark.key == told.mark.key)
        let text = NoticeViews.warning(due[0], place: .saransk, zone: Self.moscow, texts: .for(.ru))
        #expect(text.hasPrefix("⚠️ Предупреждение «Дождь» изменилось: теперь 15 ноября 02:00–16:00."))
    }

    @Test func aWarningNoticeNamesTheEventWhenWhoAndAShortDescription() throws {
        var long = Self.rainEN
        long.description = String(repeating: "Very heavy rain. ", count: 100)
        let due = try #require(NoticeViews.dueWarnings([long], cell: "c", language: .en, marks: [:], now: Self.at(0)).first)
        let text = NoticeViews.warning(due, place: .saransk, zone: Self.moscow, texts: .for(.en))
        #expect(text.hasPrefix("⚠️ <b>Rain</b>\n15 Nov 02:00–11:00\nFrom: Гидрометцентр России\n\nVery heavy rain."))
        #expect(text.count < 900)
    }

    @Test func anEndedWarningIsNotDue() {
        #expect(NoticeViews.dueWarnings([Self.rainRU], cell: "c", language: .ru, marks: [:], now: Self.at(600)).isEmpty)
    }

    /// A chat whose city moved is told the new place's warnings, even one that reads the same.
    @Test func aWarningToldForOnePlaceIsNewForAnother() throws {
        let told = try #require(NoticeViews.dueWarnings([Self.rainRU], cell: "5575:3762", language: .ru, marks: [:], now: Self.at(0)).first)
        let marks = [told.mark.key: told.mark.value]
        #expect(NoticeViews.dueWarnings([Self.rainRU], cell: "5575:3762", language: .ru, marks: marks, now: Self.at(0)).isEmpty)
        let there = NoticeViews.dueWarnings([Self.rainRU], cell: "5579:4912", language: .ru, marks: marks, now: Self.at(0))
        #expect(there.count == 1 && !there[0].isUpdate)
    }

    // MARK: Quiet hours

    @Test func quietHoursReadAndHoldAcrossMidnight() throws {
        let night = try #require(QuietHours(stored: "23:00-07:00"))
        #expect(night.description == "23:00-07:00")
        #expect(QuietHours(typed: "7 - 23")?.description == "07:00-23:00")
        #expect(QuietHours(typed: "22.30–08.15")?.description == "22:30-08:15")
        // The column holds only what `description` writes.
        #expect(QuietHours(stored: "7 - 23") == nil && QuietHours(stored: "+1:00-07:00") == nil)
        for bad in ["", "23:00", "25:00-07:00", "23:00-07:60", "23:00-23:00", "a-b", "23:0-07:00"] {
            #expect(QuietHours(typed: bad) == nil, "«\(bad)»")
            #expect(QuietHours(stored: bad) == nil, "«\(bad)»")
        }
        #expect(night.contains(minuteOfDay: 23 * 60))
        #expect(night.contains(minuteOfDay: 0))
        #expect(!night.contains(minuteOfDay: 7 * 60))
        #expect(!night.contains(minuteOfDay: 12 * 60))
        // 01:00 in Moscow is quiet; they end at 07:00 Moscow, 04:00 UTC.
        #expect(night.contains(Self.at(0), in: Self.moscow))
        #expect(night.end(after: Self.at(0), in: Self.moscow) == Self.at(360))
        #expect(QuietChoice(stored: "off") == .off)
        #expect(QuietChoice(stored: "23:00-07:00") == .hours(night))
        #expect(QuietChoice(stored: "junk") == nil)
        #expect(QuietChoice(stored: "off 23:00-07:00") == .paused(night))
        #expect(QuietChoice.paused(night).stored == "off 23:00-07:00")
        #expect(QuietChoice(stored: "off junk") == nil)
    }

    @Test func rainWithinQuietHoursIsNotToldRainAfterThemWaitsAndWarningsGoSilentlyOrWaitForMorning() throws {
        let night = QuietHours.night
        // 01:00 in Moscow: quiet.
        // Rain at 03:00, within them, is not told; rain at 08:20, after them, waits for 08:00.
        #expect(NoticeViews.rainTiming(start: Self.at(120), at: Self.at(0), quiet: night, zone: Self.moscow) == .dropped)
        #expect(NoticeViews.rainTiming(start: Self.at(440), at: Self.at(0), quiet: night, zone: Self.moscow) == .held(until: Self.at(420)))
        #expect(NoticeViews.rainTiming(start: Self.at(120), at: Self.at(0), quiet: nil, zone: Self.moscow) == .now(silent: false))
        // A warning starting at 03:00 (before 08:00) goes now, silently; one from 09:00 waits until 08:00.
        #expect(NoticeViews.warningTiming(start: Self.at(120), at: Self.at(0), quiet: night, zone: Self.moscow) == .now(silent: true))
        #expect(NoticeViews.warningTiming(start: Self.at(480), at: Self.at(0), quiet: night, zone: Self.moscow) == .held(until: Self.at(420)))
        // 12:00 in Moscow: not quiet.
        #expect(NoticeViews.rainTiming(start: Self.at(700), at: Self.at(660), quiet: night, zone: Self.moscow) == .now(silent: false))
        #expect(NoticeViews.warningTiming(start: Self.at(900), at: Self.at(660), quiet: night, zone: Self.moscow) == .now(silent: false))
    }

    // MARK: Pollen

    /// Pollen by the hour from 00:00 in Moscow on 2023-11-15 (the day of t0) for two days:
    /// `first` grains of birch through that day (its mean), none the next, a little grass through both.
    static func pollen(first birch: Double) -> [PollenReading] {
        let midnight = at(-60)
        return (0..<48).map { hour in
            PollenReading(time: midnight.addingTimeInterval(Double(hour) * 3600), grains: [.birch: hour < 24 ? birch : 0, .grass: 2])
        }
    }

    static func pollenChat(_ id: Int64, _ language: Language = .ru, place: Place = .moscow, on: Bool = true, quiet: QuietChoice? = nil, marks: [String: String] = [:])
        -> NoticeChat
    {
        NoticeChat(chatID: id, language: language, place: place, settings: NoticeSettings(pollen: on, quiet: quiet), marks: marks)
    }

    static let rules = NoticeDecision.Rules(interval: 600, leastLead: 60, quietHours: .night)

    static func decide(_ chats: [NoticeChat], pollen: [PollenReading]?, at minute: Int) -> [NoticeDecision.Outcome] {
        let report = WeatherReport(forecast: .sample, fetchedAt: at(minute))
        return NoticeDecision.decide(chats, cell: Place.moscow.cell, report: report, rain: nil, pollen: pollen, now: at(minute), rules: rules).outcomes
    }

    @Test func aHighPollenDayIsToldOnceThatDayAfterTheQuietHoursWithEachKindInWords() throws {
        let high = Self.pollen(first: 120)
        // 01:00: quiet until 08:00.
        #expect(Self.decide([Self.pollenChat(1)], pollen: high, at: 0) == [.held(.pollen, chatID: 1, until: Self.at(420))])
        // 08:10: told, marked with the day.
        let morning = Self.decide([Self.pollenChat(1), Self.pollenChat(2, .en)], pollen: high, at: 430)
        guard case .send(.pollen, let delivery) = morning.first, case .send(.pollen, let english) = morning.last else {
            Issue.record("expected the day told, got \(morning)")
            return
        }
        #expect(delivery.mark == NoticeMark(key: "pollen", value: "2023-11-15", expiresAt: delivery.mark.expiresAt))
        #expect(delivery.mark.expiresAt > Self.at(23 * 60))
        // Of no use after the evening: the sender leaves it unsent then.
        #expect(delivery.deadline == Self.at(18 * 60))
        guard case BotRequest.Call.sendMessage(let message)? = delivery.requests.first?.call, case BotRequest.Call.sendMessage(let inEnglish)? = english.requests.first?.call else {
            Issue.record("expected a message, got \(delivery.requests)")
            return
        }
        let text = message.text, englishText = inEnglish.text
        #expect(message.disableNotification != true)
        #expect(text.hasPrefix("🌼 Сегодня высокий уровень пыльцы: берёза — высокий, злаки — низкий.\n📍 <b>Москва</b>"), "\(text)")
        #expect(englishText.hasPrefix("🌼 High pollen today: birch — high, grass — low.\n📍 <b>Moscow</b>"), "\(englishText)")
        // Told, later checks that day tell nothing.
        let told = Self.pollenChat(1, marks: ["pollen": "2023-11-15"])
        #expect(Self.decide([told], pollen: high, at: 600) == [.toldAlready(chatID: 1)])
        // The next day is news again, but only a high one: its grass alone is low.
        #expect(Self.decide([told], pollen: high, at: 24 * 60 + 420).isEmpty)
        let veryHigh = Self.decide([Self.pollenChat(3)], pollen: Self.pollen(first: 2000), at: 600)
        #expect(veryHigh.first.map { "\($0)".contains("Сегодня очень высокий уровень пыльцы: берёза — очень высокий") } == true)
    }

    @Test func aDayOfLowPollenOrOneOutsideTheDataOrWithPollenOffTellsNothing() {
        #expect(Self.decide([Self.pollenChat(1)], pollen: Self.pollen(first: 60), at: 600).isEmpty)
        #expect(Self.decide([Self.pollenChat(1, place: .saransk)], pollen: Self.pollen(first: 120), at: 600).isEmpty)
        #expect(Self.decide([Self.pollenChat(1, on: false)], pollen: Self.pollen(first: 120), at: 600).isEmpty)
        #expect(Self.decide([Self.pollenChat(1)], pollen: nil, at: 600).isEmpty)
        // Pollen alone, outside the data: the chat costs the checker no check at all.
        #expect(NoticeDecision.cells(of: [Self.pollenChat(1, place: .saransk)]).isEmpty)
        #expect(NoticeDecision.cells(of: [Self.pollenChat(1)]).count == 1)
    }

    @Test func aHighPollenDayWaitsForTheMorningAndTheChatsQuietHoursAndIsNotToldInTheEvening() {
        let high = Self.pollen(first: 120)
        // No quiet hours: not at 01:00 still, but from 07:00.
        #expect(Self.decide([Self.pollenChat(1, quiet: .off)], pollen: high, at: 0) == [.held(.pollen, chatID: 1, until: Self.at(360))])
        #expect(NoticeViews.pollenTiming(at: Self.at(360), quiet: nil, zone: Self.moscow) == .now(silent: false))
        // The chat's own hours, 10:00–12:00, hold it at 11:00 until 12:00.
        let own = QuietHours(start: 10 * 60, end: 12 * 60)
        #expect(NoticeViews.pollenTiming(at: Self.at(600), quiet: own, zone: Self.moscow) == .held(until: Self.at(660)))
        // From 19:00 the day is nearly done: nothing is told, nor held.
        #expect(Self.decide([Self.pollenChat(1, quiet: .off)], pollen: high, at: 18 * 60).isEmpty)
        // Quiet hours that last past 19:00 leave the day untold.
        let late = QuietHours(start: 0, end: 20 * 60)
        #expect(NoticeViews.pollenTiming(at: Self.at(600), quiet: late, zone: Self.moscow) == .dropped)
    }
}
