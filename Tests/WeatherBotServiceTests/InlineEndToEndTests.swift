import Foundation
import Testing
@testable import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Inline mode through the real worker over loopback HTTP: `@bot …` typed in another chat,
    /// the result sent there, and its buttons pressed by someone else.
    @Suite(.serialized) struct InlineEndToEndTests {
        let userID: Int64 = 5_501

        /// The answer to one query, once it came.
        static func answer(to queryID: String, _ telegram: FakeTelegram, timeout: Duration = .seconds(10)) async throws -> FakeTelegram.InlineAnswer {
            try await telegram.waitUntil(timeout: timeout, "the answer to \(queryID)") { state in state.inlineAnswers.contains { $0.queryID == queryID } }
            return try #require(telegram.state.withLock { state in state.inlineAnswers.last { $0.queryID == queryID } })
        }

        /// Ufa's card sent from an inline result: its inline message id.
        func sentUfa(_ telegram: FakeTelegram) async throws -> String {
            let query = telegram.sendInlineQuery("Уфа", from: userID)
            _ = try await Self.answer(to: query, telegram)
            return try telegram.chooseInlineResult(0, of: query)
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func aNameIsAnsweredWithItsPlacesTheirWeatherAndTheCard(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            let answer = try await Self.answer(to: telegram.sendInlineQuery("Казань", from: userID), telegram)
            let result = try #require(answer.results.first)
            #expect(answer.results.count == 1)
            #expect(result.title == "Казань, Татарстан, Россия 🇷🇺")
            #expect(result.description == "-3°C, пасмурно, ветер 4 м/с")
            // The card a private chat gets, with the buttons that work in any chat.
            #expect(result.messageText.hasPrefix("📍 <b>Казань</b>, Татарстан, Россия 🇷🇺"))
            #expect(result.messageText.contains("Ощущается как"))
            let markup = try #require(result.markup)
            #expect(markup.contains("По часам") && markup.contains("На 7 дней") && markup.contains("🔄 Обновить"))
            #expect(markup.contains("iv:h0:ru:55.7887:49.1221"))
            #expect(!markup.contains("В избранное") && !markup.contains("График"))
            #expect(answer.isPersonal == true && answer.cacheTime == 120)
            // Nothing is stored for a user who only uses inline mode.
            #expect(try await bot.database.chat(userID) == nil)
            if intake == .polling { #expect(try await bot.database.lastUpdateID() != nil) }
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func namesakesAreToldApartInTheSendersLanguageAndFreeTextAsksForItsView() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            let paris = try await Self.answer(to: telegram.sendInlineQuery("Paris", from: userID, language: "en"), telegram)
            #expect(paris.results.map(\.title) == ["Paris, Ile-de-France, France 🇫🇷", "Paris, Texas, USA 🇺🇸"])
            #expect(paris.results.allSatisfy { $0.description == "-3°C, overcast clouds, wind 4 m/s" && $0.messageText.contains("Feels like") })

            // «погода в Казани завтра»: the hours of tomorrow, found through the nominative.
            let tomorrow = try await Self.answer(to: telegram.sendInlineQuery("погода в Казани завтра", from: userID), telegram)
            let hours = try #require(tomorrow.results.first)
            #expect(hours.messageText.contains("по часам") && hours.messageText.contains("Завтра"))
            #expect(hours.markup?.contains("· По часам ·") ?? false)

            // Coordinates, as in a private chat: the point's weather, named by the geocoder.
            let point = try await Self.answer(to: telegram.sendInlineQuery("54.18, 45.17", from: userID), telegram)
            #expect(point.results.first?.title == "📍 Саранск, Мордовия, Россия 🇷🇺")

            // Nothing found: no results, and a way into the private chat to search.
            let nothing = try await Self.answer(to: telegram.sendInlineQuery("Кзнь", from: userID), telegram)
            #expect(nothing.results.isEmpty)
            #expect(nothing.buttonText == "Ничего не нашлось: «Кзнь». Искать в чате с ботом" && nothing.startParameter == "search")
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func anEmptyQueryListsTheSendersCityAndFavoritesOrTheDefaultCityWithAWayToChoose(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            // No city yet: the default city, and «Выбрать свой город» into the private chat.
            let first = try await Self.answer(to: telegram.sendInlineQuery("", from: userID), telegram)
            #expect(first.results.map(\.title) == ["Москва, Россия 🇷🇺 — город по умолчанию"])
            #expect(first.buttonText == "Выбрать свой город" && first.startParameter == "city" && first.isPersonal == true)
            // Not kept by Telegram: once the city is chosen, the list is the sender's own.
            #expect(first.cacheTime == 0)
            #expect(try await bot.database.chat(userID) == nil)

            // The button opens the private chat at choosing a city.
            telegram.sendText("/start city", from: userID)
            try await telegram.waitUntil("the city question") { state in state.sent.last?.text.contains("Напишите название вашего города") ?? false }
            #expect(telegram.screen(userID).last?.markup?.contains("request_location") ?? false)
            telegram.sendText("Саранск", from: userID)
            try await telegram.waitUntil("«Это ваш город?»") { state in state.sent.last?.text.contains("Это ваш город?") ?? false }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(userID).last).messageID, in: userID)
            telegram.sendText("/search Казань", from: userID)
            try await telegram.waitUntil("Kazan's card") { state in state.sent.last?.text.contains("Казань") ?? false }
            try telegram.press("В избранное", on: try #require(telegram.screen(userID).last).messageID, in: userID)
            try await waitUntil("a favorite") { try await bot.database.favorites(chatID: userID).count == 1 }

            let own = try await Self.answer(to: telegram.sendInlineQuery("", from: userID), telegram)
            #expect(own.results.map(\.title) == ["🏠 Саранск, Мордовия, Россия 🇷🇺", "⭐ Казань, Татарстан, Россия 🇷🇺"])
            #expect(own.buttonText == nil && own.cacheTime == 30 && own.isPersonal == true)

            // Where the sender stands comes first, when Telegram gives it: at home, home once.
            let here = try await Self.answer(to: telegram.sendInlineQuery("", from: userID, location: (54.19, 45.18)), telegram)
            #expect(here.results.map(\.title) == ["📍 Здесь: Саранск, Мордовия, Россия 🇷🇺", "⭐ Казань, Татарстан, Россия 🇷🇺"])
            #expect(here.results.first?.markup?.contains("54.1900:45.1800") ?? false)

            // Words with no place: the sender's own places, for the time asked.
            let tomorrow = try await Self.answer(to: telegram.sendInlineQuery("погода завтра", from: userID), telegram)
            #expect(tomorrow.results.map(\.title) == ["🏠 Саранск, Мордовия, Россия 🇷🇺", "⭐ Казань, Татарстан, Россия 🇷🇺"])
            #expect(tomorrow.results.allSatisfy { $0.description?.hasPrefix("Завтра: днём") ?? false })
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func typingANameLetterByLetterCostsTheCallsOfTheNameAlone() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            try await waitUntil("the bot polling") { telegram.state.withLock { $0.firstPoll != nil } }

            let before = loopback.weather.requests
            var ids: [String] = []
            for length in 1...6 {
                ids.append(telegram.sendInlineQuery(String("Казань".prefix(length)), from: userID))
                try await Task.sleep(for: .milliseconds(150))
            }
            let answer = try await Self.answer(to: ids[5], telegram)
            #expect(answer.results.first?.title == "Казань, Татарстан, Россия 🇷🇺")
            // One geocoding call, one forecast and the air of the card; the prefixes were not looked up.
            #expect(loopback.weather.requests - before == 3)
            try await Task.sleep(for: .seconds(1))
            #expect(telegram.state.withLock { state in state.inlineAnswers.map(\.queryID) } == [ids[5]])

            // Typed again, it is answered at once from the caches, with no call.
            let again = try await Self.answer(to: telegram.sendInlineQuery("Казань", from: userID + 1), telegram)
            #expect(again.results.count == 1 && loopback.weather.requests - before == 3)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test(arguments: Intake.allCases) func buttonsUnderASentResultEditItByItsInlineMessageIDForAnyone(_ intake: Intake) async throws {
            let loopback = try await Loopback(intake: intake)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            let query = telegram.sendInlineQuery("Уфа", from: userID)
            _ = try await Self.answer(to: query, telegram)
            let message = try telegram.chooseInlineResult(0, of: query)

            // A friend in that chat, whose Telegram speaks English, presses «По часам».
            let friend: Int64 = 7_007
            let press = try telegram.pressInline("По часам", on: message, by: friend, language: "en")
            try await telegram.waitUntil("the hours") { state in state.inlineMessages.first?.edits == 1 && state.answers.contains(press) }
            let hours = try #require(telegram.inlineMessage(message))
            // In the message's language, of the same place, with the view marked.
            #expect(hours.text.contains("<b>Уфа</b>") && hours.text.contains("по часам"))
            #expect(hours.markup?.contains("· По часам ·") ?? false)

            let week = try telegram.pressInline("На 7 дней", on: message, by: userID)
            try await telegram.waitUntil("the week") { state in state.inlineMessages.first?.edits == 2 && state.answers.contains(week) }
            #expect(telegram.inlineMessage(message)?.text.contains("на 7 дней") ?? false)

            let refresh = try telegram.pressInline("Обновить", on: message, by: friend, language: "en")
            try await telegram.waitUntil("the refresh's answer") { state in state.answers.contains(refresh) }
            // The notice in the presser's language (the message stays Russian).
            #expect(telegram.state.withLock { $0.answerTexts.last } == "🔄 Refreshed")
            #expect(telegram.inlineMessage(message)?.text.contains("на 7 дней") ?? false)

            // Nobody's chat was touched: no rows for the sender or the friend, no messages sent.
            #expect(try await bot.database.chat(userID) == nil)
            #expect(try await bot.database.chat(friend) == nil)
            #expect(telegram.state.withLock { $0.sent.isEmpty })
            try await bot.stop()
            await loopback.shutdown()
        }

        /// 300 presses on one inline message, alternating two views: every press is answered,
        /// the message gets a few edits at a chat's pace, never refused by Telegram's limits, and
        /// shows the view pressed last.
        @Test func aStormOfPressesOnAnInlineMessageSendsItsLatestViewAtAChatsPace() async throws {
            let loopback = try await Loopback(telegramLimits: SendingLimits(perWindow: 30, perChatPerWindow: 1, perChatBurst: 3))
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            let message = try await sentUfa(telegram)

            var presses: [String] = []
            for index in 0..<300 {
                presses.append(try telegram.pressInline(index.isMultiple(of: 2) ? "По часам" : "На 7 дней", on: message, by: userID + Int64(index % 5)))
            }
            try await telegram.waitUntil(timeout: .seconds(30), "every press answered and the last view shown") { state in
                Set(state.answers).isSuperset(of: presses) && state.inlineMessages.first?.text.contains("на 7 дней") == true
            }
            try await Task.sleep(for: .seconds(2))
            let shown = try #require(telegram.inlineMessage(message))
            #expect(shown.text.contains("на 7 дней"))
            #expect(shown.edits <= 12, "\(shown.edits) edits")
            #expect(telegram.state.withLock { $0.rateLimited } == 0)
            try await bot.stop()
            await loopback.shutdown()
        }

        /// Telegram's 429 on an inline message's edit is waited out: the view is shown once the
        /// wait it asked for is over, not lost.
        @Test func anInlineEditRefusedWith429IsSentAfterTheWait() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            let message = try await sentUfa(telegram)
            telegram.state.withLock { state in
                state.failures["editMessageText"] = [
                    .json(["ok": false, "error_code": 429, "description": "Too Many Requests: retry after 2", "parameters": ["retry_after": 2]], status: 429)
                ]
            }
            let pressed = Date()
            let press = try telegram.pressInline("По часам", on: message, by: userID)
            try await telegram.waitUntil(timeout: .seconds(15), "the hours, after the wait") { state in
                state.answers.contains(press) && state.inlineMessages.first?.edits == 1
            }
            let edited = try #require(telegram.inlineMessage(message)?.editedAt.first)
            #expect(edited.timeIntervalSince(pressed) >= 1.9)
            #expect(telegram.inlineMessage(message)?.text.contains("по часам") == true)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test func anInlineAnswerDoesNotWaitForABroadcast() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let subscribers = 300
            try await loopback.withStore { store in
                for id in 1...subscribers {
                    let place = Place(
                        name: "Place \(id % 4)", localNames: ["ru": "Место \(id % 4)"], country: "RU", latitude: 54 + Double(id % 4),
                        longitude: 45, timeZone: "Europe/Moscow")
                    let chat = ChatRecord(id: Int64(10_000 + id), language: .ru, state: .idle, currentPlace: place)
                    let subscription = Subscription(chatID: chat.id, place: place, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: Date())
                    _ = try await store.commitStep(chat: chat, handled: -1, changes: [.subscribe(subscription, limit: 1)], replies: [], followUps: [], at: Date())
                }
            }
            let bot = try await loopback.startBot(schedulerInterval: .milliseconds(100))
            func forecasts(_ state: FakeTelegram.State) -> Int { state.sent.filter { $0.text.contains("Прогноз на сегодня") }.count }
            func forecasts() -> Int { telegram.state.withLock { forecasts($0) } }
            try await telegram.waitUntil("the broadcast under way") { forecasts($0) >= 60 }

            let answer = try await Self.answer(to: telegram.sendInlineQuery("Казань", from: userID), telegram)
            #expect(answer.results.count == 1)
            // Still under way: the answer did not wait for the 300 forecasts at 30 a second.
            #expect(forecasts() < subscribers)
            try await telegram.waitUntil(timeout: .seconds(30), "every forecast") { forecasts($0) == subscribers }
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
