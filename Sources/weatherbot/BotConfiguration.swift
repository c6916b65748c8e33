import Configuration
import Foundation
import WeatherBotPostgres
import HTTPTransport
import Logging
import SystemPackage

/// The effective configuration: a JSON file (`--config`) overridden by the environment.
///
/// The environment names are fixed: `TELEGRAM_BOT_TOKEN`, `TELEGRAM_API_URL`,
/// `OPEN_WEATHER_API_KEY`, `OPEN_WEATHER_API_URL`, `DATABASE_PATH`, `LOG_LEVEL`, and so on,
/// each the upper-cased form of its key. Its description never shows the secrets.
struct BotConfiguration: Sendable, CustomStringConvertible {
    var botToken: String
    var telegramAPIURL: URL
    var pollTimeout: Int
    /// Telegram's limits the outbox keeps to: messages a second overall and per chat.
    var messagesPerSecond: Double
    var messagesPerSecondPerChat: Double
    /// The share of the overall rate bulk messages (daily forecasts) keep while chats are answered.
    var bulkShare: Double
    var openWeatherAPIKey: String
    var openWeatherAPIURL: URL
    var openWeatherFallbackMemory: Int
    /// Seconds a forecast stays fresh in the shared cache.
    var weatherCacheTTL: Int
    var databasePath: String
    /// PostgreSQL instead of the SQLite file (`DATABASE_URL`), for replicas sharing one database.
    var databaseURL: PostgresLocation?
    /// The most favorites one chat may keep.
    var maximumFavorites: Int
    /// Seconds a daily forecast may be late (after downtime) and still be sent.
    var dailyGracePeriod: Int
    var logLevel: Logger.Level
    /// Where the operators' HTTP endpoints (`/healthz`, `/metrics`) listen; nil for none.
    var httpListen: (host: String, port: Int)?
    /// Webhook mode instead of polling: Telegram posts updates to this URL, which the reverse
    /// proxy in front passes to `httpListen`.
    var webhook: Webhook?
    /// Where requests to each API go through; nil for a direct connection.
    var telegramProxy: ProxyChoice
    var openWeatherProxy: ProxyChoice
    /// Said once at start: things that work but deserve attention, such as a world-readable config file.
    var warnings: [String] = []

    /// A configuration that cannot be used; its message is one line that says what to do.
    struct Invalid: Error, CustomStringConvertible {
        var problems: [String]
        var description: String { problems.joined(separator: "\n") }
    }

    /// How Telegram reaches the bot in webhook mode.
    struct Webhook: Sendable {
        /// The public URL; its path is the one the HTTP server takes updates on.
        var url: URL
        /// `TELEGRAM_WEBHOOK_SECRET`; nil for one generated once and kept in the database.
        var secret: String?
        var maxConnections: Int

        /// The path Telegram's requests come to.
        var path: String { url.path.isEmpty ? "/" : url.path }

        /// What Telegram allows in a secret token.
        static func isValidSecret(_ text: String) -> Bool {
            (1...256).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }

    /// A proxy and where it came from, for the start-up log and `check-config`.
    struct ProxyChoice: Sendable, Equatable, CustomStringConvertible {
        var proxy: HTTPProxy?
        /// The setting that chose it: `TELEGRAM_PROXY`, `HTTPS_PROXY`, or why there is none.
        var source: String

        var description: String { proxy.map { "\($0) (from \(source))" } ?? "none (\(source))" }
    }

    /// Every key, its environment name, and its default ("" when required), for `check-config` and the docs.
    static let keys: [(key: String, environment: String, defaultValue: String)] = [
        ("telegram.botToken", "TELEGRAM_BOT_TOKEN", ""),
        ("telegram.apiURL", "TELEGRAM_API_URL", "https://api.telegram.org"),
        ("telegram.pollTimeout", "TELEGRAM_POLL_TIMEOUT", "30"),
        ("telegram.messagesPerSecond", "TELEGRAM_MESSAGES_PER_SECOND", "30"),
        ("telegram.messagesPerSecondPerChat", "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT", "1"),
        ("telegram.bulkShare", "TELEGRAM_BULK_SHARE", "0.2"),
        ("telegram.proxy", "TELEGRAM_PROXY", "HTTPS_PROXY"),
        ("telegram.webhookURL", "TELEGRAM_WEBHOOK_URL", ""),
        ("telegram.webhookSecret", "TELEGRAM_WEBHOOK_SECRET", ""),
        ("telegram.webhookMaxConnections", "TELEGRAM_WEBHOOK_MAX_CONNECTIONS", "40"),
        ("openWeather.apiKey", "OPEN_WEATHER_API_KEY", ""),
        ("openWeather.apiURL", "OPEN_WEATHER_API_URL", "https://api.openweathermap.org"),
        ("openWeather.fallbackMemory", "OPEN_WEATHER_FALLBACK_MEMORY", "3600"),
        ("openWeather.cacheTTL", "OPEN_WEATHER_CACHE_TTL", "600"),
        ("openWeather.proxy", "OPEN_WEATHER_PROXY", "HTTPS_PROXY"),
        ("database.path", "DATABASE_PATH", "weatherbot.sqlite"),
        ("database.url", "DATABASE_URL", ""),
        ("favorites.limit", "FAVORITES_LIMIT", "20"),
        ("daily.gracePeriod", "DAILY_GRACE_PERIOD", "7200"),
        ("log.level", "LOG_LEVEL", "info"),
        ("http.listen", "HTTP_LISTEN", ""),
    ]

