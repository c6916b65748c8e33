import Foundation
import OpenWeather
import HTTPTransport
import Logging
import Testing
import WeatherBotService
@testable import weatherbot

@Suite struct BotConfigurationTests {
    static let token = "7777:CONFIG-token-not-real"
    static let key = "config-key-not-real"

    @Test func theEnvironmentIsReadByItsFixedNames() async throws {
        let configuration = try await BotConfiguration.load(configPath: nil, environment: [
            "TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key, "TELEGRAM_API_URL": "http://127.0.0.1:9",
            "OPEN_WEATHER_API_URL": "http://127.0.0.1:10", "DATABASE_PATH": "/tmp/x.sqlite", "LOG_LEVEL": "debug",
        ])
        #expect(configuration.telegram.botToken == Self.token)
        #expect(configuration.openWeather.apiKey == Self.key)
        #expect(configuration.telegram.apiURL.absoluteString == "http://127.0.0.1:9")
        #expect(configuration.openWeather.apiURL.absoluteString == "http://127.0.0.1:10")
        #expect(configuration.database.path == "/tmp/x.sqlite")
        #expect(configuration.log.level == .debug)
        #expect(configuration.runtime.pollTimeout == 30)
        #expect(configuration.runtime.maximumFavorites == 20)
        // check-config prints this: the secrets never.
        #expect(!configuration.description.contains(Self.token))
        #expect(!configuration.description.contains(Self.key))
        #expect(configuration.description.contains("<redacted>"))
    }

