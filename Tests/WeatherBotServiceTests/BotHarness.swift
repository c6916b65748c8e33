import BotClock
import Foundation
import HTTPTransport
import Testing
import Logging
import OpenMeteo
import OpenWeather
import PostgresNIO
import Prometheus
import ServiceLifecycle
import TelegramBotAPI
import WeatherBot
import WeatherBotHTTP
import WeatherBotPostgres
import WeatherBotService
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// The store engines the end-to-end tests run on: SQLite always, PostgreSQL when
/// `TEST_DATABASE_URL` names a server (`.ci/run` starts one).
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let serverURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var available: [StoreEngine] { serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }
    var testDescription: String { rawValue }
}

/// How the end-to-end tests' workers take updates: by getUpdates, or by Telegram's posts to the
/// webhook on the worker's HTTP server.
enum Intake: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case polling, webhook

    var testDescription: String { rawValue }
    /// The secret the tests' webhooks are set with.
    static let secret = "loopback-webhook-secret_0123456789"
    /// The path Telegram posts to.
    static let path = "/telegram/updates"
}

/// The real worker (poller or webhook, chat workers, outbox sender) over a real store (a SQLite file, or a
/// PostgreSQL database of its own), talking real HTTP to the loopback fakes. Several can be
/// started one after another on the same store.
/// Every test that runs servers, workers or processes on loopback, one suite at a time: run
/// together they would compete for the machine's two cores and make each other's timeouts lie.
@Suite(.serialized) enum LoopbackTests {}

final class BotHarness {
    let database: any BotStore
    /// The worker's notice checker: tests run its rounds themselves (its own come an hour apart).
    let notices: NoticeChecker
    let group: ServiceGroup
    let running: Task<Void, any Error>
    /// PostgreSQL's connection pool, which runs while the worker does.
    private let pool: Task<Void, Never>?
    /// The port the HTTP server listens on, in webhook mode, once it does.
    private let listening: Locked<Int?>

