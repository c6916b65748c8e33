import ArgumentParser
import Configuration
import Foundation
import Testing
@testable import weatherbot

/// The keys as the code declares them, against what the README and config.example.json say.
@Suite struct ConfigurationKeysTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows of the README's table in "## Configuration": key, environment variable, default.
    static func readmeRows() throws -> [(key: String, environment: String, defaultValue: String)] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Configuration\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        return section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[0].trimmingCharacters(in: ["`"]), cells[1].trimmingCharacters(in: ["`"]), cells[2])
        }
    }

    /// config.example.json's leaves, by dotted key.
    static func exampleValues() throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("config.example.json"))
        var values: [String: Any] = [:]
        func flatten(_ object: Any, _ prefix: String) {
            if let object = object as? [String: Any] {
                for (key, value) in object { flatten(value, prefix.isEmpty ? key : "\(prefix).\(key)") }
            } else {
                values[prefix] = object
            }
        }
        flatten(try JSONSerialization.jsonObject(with: data), "")
        return values
    }

    @Test func theREADMETableHasEveryKeyWithItsVariableAndDefaultAndNoOther() throws {
        let rows = try Self.readmeRows()
        let documented = Set(rows.map { "\($0.key) \($0.environment) \($0.defaultValue)" })
        let declared = Set(BotConfiguration.keys.map { "\($0.name) \($0.environment) \($0.shownDefault)" })
        #expect(declared.subtracting(documented).sorted() == [], "declared in the code, not in the README's table")
        #expect(documented.subtracting(declared).sorted() == [], "in the README's table, not declared in the code")
        #expect(rows.count == BotConfiguration.keys.count, "a key is in the table twice")
    }

    @Test func theExampleFileHasEveryKeyWithItsDefaultAndNoOther() throws {
        let example = try Self.exampleValues()
        let declared = Set(BotConfiguration.keys.map(\.name))
        #expect(declared.subtracting(example.keys).sorted() == [], "declared in the code, not in config.example.json")
        #expect(Set(example.keys).subtracting(declared).sorted() == [], "in config.example.json, not declared in the code")
        for key in BotConfiguration.keys {
            guard let value = example[key.name] else { continue }
            switch key.defaultValue {
            // A switch is a JSON boolean.
            case .value(let defaultValue) where ["true", "false"].contains(defaultValue): #expect(value as? Bool == (defaultValue == "true"), "\(key.name)")
            case .value(let defaultValue): #expect("\(value)" == defaultValue, "\(key.name)")
            // A placeholder to replace.
            case .required: #expect((value as? String)?.isEmpty == false, "\(key.name)")
            // Empty is as good as unset.
            case .unset: #expect(value as? String == "", "\(key.name)")
            }
        }
    }

    /// The names the README promises are the ones swift-configuration reads.
    @Test func eachKeyIsReadFromItsEnvironmentVariable() {
        for key in BotConfiguration.keys {
            let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [key.environment: "7"]))
            #expect(reader.string(forKey: ConfigKey(key.name)) == "7", "\(key.name) is not read from \(key.environment)")
        }
        #expect(BotConfiguration.keys.first { $0.name == "openWeather.cacheTTL" }?.environment == "OPEN_WEATHER_CACHE_TTL")
        #expect(BotConfiguration.keys.first { $0.name == "telegram.webhookURL" }?.environment == "TELEGRAM_WEBHOOK_URL")
    }

    @Test func helpAndCheckConfigShowEveryKeyAndNoSecret() async throws {
        let secrets = [
            "TELEGRAM_BOT_TOKEN": "7777:KEYS-token-not-real", "OPEN_WEATHER_API_KEY": "keys-key-not-real", "TELEGRAM_WEBHOOK_SECRET": "webhook_secret-1",
            "TELEGRAM_PROXY": "http://bot:proxy-password@proxy.example:3128", "DATABASE_URL": "postgres://bot:database-password@db.example:5432/bot",
        ]
        let configuration = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "TELEGRAM_WEBHOOK_URL": "https://bot.example.com/telegram", "HTTP_LISTEN": "127.0.0.1:8080",
        ]) { $1 })
        let rows = configuration.description.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(Set(rows) == Set(BotConfiguration.keys.map(\.name)))
        #expect(rows.count == BotConfiguration.keys.count)
        for secret in ["KEYS-token", "keys-key", "webhook_secret", "proxy-password", "database-password"] {
            #expect(!configuration.description.contains(secret), "\(configuration.description)")
        }
        for key in BotConfiguration.keys {
            #expect(BotConfiguration.help.contains("  \(key.environment) ("), "\(key.name)")
        }
        #expect(WeatherBotCommand.configuration.discussion.contains(BotConfiguration.help))
        #expect(WeatherBotCommand.CheckConfig.configuration.discussion.contains(BotConfiguration.help))
    }

    /// The README shows what check-config prints with the two secrets set.
    @Test func theREADMEShowsWhatCheckConfigPrints() async throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let afterCommand = try #require(readme.components(separatedBy: "swift run weatherbot check-config\n```\n\n```text\n").dropFirst().first)
        let shown = try #require(afterCommand.components(separatedBy: "\n```").first)
        let configuration = try await BotConfiguration.load(
            configPath: nil, environment: ["TELEGRAM_BOT_TOKEN": "123456:REPLACE-ME", "OPEN_WEATHER_API_KEY": "REPLACE-ME"])
        #expect(shown == configuration.description)
    }
}
