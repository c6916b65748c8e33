import Foundation
import Testing
import WeatherBotTesting

extension LoopbackTests {
    /// The executable started with the bot's token alone: no OpenWeather key, so Open-Meteo and
    /// Nominatim answer everything a new user asks, and the start-up log says so.
    @Suite(.serialized) struct KeylessStartEndToEndTests {
        static var executable: URL { CrashRecoveryTests.executable }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)), arguments: StoreEngine.available)
        func theTokenAloneAnswersALocationANameTheViewsAChartADailyForecastAndRain(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, secondSource: true)
            let (telegram, openMeteo, nominatim) = (loopback.telegram, try #require(loopback.openMeteo), try #require(loopback.nominatim))
            let rainStart = NoticesEndToEndTests.hour(atLeast: 20)
            openMeteo.setRain(startsAt: rainStart, minutes: 30)
            let output = StartUpTests.Output()
            let process = try CrashRecoveryTests.start(
                loopback, database: loopback.postgres.map { ["DATABASE_URL": $0.url] } ?? ["DATABASE_PATH": loopback.folder.databasePath],
                settings: [
                    "OPEN_WEATHER_API_KEY": "", "OPEN_METEO_FALLBACK": "true", "OPEN_WEATHER_API_URL": "http://127.0.0.1:9",
                    "OPEN_METEO_API_URL": openMeteo.url.absoluteString, "OPEN_METEO_GEOCODING_URL": openMeteo.url.absoluteString,
                    "OPEN_METEO_AIR_QUALITY_URL": openMeteo.url.absoluteString, "NOMINATIM_URL": nominatim.url.absoluteString,
                    // No quiet hours: the rain, up to 80 minutes ahead, may fall in Saransk's night.
                    "ALERTS_CHECK_INTERVAL": "10", "ALERTS_QUIET_HOURS": "off", "LOG_LEVEL": "info",
                ], errors: output.pipe)
            defer { process.terminate() }
            try await output.wait(for: "weatherbot started")
            #expect(output.said.contains("Open-Meteo, with Nominatim for shared locations (no OpenWeather key)"), "\(output.said)")

            let chat: Int64 = 5701
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chat)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("Это ваш город?") } }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(chat).last).messageID, in: chat)
            try await waitUntil("the card") { SecondSourceEndToEndTests.card(telegram, chat).contains("Данные: Open-Meteo") }
            let card = try #require(telegram.screen(chat).last { $0.text.contains("Ощущается как") }).messageID
            try telegram.press("По часам", on: card, in: chat)
            try await telegram.waitUntil("the hours") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("по часам") } }
            try telegram.press("На 7 дней", on: card, in: chat)
            try await telegram.waitUntil("the week") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("на 7 дней") } }
            try telegram.press("📈 График", on: card, in: chat)
            try await telegram.waitUntil("the chart") { state in state.photos.contains { $0.chatID == chat } }

            telegram.sendText("Казань", from: chat)
            try await telegram.waitUntil("Kazan") { state in state.sent.contains { $0.chatID == chat && $0.text.contains("Казань") } }

            telegram.sendText("/daily 8:00", from: chat)
            try await telegram.waitUntil("the daily forecast set") { state in state.sent.contains { $0.chatID == chat && $0.text.contains("Каждый день в") } }
            telegram.sendText("/alerts on", from: chat)
            try await telegram.waitUntil(timeout: .seconds(60), "the rain notice") { state in
                state.sent.contains { $0.chatID == chat && NoticesEndToEndTests.isRainNoticeFromTheHours($0.text, beginningAt: rainStart) }
            }
            #expect(loopback.weather.requests == 0)
            #expect(!telegram.state.withLock { $0.sent.contains { $0.text.contains("попробуйте") } })
            process.terminate()
            process.waitUntilExit()
            await loopback.shutdown()
        }
    }
}
