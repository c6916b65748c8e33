import Foundation
import Testing
import WeatherBotTesting

extension LoopbackTests {
    /// The release wiring end to end: the weatherbot executable reaches both APIs through proxies,
    /// by host names only the proxies can resolve.
    @Suite(.serialized) struct ProxyEndToEndTests {
        static var executable: URL { CrashRecoveryTests.executable }
        static let telegramHost = "api.telegram.invalid"
        static let weatherHost = "api.openweathermap.invalid"

        /// Runs the bot with `environment` until a chat got its answers; returns its log.
        func chat(through environment: [String: String], _ loopback: Loopback) async throws -> String {
            let log = loopback.folder.url.appendingPathComponent("bot.log")
            try Data().write(to: log)
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["run"]
            process.environment = [
                "TELEGRAM_BOT_TOKEN": FakeTelegram.token, "OPEN_WEATHER_API_KEY": FakeOpenWeather.apiKey,
                "TELEGRAM_API_URL": "http://\(Self.telegramHost):\(loopback.telegram.server.port)",
                "OPEN_WEATHER_API_URL": "http://\(Self.weatherHost):\(loopback.weather.port)",
                "DATABASE_PATH": loopback.folder.databasePath, "TELEGRAM_POLL_TIMEOUT": "1", "LOG_LEVEL": "info",
            ].merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            let telegram = loopback.telegram
            telegram.sendText("/help", from: 5)
            telegram.sendText("Саранск", from: 5)
            try await telegram.waitUntil(timeout: .seconds(30), "the help and the city question") { state in
                let texts = state.sent.filter { $0.chatID == 5 }.map(\.text)
                return texts.contains { $0.contains("/search") } && texts.contains { $0.contains("Саранск") }
            }
            process.terminate()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return try String(contentsOf: log, encoding: .utf8)
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func telegramThroughAnHTTPProxyWithAPasswordAndOpenWeatherThroughSOCKS5() async throws {
            let loopback = try await Loopback()
            let http = try await LoopbackProxy(.http(username: "bot", password: "pr0xy-pass"), names: [Self.telegramHost])
            let socks = try await LoopbackProxy(.socks5, names: [Self.weatherHost])
            let log = try await chat(through: [
                "TELEGRAM_PROXY": http.url(username: "bot", password: "pr0xy-pass", scheme: "http"),
                "OPEN_WEATHER_PROXY": socks.url(scheme: "socks5"),
                // The APIs' own keys win over the shared variable.
                "HTTPS_PROXY": "http://127.0.0.1:9",
            ], loopback)
            #expect(http.targets.allSatisfy { $0 == "\(Self.telegramHost):\(loopback.telegram.server.port)" })
            #expect(!http.targets.isEmpty)
            #expect(http.refusals == 0)
            #expect(socks.targets.contains("\(Self.weatherHost):\(loopback.weather.port)"))
            #expect(log.contains("Telegram requests go through a proxy"), "\(log)")
            #expect(log.contains("http://bot:<redacted>@127.0.0.1:\(http.port) (from TELEGRAM_PROXY)"), "\(log)")
            #expect(log.contains("socks5://127.0.0.1:\(socks.port) (from OPEN_WEATHER_PROXY)"))
            #expect(!log.contains("pr0xy-pass"))
            await http.shutdown()
            await socks.shutdown()
            await loopback.shutdown()
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func httpsProxyFromTheEnvironmentServesBothAPIsAndTheLogSaysSo() async throws {
            let loopback = try await Loopback()
            let proxy = try await LoopbackProxy(.http(), names: [Self.telegramHost, Self.weatherHost])
            let log = try await chat(through: [
                "https_proxy": proxy.url(scheme: "http"), "NO_PROXY": "localhost,.example.org",
            ], loopback)
            #expect(Set(proxy.targets.map { $0.split(separator: ":")[0] }) == [Substring(Self.telegramHost), Substring(Self.weatherHost)])
            #expect(log.contains("http://127.0.0.1:\(proxy.port) (from https_proxy)"), "\(log)")
            await proxy.shutdown()
            await loopback.shutdown()
        }
    }
}
