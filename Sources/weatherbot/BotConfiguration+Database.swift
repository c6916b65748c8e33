import WeatherBotPostgres

extension BotConfiguration {
    /// Where the bot keeps its chats and queues: a SQLite file, or PostgreSQL for replicas.
    struct Database: Sendable {
        var path: String
        /// PostgreSQL instead of the SQLite file, for replicas sharing one database.
        var url: PostgresLocation?

        init(reader: ConfigurationReader) {
            path = reader.string("path", default: "weatherbot.sqlite", help: "the SQLite database file")
            if path.isEmpty {
                reader.refuse("error: DATABASE_PATH must not be empty.")
            }
            url = nil
            if let text = reader.string(
                "url", unset: "none: SQLite", isSecret: true,
                help: "postgres://user:password@host:5432/name?sslmode=… instead of the file: replicas on one database, one of them active")
            {
                do {
                    let location = try PostgresLocation(url: text)
                    url = location
                    reader.show("url", "\(location)")
                    reader.show("path", "(not used: database.url is set)")
                } catch {
                    reader.refuse("error: DATABASE_URL must be postgres://user:password@host:port/name: \(error)")
                }
            }
        }
    }
}