    /// The database path alone, from the same sources.
    static func databasePath(configPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> String {
        let (reader, _) = try await reader(configPath: configPath, environment: environment)
        return reader.string(forKey: "database.path", default: "weatherbot.sqlite")
    }

    /// The PostgreSQL database alone, when one is configured.
    static func databaseURL(configPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async throws
        -> PostgresLocation?
    {
        let (reader, _) = try await reader(configPath: configPath, environment: environment)
        guard let text = reader.string(forKey: "database.url", isSecret: true)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        do {
            return try PostgresLocation(url: text)
        } catch {
            throw Invalid(problems: ["error: DATABASE_URL must be postgres://user:password@host:port/name: \(error)"])
        }
    }

    /// The environment over the config file, and any warning about the file.
    private static func reader(configPath: String?, environment: [String: String]) async throws -> (ConfigReader, [String]) {
        var providers: [any ConfigProvider] = [
            EnvironmentVariablesProvider(
                environmentVariables: environment,
                // A proxy's URL may carry its password.
                secretsSpecifier: .specific(["TELEGRAM_BOT_TOKEN", "OPEN_WEATHER_API_KEY", "TELEGRAM_PROXY", "OPEN_WEATHER_PROXY", "DATABASE_URL"]))
        ]
        var warnings: [String] = []
        if let configPath {
            guard FileManager.default.fileExists(atPath: configPath) else {
                throw Invalid(problems: ["error: the config file \(configPath) does not exist."])
            }
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(configPath)))
            } catch {
                throw Invalid(problems: ["error: the config file \(configPath) is not valid JSON of the expected shape."])
            }
            if let warning = Self.permissionWarning(configPath) { warnings.append(warning) }
        }
        return (ConfigReader(providers: providers), warnings)
    }

