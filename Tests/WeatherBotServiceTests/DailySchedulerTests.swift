import BotClock
import Foundation
import GRDB
import HTTPTransport
import Logging
import OpenWeather
import Synchronization
import TelegramBotAPI
import Testing
import WeatherBot
@testable import WeatherBotService
@testable import WeatherBotSQLite
import WeatherBotStore
import WeatherBotTesting

@Suite struct DailySchedulerTests {
    /// What a daily forecast's sendMessage call says, read from the outbox.
    struct ForecastMessage: Decodable {
        var text: String
        var keyboard: InlineKeyboardMarkup?

        enum CodingKeys: String, CodingKey {
            case text
            case keyboard = "reply_markup"
        }
    }

    /// Weather for any place, counting the calls; each day `warming` degrees warmer than the one before.
    final class CountingWeather: WeatherSource {
        let calls = Mutex(0)
        let warming: Double
        init(warming: Double = 0) { self.warming = warming }
        func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport {
            calls.withLock { $0 += 1 }
            let condition = Condition(description: "ясно", icon: "01d")
            let days = (0..<8).map { index -> DailyForecast in
                let warmer: Double = warming * Double(index)
                return DailyForecast(
                    time: Date(timeIntervalSince1970: 1_795_262_400 + Double(index) * 86_400), dayTemperature: 2, nightTemperature: -4,
                    morningTemperature: -2, eveningTemperature: 0, minimumTemperature: -5 + warmer / 4,
                    maximumTemperature: 3 + warmer, clouds: 10, humidity: 70,
                    pressure: 1020, windSpeed: 3, windDegrees: 180, precipitationChance: 0, precipitation: 0, condition: condition)
            }
            let current = CurrentWeather(
                time: Date(timeIntervalSince1970: 1_795_262_400), temperature: 0, feelsLike: -3, clouds: 10, humidity: 70, pressure: 1020,
                windSpeed: 3, windDegrees: 180, condition: condition)
            return WeatherReport(forecast: Forecast(timeZone: .identifier("Europe/Moscow"), current: current, daily: days), fetchedAt: Date())
        }

        func lastKnown(at place: Place, language: Language) async -> WeatherReport? { nil }
    }

    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    var logger: Logger {
        var logger = Logger(label: "weatherbot.tests.scheduler")
        logger.logLevel = .critical
        return logger
    }

    /// Makes a chat with one subscription, due first after `now`.
    func subscribe(
        _ database: BotDatabase, chat: Int64, place: Place, zone: String, hour: Int, minute: Int, now: Date, language: Language = .ru,
        settings: ChatSettings = .defaults
    ) async throws {
        let next = DailySchedule.nextSend(after: now, hour: hour, minute: minute, in: PlaceTimeZone(stored: zone)!.timeZone)
        let subscription = Subscription(chatID: chat, place: place, timeZone: zone, hour: hour, minute: minute, nextSendAt: next.date)
        let item = try await database.receive([(updateID: chat * 1000 + Int64(hour * 60 + minute), chatID: chat, payload: Data())], lastUpdateID: 0).first
        try await database.commitStep(
            chat: ChatRecord(id: chat, language: language, state: .idle, settings: settings), handled: item?.seq ?? -1,
            changes: [.subscribe(subscription, limit: 1000)], replies: [], followUps: [])
    }

