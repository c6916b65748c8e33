import Foundation
import OpenWeather
import Synchronization
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot
import WeatherBotSQLite

/// Text as people type it, from the router through the conversation.
@Suite struct FreeTextTests {
    typealias Chat = FavoritesConversationTests.Chat

    func message(_ text: String, language: String = "ru") -> Intent? {
        UpdateRouter.route(Update(
            updateID: 1,
            message: Message(messageID: 1, from: User(id: 77, firstName: "А", languageCode: language), date: 1, chat: TelegramBotAPI.Chat(id: 77), text: text)))?.intent
    }

    func withCity() async throws -> Chat {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        return chat
    }

    @Test func aShortMapLinkIsToBeFollowedAndALongOneIsReadAtOnce() {
        #expect(message("вот где я: https://maps.app.goo.gl/Xk3bTq9wZp2") == .shortMapLink("https://maps.app.goo.gl/Xk3bTq9wZp2"))
        #expect(message("https://yandex.ru/maps/-/CCUqMKR3") == .shortMapLink("https://yandex.ru/maps/-/CCUqMKR3"))
        #expect(message("https://yandex.ru/maps/?ll=37.62,55.75&z=10") == .location(latitude: 55.75, longitude: 37.62))
    }

    @Test(arguments: ["погода казань", "Погода в Казани", "какая погода в Казани?", "Казань", "weather in Казань"])
    func aPlaceIsFoundWhateverWordsSurroundIt(text: String) async throws {
        let chat = try await withCity()
        let step = try await chat.send(message(text)!)
        let card = try #require(step.replies.last?.text)
        #expect(card.contains("📍 <b>Казань</b>"), "\(text): \(card)")
        #expect(card.contains("Ощущается как"))
    }

    @Test func tomorrowOpensTheHoursOfTomorrowAndFillerAloneShowsTheChatsCity() async throws {
        let chat = try await withCity()
        let tomorrow = try await chat.send(message("Казань завтра")!)
        guard case .send(let text, .inline(let keyboard)?, _) = tomorrow.replies.last else {
            Issue.record("expected a view, got \(tomorrow.replies)")
            return
        }
        #expect(text.contains("Казань"))
        #expect(keyboard.inlineKeyboard[0].contains { $0.text == "· По часам ·" }, "\(keyboard)")
        let own = try await chat.send(message("погода")!)
        #expect(own.replies.last?.text?.contains("📍 <b>Саранск</b>") == true)
        // Filler alone still says which day: «погода завтра» is tomorrow's hours, «послезавтра» is not.
        #expect(TypedQuery.asksForTomorrow("погода завтра") && TypedQuery.asksForTomorrow("Weather TOMORROW?"))
        #expect(!TypedQuery.asksForTomorrow("погода послезавтра"))
        let ownTomorrow = try await chat.send(message("погода завтра")!)
        #expect(ownTomorrow.replies.last?.text?.contains("по часам") == true)
    }

    /// Every way into a question that waits for a name: a typo, `/city` with a typo, `/search`
    /// and `/city` alone.
    @Test(arguments: ["асдфгхжк", "/city асдфгхжк", "/search", "/city"])
    func theBotsOwnWordsAreNotSearchedAsANameWhileItWaitsForOne(opening: String) async throws {
        let chat = try await withCity()
        let opened = try await chat.send(message(opening)!)
        #expect(opened.chat.state.isAwaitingName, "\(opening): \(opened.chat.state)")
        let own = try await chat.send(message("погода")!)
        #expect(own.replies.last?.text?.contains("📍 <b>Саранск</b>") == true, "\(opening): \(own.replies)")
        let tomorrow = try await chat.send(message("погода завтра")!)
        let hours = try #require(tomorrow.replies.last?.text)
        #expect(hours.contains("Саранск") && hours.contains("по часам"), "\(opening): \(hours)")
        // /help's own example is read as a place, and the question gets its answer.
        let example = try await chat.send(message("погода в Казани завтра")!)
        let text = try #require(example.replies.last?.text)
        #expect(!text.contains("Ничего не нашлось"), "\(opening): \(text)")
        #expect(text.contains("Казань"), "\(opening): \(text)")
    }

