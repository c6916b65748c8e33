import Configuration
import Foundation
import OpenWeather
import SystemPackage
import WeatherBotService

/// The effective configuration: a JSON file (`--config`) overridden by the environment.
///
/// Each section is read by its `init(reader:)`, where each of its keys is declared once, with its
/// default, whether it is a secret, and what it means (``ConfigurationReader``); ``keys`` lists
/// them for `--help`, and the description, which `check-config` prints, shows every key's value
/// and never a secret. The environment names are fixed: each key upper-cased, word by word
/// (`telegram.botToken` is `TELEGRAM_BOT_TOKEN`, `log.level` is `LOG_LEVEL`).
struct BotConfiguration: Sendable, CustomStringConvertible {
    var telegram: Telegram
    var openWeather: OpenWeather
    var openMeteo: OpenMeteo
    var nominatim: Nominatim
    var database: Database
    var http: HTTP
    var miniApp: MiniApp
    var log: Log
    /// The runtime's own settings: the long poll's timeout, the outbox's rates, favorites, daily
    /// forecasts. The wiring adds webhook mode's settings.
    var runtime: BotRuntime.Configuration
    /// Said once at start: things that work but deserve attention, such as a world-readable config file.
    var warnings: [String] = []
    /// Each key and its value as `check-config` prints it, secrets redacted.
    private var shown: [(key: String, value: String)]

    /// A configuration that cannot be used; its message is one line a problem, each saying what to do.
    struct Invalid: Error, CustomStringConvertible {
        var problems: [String]
        var description: String { problems.joined(separator: "\n") }
    }

    /// Reads every key; what cannot be used is in the reader's `record.problems`.
    /// - Parameter environment: for `HTTPS_PROXY` and `NO_PROXY`, which are not keys of their own.
    init(reader: ConfigurationReader, environment: [String: String]) {
        telegram = Telegram(reader: reader.scoped(to: "telegram"), environment: environment)
        openWeather = OpenWeather(reader: reader.scoped(to: "openWeather"), environment: environment)
        openMeteo = OpenMeteo(reader: reader.scoped(to: "openMeteo"), environment: environment)
        nominatim = Nominatim(reader: reader.scoped(to: "nominatim"))
        if !openWeather.isConfigured && !openMeteo.fallback {
            reader.refuse(
                "error: OPEN_METEO_FALLBACK=false needs OPEN_WEATHER_API_KEY: without a key Open-Meteo is the only source. Set the key, or leave the fallback on.")
        }
        database = Database(reader: reader.scoped(to: "database"))
        runtime = BotRuntime.Configuration(reader: reader)
        log = Log(reader: reader.scoped(to: "log"))
        http = HTTP(reader: reader.scoped(to: "http"))
        miniApp = MiniApp(reader: reader.scoped(to: "miniApp"))
        if miniApp.url != nil && http.listen == nil {
            reader.refuse("error: MINI_APP_URL needs HTTP_LISTEN, the address the reverse proxy passes the app's requests to, such as 127.0.0.1:8080.")
        }
        if telegram.webhook != nil && http.listen == nil {
            reader.refuse(
                "error: TELEGRAM_WEBHOOK_URL needs HTTP_LISTEN, the address the reverse proxy passes Telegram's requests to, such as 127.0.0.1:8080.")
        }
        // Behind a reverse proxy every post comes from the proxy's address.
        if let webhook = telegram.webhook, http.connectionsPerAddress <= webhook.maxConnections {
            reader.refuse(
                "error: HTTP_CONNECTIONS_PER_ADDRESS (\(http.connectionsPerAddress)) must be more than TELEGRAM_WEBHOOK_MAX_CONNECTIONS (\(webhook.maxConnections)): behind a reverse proxy every post comes from its address.")
        }
        let record = reader.record
        shown = Self.bySection(record.keys).map { key in (key.name, record.shown[key.name] ?? "") }
    }

