import Foundation
import OpenWeather
import Testing
import WeatherBotService
import WeatherBotTesting

extension LoopbackTests {
    /// OpenWeather's budget through the real worker, against a fake OpenWeather that answers 429
    /// beyond its minute, as a key's rate does.
    @Suite(.serialized) struct OpenWeatherBudgetEndToEndTests {
        let flooder: Int64 = 9101
        let neighbour: Int64 = 9102

        /// One chat types thirty names in a row; its share of the minute goes, it is told once to
        /// slow down and the rest of its names go unanswered, the neighbour's /weather is answered with the weather, and
        /// OpenWeather never answers 429.
        @Test func aFloodingChatSpendsItsShareAndNeverProvokesOpenWeather() async throws {
            let loopback = try await Loopback(openWeatherPerMinute: 20)
            let telegram = loopback.telegram
            // Telegram's pace for one chat is not what is measured here.
            let bot = try await loopback.startBot(outbox: .init(messagesPerSecondPerChat: 30), budget: CallBudget.Limits(perMinute: 20, perChat: 5))

            for number in 1...30 { telegram.sendText("Place \(number)", from: flooder) }
            try await telegram.waitUntil("the flood's first answers") { state in state.sent.filter { $0.chatID == flooder }.count >= 6 }
            telegram.sendText("/weather", from: neighbour)
            try await telegram.waitUntil(timeout: .seconds(10), "the neighbour's weather") { state in
                state.sent.contains { $0.chatID == neighbour && $0.text.contains("Ощущается как") }
            }
            // A chat's messages are handled in order: /help's answer comes after every name's.
            telegram.sendText("/help", from: flooder)
            try await telegram.waitUntil("every name handled") { state in state.sent.contains { $0.chatID == flooder && $0.text.contains("/fav") } }

            let answers = telegram.state.withLock { $0.sent.filter { $0.chatID == flooder }.map(\.text) }
            #expect(answers.filter { $0.contains("Это ваш город?") }.count == 5, "\(answers.prefix(8))")
            // Told once in the minute, not once per name: 24 names go unanswered.
            #expect(answers.filter { $0.contains("слишком много запросов подряд из этого чата") }.count == 1)
            #expect(answers.count == 7, "\(answers)")
            // Not a geocoder's miss: no name was searched in vain.
            #expect(!answers.contains { $0.contains("Ничего не нашлось") })
            #expect(loopback.weather.tooManyRequests == 0)
            // Five searches and the neighbour's forecast, and its card's air (no chat's share).
            #expect(loopback.weather.requests == 7)
            #expect(loopback.weather.airCalls == 1)

            try await bot.stop()
            await loopback.shutdown()
        }

        /// One chat typing made-up names under a day's budget of 60 spends its share of the day
        /// (ten calls), is told once in its language when it is spent and when it comes back, and
        /// the rest of its names go unanswered; ten other chats asking afterwards each get their
        /// card, as if nothing happened.
        @Test func aChatTypingNamesAllDaySpendsItsShareNotEveryonesDay() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot(outbox: .init(messagesPerSecondPerChat: 30), budget: CallBudget.Limits(perMinute: 0, perDay: 60, perChat: 0))

            for number in 1...40 { telegram.sendText("Place \(number)", from: flooder, language: "en") }
            telegram.sendText("/help", from: flooder, language: "en")
            try await telegram.waitUntil("every name handled") { state in state.sent.contains { $0.chatID == flooder && $0.text.contains("/fav") } }
            let others = (9110..<9120).map(Int64.init)
            // Names the flood was refused: not in the geocoding cache.
            for (index, chat) in others.enumerated() { telegram.sendText("/search Place \(index + 11)", from: chat) }
            try await telegram.waitUntil(timeout: .seconds(20), "every other chat's card") { state in
                others.allSatisfy { chat in state.sent.contains { $0.chatID == chat && $0.text.contains("Ощущается как") } }
            }

            let answers = telegram.state.withLock { $0.sent.filter { $0.chatID == flooder }.map(\.text) }
            #expect(answers.filter { $0.contains("Is this your city?") }.count == 10, "\(answers.prefix(12))")
            let told = answers.filter { $0.contains("this chat has used its share of today's requests to the weather service") }
            #expect(told.count == 1, "\(answers)")
            #expect(told.first?.contains("after 00:00 UTC") == true)
            // Ten questions, the refusal once, and /help: thirty names unanswered.
            #expect(answers.count == 12, "\(answers)")
            let othersAnswers = telegram.state.withLock { $0.sent.filter { others.contains($0.chatID) }.map(\.text) }
            #expect(!othersAnswers.contains { $0.contains("исчерпа") || $0.contains("Не удалось") }, "\(othersAnswers)")

