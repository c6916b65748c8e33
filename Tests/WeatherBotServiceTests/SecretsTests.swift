import Foundation
import Logging
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// The token and the API key never reach a log line, whatever fails.
    @Suite(.serialized) struct SecretsTests {
        @Test func faultsOfEveryKindLogNoSecret() async throws {
            let log = CapturedLog()
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let error = { (code: Int, description: String) -> LoopbackResponse in
                .json(["ok": false, "error_code": code, "description": description, "parameters": ["retry_after": 1]], status: code)
            }
            telegram.state.withLock { state in
                state.failures["getUpdates"] = [error(502, "Bad Gateway"), error(409, "Conflict: terminated by other getUpdates request"), error(500, "Internal")]
                state.failures["sendMessage"] = [error(429, "Too Many Requests: retry after 1"), error(500, "Internal Server Error")]
                state.failures["editMessageText"] = [error(400, "Bad Request: message to edit not found")]
                state.failures["answerCallbackQuery"] = [error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")]
            }
            let bot = try await loopback.startBot(logger: log.logger())
            telegram.sendText("/start", from: 1)
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: 1)
            telegram.sendText("/search Атлантида", from: 1)  // nothing found
            telegram.pressRaw(data: "cy:999", on: 12345, in: 1)  // a stale button on a message that is not there
            try await telegram.waitUntil("the question") { state in
                state.edits.contains { $0.text.contains("Это ваш город?") } || state.sent.contains { $0.text.contains("Это ваш город?") }
            }
            // A chat that blocked the bot.
            telegram.state.withLock { $0.failures["sendMessage", default: []].append(error(403, "Forbidden: bot was blocked by the user")) }
            telegram.sendText("/help", from: 2)
            try await waitUntil("the blocked chat") { try await bot.database.chat(2)?.isActive == false }
            // OpenWeather gone: network errors on every weather call.
            await loopback.weather.shutdown()
            telegram.sendText("/weather", from: 3)
            try await telegram.waitUntil("the failure") { state in state.sent.contains { $0.text.contains("Не удалось получить погоду") } }
            try await bot.stop()
            await telegram.server.shutdown()

            let lines = log.lines
            #expect(lines.count > 10)
            #expect(lines.contains { $0.contains("getUpdates") && $0.contains("502") })
            #expect(lines.contains { $0.contains("conflict") })
            #expect(lines.contains { $0.contains("OpenWeather") })
            for line in lines {
                #expect(!line.contains(FakeTelegram.token), "\(line)")
                #expect(!line.contains("FAKE-token"), "\(line)")
                #expect(!line.contains(FakeOpenWeather.apiKey), "\(line)")
            }
        }
    }
}