    func forecastsPerChat(_ database: BotDatabase) throws -> [Int64: Int] {
        try database.writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT chatId, COUNT(*) AS n FROM outbox GROUP BY chatId")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["chatId"] as Int64, $0["n"] as Int) })
        }
    }

    @Test func aThousandSubscriptionsInTenCellsCostTenWeatherCalls() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T04:00:00Z")
        for index in 0..<1000 {
            let cell = index % 10
            // Within one cell the places differ by metres, so each is its own subscription.
            let place = Place(name: "Cell \(cell)", latitude: 50 + Double(cell) + Double(index / 10) * 0.00001, longitude: 30, timeZone: "Europe/Moscow")
            try await subscribe(database, chat: Int64(index + 1), place: place, zone: "Europe/Moscow", hour: 8, minute: 0, now: start)
        }
        #expect(try BotStatus.read(path: folder.databasePath).subscriptions == 1000)
        let weather = CountingWeather()
        let clock = ManualClock(utc("2026-11-21T05:00:10Z"))
        let scheduler = DailyScheduler(database: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        #expect(await scheduler.tick() == 1000)
        #expect(weather.calls.withLock { $0 } == 10)
        #expect(try database.outboxBacklog() == 1000)
        #expect(await scheduler.tick() == 0)  // nothing twice
        let message = try #require(try database.outboxItems(lane: .bulk, from: .min, limit: 1).first)
        #expect(message.method == "sendMessage")
        let forecast = try JSONDecoder().decode(ForecastMessage.self, from: message.parameters)
        #expect(forecast.text.contains("Прогноз на сегодня"))
        #expect(forecast.text.contains("— сб, 21 ноября"), "\(forecast.text)")
    }

    /// A morning of many cells under a 60-a-minute budget: the weather is fetched ahead of the
    /// minute, when the budget's share for work due soon needs it to be, and the forecasts go out
    /// on the minute without another call.
    @Test func aMorningsWeatherIsFetchedAheadAndTheForecastsGoOutOnTheMinute() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T04:00:00Z")
        for cell in 0..<100 {
            // Two chats in each cell, ten kilometres between cells; due at 08:00 in Moscow, 05:00Z.
            let place = Place(name: "Cell \(cell)", latitude: 50 + Double(cell) * 0.1, longitude: 30, timeZone: "Europe/Moscow")
            for chat in [Int64(cell * 2 + 1), Int64(cell * 2 + 2)] {
                try await subscribe(database, chat: chat, place: place, zone: "Europe/Moscow", hour: 8, minute: 0, now: start, language: chat % 2 == 0 ? .en : .ru)
            }
        }
        let openWeather = try await FakeOpenWeather()
        defer { Task { await openWeather.shutdown() } }
        let clock = ManualClock(utc("2026-11-21T04:50:00Z"))
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: openWeather.url, transport: NIOHTTPTransport()), clock: clock,
            logger: logger)
        let budget = CallBudget(.init(perMinute: 60, perChat: 0), clock: clock)
        let scheduler = DailyScheduler(database: database, weather: service, outbox: nil, logger: logger, clock: clock, budget: budget)
        // A hundred cells at the 30 calls a minute work due soon gets however many people ask,
        // and two minutes.
        #expect(scheduler.lead(for: 100) == 320)
        #expect(await scheduler.fetchAhead() == 0)
        #expect(openWeather.forecastCalls == 0)
        clock.set(utc("2026-11-21T04:55:00Z"))
        #expect(await scheduler.fetchAhead() == 100)
        #expect(openWeather.forecastCalls == 100)
        #expect(await scheduler.fetchAhead() == 0)
        #expect(await scheduler.tick() == 0)
        clock.set(utc("2026-11-21T05:00:05Z"))
        #expect(await scheduler.tick() == 200)
        #expect(openWeather.forecastCalls == 100)
    }

    /// Without a budget, or with a small morning, the weather is fetched shortly before the
    /// minute; never earlier than a forecast would take it.
    @Test func howFarAheadTheWeatherIsFetched() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let clock = ManualClock(utc("2026-11-21T04:50:00Z"))
        let budgeted = { (perMinute: Int) in
            DailyScheduler(
                database: database, weather: CountingWeather(), outbox: nil, logger: logger, clock: clock,
                budget: CallBudget(.init(perMinute: perMinute), clock: clock))
        }
        #expect(budgeted(0).lead(for: 500) == 120)
        #expect(budgeted(60).lead(for: 4) == 128)
        #expect(budgeted(60).lead(for: 500) == 1120)
        #expect(budgeted(60).lead(for: 2000) == 30 * 60)
        #expect(DailyScheduler(database: database, weather: CountingWeather(), outbox: nil, logger: logger, clock: clock).lead(for: 500) == 120)
    }

    @Test func subscribersSharingACellGetTheirOwnNameLanguageAndButtons() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T04:00:00Z")
        let moscow = Place(name: "Moscow", localNames: ["ru": "Москва"], latitude: 55.7558, longitude: 37.6173, timeZone: "Europe/Moscow")
        // A few hundred metres away: the same weather call, another name.
        let nearby = Place(name: "Zaryadye", localNames: ["ru": "Зарядье"], latitude: 55.7562, longitude: 37.6190, timeZone: "Europe/Moscow")
        let chats: [(id: Int64, place: Place, language: Language, expected: [String])] = [
            (1, moscow, .ru, ["Прогноз на сегодня", "Москва"]),
            (2, moscow, .en, ["Today's forecast", "Moscow"]),
            (3, nearby, .ru, ["Прогноз на сегодня", "Зарядье"]),
            (4, moscow, .ru, ["Прогноз на сегодня", "Москва"]),
        ]
        for chat in chats {
            try await subscribe(database, chat: chat.id, place: chat.place, zone: "Europe/Moscow", hour: 8, minute: 0, now: start, language: chat.language)
        }
        let weather = CountingWeather()
        let scheduler = DailyScheduler(database: database, weather: weather, outbox: nil, logger: logger, clock: ManualClock(utc("2026-11-21T05:00:10Z")))
        #expect(await scheduler.tick() == 4)
        #expect(weather.calls.withLock { $0 } <= 2)  // one per cell and language
        for chat in chats {
            let entry = try #require(try database.outboxItems(lane: .bulk, from: .min, limit: 10).first { $0.chatID == chat.id })
            let forecast = try JSONDecoder().decode(ForecastMessage.self, from: entry.parameters)
            for text in chat.expected { #expect(forecast.text.contains(text), "\(chat.id): \(forecast.text)") }
            guard let keyboard = forecast.keyboard else {
                Issue.record("chat \(chat.id): no buttons")
                continue
            }
            let subscription = try #require(try database.subscriptions(chatID: chat.id).first?.id)
            let actions = keyboard.inlineKeyboard.flatMap { $0 }.compactMap { $0.callbackData.flatMap(CallbackAction.init(encoded:)) }
            #expect(actions.count == 2)
            for action in actions {
                guard case .openView(_, .subscription(let id)) = action else {
                    Issue.record("chat \(chat.id): \(action)")
                    continue
                }
                #expect(id == subscription)
            }
        }
    }

    /// CountingWeather's weather, with a day of high birch pollen (21 November in Moscow) wherever
    /// it is asked for, noting where.
    final class PollenWeather: WeatherSource {
        let weather = CountingWeather()
        let asked = Mutex<[String]>([])

        func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport {
            try await weather.weather(at: place, language: language, refresh: refresh, for: context)
        }

        func lastKnown(at place: Place, language: Language) async -> WeatherReport? { nil }

        func pollen(at place: Place, for context: CallContext) async -> [PollenReading]? {
            asked.withLock { $0.append(place.name) }
            let midnight = ISO8601DateFormatter().date(from: "2026-11-20T21:00:00Z")!
            return (0..<48).map { hour in
                PollenReading(time: midnight.addingTimeInterval(Double(hour) * 3600), grains: [.birch: hour < 24 ? 95 : 20, .grass: hour < 24 ? 2 : 30])
            }
        }
    }

    /// Where the place has pollen, the morning's forecast gives the day's mean of each kind;
    /// elsewhere pollen is not asked for. It is fetched ahead with the weather, too.
    @Test func theForecastGivesTheDaysPollenWhereThePlaceHasIt() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T04:00:00Z")
        let moscow = Place(name: "Moscow", localNames: ["ru": "Москва"], latitude: 55.7558, longitude: 37.6173, timeZone: "Europe/Moscow")
        let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], latitude: 55.79, longitude: 49.12, timeZone: "Europe/Moscow")
        try await subscribe(database, chat: 1, place: moscow, zone: "Europe/Moscow", hour: 8, minute: 0, now: start)
        try await subscribe(database, chat: 2, place: moscow, zone: "Europe/Moscow", hour: 8, minute: 0, now: start, language: .en)
        try await subscribe(database, chat: 3, place: kazan, zone: "Europe/Moscow", hour: 8, minute: 0, now: start)
        let weather = PollenWeather()
        let clock = ManualClock(utc("2026-11-21T04:59:00Z"))
        let scheduler = DailyScheduler(database: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        #expect(await scheduler.fetchAhead() == 2)
        #expect(weather.asked.withLock { $0 } == ["Moscow"])
        clock.set(utc("2026-11-21T05:00:05Z"))
        #expect(await scheduler.tick() == 3)
        var texts: [Int64: String] = [:]
        for entry in try database.outboxItems(lane: .bulk, from: .min, limit: 10) {
            texts[entry.chatID] = try JSONDecoder().decode(ForecastMessage.self, from: entry.parameters).text
        }
        #expect(texts[1]?.contains("\n🌼 Пыльца: берёза — высокий уровень, злаки — низкий\n") == true, "\(texts[1] ?? "")")
        #expect(texts[2]?.contains("\n🌼 Pollen: birch — high, grass — low\n") == true, "\(texts[2] ?? "")")
        #expect(texts[3]?.contains("Казань") == true)
        #expect(texts[3]?.contains("🌼") == false)
        #expect(!weather.asked.withLock { $0 }.contains("Kazan"))
    }

    /// The first morning has nothing to compare with; the second says how much warmer the
    /// afternoon is than the day before, in each chat's language and degrees, at no extra call.
    @Test func theSecondMorningComparesTodayWithYesterdayFromWhatTheFirstKept() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let moscow = Place(name: "Moscow", localNames: ["ru": "Москва"], latitude: 55.7558, longitude: 37.6173, timeZone: "Europe/Moscow")
        let start = utc("2026-11-21T04:00:00Z")
        try await subscribe(database, chat: 1, place: moscow, zone: "Europe/Moscow", hour: 8, minute: 0, now: start)
        try await subscribe(
            database, chat: 2, place: moscow, zone: "Europe/Moscow", hour: 8, minute: 0, now: start, language: .en,
            settings: ChatSettings(temperature: .fahrenheit))
        let weather = CountingWeather(warming: 4)
        let clock = ManualClock(utc("2026-11-21T05:00:10Z"))
        let scheduler = DailyScheduler(database: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        func texts() throws -> [Int64: String] {
            let items = try database.outboxItems(lane: .bulk, from: .min, limit: 10)
            return try Dictionary(items.map { ($0.chatID, try JSONDecoder().decode(ForecastMessage.self, from: $0.parameters).text) }, uniquingKeysWith: { $1 })
        }
        #expect(await scheduler.tick() == 2)
        let first = try texts()
        #expect(first.count == 2 && first.values.allSatisfy { !$0.contains("🌡 ") }, "\(first)")
        #expect(try await database.dayTemperatures(cells: ["5576:3762"], day: "2026-11-21")["5576:3762"]?.maximum == 3)
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM outbox") }

        clock.set(utc("2026-11-22T05:00:10Z"))
        let calls = weather.calls.withLock { $0 }
        #expect(await scheduler.tick() == 2)
        #expect(weather.calls.withLock { $0 } == calls * 2, "the comparison costs no call: the second morning makes the first's calls")
        let second = try texts()
        #expect(second[1]?.contains("🌡 Днём на 4 градуса теплее, чем вчера") == true, "\(second)")
        #expect(second[2]?.contains("🌡 7 degrees warmer than yesterday this afternoon") == true, "\(second)")
        // Days before the day before yesterday go.
        try await database.keepDayTemperatures([], forgettingBefore: "2026-11-22")
        #expect(try await database.dayTemperatures(cells: ["5576:3762"], day: "2026-11-21").isEmpty)
    }

    @Test func morePlacesDueThanOneBatchAreAllQueuedInOnePass() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T04:00:00Z")
        for index in 0..<250 {
            let place = Place(name: "Cell \(index % 5)", latitude: 50 + Double(index % 5), longitude: 30, timeZone: "Europe/Moscow")
            try await subscribe(database, chat: Int64(index + 1), place: place, zone: "Europe/Moscow", hour: 8, minute: 0, now: start)
        }
        let clock = ManualClock(utc("2026-11-21T05:00:10Z"))
        let scheduler = DailyScheduler(database: database, weather: CountingWeather(), outbox: nil, logger: logger, clock: clock, configuration: .init(batchSize: 100))
        #expect(await scheduler.tick() == 250)
        #expect(try forecastsPerChat(database).count == 250)
        #expect(await scheduler.tick() == 0)
    }

    @Test func throughTwoDaysWithARestartAndDowntimeEachDateGetsOneForecast() async throws {
        let folder = try TemporaryFolder()
        var database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T00:00:00Z")
        let moscow = Place(name: "Moscow", latitude: 55.75, longitude: 37.62)
        let kathmandu = Place(name: "Kathmandu", latitude: 27.7, longitude: 85.3)
        let london = Place(name: "London", latitude: 51.5, longitude: -0.12)
        let newYork = Place(name: "New York", latitude: 40.7, longitude: -74)
        try await subscribe(database, chat: 1, place: moscow, zone: "Europe/Moscow", hour: 8, minute: 0, now: start)  // 05:00Z
        try await subscribe(database, chat: 2, place: kathmandu, zone: "Asia/Kathmandu", hour: 0, minute: 0, now: start)  // 18:15Z
        try await subscribe(database, chat: 3, place: london, zone: "Europe/London", hour: 23, minute: 30, now: start)  // 23:30Z
        try await subscribe(database, chat: 4, place: newYork, zone: "America/New_York", hour: 7, minute: 30, now: start)  // 12:30Z
        try await subscribe(database, chat: 5, place: moscow, zone: "UTC+04:00", hour: 9, minute: 0, now: start, language: .en)  // 05:00Z

        let weather = CountingWeather()
        let clock = ManualClock(start)
        var scheduler = DailyScheduler(database: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        let end = utc("2026-11-23T00:00:00Z")
        // Down from 04:30 to 06:00 on the first day (Moscow's 08:00 is 1 h late: sent),
        // and from 12:00 to 15:00 on the second (New York's 07:30 is 2.5 h late: skipped).
        let downtimes = [(utc("2026-11-21T04:30:00Z"), utc("2026-11-21T06:00:00Z")), (utc("2026-11-22T12:00:00Z"), utc("2026-11-22T15:00:00Z"))]
        var restarted = false
        var time = start
        while time < end {
            clock.set(time)
            if !restarted && time >= utc("2026-11-21T12:00:00Z") {
                // A restart: a new process on the same file.
                database = try BotDatabase.open(path: folder.databasePath)
                scheduler = DailyScheduler(database: database, weather: weather, outbox: nil, logger: logger, clock: clock)
                restarted = true
            }
            if !downtimes.contains(where: { time >= $0.0 && time < $0.1 }) {
                await scheduler.tick()
            }
            time += 20
        }
        let counts = try forecastsPerChat(database)
        #expect(counts[1] == 2)  // Moscow: late on day one, on time on day two
        #expect(counts[2] == 2)  // Kathmandu: 22 and 23 November, local
        #expect(counts[3] == 2)  // London
        #expect(counts[4] == 1)  // New York: day two skipped, missed by more than 2 h
        #expect(counts[5] == 2)  // a fixed offset
        let days = try database.subscriptions(chatID: 2).first?.lastSentDay
        #expect(days == "2026-11-23")
        #expect(try database.subscriptions(chatID: 4).first?.lastSentDay == "2026-11-22")  // the skipped day counts as done
    }

    @Test func theRunLoopTicksOnItsClockUntilShutdown() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let start = utc("2026-11-21T04:59:00Z")
        try await subscribe(database, chat: 1, place: Place(name: "Moscow", latitude: 55.75, longitude: 37.62), zone: "Europe/Moscow", hour: 8, minute: 0, now: start)
        let clock = ManualClock(start)
        let scheduler = DailyScheduler(database: database, weather: CountingWeather(), outbox: nil, logger: logger, clock: clock)
        let running = Task { try await scheduler.run() }
        try await waitUntil("the forecast") { try database.outboxBacklog() == 1 }
        running.cancel()
        try await running.value
        #expect(try database.outboxBacklog() == 1)
    }
}
