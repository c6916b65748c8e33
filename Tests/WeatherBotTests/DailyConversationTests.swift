import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot
import WeatherBotSQLite

/// /daily through the conversation, each step committed to a real SQLite file.
@Suite struct DailyConversationTests {
    typealias Chat = FavoritesConversationTests.Chat

    /// /daily off, confirmed.
    func dailyOff(_ chat: Chat) async throws {
        let asked = try await chat.send(.command(.daily("off")))
        if asked.replies.first?.text?.hasPrefix("Отменить все") == true { _ = try await chat.press("Да, отменить все", in: asked) }
    }

    func withCity() async throws -> Chat {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        return chat
    }

    @Test func subscribesTheCityAtALocalTimeAndConfirmsPlaceAndTime() async throws {
        let chat = try await withCity()
        for typed in ["8:00", "08:00", "8.00"] {
            try await dailyOff(chat)
            let step = try await chat.send(.command(.daily(typed)))
            #expect(step.replies.first?.text?.hasPrefix("✅ Каждый день в 08:00 по местному времени (<b>Саранск</b>) пришлю прогноз. Сейчас там ") == true, "«\(typed)»")
        }
        let subscriptions = try chat.database.subscriptions(chatID: chat.id)
        #expect(subscriptions.count == 1)
        #expect(subscriptions[0].timeZone == "Europe/Moscow")
        #expect(subscriptions[0].hour == 8 && subscriptions[0].minute == 0)
        // The next send is 08:00 Moscow time (05:00 UTC) after the conversation's clock.
        #expect(Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "Europe/Moscow")!, from: subscriptions[0].nextSendAt).hour == 8)
    }

    /// 13:00 in Moscow: 20:00 comes today, 08:00 has passed and comes tomorrow.
    @Test func theAnswerSaysWhetherTheFirstForecastComesTodayOrTomorrow() async {
        let conversation = Conversation(
            geocoder: FakeGeocoder(), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity(),
            clock: ManualClock(ISO8601DateFormatter().date(from: "2026-11-21T10:00:00Z")!))
        var city = Place.saransk
        city.timeZone = "Europe/Moscow"
        let chat = ChatRecord(id: 5, language: .ru, state: .idle, currentPlace: city, createdAt: Date(), updatedAt: Date())
        func said(_ time: String, _ language: Language = .ru) async -> String? {
            let step = await conversation.handle(.incoming(Incoming(updateID: 1, chatID: 5, language: language, intent: .command(.daily(time)))), chat: chat)
            return step.replies.first?.text
        }
        #expect(await said("20:00") == "✅ Каждый день в 20:00 по местному времени (<b>Саранск</b>) пришлю прогноз. Сейчас там 13:00, первый придёт сегодня.")
        #expect(await said("8:00") == "✅ Каждый день в 08:00 по местному времени (<b>Саранск</b>) пришлю прогноз. Сейчас там 13:00, первый придёт завтра.")
        #expect(await said("8:00", .en) == "✅ Every day at 08:00 local time (<b>Saransk</b>) I'll send the forecast. It is 13:00 there now; the first comes tomorrow.")
    }