            try await bot.stop()
            await loopback.shutdown()
        }

        /// Over the minute's budget someone waiting is told the service is busy, with a retry,
        /// never shown a raw error; OpenWeather still never answers 429.
        @Test func overTheMinutesBudgetAUserIsToldTheServiceIsBusy() async throws {
            let loopback = try await Loopback(openWeatherPerMinute: 3)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot(budget: CallBudget.Limits(perMinute: 3, perChat: 0))

            for (index, chat) in (9200..<9205).enumerated() {
                telegram.sendText("Place \(index + 1)", from: Int64(chat))
            }
            try await telegram.waitUntil("five answers") { state in state.sent.filter { (9200..<9205).contains($0.chatID) }.count == 5 }
            let answers = telegram.state.withLock { $0.sent.filter { (9200..<9205).contains($0.chatID) }.map(\.text) }
            #expect(answers.filter { $0.contains("Это ваш город?") }.count == 3, "\(answers)")
            let busy = answers.filter { $0.contains("сервис погоды сейчас перегружен, попробуйте через минуту") }
            #expect(busy.count == 2, "\(answers)")
            #expect(telegram.screen(9204).last?.markup?.contains("Повторить") == true || telegram.screen(9203).last?.markup?.contains("Повторить") == true)
            #expect(loopback.weather.tooManyRequests == 0)

            try await bot.stop()
            await loopback.shutdown()
        }

        /// A Russian and an English chat asking for the same place cost one call, and each reads
        /// the sky in its own language.
        @Test func oneCallServesEveryLanguage() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            telegram.sendText("/search Казань", from: 9301, language: "ru")
            try await telegram.waitUntil("the Russian card") { state in state.sent.contains { $0.chatID == 9301 && $0.text.contains("Ощущается как") } }
            telegram.sendText("/search Казань", from: 9302, language: "en")
            try await telegram.waitUntil("the English card") { state in state.sent.contains { $0.chatID == 9302 && $0.text.contains("Feels like") } }
            #expect(loopback.weather.forecastCalls == 1)
            // The second search by the same name came from the geocoding cache too, and the
            // second card's air from the air's.
            #expect(loopback.weather.requests == 3)
            #expect(loopback.weather.airCalls == 1)
            #expect(telegram.screen(9301).last?.text.contains("пасмурно") == true)
            #expect(telegram.screen(9302).last?.text.contains("overcast clouds") == true)

            try await bot.stop()
            await loopback.shutdown()
        }

        /// The day's budget counts the calls of runs before a restart: the stored count is where
        /// the next run starts, and the day's end is said with when it renews.
        @Test(arguments: StoreEngine.available)
        func theDaysCountSurvivesARestart(_ engine: StoreEngine) async throws {
            // People's part of five calls a day is four: a search, its card and the card's air, and
            // the search after the restart.
            let (answer, requests) = try await searchAcrossARestart(engine, CallBudget.Limits(perMinute: 0, perDay: 5, perChat: 0))
            #expect(answer.contains("запросы к сервису погоды на сегодня исчерпаны, новые будут после 00:00 UTC"), "\(answer)")
            // The name was found (the fourth call of the day); its weather would have been the fifth.
            #expect(requests == 4)
        }

        /// A worker restarted within the minute counts its predecessor's calls of that minute, as
        /// OpenWeather does: it does not spend the minute twice.
        @Test(arguments: StoreEngine.available)
        func theMinutesCallsSurviveARestart(_ engine: StoreEngine) async throws {
            let (answer, requests) = try await searchAcrossARestart(engine, CallBudget.Limits(perMinute: 2, perDay: 0, perChat: 0))
            #expect(answer.contains("сервис погоды сейчас перегружен, попробуйте через минуту"), "\(answer)")
            #expect(requests == 2)
        }

        /// A search and its card (two calls), the worker restarted, another search: its answer,
        /// and OpenWeather's requests in all.
        func searchAcrossARestart(_ engine: StoreEngine, _ limits: CallBudget.Limits) async throws -> (answer: String, requests: Int) {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let chat: Int64 = 9401
            var bot = try await loopback.startBot(budget: limits)
            telegram.sendText("/search Place 1", from: chat)
            try await telegram.waitUntil("the first card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            try await bot.stop()
            #expect(loopback.weather.requests - loopback.weather.airCalls == 2)

            bot = try await loopback.startBot(budget: limits)
            telegram.sendText("/search Place 2", from: chat)
            try await telegram.waitUntil("the second answer") { state in state.sent.filter { $0.chatID == chat }.count == 2 }
            let answer = try #require(telegram.screen(chat).last?.text)
            let requests = loopback.weather.requests
            try await bot.stop()
            await loopback.shutdown()
            return (answer, requests)
        }
    }
}