    @Test func httpListenTakesHostAndPortAndRefusesAnythingElse() async throws {
        let base = ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key]
        #expect(try await BotConfiguration.load(configPath: nil, environment: base).http.listen == nil)
        for (text, host, port) in [("0.0.0.0:8080", "0.0.0.0", 8080), ("127.0.0.1:9090", "127.0.0.1", 9090), ("[::1]:80", "::1", 80), (" localhost:0 ", "localhost", 0)] {
            let listen = try await BotConfiguration.load(configPath: nil, environment: base.merging(["HTTP_LISTEN": text]) { $1 }).http.listen
            #expect(listen?.host == host && listen?.port == port, "\(text)")
        }
        for text in ["8080", "0.0.0.0", ":8080", "host:port", "0.0.0.0:70000", "a b:80"] {
            await #expect(throws: BotConfiguration.Invalid.self, "\(text)") {
                _ = try await BotConfiguration.load(configPath: nil, environment: base.merging(["HTTP_LISTEN": text]) { $1 })
            }
        }
    }

    @Test func aPasswordInAURLIsNotPrinted() async throws {
        let configuration = try await BotConfiguration.load(configPath: nil, environment: [
            "TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key,
            "TELEGRAM_API_URL": "https://bot:s3cr%40t-pass@telegram.example.org:8443",
        ])
        #expect(!configuration.description.contains("s3cr"), "\(configuration.description)")
        #expect(configuration.description.contains("https://bot:<redacted>@telegram.example.org:8443"))
        #expect(configuration.telegram.apiURL.password(percentEncoded: false) == "s3cr@t-pass")
    }

    @Test func aMissingTokenIsOneLineSayingHowToSetIt() async throws {
        do {
            _ = try await BotConfiguration.load(configPath: nil, environment: [:])
            Issue.record("an empty environment was accepted")
        } catch let invalid as BotConfiguration.Invalid {
            #expect(invalid.problems.count == 1)
            #expect(invalid.problems[0].contains("TELEGRAM_BOT_TOKEN"))
        }
    }

    @Test func theTokenAloneRunsOnOpenMeteoAndCheckConfigSaysSo() async throws {
        let keyless = try await BotConfiguration.load(configPath: nil, environment: ["TELEGRAM_BOT_TOKEN": Self.token])
        #expect(!keyless.openWeather.isConfigured)
        #expect(keyless.sources.description == "Open-Meteo, with Nominatim for shared locations (no OpenWeather key)")
        #expect(keyless.openMeteo.apiURL.absoluteString == "https://api.open-meteo.com")
        #expect(keyless.openMeteo.geocodingURL.absoluteString == "https://geocoding-api.open-meteo.com")
        #expect(keyless.openMeteo.airQualityURL.absoluteString == "https://air-quality-api.open-meteo.com")
        #expect(keyless.nominatim.url.absoluteString == "https://nominatim.openstreetmap.org")
        #expect(keyless.openMeteo.budget.perDay == 10_000)
        // Nominatim's policy asks for a way to reach the operator: the default has none, and that is said.
        #expect(keyless.warnings.contains { $0.hasPrefix("warning: NOMINATIM_USER_AGENT (weatherbot/1.0 (Telegram weather bot)) gives no way to reach you") })
        let reachable = try await BotConfiguration.load(
            configPath: nil, environment: ["TELEGRAM_BOT_TOKEN": Self.token, "NOMINATIM_USER_AGENT": "weatherbot/1.0 (+https://t.me/some_weather_bot)"])
        #expect(reachable.warnings.isEmpty)
        let both = try await BotConfiguration.load(configPath: nil, environment: ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key])
        #expect(both.sources.description == "OpenWeather, with Open-Meteo and Nominatim while it cannot answer")
        let alone = try await BotConfiguration.load(
            configPath: nil, environment: ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key, "OPEN_METEO_FALLBACK": "false"])
        #expect(alone.sources.description == "OpenWeather alone (the fallback is off)")
        // Without a key the fallback cannot be off: there would be no source at all.
        do {
            _ = try await BotConfiguration.load(configPath: nil, environment: ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_METEO_FALLBACK": "false"])
            Issue.record("a configuration with no weather source was accepted")
        } catch let invalid as BotConfiguration.Invalid {
            #expect(invalid.problems == [
                "error: OPEN_METEO_FALLBACK=false needs OPEN_WEATHER_API_KEY: without a key Open-Meteo is the only source. Set the key, or leave the fallback on."
            ])
        }
        let renamed = try await BotConfiguration.load(
            configPath: nil,
            environment: [
                "TELEGRAM_BOT_TOKEN": Self.token, "OPEN_METEO_API_URL": "http://127.0.0.1:1", "OPEN_METEO_GEOCODING_URL": "http://127.0.0.1:2",
                "OPEN_METEO_AIR_QUALITY_URL": "http://127.0.0.1:3", "NOMINATIM_URL": "http://127.0.0.1:4", "OPEN_METEO_CALLS_PER_DAY": "500",
            ])
        #expect(renamed.openMeteo.apiURL.port == 1 && renamed.openMeteo.geocodingURL.port == 2 && renamed.openMeteo.airQualityURL.port == 3)
        #expect(renamed.nominatim.url.port == 4 && renamed.openMeteo.budget.perDay == 500)
    }

    @Test func badValuesAreRefused() async throws {
        for (name, value) in [("TELEGRAM_API_URL", "ftp://x"), ("TELEGRAM_POLL_TIMEOUT", "0"), ("LOG_LEVEL", "loud"), ("FAVORITES_LIMIT", "0")] {
            await #expect(throws: BotConfiguration.Invalid.self, "\(name)=\(value)") {
                _ = try await BotConfiguration.load(configPath: nil, environment: [
                    "TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key, name: value,
                ])
            }
        }
    }

    @Test func webhookModeNeedsAnHTTPSURLAndHTTPListenAndKeepsItsSecretOutOfTheDescription() async throws {
        let secrets = ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key]
        let polling = try await BotConfiguration.load(configPath: nil, environment: secrets)
        #expect(polling.telegram.webhook == nil)
        let webhook = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "TELEGRAM_WEBHOOK_URL": "https://bot.example.com/telegram/updates", "HTTP_LISTEN": "127.0.0.1:8080",
            "TELEGRAM_WEBHOOK_SECRET": "s3cret_Value-1", "TELEGRAM_WEBHOOK_MAX_CONNECTIONS": "10",
        ]) { $1 })
        #expect(webhook.telegram.webhook?.url.absoluteString == "https://bot.example.com/telegram/updates")
        #expect(webhook.telegram.webhook?.path == "/telegram/updates")
        #expect(webhook.telegram.webhook?.secret == "s3cret_Value-1")
        #expect(webhook.telegram.webhook?.maxConnections == 10)
        #expect(!webhook.description.contains("s3cret_Value-1"))
        #expect(webhook.description.contains("https://bot.example.com/telegram/updates"))
        // Without a secret of its own, one is generated and kept in the database.
        let generated = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "TELEGRAM_WEBHOOK_URL": "https://bot.example.com", "HTTP_LISTEN": "0.0.0.0:8080",
        ]) { $1 })
        #expect(generated.telegram.webhook?.secret == nil)
        #expect(generated.telegram.webhook?.path == "/")
        // A Bot API server of one's own may post to http.
        let local = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "TELEGRAM_API_URL": "http://127.0.0.1:8081", "TELEGRAM_WEBHOOK_URL": "http://127.0.0.1:8080/hook", "HTTP_LISTEN": "127.0.0.1:8080",
        ]) { $1 })
        #expect(local.telegram.webhook?.url.scheme == "http")

        for (settings, says) in [
            (["TELEGRAM_WEBHOOK_URL": "http://bot.example.com/hook", "HTTP_LISTEN": "127.0.0.1:8080"], "TELEGRAM_WEBHOOK_URL must be the public https URL"),
            (["TELEGRAM_WEBHOOK_URL": "https://bot.example.com/hook"], "TELEGRAM_WEBHOOK_URL needs HTTP_LISTEN"),
            (["TELEGRAM_WEBHOOK_URL": "https://bot.example.com:9999/hook", "HTTP_LISTEN": "127.0.0.1:8080"], "a port Telegram posts to (443, 80, 88 or 8443)"),
            (["TELEGRAM_WEBHOOK_URL": "https://bot.example.com/hook", "HTTP_LISTEN": "127.0.0.1:8080", "TELEGRAM_WEBHOOK_SECRET": "has space"],
             "TELEGRAM_WEBHOOK_SECRET must be 1 to 256"),
            (["TELEGRAM_WEBHOOK_URL": "https://bot.example.com/hook", "HTTP_LISTEN": "127.0.0.1:8080", "TELEGRAM_WEBHOOK_MAX_CONNECTIONS": "101"],
             "TELEGRAM_WEBHOOK_MAX_CONNECTIONS must be between 1 and 100"),
            (["OPEN_WEATHER_CALLS_PER_MINUTE": "-1"], "OPEN_WEATHER_CALLS_PER_MINUTE must be between 0 and 10000000, not -1"),
            (["OPEN_WEATHER_CALLS_PER_DAY": "9223372036854775807"], "OPEN_WEATHER_CALLS_PER_DAY must be between 0 and 10000000"),
        ] {
            do {
                _ = try await BotConfiguration.load(configPath: nil, environment: secrets.merging(settings) { $1 })
                Issue.record("\(settings) was taken")
            } catch let error as BotConfiguration.Invalid {
                #expect(error.description.contains(says), "\(error)")
                #expect(!error.description.contains("has space"))
            }
        }
    }

    /// The Mini App is off unless its public address is set: https, or http to this machine for
    /// tests; it is served by the HTTP server, so it needs one.
    @Test func theMiniAppNeedsAnHTTPSAddressAndTheHTTPServer() async throws {
        let secrets = ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key]
        #expect(try await BotConfiguration.load(configPath: nil, environment: secrets).miniApp.url == nil)
        let app = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "MINI_APP_URL": "https://weather.example.com/bot/app", "HTTP_LISTEN": "127.0.0.1:8080",
        ]) { $1 })
        #expect(app.miniApp.url?.absoluteString == "https://weather.example.com/bot/app")
        #expect(app.description.contains("https://weather.example.com/bot/app"))
        let local = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "MINI_APP_URL": "http://127.0.0.1:8080/app", "HTTP_LISTEN": "127.0.0.1:8080",
        ]) { $1 })
        #expect(local.miniApp.url?.scheme == "http")
        for (settings, says) in [
            (["MINI_APP_URL": "http://weather.example.com/app", "HTTP_LISTEN": "127.0.0.1:8080"], "MINI_APP_URL must be the public https URL"),
            (["MINI_APP_URL": "weather.example.com/app", "HTTP_LISTEN": "127.0.0.1:8080"], "MINI_APP_URL must be the public https URL"),
            (["MINI_APP_URL": "https://weather.example.com/app#top", "HTTP_LISTEN": "127.0.0.1:8080"], "MINI_APP_URL must be the public https URL"),
            (["MINI_APP_URL": "https://weather.example.com/app"], "MINI_APP_URL needs HTTP_LISTEN"),
        ] {
            do {
                _ = try await BotConfiguration.load(configPath: nil, environment: secrets.merging(settings) { $1 })
                Issue.record("\(settings) was taken")
            } catch let error as BotConfiguration.Invalid {
                #expect(error.description.contains(says), "\(error)")
            }
        }
    }

    /// The server's limits on one client; behind a reverse proxy every post comes from its
    /// address, so that address's share must hold every post Telegram makes at once.
    @Test func oneClientsLimitsAreReadAndMustLeaveRoomForTelegramsPosts() async throws {
        let base = ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key, "HTTP_LISTEN": "127.0.0.1:8080"]
        let defaults = try await BotConfiguration.load(configPath: nil, environment: base).http
        #expect(defaults.connectionsPerAddress == 128 && defaults.headTimeout == 10)
        let set = try await BotConfiguration.load(
            configPath: nil, environment: base.merging(["HTTP_CONNECTIONS_PER_ADDRESS": "16", "HTTP_HEAD_TIMEOUT": "3"]) { $1 }
        ).http
        #expect(set.connectionsPerAddress == 16 && set.headTimeout == 3)
        let webhook = base.merging(["TELEGRAM_WEBHOOK_URL": "https://bot.example.com/hook", "TELEGRAM_WEBHOOK_MAX_CONNECTIONS": "100"]) { $1 }
        #expect(try await BotConfiguration.load(configPath: nil, environment: webhook).http.connectionsPerAddress == 128)
        for (settings, says) in [
            (webhook.merging(["HTTP_CONNECTIONS_PER_ADDRESS": "100"]) { $1 }, "HTTP_CONNECTIONS_PER_ADDRESS (100) must be more than TELEGRAM_WEBHOOK_MAX_CONNECTIONS (100)"),
            (base.merging(["HTTP_CONNECTIONS_PER_ADDRESS": "0"]) { $1 }, "HTTP_CONNECTIONS_PER_ADDRESS must be at least 1"),
            (base.merging(["HTTP_HEAD_TIMEOUT": "0"]) { $1 }, "HTTP_HEAD_TIMEOUT must be at least 1 second"),
        ] {
            do {
                _ = try await BotConfiguration.load(configPath: nil, environment: settings)
                Issue.record("\(settings) was taken")
            } catch let error as BotConfiguration.Invalid {
                #expect(error.description.contains(says), "\(error)")
            }
        }
    }

    @Test func eachAPIHasItsProxyAndHTTPSProxyIsTheFallbackUnlessNoProxyExemptsIt() async throws {
        let secrets = ["TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key]
        let own = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "TELEGRAM_PROXY": "http://bot:hunter2@proxy.example:3128", "OPEN_WEATHER_PROXY": "socks5://127.0.0.1:1080",
            "HTTPS_PROXY": "http://shared.example:8080",
        ]) { $1 })
        #expect(own.telegram.proxy.proxy == HTTPProxy(kind: .http, host: "proxy.example", port: 3128, username: "bot", password: "hunter2"))
        #expect(own.openWeather.proxy.proxy == HTTPProxy(kind: .socks5, host: "127.0.0.1", port: 1080))
        #expect(own.description.contains("http://bot:<redacted>@proxy.example:3128 (from TELEGRAM_PROXY)"), "\(own.description)")
        #expect(!own.description.contains("hunter2"))

        // An empty key, as in config.example.json, is as good as unset.
        let shared = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "https_proxy": "http://shared.example:8080", "NO_PROXY": "localhost,.openweathermap.org", "TELEGRAM_PROXY": "",
        ]) { $1 })
        #expect(shared.telegram.proxy == .init(proxy: HTTPProxy(kind: .http, host: "shared.example", port: 8080), source: "https_proxy"))
        #expect(shared.openWeather.proxy == .init(proxy: nil, source: "NO_PROXY exempts api.openweathermap.org"))

        let direct = try await BotConfiguration.load(configPath: nil, environment: secrets.merging([
            "HTTPS_PROXY": "http://shared.example:8080", "TELEGRAM_PROXY": "direct",
        ]) { $1 })
        #expect(direct.telegram.proxy.proxy == nil)
        #expect(direct.openWeather.proxy.proxy?.host == "shared.example")

        let none = try await BotConfiguration.load(configPath: nil, environment: secrets)
        #expect(none.telegram.proxy.proxy == nil && none.openWeather.proxy.proxy == nil)
    }

    @Test func anUnusableProxyStopsTheStartWithItsReasonAndWithoutItsPassword() async throws {
        do {
            _ = try await BotConfiguration.load(configPath: nil, environment: [
                "TELEGRAM_BOT_TOKEN": Self.token, "OPEN_WEATHER_API_KEY": Self.key,
                "TELEGRAM_PROXY": "socks5://bot:hunter2@proxy.example:1080", "HTTPS_PROXY": "https://proxy.example",
            ])
            Issue.record("an unusable proxy was accepted")
        } catch let error as BotConfiguration.Invalid {
            #expect(error.problems.count == 2, "\(error)")
            #expect(error.problems.first?.hasPrefix("error: TELEGRAM_PROXY has a user name or password, which SOCKS5") == true, "\(error)")
            #expect(error.problems.last?.hasPrefix("error: HTTPS_PROXY uses the scheme https://") == true, "\(error)")
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func theFileIsOverriddenByTheEnvironmentAndAWorldReadableOneWarns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.json").path
        let json = #"{"telegram": {"botToken": "\#(Self.token)", "pollTimeout": 20}, "openWeather": {"apiKey": "\#(Self.key)"}, "database": {"path": "from-file.sqlite"}, "nominatim": {"userAgent": "weatherbot/1.0 (ops@example.org)"}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)

        let configuration = try await BotConfiguration.load(configPath: path, environment: ["DATABASE_PATH": "from-env.sqlite"])
        #expect(configuration.telegram.botToken == Self.token)
        #expect(configuration.runtime.pollTimeout == 20)
        #expect(configuration.database.path == "from-env.sqlite")
        #expect(configuration.warnings.count == 1)
        #expect(configuration.warnings.first?.contains("chmod 600") == true)
        #expect(configuration.warnings.allSatisfy { !$0.contains(Self.token) })

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try await BotConfiguration.load(configPath: path, environment: [:]).warnings.isEmpty)
        await #expect(throws: BotConfiguration.Invalid.self) {
            _ = try await BotConfiguration.load(configPath: folder.appendingPathComponent("missing.json").path, environment: [:])
        }
    }
}