    @Test func badTimesAndPlacesGetAClearAnswer() async throws {
        let chat = try await withCity()
        let bad = try await chat.send(.command(.daily("25:99")))
        #expect(bad.replies.first?.text == "Не понимаю время «25:99». Укажите часы и минуты, например: /daily 8:00")
        let noFavorite = try await chat.send(.command(.daily("8:00 3")))
        #expect(noFavorite.replies.first?.text == "В избранном пока ничего нет.")
        let nonsense = try await chat.send(.command(.daily("8:00 3 4")))
        #expect(nonsense.replies.first?.text?.contains("/daily 8:00") == true)
        // Times as people type them; a bad one is answered about the time.
        for (typed, shown) in [("7.30", "07:30"), ("7:30 pm", "19:30"), ("8 утра", "08:00"), ("20ч", "20:00"), ("7 pm", "19:00")] {
            let step = try await chat.send(.command(.daily(typed)))
            #expect(step.replies.first?.text?.contains(shown) == true, "\(typed): \(step.replies)")
        }
        #expect(try chat.database.subscriptions(chatID: chat.id).count == 5)
        try await dailyOff(chat)
        let late = try await chat.send(.command(.daily("25 pm 1")))
        #expect(late.replies.first?.text?.hasPrefix("Не понимаю время «25") == true, "\(late.replies)")
        // Words that are no time are named before the usage, not met with the usage alone.
        let words = try await chat.send(.command(.daily("завтра")))
        #expect(words.replies.first?.text?.hasPrefix("Не понимаю «завтра»: после /daily нужно время.\n\nЧтобы получать прогноз каждый день") == true)
        let noCity = try Chat(id: 5)
        let step = try await noCity.send(.command(.daily("9:15")))
        #expect(step.replies.first?.text?.contains("Сначала выберите город") == true)
        #expect(try chat.database.subscriptions(chatID: chat.id).isEmpty)
    }

    @Test func aFavoriteByNumberAndAtMostFive() async throws {
        let chat = try await withCity()
        try await chat.save(["Казань"])
        let favorite = try await chat.send(.command(.daily("7:30 1")))
        #expect(favorite.replies.first?.text?.contains("в 07:30") == true)
        #expect(favorite.replies.first?.text?.contains("Казань") == true)
        let duplicate = try await chat.send(.command(.daily("7:30 1")))
        #expect(duplicate.replies.first?.text == "Такой прогноз уже есть.")
        for hour in 9...12 { try await chat.send(.command(.daily("\(hour):00"))) }
        let sixth = try await chat.send(.command(.daily("13:00")))
        #expect(sixth.replies.first?.text == "Можно не больше 5 ежедневных прогнозов. Отмените один: /daily")
        #expect(try chat.database.subscriptions(chatID: chat.id).count == 5)
    }

    @Test func theListHasACancelButtonEachAndOffCancelsAll() async throws {
        let chat = try await withCity()
        try await chat.send(.command(.daily("8:00")))
        try await chat.send(.command(.daily("21:00")))
        let list = try await chat.send(.command(.daily(nil)))
        guard case .send(let text, .inline(let keyboard)?, _) = list.replies.first else {
            Issue.record("expected the list, got \(list.replies)")
            return
        }
        #expect(text.contains("⏰ 08:00 — <b>Саранск</b>"))
        #expect(text.contains("⏰ 21:00 — <b>Саранск</b>"))
        #expect(text.contains("/daily off"))
        #expect(keyboard.inlineKeyboard.count == 2)
        let cancelled = try await chat.press("08:00", in: list, messageID: 4)
        #expect(cancelled.replies.first == .answer(callbackQueryID: "q", text: "Прогноз отменён"))
        #expect(try chat.database.subscriptions(chatID: chat.id).map(\.hour) == [21])
        let stale = try await chat.press("08:00", in: list)
        #expect(stale.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
        // /daily off asks first, as /reset does.
        let off = try await chat.send(.command(.daily("off")))
        #expect(off.replies.first?.text == "Отменить все ежедневные прогнозы (1)?")
        #expect(try chat.database.subscriptions(chatID: chat.id).count == 1)
        let kept = try await chat.press("Нет, оставить", in: off, messageID: 9)
        #expect(kept.replies.last == .edit(.id(9), text: "Ежедневные прогнозы остаются."))
        #expect(try chat.database.subscriptions(chatID: chat.id).count == 1)
        let again = try await chat.send(.command(.daily("off")))
        let gone = try await chat.press("Да, отменить все", in: again, messageID: 10)
        #expect(gone.replies.last == .edit(.id(10), text: "Ежедневные прогнозы отменены: 1."))
        #expect(try chat.database.subscriptions(chatID: chat.id).isEmpty)
        // The first question's «Да» is stale now, and with nothing left there is nothing to ask.
        let late = try await chat.press("Да, отменить все", in: off, messageID: 9)
        #expect(late.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
        let none = try await chat.send(.command(.daily("off")))
        #expect(none.replies.first?.text == "Подписок пока нет.")
    }

