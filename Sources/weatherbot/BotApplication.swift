import Foundation
import HTTPTransport
import Logging
import OpenWeather
import ServiceLifecycle
import TelegramBotAPI
import UnixSignals
import WeatherBot
import WeatherBotService
import WeatherBotStore

/// Wires the parts together and runs them until SIGTERM or SIGINT.
struct BotApplication {
    /// Start-up stopped for a reason the operator must fix; `message` says which.
    struct StartFailure: Error {
        var message: String
    }

    let configuration: BotConfiguration

    func run() async throws {
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "weatherbot")
        for warning in configuration.warnings { logger.warning("\(warning)") }

        let database: BotDatabase
        do {
            database = try BotDatabase.open(path: configuration.databasePath)
        } catch {
            throw StartFailure(message: "cannot open the database at \(configuration.databasePath): \(error)")
        }
        let transport = URLSessionTransport()
        let telegram = TelegramClient(token: configuration.botToken, apiURL: configuration.telegramAPIURL, transport: transport)
        let weather = OpenWeatherClient(
            apiKey: configuration.openWeatherAPIKey, apiURL: configuration.openWeatherAPIURL, transport: transport,
            fallbackMemory: .seconds(configuration.openWeatherFallbackMemory))

        try await prepare(telegram, logger: logger)

        let conversation = Conversation(
            geocoder: weather, weather: weather, activity: TelegramChatActivity(client: telegram, logger: logger))
        let outbox = OutboxSender(database: database, client: telegram, logger: logger)
        let workers = ChatWorkers(database: database, conversation: conversation, outbox: outbox, logger: logger)
        let poller = Poller(client: telegram, database: database, workers: workers, logger: logger, pollTimeout: configuration.pollTimeout)

        // Shut down in reverse: stop polling, let the chats in flight finish, then flush the outbox.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: outbox),
                    .init(service: workers),
                    .init(service: poller, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        logger.info("weatherbot started", metadata: ["database": "\(configuration.databasePath)"])
        do {
            try await group.run()
        } catch let error as TelegramError where error.isUnauthorized {
            throw StartFailure(message: "Telegram rejected the bot token (\(error.reason)). Check TELEGRAM_BOT_TOKEN.")
        }
        logger.info("weatherbot stopped")
    }

    /// Checks the token (getMe), removes any webhook so polling works, and sets the command menus.
    /// A rejected token stops start-up at once; a network failure is retried with backoff.
    private func prepare(_ telegram: TelegramClient, logger: Logger) async throws {
        var failures = 0
        while true {
            do {
                let me = try await telegram.getMe()
                logger.info("connected to Telegram", metadata: ["bot.username": "\(me.username ?? me.firstName)"])
                try await telegram.deleteWebhook()
                for language in Language.allCases {
                    let commands = Texts.for(language).menu.map { BotCommand(command: $0.command, description: $0.description) }
                    try await telegram.setMyCommands(commands, languageCode: language == .ru ? nil : language.rawValue)
                }
                return
            } catch where error.isUnauthorized {
                throw StartFailure(message: "Telegram rejected the bot token (\(error.errorCode ?? 401) \(error.reason)). Check TELEGRAM_BOT_TOKEN.")
            } catch where error.isTransient {
                failures += 1
                let delay = min(30, 1 << min(failures, 5))
                logger.warning("Telegram is not reachable yet; retrying", metadata: ["error": "\(error)", "retry.in": "\(delay)s"])
                try await Task.sleep(for: .seconds(delay))
            } catch {
                throw StartFailure(message: "Telegram refused the start-up calls: \(error)")
            }
        }
    }
}
