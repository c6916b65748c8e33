import Foundation
import Prometheus
import Testing
import WeatherBotHTTP
import WeatherBotService
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// A daily forecast through the real worker and scheduler over loopback HTTP.
    @Suite(.serialized) struct DailyEndToEndTests {
        /// A time of day in Moscow, where the fake geocoder puts the city, that comes between 30
        /// and 90 seconds from now: a forecast set for it within half a minute is due once the
        /// clock has moved ``soonComesAfter`` on. (The next minute alone was sometimes already past
        /// when a slower setup subscribed, and then due only tomorrow.)
        static func soonInMoscow() -> String { inMoscow(after: 90) }

        /// The time of day in Moscow `seconds` from now (rounded down to the minute).
        static func inMoscow(after seconds: TimeInterval) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Moscow")!
            let soon = calendar.dateComponents([.hour, .minute], from: Date().addingTimeInterval(seconds))
            return String(format: "%d:%02d", soon.hour!, soon.minute!)
        }

        static let soonComesAfter: TimeInterval = 91

        let chatID: Int64 = 909

        @Test(arguments: StoreEngine.available, Intake.allCases) func subscribingForTheNextMinuteDeliversExactlyOneForecast(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let clock = ShiftedClock()
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(
                clock: clock, schedulerInterval: .milliseconds(100), metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)))

            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }

            let time = Self.soonInMoscow()
            telegram.sendText("/daily \(time)", from: chatID)
            try await telegram.waitUntil("the confirmation") { state in state.sent.last?.text.contains("Каждый день в") ?? false }
            #expect(try await bot.database.subscriptions(chatID: chatID).count == 1)

            // The time comes, then a few more seconds of ticks: one forecast, not more.
            clock.shift(by: Self.soonComesAfter)
            try await telegram.waitUntil("the forecast") { state in state.sent.contains { $0.text.contains("Прогноз на сегодня") } }
            clock.shift(by: 30)
            try await Task.sleep(for: .seconds(1))
            let forecasts = telegram.state.withLock { $0.sent.filter { $0.text.contains("Прогноз на сегодня") } }
            #expect(forecasts.count == 1)
            let counted = prometheusSamples(registry.emitToString())
            #expect(counted[#"weatherbot_daily_forecasts_due_total{outcome="queued"}"#] == 1, "\(counted)")
            #expect(counted["weatherbot_daily_forecasts_sent_total"] == 1, "\(counted)")
            let forecast = try #require(forecasts.first)
            #expect(forecast.text.contains("Саранск"))
            #expect(forecast.text.contains("Утро:"))
            #expect(forecast.markup?.contains("По часам") ?? false)
            #expect(forecast.markup?.contains("На 7 дней") ?? false)

            // Its «На 7 дней» sends the 7-day view, leaving the forecast as it is.
            try telegram.press("На 7 дней", on: forecast.messageID, in: chatID)
            try await telegram.waitUntil("the 7 days") { state in state.sent.last?.text.contains("на 7 дней") ?? false }
            #expect(telegram.screen(chatID).first { $0.messageID == forecast.messageID }?.text == forecast.text)

            try await bot.stop()
            await loopback.shutdown()
        }

        /// Two chats asking for the same forecast with the chart: each gets its forecast, then the
        /// chart under it, drawn and uploaded once.
        @Test(arguments: StoreEngine.available, Intake.allCases) func forecastsWithTheChartShareOneUpload(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let clock = ShiftedClock()
            let bot = try await loopback.startBot(clock: clock, schedulerInterval: .milliseconds(100))
            let time = Self.soonInMoscow()
            let chats: [Int64] = [911, 912]
            for chat in chats {
                telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chat)
                try await telegram.waitUntil("the question") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("Это ваш город?") } }
                try telegram.press("Да, всё верно", on: try #require(telegram.screen(chat).last).messageID, in: chat)
                telegram.sendText("/daily \(time) график", from: chat)
                try await telegram.waitUntil("the confirmation") { state in state.sent.last { $0.chatID == chat }?.text.contains("С графиком") ?? false }
            }

            clock.shift(by: Self.soonComesAfter)
            try await telegram.waitUntil("two charts") { $0.photos.count == 2 }
            let (photos, sent) = telegram.state.withLock { ($0.photos, $0.sent) }
            #expect(photos.filter(\.uploaded).count == 1)
            #expect(Set(photos.map(\.fileID)).count == 1)
            for chat in chats {
                let forecast = try #require(sent.last { $0.chatID == chat && $0.text.contains("Прогноз на сегодня") })
                let chart = try #require(photos.first { $0.chatID == chat })
                #expect(chart.messageID > forecast.messageID, "the chart comes under the forecast")
                #expect(chart.caption.contains("Саранск") && chart.markup?.contains("Неделя") == true)
            }
            try await bot.stop()
            await loopback.shutdown()
        }

        /// A chat in Saransk that saw its weather and set a forecast for 20 minutes from now.
        func subscribeIn20Minutes(_ telegram: FakeTelegram) async throws {
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            telegram.sendText("/daily \(Self.inMoscow(after: 20 * 60))", from: chatID)
            try await telegram.waitUntil("the confirmation") { state in state.sent.last?.text.contains("Каждый день в") ?? false }
        }

        /// Waits until `/metrics` counts `sample` as `value`.
        func waitUntilCounted(_ registry: PrometheusCollectorRegistry, _ sample: String, _ value: Double) async throws {
            try await waitUntil(timeout: .seconds(20), sample) { prometheusSamples(registry.emitToString())[sample] == value }
        }

        @Test(arguments: StoreEngine.available) func openWeatherDownAtTheTimeSendsTheLastKnownForecastMarkedWithItsAge(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, intake: .polling)
            let telegram = loopback.telegram
            let clock = ShiftedClock()
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(
                clock: clock, schedulerInterval: .milliseconds(100), metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)))
            try await subscribeIn20Minutes(telegram)
            loopback.weather.failForecasts(true)

            // Eleven minutes after the time (the bot was busy or down), the weather seen half an
            // hour ago is too old for a forecast: it waits a while for fresh weather.
            clock.shift(by: 31 * 60 + 30)
            try await Task.sleep(for: .seconds(1))
            #expect(!telegram.state.withLock { $0.sent.contains { $0.text.contains("Прогноз на сегодня") } })

            // A quarter of an hour later it goes, saying what it is.
            clock.shift(by: 15 * 60)
            try await telegram.waitUntil("the forecast") { state in state.sent.contains { $0.text.contains("Прогноз на сегодня") } }
            let forecast = try #require(telegram.state.withLock { $0.sent.first { $0.text.contains("Прогноз на сегодня") } })
            #expect(forecast.text.contains("Утро:"))
            #expect(forecast.text.contains("⚠️ Сервис погоды сейчас не отвечает, поэтому это последний известный прогноз: от "), "\(forecast.text)")
            #expect(forecast.text.hasSuffix("мин назад"), "\(forecast.text)")
            try await waitUntilCounted(registry, #"weatherbot_daily_forecasts_due_total{outcome="last_known"}"#, 1)
            #expect(prometheusSamples(registry.emitToString())[#"weatherbot_daily_forecasts_due_total{outcome="queued"}"#] ?? 0 == 0)
            #expect(try await bot.database.dailyForecastsSkipped() == 0)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func openWeatherDownWithNoWeatherKnownSkipsTheForecastAndCountsIt(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, intake: .polling)
            let telegram = loopback.telegram
            let clock = ShiftedClock()
            let first = try await loopback.startBot(clock: clock, schedulerInterval: .milliseconds(100))
            try await subscribeIn20Minutes(telegram)
            try await first.stop()
            // A restart forgets the weather seen; OpenWeather is down from then on.
            loopback.weather.failForecasts(true)
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(
                clock: clock, schedulerInterval: .milliseconds(100), metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)))

            clock.shift(by: 21 * 60 + 30)
            try await Task.sleep(for: .seconds(1))
            clock.shift(by: 2 * 3600)
            try await waitUntilCounted(registry, #"weatherbot_daily_forecasts_due_total{outcome="skipped"}"#, 1)
            #expect(try await bot.database.dailyForecastsSkipped() == 1)
            #expect(!telegram.state.withLock { $0.sent.contains { $0.text.contains("Прогноз на сегодня") } })
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
