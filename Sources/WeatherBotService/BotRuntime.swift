public import BotClock
public import Foundation
public import Logging
public import OpenWeather
public import ServiceLifecycle
public import TelegramBotAPI
public import UnixSignals
public import WeatherBot
public import WeatherBotStore

/// The running bot: the outbox sender, the chat workers and the poller (or the webhook) over one
/// database.
public struct BotRuntime: Sendable {
    /// Sends the replies committed to the outbox, paced to Telegram's limits.
    public let outbox: OutboxSender
    /// Handles the inbox, chat by chat.
    public let workers: ChatWorkers
    /// Where updates come from: getUpdates, or Telegram's requests to the webhook.
    public enum Intake: Sendable {
        case polling(Poller)
        case webhook(WebhookReceiver)

        var service: any Service {
            switch self {
            case .polling(let poller): poller
            case .webhook(let receiver): receiver
            }
        }
    }
    /// The poller or the webhook receiver, as the configuration chose.
    public let intake: Intake
    /// Sends the daily forecasts when they are due.
    public let scheduler: DailyScheduler
    /// Inline queries, and presses under the messages sent from their results.
    public let inline: InlineResponder
    /// Rain about to begin and official warnings, told to the chats that asked.
    public let notices: NoticeChecker
    /// The charts drawn and uploaded, and their `file_id`s.
    public let charts: ChartPhotos
    /// The chats' conversation, which the Mini App's screens are drawn by too.
    public let conversation: Conversation
    /// The Mini App's public page, when there is one.
    public let miniApp: URL?
    let activity: TelegramChatActivity
    /// Keeps OpenWeather's day count in the store, when the calls are budgeted.
    /// The sources' day counts kept in the store: OpenWeather's, Open-Meteo's.
    let usage: [OpenWeatherUsage]
    let telegram: TelegramClient
    let logger: Logger

    /// The runtime's settings: what the configuration sets, with the defaults of the parts it is
    /// made of, each given once (here, in ``OutboxSender/Configuration`` and in
    /// ``DailyScheduler/Configuration``).
    public struct Configuration: Sendable {
        /// Seconds Telegram holds a getUpdates open; in webhook mode, how often Telegram is asked
        /// how the webhook fares.
        public var pollTimeout: Int
        /// The outbox's rates and limits.
        public var outbox: OutboxSender.Configuration
        /// The most favorites one chat may keep.
        public var maximumFavorites: Int
        /// When the daily scheduler wakes and how late a forecast may be.
        public var daily: DailyScheduler.Configuration
        /// How often notices are checked, and the default quiet hours.
        public var notices: NoticeChecker.Configuration
        /// Webhook mode's settings; nil for polling.
        public var webhook: WebhookReceiver.Settings?
        /// Whether other replicas take webhook posts into the same inbox.
        public var sharesInbox: Bool
        /// The Mini App's public page: the menu button and private cards open it; nil for no app.
        public var miniApp: URL?

        /// Wires every part over `database` and `telegram`; nothing runs until ``serviceGroup(signals:first:last:)`` is run.
        public init(
            pollTimeout: Int = 30,
            outbox: OutboxSender.Configuration = OutboxSender.Configuration(),
            maximumFavorites: Int = 20,
            daily: DailyScheduler.Configuration = DailyScheduler.Configuration(),
            notices: NoticeChecker.Configuration = NoticeChecker.Configuration(),
            webhook: WebhookReceiver.Settings? = nil,
            sharesInbox: Bool = false,
            miniApp: URL? = nil
        ) {
            self.miniApp = miniApp
            self.notices = notices
            self.pollTimeout = pollTimeout
            self.outbox = outbox
            self.maximumFavorites = maximumFavorites
            self.daily = daily
            self.webhook = webhook
            self.sharesInbox = sharesInbox
        }
    }

