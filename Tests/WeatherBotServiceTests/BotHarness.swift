import BotClock
import Foundation
import HTTPTransport
import Testing
import LoopbackHTTP
import Logging
import OpenWeather
import ServiceLifecycle
import TelegramBotAPI
import WeatherBot
import WeatherBotService
import WeatherBotStore

/// The real worker (poller, chat workers, outbox sender) over a real SQLite file, talking real
/// HTTP to the loopback fakes. Several can be started one after another on the same file.
/// Every test that runs servers, workers or processes on loopback, one suite at a time: run
/// together they would compete for the machine's two cores and make each other's timeouts lie.
@Suite(.serialized) enum LoopbackTests {}

final class BotHarness {
    let database: BotDatabase
    let group: ServiceGroup
    let running: Task<Void, any Error>

    init(
        databasePath: String, telegramURL: URL, weatherURL: URL,
        clock: any WallClock = SystemWallClock(), schedulerInterval: Duration = .seconds(20),
        logger: Logger? = nil
    ) async throws {
        database = try BotDatabase.open(path: databasePath)
        let transport = AsyncHTTPTransport()
        let telegram = TelegramClient(token: FakeTelegram.token, apiURL: telegramURL, transport: transport, requestTimeout: .seconds(15))
        let logger = logger ?? {
            var logger = Logger(label: "weatherbot.tests")
            logger.logLevel = .warning
            return logger
        }()
        let weather = OpenWeatherService(
            client: OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: weatherURL, transport: transport, requestTimeout: .seconds(30)),
            clock: clock, logger: logger)
        let runtime = BotRuntime(
            database: database, telegram: telegram, geocoder: weather, weather: weather, pollTimeout: 1,
            clock: clock, schedulerInterval: schedulerInterval, logger: logger)
        try await runtime.prepare()
        group = runtime.serviceGroup()
        let group = group
        running = Task { try await group.run() }
    }

    /// Stops as SIGTERM would: polling first, then the chats in flight, then the outbox.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Stops without any grace, as close to `kill -9` as a test in one process gets: every task is
    /// cancelled wherever it is.
    func kill() async {
        running.cancel()
        _ = try? await running.value
    }
}

/// The wall clock moved forward by an offset the test sets: «the next minute» comes at once.
/// Sleeps take real time.
final class ShiftedClock: WallClock {
    let offset = Locked<TimeInterval>(0)
    var now: WallInstant { WallInstant(Date().addingTimeInterval(offset.withLock { $0 })) }
    var minimumResolution: Duration { SystemWallClock().minimumResolution }
    func shift(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    func sleep(until deadline: WallInstant, tolerance: Duration?) async throws {
        try await Task.sleep(for: now.duration(to: deadline), tolerance: tolerance)
    }
}

/// The loopback world of an end-to-end test: a database folder, a fake Telegram and a fake
/// OpenWeather, on which workers can be started, stopped and started again.
final class Loopback {
    let folder: TemporaryFolder
    let telegram: FakeTelegram
    let weather: LoopbackServer

    init(forecastDelay: Duration = .zero) async throws {
        folder = try TemporaryFolder()
        telegram = try await FakeTelegram()
        weather = try await FakeOpenWeather.start(forecastDelay: forecastDelay)
    }

    func startBot(
        clock: any WallClock = SystemWallClock(), schedulerInterval: Duration = .seconds(20), logger: Logger? = nil
    ) async throws -> BotHarness {
        try await BotHarness(
            databasePath: folder.databasePath, telegramURL: telegram.url, weatherURL: weather.url,
            clock: clock, schedulerInterval: schedulerInterval, logger: logger)
    }

    func shutdown() async {
        await weather.shutdown()
        await telegram.server.shutdown()
    }
}

/// A fresh folder for one test's database file, removed when the test is done with it.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("bot.sqlite").path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