    /// Every key, as the sections' readers declare them.
    static let keys: [ConfigurationKey] = {
        let reader = ConfigurationReader(ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [:])))
        _ = BotConfiguration(reader: reader, environment: [:])
        return bySection(reader.record.keys)
    }()

    /// Section by section, each in the order its keys were read.
    private static func bySection(_ keys: [ConfigurationKey]) -> [ConfigurationKey] {
        var sections: [String] = []
        for key in keys where !sections.contains(key.section) { sections.append(key.section) }
        var ordered: [ConfigurationKey] = []
        for section in sections { ordered += keys.filter { $0.section == section } }
        return ordered
    }

    static func load(configPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> BotConfiguration {
        let (source, warnings) = try await source(configPath: configPath, environment: environment)
        let reader = ConfigurationReader(source)
        var configuration = BotConfiguration(reader: reader, environment: environment)
        // HTTPS_PROXY, read for each API, is one problem however many APIs it would serve.
        var said = Set<String>()
        guard reader.record.problems.isEmpty else { throw Invalid(problems: reader.record.problems.filter { said.insert($0).inserted }) }
        configuration.warnings = warnings
        if configuration.sources.openMeteo, !configuration.nominatim.identifiesOperator {
            configuration.warnings.append(
                "warning: NOMINATIM_USER_AGENT (\(configuration.nominatim.userAgent)) gives no way to reach you; Nominatim's usage policy asks for one, such as weatherbot/1.0 (+https://t.me/yourbot) or an e-mail address, and may block a bot that has none.")
        }
        return configuration
    }

    /// The database section alone, from the same sources: commands that read the database need no secrets.
    static func database(configPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> Database {
        try await section(configPath: configPath, environment: environment) { Database(reader: $0.scoped(to: "database")) }
    }

    /// OpenWeather's budget alone, for `weatherbot status`, which has no secrets.
    static func openWeatherBudget(configPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) async throws
        -> CallBudget.Limits
    {
        try await section(configPath: configPath, environment: environment) { OpenWeather.budget(reader: $0.scoped(to: "openWeather")) }
    }

    /// What `read` takes from the same sources as the whole configuration, or what is wrong with it.
    private static func section<Value>(configPath: String?, environment: [String: String], _ read: (ConfigurationReader) -> Value) async throws
        -> Value
    {
        let (source, _) = try await source(configPath: configPath, environment: environment)
        let reader = ConfigurationReader(source)
        let value = read(reader)
        guard reader.record.problems.isEmpty else { throw Invalid(problems: reader.record.problems) }
        return value
    }

    /// The environment over the config file, and any warning about the file.
    private static func source(configPath: String?, environment: [String: String]) async throws -> (ConfigReader, [String]) {
        var providers: [any ConfigProvider] = [
            EnvironmentVariablesProvider(
                environmentVariables: environment, secretsSpecifier: .specific(Set(keys.filter(\.isSecret).map(\.environment))))
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

    /// A warning when a config file that others can read holds a secret.
    static func permissionWarning(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o044 != 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8),
            text.contains("botToken") || text.contains("apiKey") || (text.contains("proxy") && text.contains("@"))
        else { return nil }
        return "warning: the config file \(path) holds secrets and can be read by other users; run chmod 600 \(path)."
    }

    /// Every key with its environment variable, default and meaning, for `--help`.
    static var help: String {
        var lines: [String] = []
        for key in keys {
            let defaultValue: String
            switch key.defaultValue {
            case .required: defaultValue = "required"
            case .value(let value): defaultValue = "default \(value)"
            case .unset(let meaning): defaultValue = "unset: \(meaning)"
            }
            lines.append("  \(key.environment) (\(defaultValue))")
            lines.append("      \(key.help)")
        }
        return lines.joined(separator: "\n")
    }

    /// Which weather sources answer, as configured.
    struct Sources: Sendable, CustomStringConvertible {
        var openWeather: Bool
        var openMeteo: Bool

        var description: String {
            switch (openWeather, openMeteo) {
            case (true, true): "OpenWeather, with Open-Meteo and Nominatim while it cannot answer"
            case (true, false): "OpenWeather alone (the fallback is off)"
            default: "Open-Meteo, with Nominatim for shared locations (no OpenWeather key)"
            }
        }
    }

    /// Which weather sources answer: OpenWeather with a key, Open-Meteo without one or as its fallback.
    var sources: Sources {
        Sources(openWeather: openWeather.isConfigured, openMeteo: !openWeather.isConfigured || openMeteo.fallback)
    }

    var description: String {
        let width = shown.map(\.key.count).max() ?? 0
        return shown.map { key, value in
            key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
        }.joined(separator: "\n")
    }
}

extension ConfigurationKey {
    /// The section the key is in: `telegram` for `telegram.apiURL`.
    var section: String { String(name.prefix { $0 != "." }) }
}