    /// A new user who types /help's example is asked about the city, and «Да» shows what the
    /// sentence asked for: tomorrow's hours, or the week; so does a pick from a list of namesakes.
    @Test(arguments: [("погода в Казани завтра", "Да, всё верно", "по часам"), ("погода в Казани на неделю", "Да, всё верно", "на 7 дней"),
                      ("Париж завтра", "Франция", "по часам"), ("Казань", "Да, всё верно", "Ощущается как")])
    func aNewUsersCityShowsWhatTheirSentenceAskedFor(typed: String, answer: String, shown: String) async throws {
        let chat = try Chat()
        let asked = try await chat.send(message(typed)!)
        let answered = try await chat.press(answer, in: asked)
        let view = try #require(answered.replies.last?.text)
        #expect(view.contains(shown), "\(typed): \(view)")
    }

    /// «/weather Казань» is Kazan's weather, not the chat's city's: with a city, without one, and
    /// while the bot waits for a name.
    @Test func weatherWithANameShowsThatPlace() async throws {
        let fresh = try Chat()
        let looked = try await fresh.send(message("/weather Казань")!)
        #expect(looked.replies.last?.text?.hasPrefix("📍 <b>Казань</b>") == true, "\(looked.replies)")
        #expect(looked.chat.currentPlace == nil)
        let chat = try await withCity()
        _ = try await chat.send(message("/city")!)
        let tomorrow = try await chat.send(message("/weather Казань завтра")!)
        let hours = try #require(tomorrow.replies.last?.text)
        #expect(hours.contains("Казань") && hours.contains("по часам"), "\(hours)")
        #expect(tomorrow.chat.currentPlace?.name == "Saransk")
        let own = try await chat.send(message("/weather")!)
        #expect(own.replies.last?.text?.contains("📍 <b>Саранск</b>") == true)
    }