    /// - Parameters:
    ///   - openWeatherBudget: OpenWeather's budget, when it is a source; its day count is kept in the store.
    ///   - openMeteoBudget: Open-Meteo's, alike. The notice checker and the daily scheduler plan by
    ///     the first source's (OpenWeather's when there is a key).
    ///   - deliveryFence: whether this replica may still send (it holds the lease); nil for a single process.
    public init(
        database: any BotStore,
        telegram: TelegramClient,
        geocoder: any Geocoder,
        weather: any WeatherSource,
        mapLinks: (any MapLinkResolver)? = nil,
        openWeatherBudget: CallBudget? = nil,
        openMeteoBudget: CallBudget? = nil,
        configuration: Configuration = Configuration(),
        clock: any WallClock = SystemWallClock(),
        deliveryFence: (@Sendable () -> Bool)? = nil,
        metrics: BotMetrics = BotMetrics(),
        logger: Logger
    ) {
        let activity = TelegramChatActivity(client: telegram, logger: logger)
        self.activity = activity
        let conversation = Conversation(
            geocoder: geocoder, weather: weather, store: database, activity: activity,
            membership: TelegramChatMembership(client: telegram, logger: logger), mapLinks: mapLinks, maximumFavorites: configuration.maximumFavorites,
            defaultQuietHours: configuration.notices.quietHours, miniApp: configuration.miniApp, clock: clock)
        self.conversation = conversation
        self.miniApp = configuration.miniApp
        charts = ChartPhotos(weather: weather, logger: logger)
        outbox = OutboxSender(
            database: database, client: telegram, photos: charts, deliveryFence: deliveryFence, logger: logger, clock: clock,
            configuration: configuration.outbox, metrics: metrics)
        notices = NoticeChecker(
            store: database, weather: weather, outbox: outbox, logger: logger, clock: clock, configuration: configuration.notices,
            budget: openWeatherBudget ?? openMeteoBudget, metrics: metrics)
        workers = ChatWorkers(
            database: database, conversation: conversation, activity: activity, outbox: outbox, notices: notices, logger: logger, clock: clock,
            metrics: metrics)
        let inline = InlineResponder(client: telegram, outbox: outbox, conversation: conversation, logger: logger, metrics: metrics)
        self.inline = inline
        intake =
            if let webhook = configuration.webhook {
                .webhook(
                    WebhookReceiver(
                        settings: webhook, client: telegram, database: database, workers: workers, sharesInbox: configuration.sharesInbox,
                        metrics: metrics, logger: logger, checkInterval: .seconds(configuration.pollTimeout), inline: inline))
            } else {
                .polling(
                    Poller(client: telegram, database: database, workers: workers, logger: logger, pollTimeout: configuration.pollTimeout, clock: clock,
                        metrics: metrics, inline: inline))
            }
        scheduler = DailyScheduler(
            database: database, weather: weather, outbox: outbox, logger: logger, clock: clock, configuration: configuration.daily,
            budget: openWeatherBudget ?? openMeteoBudget, metrics: metrics)
        usage = [
            openWeatherBudget.map { OpenWeatherUsage(budget: $0, store: database, metrics: metrics, logger: logger) },
            openMeteoBudget.map { OpenWeatherUsage(budget: $0, source: "open-meteo", store: database, metrics: metrics, logger: logger) },
        ].compactMap { $0 }
        self.telegram = telegram
        self.logger = logger
    }

    /// The webhook's intake, in webhook mode: the HTTP server hands it Telegram's requests.
    public var webhook: WebhookReceiver? {
        if case .webhook(let receiver) = intake { receiver } else { nil }
    }

    /// Checks the token (getMe), removes any webhook when polling (the webhook is set once the
    /// HTTP server listens), and sets the command menus.
    /// A rejected token throws at once; a network failure or 5xx is retried with backoff.
    public func prepare() async throws {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
        var certificateTold = false
        try await backoff.retry {
            let me = try await telegram.getMe()
            logger.info("connected to Telegram", metadata: ["bot.username": "\(me.username ?? me.firstName)"])
            workers.identify(as: me.username)
            if webhook == nil { try await telegram.deleteWebhook() }
            // The default menu is for every language without one of its own, which the bot
            // answers in English; the readers of Russian get theirs by language code.
            try await telegram.setMyCommands(Self.menu(.en), languageCode: nil)
            for code in Language.readersOfRussian.sorted() {
                try await telegram.setMyCommands(Self.menu(.ru), languageCode: code)
            }
            // The menu button beside the message field opens the app; its label is one for
            // every chat, so it says it in both languages.
            if let miniApp { try await telegram.setMenuButton(Texts.menuAppButton, opening: miniApp.absoluteString) }
        } failed: { error, delay in
            guard let error = error as? TelegramError, error.isTransient else { throw error }
            // Not a network that comes back by itself: said once, plainly, then retried quietly
            // (the certificates may be mended without a restart).
            if error.isCertificateRejected {
                if !certificateTold {
                    logger.error(
                        "Telegram's TLS certificate is not trusted: the machine's CA certificates are missing or wrong (the ca-certificates package, SSL_CERT_FILE), or something intercepts TLS; retrying",
                        metadata: ["error": "\(error)"])
                }
                certificateTold = true
                return
            }
            logger.warning("Telegram is not reachable yet; retrying", metadata: ["error": "\(error)", "retry.in": "\(delay.logDescription)"])
        }
    }

    static func menu(_ language: Language) -> [BotCommand] {
        Texts.for(language).menu.map { BotCommand(command: $0.command, description: $0.description) }
    }

    /// The services in start order; a graceful shutdown stops them in reverse: the intake and the
    /// scheduler first, then the chats in flight, then the outbox, which is flushed for a few
    /// seconds, and last the «typing…» indicators the chats asked for.
    /// - Parameter first: a service started before the others and stopped after them, such as
    ///   the lease a replica holds while it is active.
    /// - Parameter last: a service started after the others and stopped before them, such as the
    ///   HTTP server.
    public func serviceGroup(signals: [UnixSignal] = [], first: (any Service)? = nil, last: (any Service)? = nil) -> ServiceGroup {
        typealias Configured = ServiceGroupConfiguration.ServiceConfiguration
        var services: [Configured] = first.map { [Configured(service: $0)] } ?? []
        // OpenWeather's count is stored last at a stop, after every call the others made.
        services += usage.map { Configured(service: $0) }
        services += [Configured(service: activity), Configured(service: outbox), Configured(service: workers), Configured(service: scheduler)]
        services.append(Configured(service: notices))
        // Stopped right after the intake that feeds it: a query in flight is answered or dropped.
        services.append(Configured(service: inline))
        services.append(
            Configured(service: intake.service, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup))
        if let last { services.append(Configured(service: last)) }
        return ServiceGroup(configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: signals, logger: logger))
    }

}
