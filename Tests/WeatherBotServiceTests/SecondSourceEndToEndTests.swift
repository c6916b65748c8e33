import Foundation
import Prometheus
import Testing
import WeatherBotHTTP
import WeatherBotService
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// The second source through the real worker over loopback HTTP: Open-Meteo and Nominatim
    /// alone (no OpenWeather key), and standing in while OpenWeather cannot answer.
    @Suite(.serialized) struct SecondSourceEndToEndTests {
        /// The card's text of the chat's last message that has one.
        static func card(_ telegram: FakeTelegram, _ chat: Int64) -> String {
            telegram.screen(chat).last { $0.text.contains("Ощущается как") || $0.text.contains("Feels like") }?.text ?? ""
        }

        @Test(arguments: StoreEngine.available)
        func withoutAKeyALocationANameTheViewsAndADailyForecastAreAnswered(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, secondSource: true)
            let (telegram, openMeteo, nominatim) = (loopback.telegram, try #require(loopback.openMeteo), try #require(loopback.nominatim))
            let clock = ShiftedClock()
            let rainStart = NoticesEndToEndTests.hour(atLeast: 20)
            openMeteo.setRain(startsAt: rainStart, minutes: 30)
            let bot = try await loopback.startBot(clock: clock, schedulerInterval: .milliseconds(100), openWeather: false)
            let chat: Int64 = 5601

            // A shared location is named by Nominatim, in the chat's language.
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chat)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("Это ваш город?") } }
            #expect(telegram.screen(chat).last?.text.contains("Саранск") == true, "\(telegram.screen(chat).last?.text ?? "")")
            #expect(nominatim.userAgents.allSatisfy { $0 == "weatherbot-tests/1.0" } && nominatim.userAgents.count == 1)
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(chat).last).messageID, in: chat)
            try await waitUntil("the card") { !Self.card(telegram, chat).isEmpty }
            let card = Self.card(telegram, chat)
            #expect(card.contains("📍 <b>Саранск</b>"), "\(card)")
            #expect(card.contains("Данные: Open-Meteo"), "\(card)")
            // Open-Meteo has no warnings: none is made up.
            #expect(!card.contains("⚠️"), "\(card)")

            // The hours and the week, labelled alike.
            let message = try #require(telegram.screen(chat).last { $0.text.contains("Ощущается как") }).messageID
            try telegram.press("По часам", on: message, in: chat)
            try await telegram.waitUntil("the hours") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("по часам") } }
            #expect(telegram.screen(chat).first { $0.messageID == message }?.text.contains("Данные: Open-Meteo") == true)
            try telegram.press("На 7 дней", on: message, in: chat)
            try await telegram.waitUntil("the week") { state in state.edits.contains { $0.chatID == chat && $0.text.contains("на 7 дней") } }
            #expect(telegram.screen(chat).first { $0.messageID == message }?.text.contains("Данные: Open-Meteo") == true)

            // A name: namesakes told apart, in the language asked.
            telegram.sendText("/search Париж", from: chat)
            try await telegram.waitUntil("the namesakes") { state in state.sent.contains { $0.chatID == chat && $0.markup?.contains("Париж, Техас, США") == true && $0.markup?.contains("Париж, Иль-де-Франс, Франция") == true } }
            telegram.sendText("/search Paris", from: 5602, language: "en")
            try await telegram.waitUntil("the namesakes in English") { state in state.sent.contains { $0.chatID == 5602 && $0.markup?.contains("Paris, Texas, USA") == true } }

            // Paris has pollen (Europe, in season); Saransk, beyond the model's reach, has none.
            #expect(!card.contains("🌼"), "\(card)")
            let results = try #require(telegram.screen(chat).last { $0.markup?.contains("Париж, Иль-де-Франс, Франция") == true })
            try telegram.press("Париж, Иль-де-Франс, Франция 🇫🇷", on: results.messageID, in: chat)
            try await waitUntil("Paris's card") { Self.card(telegram, chat).contains("Париж") }
            let paris = Self.card(telegram, chat)
            #expect(paris.contains("🌼 Пыльца: берёза — высокий уровень, злаки — низкий"), "\(paris)")
            #expect(openMeteo.pollenCalls == 1)

            // Rain from the next whole hour, from Open-Meteo's hours (Saransk's quarter hours are not its model's own), is told.
            telegram.sendText("/alerts on", from: chat)
            // Open-Meteo has no official warnings: rain is turned on, and no switch offers warnings.
            try await telegram.waitUntil("notices on") { state in state.sent.contains { $0.chatID == chat && $0.text.hasPrefix("Уведомления включены") } }
            let alerts = try #require(telegram.screen(chat).last { $0.text.hasPrefix("Уведомления включены") })
            #expect(alerts.text.hasPrefix("Уведомления включены: дождь в ближайший час.\n"), "\(alerts.text)")
            #expect(!alerts.text.contains("⚠️ Предупреждения") && alerts.markup?.contains("al:w") == false, "\(alerts.text)")
            #expect(alerts.text.contains("Официальных предупреждений о непогоде у источника погоды нет"), "\(alerts.text)")
            try await telegram.waitUntil("the rain notice") { state in
                state.sent.contains { $0.chatID == chat && NoticesEndToEndTests.isRainNoticeFromTheHours($0.text, beginningAt: rainStart) }
            }

            // A daily forecast comes on its minute, from Open-Meteo too.
            telegram.sendText("/daily \(DailyEndToEndTests.soonInMoscow())", from: chat)
            try await telegram.waitUntil("the confirmation") { state in state.sent.last { $0.chatID == chat }?.text.contains("Каждый день в") ?? false }
            clock.shift(by: DailyEndToEndTests.soonComesAfter)
            try await telegram.waitUntil("the forecast") { state in state.sent.contains { $0.chatID == chat && $0.text.contains("Прогноз на сегодня") } }
            let forecast = telegram.state.withLock { $0.sent.last { $0.chatID == chat && $0.text.contains("Прогноз на сегодня") }?.text ?? "" }
            #expect(forecast.contains("Утро:") && forecast.contains("Данные: Open-Meteo"), "\(forecast)")

            // Each name asked in both languages the bot speaks: a place is named alike for every reader.
            #expect(openMeteo.forecastCalls >= 1 && openMeteo.geocodeCalls == 4)
            #expect(loopback.weather.requests == 0, "OpenWeather asked without a key")
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available)
        func anOpenWeatherOutageMidConversationIsSeenOnlyInTheLabelAndOpenWeatherComesBack(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine, secondSource: true)
            let (telegram, openMeteo) = (loopback.telegram, try #require(loopback.openMeteo))
            let registry = PrometheusCollectorRegistry()
            let sources = SourceSwitch(shortest: .seconds(2), longest: .seconds(2), threshold: 1)
            let bot = try await loopback.startBot(metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)), sources: sources)
            let chat: Int64 = 5611

            telegram.sendText("/search Казань", from: chat)
            try await waitUntil("Kazan's card") { Self.card(telegram, chat).contains("Казань") }
            #expect(!Self.card(telegram, chat).contains("Open-Meteo"), "\(Self.card(telegram, chat))")
            #expect(openMeteo.forecastCalls == 0)

            // OpenWeather goes down: the next place's card comes all the same, from Open-Meteo.
            loopback.weather.failForecasts(true)
            telegram.sendText("/search Уфа", from: chat)
            try await waitUntil("Ufa's card") { Self.card(telegram, chat).contains("Уфа") }
            let during = Self.card(telegram, chat)
            #expect(during.contains("Данные: Open-Meteo") && !during.contains("попробуйте"), "\(during)")
            #expect(openMeteo.forecastCalls == 1)
            // Away for a while: the next place does not wait on OpenWeather at all.
            let asked = loopback.weather.forecastCalls
            telegram.sendText("/search Саранск", from: chat)
            try await waitUntil("Saransk's card") { Self.card(telegram, chat).contains("Саранск") }
            #expect(loopback.weather.forecastCalls == asked)
            #expect(sources.isAway())

            // Back: after the while one call tries OpenWeather, and everyone is back with it.
            loopback.weather.failForecasts(false)
            try await Task.sleep(for: .seconds(2))
            telegram.sendText("/search London", from: chat)
            try await waitUntil("London's card") { Self.card(telegram, chat).contains("Лондон") }
            let after = Self.card(telegram, chat)
            #expect(!after.contains("Open-Meteo"), "\(after)")
            #expect(!sources.isAway())
            let counted = prometheusSamples(registry.emitToString())
            #expect(counted[#"weatherbot_source_calls_total{source="open-meteo",endpoint="forecast"}"#] == 2, "\(counted)")
            #expect((counted[#"weatherbot_source_fallbacks_total{reason="outage"}"#] ?? 0) >= 1, "\(counted)")
            #expect(counted[#"weatherbot_openweather_away{endpoint="forecast"}"#] == 0, "\(counted)")
            try await bot.stop()
            await loopback.shutdown()
        }

        /// What each line of a card says before its value («💨 Ветер», «Ощущается как»), the
        /// source's label left out.
        static func labels(_ card: String) -> [String] {
            card.split(separator: "\n").compactMap { line in
                guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("Данные") else { return nil }
                return String(line[..<colon])
            }
        }

        @Test func theSamePlacesCardFromEachSourceHasTheSameLinesWordsAndUnits() async throws {
            let loopback = try await Loopback(secondSource: true)
            let telegram = loopback.telegram
            var cards: [String] = []
            // A worker of its own for each, so the second finds no forecast kept by the first.
            for down in [false, true] {
                loopback.weather.failForecasts(down)
                let bot = try await loopback.startBot(airPatience: .seconds(20), sources: SourceSwitch(threshold: 1))
                let chat: Int64 = down ? 5632 : 5631
                telegram.sendText("/search Казань", from: chat)
                try await waitUntil("Kazan's card") { Self.card(telegram, chat).contains("Казань") }
                cards.append(Self.card(telegram, chat))
                try await bot.stop()
            }
            let (openWeather, openMeteo) = (cards[0], cards[1])
            #expect(!openWeather.contains("Open-Meteo") && openMeteo.contains("Данные: Open-Meteo"), "\(cards)")
            // FakeOpenWeather's −2.6 °C and FakeOpenMeteo's −4.1 °C: each card is its own source's.
            #expect(openWeather.contains("-3°C") && openMeteo.contains("-4°C"), "\(cards)")
            #expect(Self.labels(openWeather) == Self.labels(openMeteo), "\(Self.labels(openWeather)) vs \(Self.labels(openMeteo))")
            for unit in ["°C", "м/с", "мм рт. ст.", "%"] { #expect(openWeather.contains(unit) && openMeteo.contains(unit), "\(unit)") }
            await loopback.shutdown()
        }

        @Test func nominatimIsAskedOnceASecondUnderABurstOfSharedLocations() async throws {
            let loopback = try await Loopback(secondSource: true)
            let (telegram, nominatim) = (loopback.telegram, try #require(loopback.nominatim))
            let bot = try await loopback.startBot(openWeather: false)
            // Four people share where they are at once, each in a cell of their own.
            let chats: [Int64] = [5621, 5622, 5623, 5624]
            for (index, chat) in chats.enumerated() { telegram.sendLocation(latitude: 54.18 + Double(index) * 0.05, longitude: 45.17, from: chat) }
            try await telegram.waitUntil(timeout: .seconds(30), "every question") { state in
                chats.allSatisfy { chat in state.edits.contains { $0.chatID == chat && $0.text.contains("Это ваш город?") } }
            }
            let arrivals = nominatim.arrivals
            #expect(arrivals.count == 4)
            // Started no closer than a second apart, whatever the machine's speed (only slower can it be).
            for (earlier, later) in zip(arrivals, arrivals.dropFirst()) { #expect(later - earlier >= .milliseconds(900), "\(later - earlier)") }
            // The same cell again is answered from the kept answer.
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: 5625)
            try await telegram.waitUntil("the fifth question") { state in state.edits.contains { $0.chatID == 5625 && $0.text.contains("Это ваш город?") } }
            #expect(nominatim.arrivals.count == 4)
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