    @Test func theBotsOwnWordsAreNotSearchedAfterASearchFailed() async throws {
        let conversation = Conversation(geocoder: FlakyGeocoder(), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        let failed = await conversation.handle(.incoming(Incoming(updateID: 1, chatID: 5, language: .ru, intent: .command(.search("Казань")))), chat: nil)
        guard case .searchFailed = failed.chat.state else {
            Issue.record("expected a failed search, got \(failed.chat.state)")
            return
        }
        let own = await conversation.handle(.incoming(Incoming(updateID: 2, chatID: 5, language: .ru, intent: .text("погода"))), chat: failed.chat)
        #expect(own.replies.last?.text?.contains("Ощущается как") == true, "\(own.replies)")
        #expect(!(own.replies.last?.text?.contains("Не удалось выполнить поиск") ?? true))
    }

    @Test(arguments: ["привет", "Спасибо!", "👍", "🌧🌧", "ok"])
    func greetingsAndEmojiGetTheShortHintNotASearch(text: String) async throws {
        #expect(message(text) == .chatter)
        let chat = try Chat()
        let step = try await chat.send(.chatter)
        #expect(step.replies.last?.text?.hasPrefix("Напишите название города или отправьте геолокацию") == true)
    }

    @Test func theKeyboardsOwnLabelsAreNotSearchedFor() {
        #expect(message(Texts.for(.ru).shareLocationButton) == .chatter)
        #expect(message(Texts.for(.en).shareLocationButton, language: "en") == .chatter)
    }

    @Test(arguments: [
        "55.75N 37.62E", "55.75° N, 37.62° E", "55°45′N 37°37′E", "geo:55.75,37.62",
        "https://www.google.com/maps/@55.75,37.62,12z", "https://yandex.ru/maps/?ll=37.62%2C55.75&z=10",
        "https://maps.apple.com/?ll=55.75,37.62", "https://www.openstreetmap.org/#map=12/55.75/37.62",
    ])
    func coordinatesAndMapLinksAreALocation(text: String) throws {
        guard case .location(let latitude, let longitude)? = message(text) else {
            Issue.record("\(text): \(String(describing: message(text)))")
            return
        }
        #expect(abs(latitude - 55.75) < 0.01 && abs(longitude - 37.62) < 0.01, "\(text)")
    }

    @Test func coordinatesOffTheGlobeGetTheirOwnAnswer() async throws {
        #expect(message("95.5, 37.62") == .coordinatesOutOfRange)
        #expect(message("55°75′N 37°37′E") == .coordinatesOutOfRange)
        // Whole numbers are coordinates too, not a name to search for.
        #expect(message("91, 200") == .coordinatesOutOfRange)
        #expect(message("-95, 10") == .coordinatesOutOfRange)
        let step = try await Chat().send(.coordinatesOutOfRange)
        #expect(step.replies.last?.text?.hasPrefix("Таких координат нет") == true)
    }
}

extension ChatState {
    var isAwaitingName: Bool {
        switch self {
        case .awaitingCityName, .searchFailed: true
        default: false
        }
    }
}

/// Fails its first lookups, then answers from a table.
final class FlakyGeocoder: Geocoder {
    let failures = Mutex(1)
    func places(named name: String, language: Language, for context: CallContext) async throws -> [Place] {
        if failures.withLock({ count in defer { count -= 1 }; return count > 0 }) {
            throw OpenWeatherError(code: .server(503), endpoint: "/geo/1.0/direct", message: "")
        }
        return name == "Казань" ? [Place(name: "Kazan", localNames: ["ru": "Казань"], country: "RU", latitude: 55.79, longitude: 49.12)] : []
    }
    func places(atLatitude latitude: Double, longitude: Double, language: Language, for context: CallContext) async throws -> [Place] { [] }
}

/// A geocoder over the bot's budget: every call refused with `refusal`, the chat told of it
/// moments ago or not.
struct RefusedGeocoder: Geocoder {
    var refusal: CallBudget.Refusal
    var toldAlready: Bool
    func places(named name: String, language: Language, for context: CallContext) async throws -> [Place] {
        throw OpenWeatherError(code: .overBudget(refusal), endpoint: "/geo/1.0/direct", message: "", refusedLocally: true, chatToldAlready: toldAlready)
    }
    func places(atLatitude latitude: Double, longitude: Double, language: Language, for context: CallContext) async throws -> [Place] {
        throw OpenWeatherError(code: .overBudget(refusal), endpoint: "/geo/1.0/reverse", message: "", refusedLocally: true, chatToldAlready: toldAlready)
    }
}

@Suite struct SearchRetryTests {
    /// A name typed while the chat was told of a refusal moments ago goes unanswered; a press of
    /// «🔄 Повторить» never does: whoever pressed sees the refusal again, with the button.
    @Test func aRetryPressedWhileRefusedSaysSoEvenWhenTheChatWasToldAlready() async throws {
        let conversation = Conversation(
            geocoder: RefusedGeocoder(refusal: .minute, toldAlready: true), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        let typed = await conversation.handle(
            .incoming(Incoming(updateID: 1, chatID: 5, language: .ru, intent: .command(.search("Казань")))), chat: nil)
        #expect(typed.replies.isEmpty)
        let press = CallbackAction.retrySearch(question: 1, search: RetriedSearch(query: "Казань", purpose: .browse))
        let pressed = await conversation.handle(
            .incoming(Incoming(updateID: 2, chatID: 5, language: .ru, intent: .button(press), callbackQueryID: "q", messageID: 70)), chat: typed.chat)
        #expect(pressed.replies.contains(.answer(callbackQueryID: "q", text: nil)))
        guard case .send(let text, .inline(let keyboard)?, _) = pressed.replies.last else {
            Issue.record("expected the refusal with a retry button, got \(pressed.replies)")
            return
        }
        #expect(text == "Не удалось выполнить поиск: сервис погоды сейчас перегружен, попробуйте через минуту. Нажмите «🔄 Повторить» чуть позже.")
        #expect(keyboard.inlineKeyboard.first?.first?.text == "🔄 Повторить")
    }

    /// When the day's calls are spent, a failure says to try again after the day turns, not «a
    /// little later» hours ahead.
    @Test func aSpentDayIsToRetryAfterMidnightUTC() async throws {
        let conversation = Conversation(
            geocoder: RefusedGeocoder(refusal: .day(renews: Date()), toldAlready: false), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        let searched = await conversation.handle(
            .incoming(Incoming(updateID: 1, chatID: 5, language: .en, intent: .command(.search("Kazan")))), chat: nil)
        #expect(searched.replies.last?.text?.hasSuffix("new ones come after 00:00 UTC. Press “🔄 Retry” after 00:00 UTC.") == true, "\(searched.replies)")
        let located = await conversation.handle(
            .incoming(Incoming(updateID: 2, chatID: 6, language: .ru, intent: .location(latitude: 55.79, longitude: 49.12))), chat: nil)
        let lookedUp = await conversation.handle(.followUp(try #require(located.followUps.first), chatID: 6), chat: located.chat)
        #expect(
            lookedUp.replies.contains { $0.text?.contains("Отправьте геолокацию ещё раз после 00:00 UTC или выберите город вручную.") == true },
            "\(lookedUp.replies)")
    }

    @Test func aFailedSearchIsToldAsAnOutageAndRunsAgainWithOnePress() async throws {
        let conversation = Conversation(geocoder: FlakyGeocoder(), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        func incoming(_ intent: Intent, query: String? = nil) -> Conversation.Event {
            .incoming(Incoming(updateID: 1, chatID: 5, language: .ru, intent: intent, callbackQueryID: query, messageID: query == nil ? nil : 70))
        }
        let failed = await conversation.handle(incoming(.command(.search("Казань"))), chat: nil)
        guard case .send(let text, .inline(let keyboard)?, _) = failed.replies.last else {
            Issue.record("expected a retry button, got \(failed.replies)")
            return
        }
        #expect(text.hasPrefix("Не удалось выполнить поиск: сервис погоды временно недоступен"))
        #expect(!text.contains("Ничего не нашлось"))
        let retry = try #require(keyboard.inlineKeyboard.first?.first?.callbackData.flatMap(CallbackAction.init(encoded:)))
        let again = await conversation.handle(incoming(.button(retry), query: "q"), chat: failed.chat)
        #expect(again.replies.contains(.editKeyboard(.id(70), keyboard: nil)))
        #expect(again.replies.last?.text?.contains("📍 <b>Казань</b>") == true, "\(again.replies)")
        // A button that carries no search (sent before buttons did) is stale once the search is done.
        let legacy = await conversation.handle(incoming(.button(.retrySearch(question: failed.chat.questionSeq)), query: "q"), chat: again.chat)
        #expect(legacy.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
    }

    @Test func aFailedSearchsRetryStillWorksAfterTheChatMovedOn() async throws {
        let conversation = Conversation(geocoder: FlakyGeocoder(), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        func incoming(_ intent: Intent, query: String? = nil) -> Conversation.Event {
            .incoming(Incoming(updateID: 1, chatID: 5, language: .ru, intent: intent, callbackQueryID: query, messageID: query == nil ? nil : 70))
        }
        let failed = await conversation.handle(incoming(.command(.search("Казань"))), chat: nil)
        guard case .send(_, .inline(let keyboard)?, _) = failed.replies.last else {
            Issue.record("expected a retry button, got \(failed.replies)")
            return
        }
        let retry = try #require(keyboard.inlineKeyboard.first?.first?.callbackData.flatMap(CallbackAction.init(encoded:)))
        #expect(retry == .retrySearch(question: failed.chat.questionSeq, search: RetriedSearch(query: "Казань", purpose: .browse)))
        // Other questions since: /city asks for a name, and a location is being looked up.
        let asked = await conversation.handle(incoming(.command(.city(nil))), chat: failed.chat)
        let located = await conversation.handle(incoming(.location(latitude: 55.79, longitude: 49.12)), chat: asked.chat)
        let again = await conversation.handle(incoming(.button(retry), query: "q"), chat: located.chat)
        #expect(again.replies.first == .answer(callbackQueryID: "q", text: nil))
        #expect(again.replies.last?.text?.contains("📍 <b>Казань</b>") == true, "\(again.replies)")
    }
}

@Suite struct EditedMessageTests {
    typealias Chat = FavoritesConversationTests.Chat

    @Test func aCorrectedTypoIsReadAgainWhileItsReplyIsTheLatest() async throws {
        let chat = try Chat()
        let typo = try await chat.send(.text("Казнь"), userMessageID: 10)
        #expect(typo.replies.last?.text?.contains("Ничего не нашлось") == true)
        // The user fixes the message the bot just answered: it is read as the new text.
        let fixed = try await chat.send(.text("Казань"), userMessageID: 10, isEdit: true)
        #expect(fixed.replies.last?.text?.contains("Это ваш город?") == true, "\(fixed.replies)")
        // Once the chat has moved on, an edit of an older message changes nothing.
        _ = try await chat.send(.command(.help), userMessageID: 11)
        let late = try await chat.send(.text("Уфа"), userMessageID: 10, isEdit: true)
        #expect(late.replies.isEmpty)
        #expect(try chat.database.chat(chat.id)?.lastMessageID == 11)
        // A message the bot never answered is not answered when edited either.
        let unknown = try await Chat(id: 90).send(.text("Уфа"), userMessageID: 3, isEdit: true)
        #expect(unknown.replies.isEmpty)
    }
}

/// Names as people write them: nicknames, and a country or region after a comma.
@Suite struct NamesAsWrittenTests {
    typealias Chat = FavoritesConversationTests.Chat

    static let piter = Place(name: "Saint Petersburg", localNames: ["ru": "Санкт-Петербург"], region: "Saint Petersburg", country: "RU", latitude: 59.94, longitude: 30.31)
    static let idaho = Place(name: "Moscow", localNames: ["ru": "Москва"], region: "Idaho", country: "US", latitude: 46.73, longitude: -117.0)

    func conversation() -> Conversation {
        // As OpenWeather's: «name,country» and «name,state,US» keep to them; the name alone finds
        // five places at most, where Moscow in Idaho is not.
        let geocoder = FakeGeocoder(byName: [
            "Санкт-Петербург": [Self.piter], "Питер": [], "Paris": [.parisFR, .parisUS], "Париж": [.parisFR, .parisUS],
            "Paris,FR": [.parisFR], "Paris,US": [.parisUS], "Париж,FR": [.parisFR], "Париж,US": [.parisUS],
            "Moscow": [.moscow], "Moscow,RU": [.moscow], "Moscow,ID,US": [Self.idaho], "Москва,ID,US": [Self.idaho], "Moscow,ID": [],
            "Казань, Вахитовский": [.kazanDowntown], "Казань": [.kazan],
        ])
        return Conversation(geocoder: geocoder, weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
    }

    func answer(_ command: Command) async -> Reply? {
        await conversation().handle(.incoming(Incoming(updateID: 1, chatID: 5, language: .ru, intent: .command(command))), chat: nil).replies.last
    }

    func card(_ command: Command) async -> String? {
        guard case .send(let text, .inline?, _) = await answer(command) else { return nil }
        return text
    }

    @Test(arguments: ["Питер", "СПб", "спб", "Санкт Петербург"])
    func nicknamesFindTheCity(name: String) async {
        #expect(await card(.search(name))?.hasPrefix("📍 <b>Санкт-Петербург</b>") == true, "\(name)")
    }

    @Test(arguments: [("Paris, France", "📍 <b>Париж</b>, Иль-де-Франс, Франция"), ("Париж, США", "📍 <b>Париж</b>, Техас, США"),
                      ("Paris, FR", "📍 <b>Париж</b>, Иль-де-Франс"), ("Moscow, Idaho", "📍 <b>Москва</b>, Айдахо, США"),
                      ("Moscow, Россия", "📍 <b>Москва</b>, Россия"), ("Moscow, ID", "📍 <b>Москва</b>, Айдахо, США"),
                      ("Москва, Айдахо", "📍 <b>Москва</b>, Айдахо, США"), ("Казань, Татарстан", "📍 <b>Казань</b>, Татарстан")])
    func aCountryOrRegionAfterACommaNarrowsTheSearch(typed: String, shown: String) async {
        let text = await card(.search(typed))
        #expect(text?.hasPrefix(shown) == true, "\(typed): \(text ?? "no card")")
    }

    /// «Moscow, Texas» is not Moscow in Russia: a known country or region finds its places or none.
    @Test(arguments: ["Moscow, Texas", "Paris, Germany", "Париж, Германия", "Казань, Башкортостан"])
    func aCountryOrRegionWithoutThePlaceFindsNothingElsewhere(typed: String) async {
        #expect(await answer(.search(typed))?.text == "Ничего не нашлось по запросу «\(typed)». Проверьте название и напишите ещё раз — можно по-русски или по-английски.")
    }

    @Test func aCommaThatNarrowsNothingIsAskedAsWritten() async {
        #expect(await card(.search("Казань, Вахитовский"))?.contains("Казань") == true)
    }
}
