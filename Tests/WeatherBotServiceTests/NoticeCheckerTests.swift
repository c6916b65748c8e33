import BotClock
import Foundation
import GRDB
import Logging
import OpenWeather
import Synchronization
import Testing
import WeatherBot
@testable import WeatherBotService
@testable import WeatherBotSQLite
import WeatherBotStore

/// The checker over a real SQLite file, with weather held in memory and a hand-driven clock:
/// rain that someone else's fetch brings is told then, once, without a call of the checker's own.
@Suite struct NoticeCheckerTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)
    static let saransk = Place(
        name: "Saransk", localNames: ["ru": "Саранск"], region: "Республика Мордовия", country: "RU", latitude: 54.1838, longitude: 45.1749)

    /// The weather a cache holds for every place, and the fetches it tells of, played by the test.
    final class HeldWeather: WeatherSource {
        let held: Mutex<WeatherReport>
        /// Asks the held weather could not answer: each would have been an OpenWeather call.
        let calls = Mutex(0)
        let feed: AsyncStream<FetchedForecast>
        let tell: AsyncStream<FetchedForecast>.Continuation

        init(_ report: WeatherReport) {
            held = Mutex(report)
            (feed, tell) = AsyncStream.makeStream(of: FetchedForecast.self)
        }

        func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport {
            calls.withLock { $0 += 1 }
            return held.withLock { $0 }
        }

        func weather(at place: Place, language: Language, fetchedAfter date: Date, for context: CallContext) async throws -> WeatherReport {
            let report = held.withLock { $0 }
            if report.fetchedAt <= date { calls.withLock { $0 += 1 } }
            return report
        }

        func lastKnown(at place: Place, language: Language) async -> WeatherReport? { nil }
        func fetched() -> AsyncStream<FetchedForecast> { feed }

        /// Pollen by the hour for any place; the places it was asked for, and how.
        let pollenHours = Mutex<[PollenReading]?>(nil)
        let pollenAsked = Mutex<[(place: String, priority: CallPriority)]>([])

        func pollen(at place: Place, for context: CallContext) async -> [PollenReading]? {
            pollenAsked.withLock { $0.append((place.name, context.priority)) }
            return pollenHours.withLock { $0 }
        }
    }

    /// Weather fetched at `fetched`, raining from `rainFrom` (when given) for half an hour.
    static func report(fetched: Date, rainFrom: Date? = nil) -> WeatherReport {
        let condition = Condition(description: "облачно", icon: "04d")
        let minutes = (0..<60).map { index in
            let time = fetched.addingTimeInterval(Double(index) * 60)
            let wet = rainFrom.map { time >= $0 && time < $0.addingTimeInterval(1800) } ?? false
            return MinutePrecipitation(time: time, precipitation: wet ? 2 : 0)
        }
        let hours = (0..<48).map { index in
            HourlyForecast(
                time: fetched.addingTimeInterval(Double(index) * 3600), temperature: 8, clouds: 90, humidity: 80, pressure: 1010, windSpeed: 3,
                windDegrees: 180, precipitationChance: 0.5, precipitation: 0, condition: condition)
        }
        let current = CurrentWeather(
            time: fetched, temperature: 8, feelsLike: 6, clouds: 90, humidity: 80, pressure: 1010, windSpeed: 3, windDegrees: 180, condition: condition)
        return WeatherReport(
            forecast: Forecast(timeZone: .identifier("Europe/Moscow"), current: current, minutely: minutes, hourly: hours), fetchedAt: fetched)
    }

    var logger: Logger {
        var logger = Logger(label: "weatherbot.tests.notices")
        logger.logLevel = .critical
        return logger
    }

    /// The texts of the notices waiting in the outbox.
    func notices(_ database: BotDatabase) throws -> [String] {
        try database.writer.read { db in
            try Data.fetchAll(db, sql: "SELECT parameters FROM outbox WHERE lane = ? ORDER BY id", arguments: [OutboxLane.notice.rawValue]).map { data in
                (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["text"] as? String ?? ""
            }
        }
    }

    @Test func rainAnotherFetchShowsIsToldAtOnceAndOnceWithoutACallOfItsOwn() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        try await database.insert(chats: [
            ChatRecord(id: 7, language: .ru, state: .idle, currentPlace: Self.saransk, notices: NoticeSettings(rain: true, warnings: true, quiet: .off))
        ])
        let clock = ManualClock(Self.t0)
        let weather = HeldWeather(Self.report(fetched: Self.t0))
        let checker = NoticeChecker(store: database, weather: weather, outbox: nil, logger: logger, clock: clock)

        // The round's check finds it dry.
        let first = await checker.round()
        #expect(first.checked == 1 && first.queued == 0)
        #expect(try notices(database).isEmpty)

        // Five minutes on, a card viewed in the cell fetches weather with rain in 20 minutes.
        clock.advance(by: .seconds(300))
        let fetched = Self.t0.addingTimeInterval(300)
        weather.held.withLock { $0 = Self.report(fetched: fetched, rainFrom: fetched.addingTimeInterval(1200)) }
        let watching = Task { await checker.watchFetches() }
        weather.tell.yield(FetchedForecast(latitude: 54.1838, longitude: 45.1749, fetchedAt: fetched))
        let deadline = ContinuousClock.now + .seconds(10)
        while try notices(database).isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        // The same fetch told again, and one of a place nobody watches, change nothing.
        weather.tell.yield(FetchedForecast(latitude: 54.1838, longitude: 45.1749, fetchedAt: fetched))
        weather.tell.yield(FetchedForecast(latitude: 55.75, longitude: 37.62, fetchedAt: fetched))
        weather.tell.finish()
        await watching.value

        let told = try notices(database)
        #expect(told.count == 1)
        #expect(told.first?.contains("дождь через 20 минут") ?? false, "\(told)")
        // The cell's turn in the next round sees the same rain: nothing new.
        clock.advance(by: .seconds(60))
        let second = await checker.round()
        #expect(second.checked == 1 && second.queued == 1, "the notice told between the rounds is the round's: \(second)")
        #expect(try notices(database).count == 1)
        #expect(weather.calls.withLock { $0 } == 0)
    }

    /// A chat turns notices on between two rounds while the cache holds rain 20 minutes ahead
    /// (the card it just viewed): it is told then, not at the next round; turned off, its cell
    /// has nobody left to tell.
    @Test func aChatThatTurnsNoticesOnIsToldOfTheRainAheadAtOnce() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        let off = ChatRecord(id: 8, language: .en, state: .idle, currentPlace: Self.saransk)
        try await database.insert(chats: [off])
        let clock = ManualClock(Self.t0)
        let weather = HeldWeather(Self.report(fetched: Self.t0, rainFrom: Self.t0.addingTimeInterval(1200)))
        let checker = NoticeChecker(store: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        #expect(await checker.round().cells == 0)

        // «/alerts on»: the step commits the chat with notices on, and the workers tell the checker.
        var on = off
        on.notices = NoticeSettings(rain: true, warnings: true, quiet: .off)
        let item = try await database.receive([(updateID: 1, chatID: 8, payload: Data())], lastUpdateID: 0).first
        try await database.commitStep(chat: on, handled: item?.seq ?? -1, changes: [], replies: [], followUps: [])
        let watching = Task { await checker.watchJoins() }
        defer { watching.cancel() }
        checker.chatCommitted(before: off, after: on, forgotten: false)
        let deadline = ContinuousClock.now + .seconds(10)
        while try notices(database).isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let told = try notices(database)
        #expect(told.count == 1)
        #expect(told.first?.hasPrefix("☔ Light rain in 20 minutes") ?? false, "\(told)")
        #expect(weather.calls.withLock { $0 } == 0)

        // Off again: the cell is watched with nobody in it.
        checker.chatCommitted(before: on, after: off, forgotten: false)
        let cell = Self.saransk.cell
        #expect(checker.state.watch.withLock { $0.cells[cell]?.cell.chats.isEmpty } == true)
    }

    /// Rain kept quiet for a chat's quiet hours is still news: «/alerts quiet off» lets the next
    /// round decide it again and tell it, once, and the rounds after never tell it again.
    @Test func rainKeptForQuietHoursIsToldAfterTheyAreTurnedOffAndOnlyOnce() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        // t0 is 14:06 in Saransk; the chat keeps 13:00–16:00 quiet, and rain is due at 14:36.
        let quietHours = try #require(QuietHours(start: 13 * 60, end: 16 * 60))
        let quiet = ChatRecord(
            id: 9, language: .ru, state: .idle, currentPlace: Self.saransk, notices: NoticeSettings(rain: true, warnings: true, quiet: .hours(quietHours)))
        try await database.insert(chats: [quiet])
        let clock = ManualClock(Self.t0)
        let rain = Self.t0.addingTimeInterval(1800)
        let weather = HeldWeather(Self.report(fetched: Self.t0, rainFrom: rain))
        let checker = NoticeChecker(store: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        let first = await checker.round()
        #expect(first.checked == 1 && first.quiet == 1 && first.queued == 0, "\(first)")
        #expect(try notices(database).isEmpty)

        // «/alerts quiet off» a minute later, committed as a step is.
        clock.advance(by: .seconds(60))
        var off = quiet
        off.notices = NoticeSettings(rain: true, warnings: true, quiet: .off)
        let item = try await database.receive([(updateID: 1, chatID: 9, payload: Data())], lastUpdateID: 0).first
        try await database.commitStep(chat: off, handled: item?.seq ?? -1, changes: [], replies: [], followUps: [])
        checker.chatCommitted(before: quiet, after: off, forgotten: false)
        weather.held.withLock { $0 = Self.report(fetched: clock.date, rainFrom: rain) }
        let second = await checker.round()
        #expect(second.queued == 1, "\(second)")
        let told = try notices(database)
        #expect(told.count == 1)
        #expect(told.first?.contains("дождь через 29 минут") ?? false, "\(told)")

        for _ in 0..<2 {
            clock.advance(by: .seconds(600))
            weather.held.withLock { $0 = Self.report(fetched: clock.date, rainFrom: rain) }
            let later = await checker.round()
            #expect(later.queued == 0 && later.quiet == 0, "\(later)")
        }
        #expect(try notices(database).count == 1)
    }

    static let moscow = Place(name: "Moscow", localNames: ["ru": "Москва"], country: "RU", latitude: 55.7558, longitude: 37.6173)
    static let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], country: "RU", latitude: 55.79, longitude: 49.12)

    /// t0 is 14:06 in Moscow: a day of high birch pollen there is told at the round, once; pollen
    /// is asked for only in the cell of a chat that wants it where the data reaches, as background
    /// work, and not again once that chat was told of the day.
    @Test func aHighPollenDayIsToldOnceAndPollenIsAskedOnlyWhereAChatWantsItAndHasIt() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        try await database.insert(chats: [
            ChatRecord(id: 7, language: .ru, state: .idle, currentPlace: Self.moscow, notices: NoticeSettings(pollen: true, quiet: .off)),
            ChatRecord(id: 8, language: .ru, state: .idle, currentPlace: Self.saransk, notices: NoticeSettings(rain: true, quiet: .off)),
            // Pollen alone, east of the data: not watched at all.
            ChatRecord(id: 9, language: .ru, state: .idle, currentPlace: Self.kazan, notices: NoticeSettings(pollen: true, quiet: .off)),
        ])
        let clock = ManualClock(Self.t0)
        let weather = HeldWeather(Self.report(fetched: Self.t0))
        weather.pollenHours.withLock { hours in
            hours = (-15..<33).map { PollenReading(time: Self.t0.addingTimeInterval(Double($0) * 3600), grains: [.birch: 120, .grass: 6]) }
        }
        let checker = NoticeChecker(store: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        let first = await checker.round()
        #expect(first.cells == 2 && first.checked == 2 && first.queued == 1, "\(first)")
        let told = try notices(database)
        #expect(told.count == 1)
        #expect(told.first?.hasPrefix("🌼 Сегодня высокий уровень пыльцы: берёза — высокий, злаки — умеренный.\n📍 <b>Москва</b>") ?? false, "\(told)")
        let asked = weather.pollenAsked.withLock { $0 }
        #expect(asked.map(\.place) == ["Moscow"])
        #expect(asked.allSatisfy { $0.priority == .background })

        for _ in 0..<2 {
            clock.advance(by: .seconds(600))
            weather.held.withLock { $0 = Self.report(fetched: clock.date) }
            let later = await checker.round()
            #expect(later.queued == 0, "\(later)")
        }
        #expect(try notices(database).count == 1)
        #expect(weather.pollenAsked.withLock { $0.count } == 1)
    }

    /// A low day is not told; pollen off, nothing is asked, nor in the evening, when a high day
    /// would not be told any more.
    @Test func aLowPollenDayIsNotToldAndWithPollenOffOrInTheEveningNothingIsAsked() async throws {
        let folder = try TemporaryFolder()
        let database = try BotDatabase.open(path: folder.databasePath)
        try await database.insert(chats: [
            ChatRecord(id: 7, language: .ru, state: .idle, currentPlace: Self.moscow, notices: NoticeSettings(pollen: true, quiet: .off)),
            ChatRecord(id: 8, language: .ru, state: .idle, currentPlace: Self.parisLike, notices: NoticeSettings(rain: true, quiet: .off)),
        ])
        let weather = HeldWeather(Self.report(fetched: Self.t0))
        weather.pollenHours.withLock { hours in
            hours = (-15..<33).map { PollenReading(time: Self.t0.addingTimeInterval(Double($0) * 3600), grains: [.birch: 40]) }
        }
        let clock = ManualClock(Self.t0)
        let checker = NoticeChecker(store: database, weather: weather, outbox: nil, logger: logger, clock: clock)
        let round = await checker.round()
        #expect(round.checked == 2 && round.queued == 0, "\(round)")
        #expect(try notices(database).isEmpty)
        #expect(weather.pollenAsked.withLock { $0.map(\.place) } == ["Moscow"])
        // 20:06 in Moscow.
        clock.advance(by: .seconds(6 * 3600))
        weather.held.withLock { $0 = Self.report(fetched: clock.date) }
        #expect(await checker.round().checked == 2)
        #expect(weather.pollenAsked.withLock { $0.count } == 1)
    }

    /// Inside the data, with rain notices only.
    static let parisLike = Place(name: "Paris", localNames: ["ru": "Париж"], country: "FR", latitude: 48.8589, longitude: 2.32)
}