    static func load(configPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> BotConfiguration {
        let (reader, warnings) = try await reader(configPath: configPath, environment: environment)
        var problems: [String] = []

        let token = reader.string(forKey: "telegram.botToken", isSecret: true)?.trimmingCharacters(in: .whitespaces) ?? ""
        if token.isEmpty {
            problems.append("error: the Telegram bot token is not set. Set TELEGRAM_BOT_TOKEN (from @BotFather), or telegram.botToken in the --config file.")
        }
        let apiKey = reader.string(forKey: "openWeather.apiKey", isSecret: true)?.trimmingCharacters(in: .whitespaces) ?? ""
        if apiKey.isEmpty {
            problems.append("error: the OpenWeather API key is not set. Set OPEN_WEATHER_API_KEY, or openWeather.apiKey in the --config file.")
        }
        func url(_ key: ConfigKey, _ name: String, _ fallback: String) -> URL {
            let text = reader.string(forKey: key, default: fallback)
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                problems.append("error: \(name) must be an http(s) URL, not \(text.debugDescription).")
                return URL(string: fallback)!
            }
            return url
        }
        let telegramURL = url("telegram.apiURL", "TELEGRAM_API_URL", "https://api.telegram.org")
        let weatherURL = url("openWeather.apiURL", "OPEN_WEATHER_API_URL", "https://api.openweathermap.org")
        /// The API's own key; else HTTPS_PROXY (or https_proxy) unless NO_PROXY names the API's host.
        /// `direct` in the API's key means no proxy, whatever HTTPS_PROXY says; empty is unset.
        func proxy(_ key: ConfigKey, _ name: String, for url: URL) -> ProxyChoice {
            func parsed(_ text: String, _ source: String) -> ProxyChoice {
                do {
                    return ProxyChoice(proxy: try HTTPProxy(parsing: text), source: source)
                } catch {
                    problems.append("error: \(source) \(error.description).")
                    return ProxyChoice(proxy: nil, source: source)
                }
            }
            if let own = reader.string(forKey: key, isSecret: true)?.trimmingCharacters(in: .whitespaces), !own.isEmpty {
                if own.lowercased() == "direct" { return ProxyChoice(proxy: nil, source: "\(name) says direct") }
                return parsed(own, name)
            }
            let variable = ["HTTPS_PROXY", "https_proxy"].first { !(environment[$0] ?? "").isEmpty }
            guard let variable, let shared = environment[variable] else { return ProxyChoice(proxy: nil, source: "not set") }
            let noProxy = environment["NO_PROXY"] ?? environment["no_proxy"] ?? ""
            if let host = url.host, HTTPProxy.isExempt(host, noProxy: noProxy) {
                return ProxyChoice(proxy: nil, source: "NO_PROXY exempts \(host)")
            }
            return parsed(shared, variable)
        }
        let telegramProxy = proxy("telegram.proxy", "TELEGRAM_PROXY", for: telegramURL)
        let openWeatherProxy = proxy("openWeather.proxy", "OPEN_WEATHER_PROXY", for: weatherURL)
        let pollTimeout = reader.int(forKey: "telegram.pollTimeout", default: 30)
        if !(1...50).contains(pollTimeout) {
            problems.append("error: TELEGRAM_POLL_TIMEOUT must be between 1 and 50 seconds, not \(pollTimeout).")
        }
        let messagesPerSecond = reader.double(forKey: "telegram.messagesPerSecond", default: 30)
        let messagesPerSecondPerChat = reader.double(forKey: "telegram.messagesPerSecondPerChat", default: 1)
        if !(messagesPerSecond > 0 && messagesPerSecond <= 10_000) || !(messagesPerSecondPerChat > 0 && messagesPerSecondPerChat <= 1_000) {
            problems.append("error: TELEGRAM_MESSAGES_PER_SECOND (up to 10000) and TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT (up to 1000) must be positive.")
        }
        let bulkShare = reader.double(forKey: "telegram.bulkShare", default: 0.2)
        if !(0...1).contains(bulkShare) {
            problems.append("error: TELEGRAM_BULK_SHARE must be between 0 and 1 (the share of the rate daily forecasts keep), not \(bulkShare).")
        }
        let fallbackMemory = reader.int(forKey: "openWeather.fallbackMemory", default: 3600)
        if fallbackMemory < 0 {
            problems.append("error: OPEN_WEATHER_FALLBACK_MEMORY must not be negative.")
        }
        let cacheTTL = reader.int(forKey: "openWeather.cacheTTL", default: 600)
        if !(0...86_400).contains(cacheTTL) {
            problems.append("error: OPEN_WEATHER_CACHE_TTL must be between 0 and 86400 seconds, not \(cacheTTL).")
        }
        let databasePath = reader.string(forKey: "database.path", default: "weatherbot.sqlite")
        if databasePath.isEmpty {
            problems.append("error: DATABASE_PATH must not be empty.")
        }
        var databaseURL: PostgresLocation?
        if let text = reader.string(forKey: "database.url", isSecret: true)?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            do {
                databaseURL = try PostgresLocation(url: text)
            } catch {
                problems.append("error: DATABASE_URL must be postgres://user:password@host:port/name: \(error)")
            }
        }
        let maximumFavorites = reader.int(forKey: "favorites.limit", default: 20)
        if !(1...100).contains(maximumFavorites) {
            problems.append("error: FAVORITES_LIMIT must be between 1 and 100, not \(maximumFavorites).")
        }
        let gracePeriod = reader.int(forKey: "daily.gracePeriod", default: 7200)
        if !(0...86_400).contains(gracePeriod) {
            problems.append("error: DAILY_GRACE_PERIOD must be between 0 and 86400 seconds, not \(gracePeriod).")
        }
        let levelName = reader.string(forKey: "log.level", default: "info").lowercased()
        let level = Logger.Level(rawValue: levelName)
        if level == nil {
            problems.append("error: LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical; not \(levelName.debugDescription).")
        }
        var httpListen: (host: String, port: Int)?
        if let text = reader.string(forKey: "http.listen")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            httpListen = Self.listenAddress(text)
            if httpListen == nil {
                problems.append("error: HTTP_LISTEN must be host:port, such as 0.0.0.0:8080 or 127.0.0.1:9090, not \(text.debugDescription).")
            }
        }
        var webhook: Webhook?
        if let text = reader.string(forKey: "telegram.webhookURL")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            // Telegram posts to https only; a Bot API server of one's own (TELEGRAM_API_URL) also to http.
            let schemes = telegramURL.host == "api.telegram.org" ? ["https"] : ["https", "http"]
            // And only to these ports.
            let ports = telegramURL.host == "api.telegram.org" ? [443, 80, 88, 8443] : nil
            if let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme), url.host != nil {
                if let ports, let port = url.port, !ports.contains(port) {
                    problems.append("error: TELEGRAM_WEBHOOK_URL must use a port Telegram posts to (443, 80, 88 or 8443), not \(port); the reverse proxy passes it on to HTTP_LISTEN.")
                }
                webhook = Webhook(url: url, secret: nil, maxConnections: 40)
            } else {
                problems.append(
                    "error: TELEGRAM_WEBHOOK_URL must be the public \(schemes.joined(separator: " or ")) URL Telegram posts to, such as https://bot.example.com/telegram; not \(text.debugDescription).")
            }
            if httpListen == nil {
                problems.append(
                    "error: TELEGRAM_WEBHOOK_URL needs HTTP_LISTEN, the address the reverse proxy passes Telegram's requests to, such as 127.0.0.1:8080.")
            }
        }
        if let secret = reader.string(forKey: "telegram.webhookSecret", isSecret: true)?.trimmingCharacters(in: .whitespaces), !secret.isEmpty {
            if Webhook.isValidSecret(secret) {
                webhook?.secret = secret
            } else {
                problems.append("error: TELEGRAM_WEBHOOK_SECRET must be 1 to 256 of the characters A-Z, a-z, 0-9, _ and -, as Telegram requires.")
            }
        }
        let maxConnections = reader.int(forKey: "telegram.webhookMaxConnections", default: 40)
        if !(1...100).contains(maxConnections) {
            problems.append("error: TELEGRAM_WEBHOOK_MAX_CONNECTIONS must be between 1 and 100, not \(maxConnections).")
        }
        webhook?.maxConnections = maxConnections
        guard problems.isEmpty, let level else { throw Invalid(problems: problems) }
        return BotConfiguration(
            botToken: token, telegramAPIURL: telegramURL, pollTimeout: pollTimeout,
            messagesPerSecond: messagesPerSecond, messagesPerSecondPerChat: messagesPerSecondPerChat, bulkShare: bulkShare,
            openWeatherAPIKey: apiKey, openWeatherAPIURL: weatherURL, openWeatherFallbackMemory: fallbackMemory, weatherCacheTTL: cacheTTL,
            databasePath: databasePath, databaseURL: databaseURL, maximumFavorites: maximumFavorites, dailyGracePeriod: gracePeriod, logLevel: level,
            httpListen: httpListen, webhook: webhook, telegramProxy: telegramProxy, openWeatherProxy: openWeatherProxy, warnings: warnings)
    }

    /// `host:port` (the host may be an IPv6 address in brackets), or nil when it is not one.
    static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        return (host, port)
    }

    /// A warning when a config file that others can read holds a secret.
    static func permissionWarning(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o044 != 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8),
            text.contains("botToken") || text.contains("apiKey") || (text.contains("proxy") && text.contains("@"))
        else { return nil }
        return "warning: the config file \(path) holds secrets and can be read by other users; run chmod 600 \(path)."
    }

    /// A URL as printed: a password in it is redacted.
    static func shown(_ url: URL) -> String {
        guard let password = url.password(percentEncoded: true), !password.isEmpty else { return url.absoluteString }
        return url.absoluteString.redacting(password.removingPercentEncoding ?? password)
    }

    var description: String {
        let rows: [(String, String)] = [
            ("telegram.botToken", "<redacted>"),
            ("telegram.apiURL", Self.shown(telegramAPIURL)),
            ("telegram.pollTimeout", "\(pollTimeout)"),
            ("telegram.messagesPerSecond", "\(messagesPerSecond)"),
            ("telegram.messagesPerSecondPerChat", "\(messagesPerSecondPerChat)"),
            ("telegram.bulkShare", "\(bulkShare)"),
            ("telegram.proxy", "\(telegramProxy)"),
            ("telegram.webhookURL", webhook.map { Self.shown($0.url) } ?? "(none: polling)"),
            ("telegram.webhookSecret", webhook.map { $0.secret == nil ? "(generated, kept in the database)" : "<redacted>" } ?? "(not used)"),
            ("telegram.webhookMaxConnections", webhook.map { "\($0.maxConnections)" } ?? "(not used)"),
            ("openWeather.apiKey", "<redacted>"),
            ("openWeather.apiURL", Self.shown(openWeatherAPIURL)),
            ("openWeather.fallbackMemory", "\(openWeatherFallbackMemory)"),
            ("openWeather.cacheTTL", "\(weatherCacheTTL)"),
            ("openWeather.proxy", "\(openWeatherProxy)"),
            ("database.path", databaseURL == nil ? databasePath : "(not used: database.url is set)"),
            ("database.url", databaseURL.map { "\($0)" } ?? "(SQLite)"),
            ("favorites.limit", "\(maximumFavorites)"),
            ("daily.gracePeriod", "\(dailyGracePeriod)"),
            ("log.level", logLevel.rawValue),
            ("http.listen", httpListen.map { "\($0.host):\($0.port)" } ?? "(none)"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { key, value in
            key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
        }.joined(separator: "\n")
    }
}