    /// PostgreSQL's own log: a test reads what the bot did, not the pool's connections.
    static let quiet: Logger = {
        var logger = Logger(label: "weatherbot.tests.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Where the worker keeps its data.
    enum Store {
        case file(String)
        case postgres(url: String)
    }

    init(
        store: Store, telegramURL: URL, weatherURL: URL,
        clock: any WallClock = SystemWallClock(), schedulerInterval: Duration = .seconds(20),
        intake: Intake = .polling, outbox: OutboxSender.Configuration = .init(), metrics: BotMetrics = BotMetrics(),
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), logger: Logger? = nil, mapsURL: URL? = nil,
        budget: CallBudget.Limits? = nil, quietHours: QuietHours? = nil, airPatience: Duration = .milliseconds(1500),
        sources: Sources = .openWeather
    ) async throws {
        switch store {
        case .file(let path):
            database = try BotDatabase.open(path: path)
            pool = nil
        case .postgres(let url):
            let postgres = PostgresStore(try PostgresLocation(url: url), logger: Self.quiet)
            let running = Task { await postgres.client.run() }
            do {
                try await postgres.migrate()
            } catch {
                running.cancel()
                throw error
            }
            pool = running
            database = postgres
        }
        let transport = NIOHTTPTransport()
        // As the executable does: the day's count stored by earlier runs is where a budget starts.
        var openWeatherBudget: CallBudget?
        if let budget { openWeatherBudget = await OpenWeatherUsage.budget(budget, from: database) }
        let telegram = TelegramClient(token: FakeTelegram.token, apiURL: telegramURL, transport: transport, requestTimeout: .seconds(15))
        let logger = logger ?? {
            var logger = Logger(label: "weatherbot.tests")
            logger.logLevel = .warning
            return logger
        }()
        let openWeather = sources.openWeather
            ? OpenWeatherClient(
                apiKey: FakeOpenWeather.apiKey, apiURL: weatherURL, transport: CountingTransport(transport, metrics: metrics, openWeather: true),
                requestTimeout: sources.openMeteo == nil ? .seconds(30) : .seconds(3), budget: openWeatherBudget) : nil
        // As the executable does: Open-Meteo answers alone without a key, and while OpenWeather cannot with one.
        var openMeteoBudget: CallBudget?
        if sources.openMeteo != nil, let budget { openMeteoBudget = await OpenWeatherUsage.budget(budget, from: database, source: "open-meteo") }
        let openMeteo = sources.openMeteo.map { url in
            OpenMeteoClient(apiURL: url, geocodingURL: url, airQualityURL: url, transport: transport, budget: openMeteoBudget)
        }
        let nominatim = sources.nominatim.map { NominatimClient(url: $0, userAgent: "weatherbot-tests/1.0", transport: transport) }
        let weather = WeatherService(
            client: openWeather, openMeteo: openMeteo, nominatim: nominatim, sources: sources.switch, clock: clock, logger: logger, metrics: metrics,
            airPatience: airPatience)
        let webhook = intake == .webhook
            ? WebhookReceiver.Settings(url: { URL(string: "http://127.0.0.1:\($0)\(Intake.path)")! }, secret: Intake.secret, maxConnections: 8) : nil
        let mapLinks = mapsURL.map { ShortMapLinks(transport: transport, server: $0, clock: clock, logger: logger) }
        let runtime = BotRuntime(
            database: database, telegram: telegram, geocoder: weather, weather: weather, mapLinks: mapLinks,
            openWeatherBudget: openWeather == nil ? nil : openWeatherBudget, openMeteoBudget: openMeteoBudget, configuration: .init(
                pollTimeout: 1, outbox: outbox, daily: .init(interval: schedulerInterval), notices: .init(interval: .seconds(3600), quietHours: quietHours),
                webhook: webhook),
            clock: clock, metrics: metrics, logger: logger)
        notices = runtime.notices
        try await runtime.prepare()
        // In webhook mode the worker's HTTP server takes Telegram's posts, on a port of its own.
        let listening = Locked<Int?>(nil)
        self.listening = listening
        let store = database
        let server = runtime.webhook.map { receiver in
            let endpoints = OperatorEndpoints(
                registry: registry, metrics: metrics, store: store, window: .seconds(60), webhook: (Intake.path, receiver))
            return OperatorServer(endpoints, host: "127.0.0.1", port: 0, logger: logger) { port in listening.withLock { $0 = port } }
        }
        group = runtime.serviceGroup(last: server)
        let group = group
        running = Task { try await group.run() }
    }

    /// The webhook's URL, once the worker's HTTP server listens (webhook mode only).
    func webhookURL(timeout: Duration = .seconds(10)) async throws -> URL {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let port = listening.withLock({ $0 }) { return URL(string: "http://127.0.0.1:\(port)\(Intake.path)")! }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw FakeTelegram.TimedOut(what: "the webhook's server to listen")
    }

    /// The SQLite store, for tests of what only that engine has.
    var file: BotDatabase {
        get throws { try #require(database as? BotDatabase) }
    }

    /// Stops as SIGTERM would: polling first, then the chats in flight, then the outbox.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// The store stays readable after a graceful stop, until the harness goes; a harness a failed
    /// test left running stops with it.
    deinit {
        running.cancel()
        pool?.cancel()
    }

    /// Stops without any grace, as close to `kill -9` as a test in one process gets: every task is
    /// cancelled wherever it is, and PostgreSQL's connections close.
    func kill() async {
        running.cancel()
        _ = try? await running.value
        pool?.cancel()
        _ = await pool?.value
    }
}

/// Which weather sources a harness's worker asks, as the executable's configuration chooses them.
struct Sources {
    /// Whether OpenWeather has a key.
    var openWeather: Bool
    /// Open-Meteo's fake, answering all three of its APIs; nil when it is not a source.
    var openMeteo: URL?
    /// Nominatim's fake, with Open-Meteo.
    var nominatim: URL?
    /// When OpenWeather is left alone after a failure, and asked again.
    var `switch` = SourceSwitch()

    /// OpenWeather alone, as the tests before the second source ran.
    static let openWeather = Sources(openWeather: true)
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

/// The loopback world of an end-to-end test: a store (a file in a fresh folder, or a fresh
/// PostgreSQL database), a fake Telegram and a fake OpenWeather, on which workers can be started,
/// stopped and started again.
final class Loopback {
    let folder: TemporaryFolder
    let telegram: FakeTelegram
    let weather: FakeOpenWeather
    /// The second source's fakes, when the loopback has them.
    let openMeteo: FakeOpenMeteo?
    let nominatim: FakeNominatim?
    /// The PostgreSQL database the workers share, on that engine.
    let postgres: ScratchDatabase?
    /// How the workers started here take updates.
    let intake: Intake
    /// In webhook mode, a free port for an executable's HTTP server (a harness's worker chooses its own).
    let webhookPort: Int?

    /// - Parameter openWeatherPerMinute: the fake OpenWeather's rate, beyond which it answers 429.
    /// - Parameter telegramLimits: Telegram's sending limits, enforced with 429; without them, none.
    init(
        engine: StoreEngine = .sqlite, intake: Intake = .polling, forecastDelay: Duration = .zero, openWeatherPerMinute: Int? = nil,
        telegramLimits: SendingLimits? = nil, secondSource: Bool = false
    ) async throws {
        self.intake = intake
        webhookPort = intake == .webhook ? try await LoopbackServer.freePort() : nil
        folder = try TemporaryFolder()
        telegram = try await FakeTelegram(limits: telegramLimits)
        weather = try await FakeOpenWeather(forecastDelay: forecastDelay, perMinute: openWeatherPerMinute)
        openMeteo = secondSource ? try await FakeOpenMeteo() : nil
        nominatim = secondSource ? try await FakeNominatim() : nil
        switch engine {
        case .sqlite: postgres = nil
        case .postgres: postgres = try await ScratchDatabase.create(on: try #require(StoreEngine.serverURL), prefix: "weatherbot_e2e")
        }
    }

    func startBot(
        clock: any WallClock = SystemWallClock(), schedulerInterval: Duration = .seconds(20), outbox: OutboxSender.Configuration = .init(),
        metrics: BotMetrics = BotMetrics(), registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), logger: Logger? = nil,
        mapsURL: URL? = nil, budget: CallBudget.Limits? = nil, quietHours: QuietHours? = nil, airPatience: Duration = .milliseconds(1500),
        openWeather: Bool = true, sources switch: SourceSwitch = SourceSwitch()
    ) async throws -> BotHarness {
        try await BotHarness(
            store: postgres.map { .postgres(url: $0.url) } ?? .file(folder.databasePath), telegramURL: telegram.url, weatherURL: weather.url,
            clock: clock, schedulerInterval: schedulerInterval, intake: intake, outbox: outbox, metrics: metrics, registry: registry,
            logger: logger, mapsURL: mapsURL, budget: budget, quietHours: quietHours, airPatience: airPatience,
            sources: Sources(openWeather: openWeather, openMeteo: openMeteo?.url, nominatim: nominatim?.url, switch: `switch`))
    }

    /// Runs `body` with the store the workers use, while none runs: to set up what a test starts from.
    func withStore<T>(_ body: (any BotStore) async throws -> T) async throws -> T {
        guard let postgres else { return try await body(try BotDatabase.open(path: folder.databasePath)) }
        let store = PostgresStore(try PostgresLocation(url: postgres.url), logger: BotHarness.quiet)
        return try await withRunning([store.client]) {
            try await store.migrate()
            return try await body(store)
        }
    }

    func shutdown() async {
        await weather.shutdown()
        await openMeteo?.shutdown()
        await nominatim?.shutdown()
        await telegram.shutdown()
        await postgres?.drop()
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
