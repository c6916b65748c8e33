import Foundation
import HTTPTransport
import Logging
import OpenMeteo
import OpenWeather
import Prometheus
import ServiceLifecycle
import TelegramBotAPI
import UnixSignals
import WeatherBot
import WeatherBotHTTP
import WeatherBotPostgres
import WeatherBotService
import WeatherBotStore
import WeatherBotSQLite

/// Wires the parts together and runs them until SIGTERM or SIGINT.
struct BotApplication {
    /// Start-up stopped for a reason the operator must fix; `message` says which.
    struct StartFailure: Error {
        var message: String
    }

    let configuration: BotConfiguration

    /// An error as one line for the operator; damage says what to do about it.
    static func describe(_ error: any Error) -> String {
        BotDatabase.damage(error)?.description ?? PostgresStore.describe(error)
    }

    func run() async throws {
        let level = configuration.log.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "weatherbot")
        for warning in configuration.warnings { logger.warning("\(warning)") }

        if let location = configuration.database.url {
            return try await runReplica(on: location, logger: logger)
        }
        let database: BotDatabase
        do {
            database = try BotDatabase.open(path: configuration.database.path, holdingTheFile: true)
            if let damage = try database.quickCheck() { throw DatabaseDamaged(detail: damage) }
        } catch {
            throw StartFailure(message: "cannot use the database at \(configuration.database.path): \(Self.describe(error))")
        }
        if database.isNew {
            // Said loudly: a path pointing at the wrong place (a volume not mounted) starts a bot
            // that has forgotten every chat.
            logger.warning(
                "a new, empty database was created: no chat, favorite or daily forecast is known; if this bot had users, stop it and set the database path to their file",
                metadata: ["database": "\(configuration.database.path)"])
        }
        let clients = clients(logger: logger)
        try await serve(
            database, where: configuration.database.path, clients: clients,
            webhook: try await webhookSettings(database, where: configuration.database.path), first: database.service(), logger: logger)
        await clients.shutdown()
    }

    /// What the process talks and counts through, made once: a standby's HTTP server and the
    /// bot it becomes share them.
    struct Clients {
        let telegramTransport: NIOHTTPTransport
        let openWeatherTransport: NIOHTTPTransport
        /// Open-Meteo's and Nominatim's: OpenWeather's unless they go through another proxy.
        let openMeteoTransport: NIOHTTPTransport
        /// The bot's counters, kept for /metrics when the HTTP endpoints are on.
        let registry: PrometheusCollectorRegistry
        let metrics: BotMetrics
        let telegram: TelegramClient

        func shutdown() async {
            try? await telegramTransport.shutdown()
            try? await openWeatherTransport.shutdown()
            try? await openMeteoTransport.shutdown()
        }
    }

    func clients(logger: Logger) -> Clients {
        // One client for both APIs, unless they go through different proxies.
        let telegramProxy = configuration.telegram.proxy.proxy
        let openWeatherProxy = configuration.openWeather.proxy.proxy
        let telegramTransport = NIOHTTPTransport(proxy: telegramProxy)
        let openWeatherTransport = openWeatherProxy == telegramProxy ? telegramTransport : NIOHTTPTransport(proxy: openWeatherProxy)
        let openMeteoProxy = configuration.openMeteo.proxy.proxy
        let openMeteoTransport =
            openMeteoProxy == openWeatherProxy ? openWeatherTransport : openMeteoProxy == telegramProxy ? telegramTransport : NIOHTTPTransport(proxy: openMeteoProxy)
        for (api, choice) in [
            ("Telegram", configuration.telegram.proxy), ("OpenWeather", configuration.openWeather.proxy),
            ("Open-Meteo and Nominatim", configuration.openMeteo.proxy),
        ] where choice.proxy != nil {
            logger.info("\(api) requests go through a proxy", metadata: ["proxy": "\(choice)"])
        }
        let registry = PrometheusCollectorRegistry()
        let metrics = BotMetrics(factory: configuration.http.listen == nil ? nil : OperatorEndpoints.metricsFactory(registry))
        let telegram = TelegramClient(
            token: configuration.telegram.botToken, apiURL: configuration.telegram.apiURL, transport: CountingTransport(telegramTransport, metrics: metrics))
        return Clients(
            telegramTransport: telegramTransport, openWeatherTransport: openWeatherTransport, openMeteoTransport: openMeteoTransport, registry: registry,
            metrics: metrics, telegram: telegram)
    }

    /// The weather sources as configured, with their budgets: the day's calls so far, by every
    /// replica, and OpenWeather's last minute survive a restart.
    func weatherService(_ store: any BotStore, _ clients: Clients, logger: Logger) async
        -> (WeatherService, budgets: (openWeather: CallBudget?, openMeteo: CallBudget?))
    {
        let metrics = clients.metrics
        var openWeather: OpenWeatherClient?
        if configuration.openWeather.isConfigured {
            openWeather = OpenWeatherClient(
                apiKey: configuration.openWeather.apiKey, apiURL: configuration.openWeather.apiURL,
                transport: CountingTransport(clients.openWeatherTransport, metrics: metrics, openWeather: true),
                fallbackMemory: .seconds(configuration.openWeather.fallbackMemory),
                budget: await OpenWeatherUsage.budget(configuration.openWeather.budget, from: store))
        }
        var openMeteo: OpenMeteoClient?
        var nominatim: NominatimClient?
        if configuration.sources.openMeteo {
            let section = configuration.openMeteo
            let transport = CountingTransport(clients.openMeteoTransport, metrics: metrics)
            openMeteo = OpenMeteoClient(
                apiURL: section.apiURL, geocodingURL: section.geocodingURL, airQualityURL: section.airQualityURL, transport: transport,
                budget: await OpenWeatherUsage.budget(section.budget, from: store, source: "open-meteo"))
            nominatim = NominatimClient(url: configuration.nominatim.url, userAgent: configuration.nominatim.userAgent, transport: transport)
        }
        let service = WeatherService(
            client: openWeather, openMeteo: openMeteo, nominatim: nominatim, freshFor: .seconds(configuration.openWeather.cacheTTL), logger: logger,
            metrics: metrics)
        return (service, (openWeather?.budget, openMeteo?.budget))
    }

    /// Webhook mode's settings: the secret configured, or the one kept in the database (every
    /// replica gets the same); nil when polling.
    func webhookSettings(_ store: any BotStore, where location: String) async throws -> WebhookReceiver.Settings? {
        guard let choice = configuration.telegram.webhook else { return nil }
        let secret: String
        do {
            if let configured = choice.secret { secret = configured } else { secret = try await store.webhookSecret(generated: Self.generatedSecret()) }
        } catch {
            throw StartFailure(message: "cannot keep the webhook's secret in the database at \(location): \(Self.describe(error))")
        }
        return WebhookReceiver.Settings(url: { _ in choice.url }, secret: secret, maxConnections: choice.maxConnections)
    }

    /// The HTTP server of /healthz and /metrics, and of the webhook when `webhook` takes posts;
    /// nil without HTTP_LISTEN. Unhealthy after three long polls' time (or questions about the
    /// webhook) without an answer.
    /// - Parameter runtime: the running bot, whose conversation draws the Mini App's screens and
    ///   whose workers make its changes; nil on a standby, which serves no app until it becomes the bot.
    func server(
        _ store: any BotStore, _ clients: Clients, webhook: WebhookReceiver?, standby: Bool, runtime: BotRuntime? = nil, logger: Logger
    ) -> OperatorServer? {
        configuration.http.listen.map { listen in
            let app = runtime.flatMap { runtime in
                configuration.miniApp.url.map { _ in
                    MiniAppEndpoints(
                        authenticator: MiniAppAuthenticator(botToken: configuration.telegram.botToken), conversation: runtime.conversation,
                        store: store, changes: AppChanges(database: store, workers: runtime.workers), logger: logger)
                }
            }
            let endpoints = OperatorEndpoints(
                registry: clients.registry, metrics: clients.metrics, store: store, window: .seconds(3 * configuration.runtime.pollTimeout + 30),
                webhook: webhook.flatMap { receiver in configuration.telegram.webhook.map { ($0.path, receiver) } }, standby: standby, app: app)
            return OperatorServer(
                endpoints, host: listen.host, port: listen.port, limits: configuration.http.limits, logger: logger, eventLoop: LoopExecutor.shared.loop)
        }
    }

    /// Runs the bot on `store` until SIGTERM or SIGINT (or, with no `signals`, the graceful stop of
    /// the group it runs in), taking updates by `webhook` or, when nil, by polling; `first` starts
    /// before the other services and stops after them,
    /// `deliveryFence` says whether replies may still be sent, and `sharesInbox` whether other
    /// replicas take webhook posts into the same inbox.
    func serve(
        _ store: any BotStore, where location: String, clients: Clients, webhook: WebhookReceiver.Settings?, first: (any Service)? = nil,
        deliveryFence: (@Sendable () -> Bool)? = nil, sharesInbox: Bool = false, signals: [UnixSignal] = [.sigterm, .sigint], logger: Logger
    ) async throws {
        let (telegram, metrics) = (clients.telegram, clients.metrics)
        let (weather, budgets) = await weatherService(store, clients, logger: logger)
        var settings = configuration.runtime
        settings.webhook = webhook
        settings.sharesInbox = sharesInbox
        settings.miniApp = configuration.miniApp.url
        // Short map links go out the way OpenWeather does (its proxy, if any), uncounted: they
        // cost nothing at OpenWeather.
        let mapLinks = ShortMapLinks(transport: clients.openWeatherTransport, logger: logger)
        let runtime = BotRuntime(
            database: store, telegram: telegram, geocoder: weather, weather: weather, mapLinks: mapLinks, openWeatherBudget: budgets.openWeather,
            openMeteoBudget: budgets.openMeteo, configuration: settings,
            deliveryFence: deliveryFence, metrics: metrics, logger: logger)
        do {
            // Telegram may be out of reach for long at the start: a stop asked meanwhile (as PID 1
            // in a container, where an unhandled SIGTERM is ignored) ends the start.
            guard try await Self.unlessSignalled(signals, { try await runtime.prepare() }) != nil else {
                logger.info("stopped before the start was complete")
                return
            }
        } catch let error as TelegramError where error.isUnauthorized {
            throw StartFailure(message: "Telegram rejected the bot token (\(error.errorCode ?? 401) \(error.reason)). Check TELEGRAM_BOT_TOKEN.")
        } catch let error as TelegramError {
            throw StartFailure(message: "Telegram refused the start-up calls: \(error)")
        }
        let http = server(store, clients, webhook: runtime.webhook, standby: false, runtime: runtime, logger: logger)
        let group = runtime.serviceGroup(signals: signals, first: first, last: http)
        logger.info(
            "weatherbot started",
            metadata: [
                "database": "\(location)", "updates": "\(configuration.telegram.webhook.map { "webhook \($0.url)" } ?? "polling")",
                "weather": "\(configuration.sources)",
            ])
        do {
            try await withTaskExecutorPreference(LoopExecutor.shared) { try await group.run() }
        } catch let error as TelegramError where error.isUnauthorized {
            throw StartFailure(message: "Telegram rejected the bot token (\(error.reason)). Check TELEGRAM_BOT_TOKEN.")
        } catch let error as NotLeading {
            throw StartFailure(message: "\(error); a standby replica takes over")
        } catch let error as OperatorServer.Failure {
            throw StartFailure(message: "\(error)")
        } catch let error as WebhookReceiver.Refused {
            throw StartFailure(message: "\(error). Check TELEGRAM_WEBHOOK_URL: https, on port 443, 80, 88 or 8443, reachable from the internet.")
        } catch let error as BotDatabase.FileReplaced {
            logger.critical("stopping: \(error)")
            throw StartFailure(message: "\(error)")
        } catch where store.isDamage(error) {
            logger.critical("stopping: \(Self.describe(error))")
            throw StartFailure(message: "the database at \(location): \(Self.describe(error))")
        }
        logger.info("weatherbot stopped")
    }

    /// Runs `body` to its end, unless one of `signals` comes first, or (inside a service group:
    /// a replica's, which traps the signals itself) the group's graceful shutdown begins: then
    /// `body` is cancelled and the answer is nil.
    static func unlessSignalled<T: Sendable>(_ signals: [UnixSignal], _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        let stoppable: @Sendable () async throws -> T? = {
            do {
                return try await cancelWhenGracefulShutdown(body)
            } catch where Task.isShuttingDownGracefully {
                return nil
            }
        }
        guard !signals.isEmpty else { return try await stoppable() }
        let caught = await UnixSignalsSequence(trapping: signals)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await stoppable() }
            group.addTask {
                for await _ in caught { return nil }
                // Cancelled: the body ended first.
                try Task.checkCancellation()
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// A webhook secret of 43 characters Telegram allows, from the system's secure generator: 258 bits.
    static func generatedSecret() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String((0..<43).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] })
    }
}
