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

    /// An error as one line for the operator; damage says what to do about it.
    static func describe(_ error: any Error) -> String {
        if let damage = error as? DatabaseDamaged { return damage.description }
        if BotDatabase.isDamage(error) { return DatabaseDamaged(detail: "\(error)").description }
        return "\(error)"
    }

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
            if let damage = try database.quickCheck() { throw DatabaseDamaged(detail: damage) }
        } catch {
            throw StartFailure(message: "cannot use the database at \(configuration.databasePath): \(Self.describe(error))")
        }
        // One client for both APIs, unless they go through different proxies.
        let telegramProxy = configuration.telegramProxy.proxy
        let openWeatherProxy = configuration.openWeatherProxy.proxy
        let telegramTransport = AsyncHTTPTransport(proxy: telegramProxy)
        let openWeatherTransport = openWeatherProxy == telegramProxy ? telegramTransport : AsyncHTTPTransport(proxy: openWeatherProxy)
        for (api, choice) in [("Telegram", configuration.telegramProxy), ("OpenWeather", configuration.openWeatherProxy)] where choice.proxy != nil {
            logger.info("\(api) requests go through a proxy", metadata: ["proxy": "\(choice)"])
        }
        let telegram = TelegramClient(token: configuration.botToken, apiURL: configuration.telegramAPIURL, transport: telegramTransport)
        let weather = OpenWeatherService(
            client: OpenWeatherClient(
                apiKey: configuration.openWeatherAPIKey, apiURL: configuration.openWeatherAPIURL, transport: openWeatherTransport,
                fallbackMemory: .seconds(configuration.openWeatherFallbackMemory)),
            freshFor: .seconds(configuration.weatherCacheTTL), logger: logger)

        let runtime = BotRuntime(
            database: database, telegram: telegram, geocoder: weather, weather: weather,
            pollTimeout: configuration.pollTimeout, messagesPerSecond: configuration.messagesPerSecond,
            messagesPerSecondPerChat: configuration.messagesPerSecondPerChat, bulkShare: configuration.bulkShare,
            maximumFavorites: configuration.maximumFavorites,
            dailyGracePeriod: .seconds(configuration.dailyGracePeriod), logger: logger)
        do {
            try await runtime.prepare()
        } catch let error as TelegramError where error.isUnauthorized {
            throw StartFailure(message: "Telegram rejected the bot token (\(error.errorCode ?? 401) \(error.reason)). Check TELEGRAM_BOT_TOKEN.")
        } catch let error as TelegramError {
            throw StartFailure(message: "Telegram refused the start-up calls: \(error)")
        }
        let group = runtime.serviceGroup(signals: [.sigterm, .sigint])
        logger.info("weatherbot started", metadata: ["database": "\(configuration.databasePath)"])
        do {
            try await group.run()
        } catch let error as TelegramError where error.isUnauthorized {
            throw StartFailure(message: "Telegram rejected the bot token (\(error.reason)). Check TELEGRAM_BOT_TOKEN.")
        } catch where BotDatabase.isDamage(error) {
            logger.critical("stopping: \(Self.describe(error))")
            throw StartFailure(message: "the database at \(configuration.databasePath): \(Self.describe(error))")
        }
        try? await telegramTransport.shutdown()
        try? await openWeatherTransport.shutdown()
        logger.info("weatherbot stopped")
    }
}
