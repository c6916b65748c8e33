import Logging

extension BotConfiguration {
    /// What the bot logs.
    struct Log: Sendable {
        var level: Logger.Level

        init(reader: ConfigurationReader) {
            let name = reader.string("level", default: "info", help: "trace, debug, info, notice, warning, error or critical").lowercased()
            guard let level = Logger.Level(rawValue: name) else {
                reader.refuse("error: LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical; not \(name.debugDescription).")
                self.level = .info
                return
            }
            self.level = level
        }
    }
}
