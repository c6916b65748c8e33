import WeatherBot
import WeatherBotService
import WeatherBotStore

extension BotRuntime.Configuration {
    /// The runtime's keys: `telegram.pollTimeout` and the outbox's rates in the `telegram` section,
    /// `favorites.limit`, `daily.gracePeriod`, `alerts.checkInterval` and `alerts.quietHours`.
    /// Their defaults are the runtime's own.
    init(reader: ConfigurationReader) {
        self.init()
        let telegram = reader.scoped(to: "telegram")
        pollTimeout = telegram.int("pollTimeout", default: pollTimeout, help: "seconds a long poll is held open, 1 to 50")
        if !(1...50).contains(pollTimeout) {
            reader.refuse("error: TELEGRAM_POLL_TIMEOUT must be between 1 and 50 seconds, not \(pollTimeout).")
        }
        outbox = OutboxSender.Configuration(reader: telegram)
        maximumFavorites = reader.scoped(to: "favorites").int("limit", default: maximumFavorites, help: "the most favorites one chat may keep, 1 to 100")
        if !(1...100).contains(maximumFavorites) {
            reader.refuse("error: FAVORITES_LIMIT must be between 1 and 100, not \(maximumFavorites).")
        }
        let gracePeriod = reader.scoped(to: "daily").int(
            "gracePeriod", default: Int(daily.gracePeriod.components.seconds), help: "seconds a daily forecast missed during downtime may be late")
        if !(0...86_400).contains(gracePeriod) {
            reader.refuse("error: DAILY_GRACE_PERIOD must be between 0 and 86400 seconds, not \(gracePeriod).")
        }
        daily.gracePeriod = .seconds(gracePeriod)
        let alerts = reader.scoped(to: "alerts")
        let range = NoticeChecker.Configuration.intervalRange
        let checkInterval = alerts.int(
            "checkInterval", default: Int(notices.interval.components.seconds),
            help: "seconds between checks of each place with notices on, \(range.lowerBound) to \(range.upperBound)")
        if !range.contains(checkInterval) {
            reader.refuse("error: ALERTS_CHECK_INTERVAL must be between \(range.lowerBound) and \(range.upperBound) seconds, not \(checkInterval).")
        }
        notices.interval = .seconds(checkInterval)
        let quiet = alerts.string(
            "quietHours", default: notices.quietHours?.description ?? "off",
            help: "the local hours notices keep quiet in chats that set none, such as 22:00-08:00, or off")
        if quiet.lowercased() == "off" {
            notices.quietHours = nil
        } else if let hours = QuietHours(typed: quiet) {
            notices.quietHours = hours
        } else {
            reader.refuse("error: ALERTS_QUIET_HOURS must be hours such as 22:00-08:00, or off, not \(quiet).")
        }
    }
}

extension OutboxSender.Configuration {
    /// The outbox's keys of the `telegram` section: Telegram's limits and bulk's share of them.
    init(reader: ConfigurationReader) {
        self.init()
        messagesPerSecond = reader.double(
            "messagesPerSecond", default: messagesPerSecond, help: "messages a second overall (about 30; up to 1000 with paid broadcasts)")
        messagesPerSecondPerChat = reader.double("messagesPerSecondPerChat", default: messagesPerSecondPerChat, help: "messages a second to one chat")
        if !(messagesPerSecond > 0 && messagesPerSecond <= 10_000) || !(messagesPerSecondPerChat > 0 && messagesPerSecondPerChat <= 1_000) {
            reader.refuse(
                "error: TELEGRAM_MESSAGES_PER_SECOND (up to 10000) and TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT (up to 1000) must be positive.")
        }
        bulkShare = reader.double(
            "bulkShare", default: bulkShare, help: "the share of the rate daily forecasts keep while chats are answered, 0 to 1")
        if !(0...1).contains(bulkShare) {
            reader.refuse("error: TELEGRAM_BULK_SHARE must be between 0 and 1 (the share of the rate daily forecasts keep), not \(bulkShare).")
        }
    }
}
