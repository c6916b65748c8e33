import Foundation
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// The card's air with the real worker and OpenWeather's Air Pollution API over loopback:
    /// there when it answers, simply absent when it fails, the weather shown either way.
    @Suite(.serialized) struct AirEndToEndTests {
        @Test func theCardHasTheAirWhenItComesAndTheWeatherWhenItDoesNot() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            // However loaded the machine, the card waits for its air here (the runtime's 1.5 s is
            // WeatherServiceTests' to show).
            let bot = try await loopback.startBot(airPatience: .seconds(20))

            telegram.sendText("/search Казань", from: 9401)
            try await telegram.waitUntil("Kazan's card") { state in state.sent.contains { $0.chatID == 9401 && $0.text.contains("Ощущается как") } }
            #expect(telegram.screen(9401).last?.text.contains("🍃 Воздух: удовлетворительный") == true, "\(telegram.screen(9401).last?.text ?? "")")

            // Moderate air says its particles; a failing API leaves the line out, nothing else.
            loopback.weather.setAir((3, 41.6))
            telegram.sendText("/search Уфа", from: 9402, language: "en")
            try await telegram.waitUntil("Ufa's card") { state in state.sent.contains { $0.chatID == 9402 && $0.text.contains("Feels like") } }
            #expect(telegram.screen(9402).last?.text.contains("🍃 Air: moderate, PM2.5 42 µg/m³") == true, "\(telegram.screen(9402).last?.text ?? "")")
            loopback.weather.setAir(nil)
            telegram.sendText("/search Саранск", from: 9403)
            try await telegram.waitUntil("Saransk's card") { state in state.sent.contains { $0.chatID == 9403 && $0.text.contains("Ощущается как") } }
            let card = telegram.screen(9403).last?.text ?? ""
            #expect(!card.contains("🍃") && !card.contains("Не удалось"), "\(card)")

            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
