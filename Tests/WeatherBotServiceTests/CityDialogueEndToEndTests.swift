import Foundation
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// The city dialogue driven through the real worker over loopback HTTP, as a user would.
    @Suite(.serialized) struct CityDialogueEndToEndTests {
        let chatID: Int64 = 501

        @Test(arguments: StoreEngine.available, Intake.allCases) func aSlowForecastShowsTypingWhileTheChatWaits(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake, forecastDelay: .seconds(2))
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            telegram.sendText("/weather", from: chatID)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            #expect(telegram.state.withLock { $0.chatActions } == [chatID])
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func theDefaultMenuIsEnglishAndReadersOfRussianGetARussianOne() async throws {
            let loopback = try await Loopback()
            let bot = try await loopback.startBot()
            let menus = loopback.telegram.state.withLock { $0.menus }
            // A German user is answered in English: the menu without a language code is English too.
            #expect(menus[""]?.contains("The weather in your city") == true, "\(menus)")
            for code in ["ru", "uk", "be", "kk"] {
                #expect(menus[code]?.contains("Погода в вашем городе") == true, "\(code): \(menus[code] ?? [])")
            }
            #expect(menus.count == 5)
            try await bot.stop()
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func locationIsConfirmedAndTheWeatherShown(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            telegram.sendText("/start", from: chatID)
            try await telegram.waitUntil("the greeting") { $0.sent.count == 1 }
            let greeting = try #require(telegram.screen(chatID).first)
            #expect(greeting.text.contains("Привет"))
            #expect(greeting.markup?.contains("\"request_location\":true") ?? false)
            #expect(greeting.markup?.contains("📍 Отправить геолокацию") ?? false)
            #expect(greeting.markup?.contains("🔎 Выбрать город вручную") ?? false)

            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            let question = try #require(telegram.screen(chatID).last)
            #expect(question.text.contains("Саранск"))
            // The status message was sent first, then edited into the question.
            #expect(telegram.state.withLock { $0.sent.last?.text } == "🔎 Определяем город…")
            // OpenWeather answered at once: no «typing…» was needed.
            #expect(telegram.state.withLock { $0.chatActions.isEmpty })

            try telegram.press("Да, всё верно", on: question.messageID, in: chatID)
            try await telegram.waitUntil("the weather card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            let card = try #require(telegram.screen(chatID).last)
            #expect(card.text.contains("Саранск"))
            #expect(card.text.contains("-3°C"))
            #expect(card.text.contains("Облачность: 100%"))
            #expect(card.text.contains("пасмурно"))
            try await telegram.waitUntil("the answer to the button") { $0.answers.count == 1 }

            try await bot.stop()
            let saved = try #require(try await bot.database.chat(chatID)?.currentPlace)
            #expect(saved.name(in: "ru") == "Саранск")
            #expect(saved.timeZone == "Europe/Moscow")
            #expect(try await bot.database.outboxBacklog() == 0)
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func aRestartBetweenQuestionAndAnswerLosesNothingAndRepeatsNothing(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let first = try await loopback.startBot()
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            // The question has been delivered and its delivery recorded: the worker is idle, waiting.
            try await waitUntil("an empty outbox") { try await first.database.outboxBacklog() == 0 }
            await first.kill()
            let messagesBefore = telegram.state.withLock { $0.sent.count + $0.edits.count }

            // The user answers while no worker runs; a new one starts on the same database.
            let question = try #require(telegram.screen(chatID).last)
            try telegram.press("Да, всё верно", on: question.messageID, in: chatID)
            let second = try await loopback.startBot()
            try await telegram.waitUntil("the weather card after the restart") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            try await second.stop()

            let state = telegram.state.withLock { $0 }
            // Before the restart: «Определяем город…» and its edit. After: the question's buttons
            // taken off, «Ваш город» (which takes the reply keyboard away) and the card.
            #expect(messagesBefore == 2)
            #expect(state.sent.count + state.edits.count == 5)
            #expect(state.answers.count == 1)
            #expect(try await second.database.chat(chatID)?.currentPlace?.name(in: "ru") == "Саранск")
            #expect(try await second.database.pendingInbox().isEmpty)
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func theOpenSeaOffersManualChoiceAndANameFindsTheCity(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            telegram.sendLocation(latitude: 0.5, longitude: -30, from: chatID, language: "en")
            try await telegram.waitUntil("the failure") { state in state.edits.contains { $0.text.contains("Could not determine the city") } }
            let failure = try #require(telegram.screen(chatID).last)
            try telegram.press("Choose city manually", on: failure.messageID, in: chatID, language: "en")
            try await telegram.waitUntil("the request for a name") { state in state.sent.contains { $0.text.contains("Type the name of your city") } }

            telegram.sendText("Париж", from: chatID, language: "en")
            try await telegram.waitUntil("the choice") { state in state.sent.contains { $0.text.contains("Several places match") } }
            let choice = try #require(telegram.screen(chatID).last)
            #expect(choice.markup?.contains("Paris, Texas, USA 🇺🇸") ?? false)
            try telegram.press("Texas", on: choice.messageID, in: chatID, language: "en")
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.text.contains("Feels like") } }

            // A button of the finished question now only gets a notice.
            try telegram.press("France", on: choice.messageID, in: chatID, language: "en")
            try await telegram.waitUntil("the notice") { $0.answers.count == 3 }
            try await bot.stop()
            #expect(try await bot.database.chat(chatID)?.currentPlace?.region == "Texas")
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func weatherViewsEditTheCardAndOneFetchServesThemAll(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let (telegram, weather) = (loopback.telegram, loopback.weather)
            let bot = try await loopback.startBot()

            telegram.sendText("/weather", from: chatID)
            try await telegram.waitUntil("the default city's card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            let card = try #require(telegram.screen(chatID).last)
            #expect(card.text.contains("Москва"))

            try telegram.press("По часам", on: card.messageID, in: chatID)
            try await telegram.waitUntil("the hourly view") { state in state.edits.contains { $0.text.contains("по часам") } }
            try telegram.press("На 7 дней", on: card.messageID, in: chatID)
            try await telegram.waitUntil("the daily view") { state in state.edits.contains { $0.text.contains("на 7 дней") } }
            let daily = try #require(telegram.screen(chatID).last)
            #expect(daily.messageID == card.messageID)
            #expect(daily.text.contains("небольшой снег"))
            #expect(telegram.screen(chatID).count == 1)  // one message, edited in place

            // Three views, one One Call request: the cache served the other two.
            #expect(weather.forecastCalls == 1)
            // «Обновить» on data fetched a moment ago costs no request: OpenWeather has nothing newer.
            try telegram.press("Обновить", on: card.messageID, in: chatID)
            try await telegram.waitUntil("the refresh's answer") { $0.answers.count == 3 }
            #expect(weather.forecastCalls == 1)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func aRejectedTokenStopsStartUp() async throws {
            let loopback = try await Loopback()
            loopback.telegram.state.withLock {
                $0.failures["getMe"] = [.json(["ok": false, "error_code": 401, "description": "Unauthorized"], status: 401)]
            }
            await #expect(throws: (any Error).self) {
                _ = try await loopback.startBot()
            }
            await loopback.shutdown()
        }
    }
}

/// Waits until `condition` holds, failing after `timeout`.
func waitUntil(timeout: Duration = .seconds(30), _ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw FakeTelegram.TimedOut(what: what)
}