    @Test func theListIsInTheOrderOfTheDay() async throws {
        let chat = try await withCity()
        for time in ["21:00", "7:30", "12:00"] { try await chat.send(.command(.daily(time))) }
        let text = try #require(try await chat.send(.command(.daily(nil))).replies.last?.text)
        let times = ["07:30", "12:00", "21:00"].map { text.range(of: "⏰ \($0)")?.lowerBound }
        #expect(times.allSatisfy { $0 != nil } && times == times.sorted { $0! < $1! }, "\(text)")
    }

    @Test func deletingAFavoriteWithADailyForecastSaysTheForecastStays() async throws {
        let chat = try await withCity()
        try await chat.save(["Казань"])
        try await chat.send(.command(.daily("8:00 1")))
        let deleted = try await chat.send(.command(.delete("1")))
        let text = try #require(deleted.replies.last?.text)
        #expect(text.contains("Удалено: Казань"))
        #expect(text.contains("Ежедневный прогноз для этого места (08:00) остаётся; отменить: /daily"), "\(text)")
        #expect(try chat.database.subscriptions(chatID: chat.id).count == 1)
    }

    @Test func resetCancelsTheForecastsToo() async throws {
        let chat = try await withCity()
        try await chat.send(.command(.daily("8:00")))
        let question = try await chat.send(.command(.reset))
        _ = try await chat.press("Да, удалить всё", in: question)
        #expect(try chat.database.subscriptions(chatID: chat.id).isEmpty)
    }
}

/// A daily forecast names its place as /fav and /del do: two favorites of one name told apart
/// in the confirmation, the list and the cancel buttons.
@Suite struct DailyNamesakesTests {
    typealias Chat = FavoritesConversationTests.Chat

    @Test func dailyForecastsOfTwoNamesakesAreToldApartAsFavoritesAre() async throws {
        let chat = try await DailyConversationTests().withCity()
        for label in ["Иль-де-Франс", "Техас"] {
            let list = try await chat.send(.command(.search("Париж")))
            let card = try await chat.press(label, in: list)
            _ = try await chat.press("В избранное", in: card)
        }
        let france = try await chat.send(.command(.daily("7:00 1")))
        #expect(france.replies.first?.text?.hasPrefix("✅ Каждый день в 07:00 по местному времени (<b>Париж, Франция</b>)") == true, "\(france.replies)")
        let texas = try await chat.send(.command(.daily("7:00 2")))
        #expect(texas.replies.first?.text?.hasPrefix("✅ Каждый день в 07:00 по местному времени (<b>Париж, США</b>)") == true, "\(texas.replies)")
        let list = try await chat.send(.command(.daily(nil)))
        guard case .send(let text, .inline(let keyboard)?, _) = list.replies.last else {
            Issue.record("expected the list, got \(list.replies)")
            return
        }
        #expect(text.contains("⏰ 07:00 — <b>Париж, Франция</b>") && text.contains("⏰ 07:00 — <b>Париж, США</b>"), "\(text)")
        let labels = keyboard.inlineKeyboard.joined().map(\.text)
        #expect(labels.contains { $0.hasSuffix("07:00 Париж, Франция") } && labels.contains { $0.hasSuffix("07:00 Париж, США") }, "\(labels)")
        // The city alone keeps its plain name.
        let city = try await chat.send(.command(.daily("8:00")))
        #expect(city.replies.first?.text?.contains("(<b>Саранск</b>)") == true, "\(city.replies)")
    }
}
