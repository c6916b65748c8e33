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
        #expect(message("https://yandex.ru/maps/?ll=37.62,55.75&z=10") == .typedPoint(latitude: 55.75, longitude: 37.62, source: .link))
        #expect(message("55.75, 37.62") == .typedPoint(latitude: 55.75, longitude: 37.62, source: .coordinates))
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
        guard case .typedPoint(let latitude, let longitude, let source)? = message(text), 
            // A `geo:` address or a link is a link; numbers alone are coordinates.
            source == (text.contains(":") ? .link : .coordinates)
        else {
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

    /// A chat over its share of the minute is asked for the point again the way it sent it:
    /// typed coordinates, a link, or a shared location, never «отправьте геолокацию» to someone
    /// who typed numbers.
    @Test(arguments: [
        ("55.79, 49.12", "ru", "слишком много запросов подряд из этого чата, подождите минуту. Отправьте координаты ещё раз чуть позже или выберите город вручную."),
        ("https://yandex.ru/maps/?ll=49.12,55.79&z=10", "ru", "Отправьте ссылку ещё раз чуть позже или выберите город вручную."),
        ("55.79, 49.12", "en", "wait a minute. Send the coordinates again a little later, or choose a city manually."),
        ("https://www.google.com/maps/@55.79,49.12,12z", "en", "Send the link again a little later, or choose a city manually."),
    ])
    func aRefusedLookUpAsksForThePointAgainTheWayItCame(typed: String, language: String, said: String) async throws {
        let conversation = Conversation(
            geocoder: RefusedGeocoder(refusal: .chat, toldAlready: false), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        let intent = try #require(FreeTextTests().message(typed, language: language))
        let sent = await conversation.handle(
            .incoming(Incoming(updateID: 1, chatID: 6, language: language == "ru" ? .ru : .en, intent: intent)), chat: nil)
        let lookedUp = await conversation.handle(.followUp(try #require(sent.followUps.first), chatID: 6), chat: sent.chat)
        #expect(lookedUp.replies.contains { $0.text?.contains(said) == true }, "\(lookedUp.replies)")
        #expect(!lookedUp.replies.contains { $0.text?.contains("геолокацию") == true || $0.text?.contains("location") == true })
    }

    @Test func aSharedLocationRefusedIsAskedForAgainAsALocation() async throws {
        let conversation = Conversation(
            geocoder: RefusedGeocoder(refusal: .chat, toldAlready: false), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        let located = await conversation.handle(
            .incoming(Incoming(updateID: 1, chatID: 6, language: .ru, intent: .location(latitude: 55.79, longitude: 49.12))), chat: nil)
        let lookedUp = await conversation.handle(.followUp(try #require(located.followUps.first), chatID: 6), chat: located.chat)
        #expect(lookedUp.replies.contains { $0.text?.contains("Отправьте геолокацию ещё раз чуть позже или выберите город вручную.") == true })
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

/// A view's name typed — the hours, tomorrow, the week, now, the chart — shows what its button
/// shows, for the chat's city or a place named before or after it, in a private chat and in a
/// group; a reply to a weather message means that message's place.
@Suite struct TypedViewConversationTests {
    static let london = Place(name: "London", localNames: ["ru": "Лондон"], region: "England", country: "GB", latitude: 51.51, longitude: -0.13)
    static let idaho = Place(name: "Moscow", localNames: ["ru": "Москва"], region: "Idaho", country: "US", latitude: 46.73, longitude: -117.0)
    static let bot = User(id: 999, isBot: true, firstName: "Weather", username: "weather_bot")

    let geocoder = FakeGeocoder(byName: [
        "Казань": [.kazan], "London": [london], "Москва": [.moscow, idaho], "Saransk": [.saransk], "Париж": [.parisFR, .parisUS],
    ])

    func conversation() -> Conversation {
        Conversation(geocoder: geocoder, weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
    }

    /// The chat's record as stored: Saransk its city.
    static func chat(_ id: Int64) -> ChatRecord { ChatRecord(id: id, currentPlace: .saransk) }

    /// A message typed in a private chat, or in a group addressed to the bot (by mention, or as a
    /// reply to `replied`).
    func typed(
        _ text: String, group: Bool, replied: RepliedMessage? = nil, after chat: ChatRecord? = nil, bot: Conversation? = nil
    ) async throws -> Conversation.Step {
        let chatID: Int64 = group ? -100 : 77
        let addressed = group && replied == nil ? "@weather_bot " + text : text
        let message = Message(
            messageID: 40, from: User(id: 7, firstName: "Anna", languageCode: "ru"), date: 1,
            chat: TelegramBotAPI.Chat(id: chatID, type: group ? .supergroup : .private), text: addressed, replyToMessage: replied)
        let incoming = try #require(UpdateRouter.route(Update(updateID: 1, message: message), botUsername: "weather_bot"))
        return await (bot ?? conversation()).handle(.incoming(incoming), chat: chat ?? Self.chat(chatID))
    }

    /// The place a weather message's buttons name.
    static func reference(of keyboard: InlineKeyboardMarkup) -> PlaceReference? {
        for data in keyboard.inlineKeyboard.joined().compactMap(\.callbackData) {
            if case .view(_, let place)? = CallbackAction(encoded: data) { return place }
            if case .refresh(_, let place)? = CallbackAction(encoded: data) { return place }
        }
        return nil
    }

    /// Checks `step` shows `asked` of the place named `place` (in Russian), exactly as the button
    /// for that view does.
    func check(_ step: Conversation.Step, shows asked: TypedQuery.Asked, of place: String, _ text: String) async throws {
        if case .chart(let view) = asked {
            guard case .chart(let request, _, _)? = step.replies.last else {
                Issue.record("«\(text)»: expected a chart, got \(step.replies)")
                return
            }
            #expect(request.view == view && request.place.name(in: "ru") == place, "«\(text)»: \(request)")
            return
        }
        guard case .send(let shown, .inline(let keyboard)?, _)? = step.replies.last, let reference = Self.reference(of: keyboard) else {
            Issue.record("«\(text)»: expected a weather message, got \(step.replies)")
            return
        }
        #expect(shown.contains("<b>\(place)</b>"), "«\(text)»: \(shown)")
        let view = try #require(asked.weatherView)
        let pressed = await conversation().handle(
            .incoming(Incoming(updateID: 2, chatID: step.chat.id, language: .ru, intent: .button(.openView(view, reference)),
                               callbackQueryID: "q", isGroup: step.chat.id < 0, senderID: 7)),
            chat: step.chat)
        #expect(pressed.replies.last?.text == shown, "«\(text)» is not what the button shows")
    }

    @Test(arguments: TypedViewNamesTests.phrasings, [false, true])
    func aViewsNameTypedShowsWhatItsButtonShows(phrasing: (String, String?, TypedQuery.Asked), group: Bool) async throws {
        let (text, place, asked) = phrasing
        let step = try await typed(text, group: group)
        #expect(!step.replies.contains { $0.text?.contains("Ничего не нашлось") == true }, "«\(text)»: \(step.replies)")
        let shown = switch place {
        case nil: "Саранск"
        case "London"?: "Лондон"
        default: "Казань"
        }
        try await check(step, shows: asked, of: shown, text)
    }

    /// «а завтра?» in reply to Kazan's card is Kazan's tomorrow, not the group's city's; so is
    /// «по часам» in reply to its chart, and in a private chat.
    @Test(arguments: [false, true])
    func aReplyToACardMeansTheCardsPlace(group: Bool) async throws {
        let bot = conversation()
        let card = try await typed("Казань", group: group, bot: bot)
        guard case .send(_, .inline(let keyboard)?, _)? = card.replies.last else {
            Issue.record("expected Kazan's card, got \(card.replies)")
            return
        }
        let replied = RepliedMessage(messageID: 50, from: Self.bot, callbackData: keyboard.inlineKeyboard.joined().compactMap(\.callbackData))
        let tomorrow = try await typed("а завтра?", group: group, replied: replied, after: card.chat, bot: bot)
        try await check(tomorrow, shows: .tomorrow, of: "Казань", "а завтра?")
        let week = try await typed("на неделю", group: group, replied: replied, after: tomorrow.chat, bot: bot)
        try await check(week, shows: .week, of: "Казань", "на неделю")
        let chart = try await typed("график", group: group, replied: replied, after: week.chat, bot: bot)
        try await check(chart, shows: .chart(.hours), of: "Казань", "график")
        // A name typed in the reply is that place.
        let named = try await typed("London tomorrow", group: group, replied: replied, after: chart.chat, bot: bot)
        try await check(named, shows: .tomorrow, of: "Лондон", "London tomorrow")
    }

    /// Only the bot's own weather message in this chat names a place: another bot's buttons, a
    /// place this chat does not have, or a list of several places leave the chat's city.
    @Test func aReplyToAnythingElseMeansTheChatsCity() async throws {
        let bot = conversation()
        let card = try await typed("Казань", group: true, bot: bot)
        guard case .send(_, .inline(let keyboard)?, _)? = card.replies.last else {
            Issue.record("expected Kazan's card, got \(card.replies)")
            return
        }
        let data = keyboard.inlineKeyboard.joined().compactMap(\.callbackData)
        let other = User(id: 5, isBot: true, firstName: "Other", username: "other_bot")
        let elsewhere = CallbackAction.view(.now, .recent(999)).encoded
        let list = [CallbackAction.open(.recent(1)).encoded, CallbackAction.open(.recent(2)).encoded]
        for replied in [RepliedMessage(messageID: 50, from: other, callbackData: data), RepliedMessage(messageID: 50, from: Self.bot, callbackData: [elsewhere]),
                        RepliedMessage(messageID: 50, from: Self.bot, callbackData: list)] {
            let step = try await typed("@weather_bot а завтра?", group: true, replied: replied, after: card.chat, bot: bot)
            try await check(step, shows: .tomorrow, of: "Саранск", "\(replied.callbackData)")
        }
    }

    /// The replied-to message's buttons come from Telegram's JSON, whatever other kinds of button
    /// it has, and are kept when the update is stored.
    @Test func theRepliedButtonsAreReadFromTelegramsJSON() throws {
        let json = #"""
        {"update_id": 3, "message": {"message_id": 41, "date": 1, "chat": {"id": -100, "type": "supergroup"}, "text": "а завтра?",
         "from": {"id": 7, "is_bot": false, "first_name": "Anna"},
         "reply_to_message": {"message_id": 50, "date": 1, "chat": {"id": -100, "type": "supergroup"}, "text": "📍 Казань",
           "from": {"id": 999, "is_bot": true, "first_name": "Weather", "username": "weather_bot"},
           "reply_markup": {"inline_keyboard": [[{"text": "Сейчас", "callback_data": "v:n:r1"}, {"text": "Share", "switch_inline_query_chosen_chat": {"query": "Казань"}}],
                                                [{"text": "Site", "url": "https://example.com"}, {"text": "?", "callback_data": 5}]]}}}}
        """#
        let update = try TelegramJSON.decoder().decode(Update.self, from: Data(json.utf8))
        #expect(update.message?.replyToMessage?.messageID == 50)
        #expect(update.message?.replyToMessage?.callbackData == [])
        let readable = json.replacingOccurrences(of: #", {"text": "?", "callback_data": 5}"#, with: "")
        let read = try TelegramJSON.decoder().decode(Update.self, from: Data(readable.utf8))
        #expect(read.message?.replyToMessage?.callbackData == ["v:n:r1"])
        var writer = JSONWriter()
        read.write(to: &writer)
        let stored = try TelegramJSON.decoder().decode(Update.self, from: writer.data)
        #expect(stored.message?.replyToMessage == read.message?.replyToMessage)
    }

    /// «Мск» is Moscow in Russia: asked about at once, never a list with Moscow, Idaho.
    @Test(arguments: ["Мск", "мск", "погода в Мск"])
    func aNicknameMeansItsOneCity(text: String) async throws {
        let step = await conversation().handle(.incoming(Incoming(updateID: 1, chatID: 5, language: .ru, intent: .text(text))), chat: nil)
        #expect(step.replies.last?.text?.contains("Это ваш город?") == true, "«\(text)»: \(step.replies)")
        guard case .confirmingCity(let place, _) = step.chat.state else {
            Issue.record("«\(text)»: \(step.chat.state)")
            return
        }
        #expect(place.country == "RU")
        let looked = try await typed(text, group: false)
        #expect(looked.replies.last?.text?.hasPrefix("📍 <b>Москва</b>") == true, "«\(text)»: \(looked.replies)")
        #expect(!(looked.replies.last?.text?.contains("Айдахо") ?? true))
        // The name written out still has its namesakes.
        let list = try await typed("Москва", group: false)
        guard case .send(_, .inline(let keyboard)?, _)? = list.replies.last else {
            Issue.record("expected the namesakes, got \(list.replies)")
            return
        }
        #expect(keyboard.inlineKeyboard.joined().contains { $0.text.contains("Айдахо") }, "\(keyboard)")
    }

    /// A long sentence whose words are no place's name is answered with the hint: nothing of it is
    /// sent to the geocoder nor quoted back.
    @Test(arguments: [
        "Подскажите пожалуйста какая погода там, где живёт моя бабушка и дедушка и ещё много родственников в городе, который я всё время забываю как называется",
        "где живёт моя бабушка и дедушка и ещё много родственников в городе",
    ])
    func aSentenceWithoutANameGetsTheHintAndIsNotSent(text: String) async throws {
        let before = geocoder.calls.withLock { $0 }
        for group in [false, true] {
            let step = try await typed(text, group: group)
            let reply = try #require(step.replies.last?.text)
            let hint = text.count > Conversation.longestName ? "Это слишком длинно для названия места" : "Не нашёл в сообщении названия места"
            #expect(reply.hasPrefix(hint), "\(reply)")
            #expect(!reply.contains("бабушка"))
        }
        #expect(geocoder.calls.withLock { $0 } == before)
    }
}
