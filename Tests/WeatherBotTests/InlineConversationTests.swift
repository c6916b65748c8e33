import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
import Synchronization
import Testing
@testable import WeatherBot
import WeatherBotStore

/// Inline mode's answers and presses, the conversation alone.
@Suite struct InlineConversationTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func conversation(geocoder: FakeGeocoder = FakeGeocoder(byName: ["Казань": [.kazan]], reverse: [.saransk]), weather: FakeWeather = FakeWeather(), store: FakeFavorites = FakeFavorites()) -> Conversation {
        Conversation(geocoder: geocoder, weather: weather, store: store, activity: FakeActivity(), clock: ManualClock(now))
    }

    func query(_ text: String, from user: Int64 = 41, language: String = "ru", location: Location? = nil) -> InlineQuery {
        InlineQuery(id: "q\(user)", from: User(id: user, firstName: "Anna", languageCode: language), query: text, location: location)
    }

    @Test func oneLetterIsNotAnsweredAndTheEmptyQueryIs() async {
        let conversation = conversation()
        #expect(await conversation.answer(query("К")).answer == nil)
        #expect(await conversation.answer(query("  К ")).answer == nil)
        #expect(await conversation.answer(query("")).answer?.results.count == 1)
        #expect(Conversation.answersInline("Ка") && Conversation.answersInline("") && !Conversation.answersInline("1"))
    }

    /// An inline answer's calls are its sender's, counted against what one chat may spend, and
    /// tell no refusal (a place left out says nothing); answered at once, only the caches may
    /// answer. A press's calls are the presser's. The conversation says so itself.
    @Test func theCallsOfAnInlineAnswerAreTheSendersAndTellNoRefusal() async {
        let geocoder = FakeGeocoder(byName: ["Казань": [.kazan]], reverse: [.saransk])
        let weather = FakeWeather(onBehalf: FakeWeather.OnBehalf())
        let conversation = conversation(geocoder: geocoder, weather: weather)
        _ = await conversation.answer(query("Казань"), cachedOnly: true)
        _ = await conversation.answer(query("Казань"), cachedOnly: false)
        let atOnce = FakeWeather.OnBehalf.Call(chat: 41, refusalsShown: false, cachedOnly: true)
        let settled = FakeWeather.OnBehalf.Call(chat: 41, refusalsShown: false)
        #expect(geocoder.paid.calls.withLock { $0 } == [atOnce, settled])
        #expect(weather.onBehalf?.calls.withLock { $0 } == [atOnce, settled])
        let sent = await conversation.answer(query("Казань")).answer?.results.first
        let pressed = sent?.replyMarkup?.inlineKeyboard.joined().first { $0.text.contains("По часам") }?.callbackData
        weather.onBehalf?.calls.withLock { $0 = [] }
        _ = await conversation.pressInline(pressed, presserLanguage: .en, presser: 43)
        #expect(weather.onBehalf?.calls.withLock { $0 } == [.init(chat: 43)])
    }

    @Test func aFailedLookUpMakesTheAnswerIncompleteUncachedAndSaysSo() async {
        let failing = conversation(geocoder: FakeGeocoder(failure: OpenWeatherError(code: .server(503), endpoint: "/geo/1.0/direct", message: "")))
        let failed = await failing.answer(query("Казань"))
        #expect(!failed.complete)
        #expect(failed.answer?.results.isEmpty == true && failed.answer?.cacheTime == 0)
        #expect(failed.answer?.button?.text == "⚠️ Погода сейчас недоступна. Открыть чат с ботом")
        #expect(failed.answer?.button?.startParameter == "search")
    }

    @Test func aPlaceWhoseWeatherFailsIsLeftOutAndTheAnswerNotCached() async {
        let failing = conversation(weather: FakeWeather(failure: OpenWeatherError(code: .server(502), endpoint: "/data/3.0/onecall", message: "")))
        let outcome = await failing.answer(query("Казань"))
        #expect(!outcome.complete && outcome.answer?.results.isEmpty == true && outcome.answer?.cacheTime == 0)
    }

    @Test func theSendersOwnPlacesComeFromTheirPrivateChatOnly() async {
        let store = FakeFavorites([Favorite(id: 1, chatID: 41, position: 1, place: .kazan), Favorite(id: 2, chatID: 42, position: 1, place: .parisFR)])
        store.chats.withLock { $0[41] = ChatRecord(id: 41, language: .ru, state: .idle, currentPlace: .saransk) }
        let answer = await conversation(store: store).answer(query("")).answer
        #expect(answer?.results.map(\.title) == ["🏠 Саранск, Республика Мордовия, Россия 🇷🇺", "⭐ Казань, Татарстан, Россия 🇷🇺"])
        #expect(answer?.isPersonal == true && answer?.button == nil)
        // Someone else, with no chat: the default city and the way to choose one; nothing of 41's.
        let stranger = await conversation(store: store).answer(query("", from: 43)).answer
        #expect(stranger?.results.map(\.title) == ["Москва, Россия 🇷🇺 — город по умолчанию"])
        #expect(stranger?.button?.startParameter == "city")
    }

    @Test func aPressUnderAnInlineMessageShowsTheViewInTheMessagesLanguage() async throws {
        let conversation = conversation()
        let sent = try #require(await conversation.answer(query("Казань")).answer?.results.first)
        let hourly = try #require(sent.replyMarkup?.inlineKeyboard.joined().first { $0.text == "По часам" }?.callbackData)
        // An English speaker presses a Russian message's button: it stays Russian.
        let press = await conversation.pressInline(hourly, presserLanguage: .en, presser: 41)
        #expect(press.edit?.text.contains("Казань") == true && press.edit?.text.contains("по часам") == true)
        #expect(press.notice == nil && !press.showAlert)
        #expect(press.edit?.keyboard.inlineKeyboard.joined().contains { $0.text == "· По часам ·" } == true)
    }

    @Test func aForgedOrStrangePressIsToldSoInThePressersLanguage() async {
        let conversation = conversation()
        for data in [nil, "iv:n:ru:95:0", "cy:1", "v:n:c", "iv:n:ru:55.7887:49.1221:x"] {
            let press = await conversation.pressInline(data, presserLanguage: .en, presser: 41)
            #expect(press.edit == nil && press.notice == Texts.for(.en).unknownButton, "\(data ?? "nil")")
        }
    }

    @Test func aPressOfAPlaceNobodyLookedUpNamesItByTheGeocoderAtItsPoint() async throws {
        let conversation = conversation()
        let press = await conversation.pressInline(InlineButton(view: .now, language: .ru, latitude: 54.2, longitude: 45.2).encoded, presserLanguage: .ru, presser: 41)
        #expect(press.edit?.text.hasPrefix("📍 <b>Саранск</b>") == true)
        // Its buttons keep the point pressed, not the geocoder's.
        #expect(press.edit?.keyboard.inlineKeyboard.joined().contains { $0.callbackData == "iv:d:ru:54.2000:45.2000" } == true)
    }

    @Test func aFailedRefreshSaysWhyAndLeavesTheMessage() async {
        let failing = conversation(weather: FakeWeather(failure: OpenWeatherError(code: .server(502), endpoint: "/data/3.0/onecall", message: "")))
        let press = await failing.pressInline(InlineButton(view: .now, refresh: true, language: .ru, latitude: 55.79, longitude: 49.12).encoded, presserLanguage: .ru, presser: 41)
        #expect(press.edit == nil && press.showAlert)
        #expect(press.notice?.hasPrefix("Не удалось получить погоду") == true)
    }

    @Test func anInlineCardAndAPressUnderOneShowTheAirAsAChatsCardDoes() async throws {
        let air = AirQuality(index: 4, pm25: 57, time: now)
        var weather = FakeWeather()
        weather.air = air
        let conversation = conversation(weather: weather)
        var report = WeatherReport(forecast: .sample, fetchedAt: weather.fetchedAt)
        report.air = air
        let card = WeatherViews.render(.now, place: .kazan, reference: .current, report: report, texts: .for(.ru), now: now).text
        #expect(card.contains("PM2.5 57"))
        let result = try #require(await conversation.answer(query("Казань")).answer?.results.first)
        #expect(result.inputMessageContent.messageText == card)
        let press = await conversation.pressInline(
            InlineButton(view: .now, language: .ru, latitude: Place.kazan.latitude, longitude: Place.kazan.longitude).encoded, presserLanguage: .ru,
            presser: 41)
        #expect(press.edit?.text.contains("PM2.5 57") == true)
        // The hours have no air line, wherever they are shown.
        let hours = await conversation.pressInline(
            InlineButton(view: .hourly(page: 1), language: .ru, latitude: Place.kazan.latitude, longitude: Place.kazan.longitude).encoded,
            presserLanguage: .ru, presser: 41)
        #expect(hours.edit?.text.contains("PM2.5") == false)
    }

    @Test func theWeeksDescriptionSaysTheDaysThereAre() async {
        var forecast = Forecast.sample
        forecast.daily = Array(forecast.daily.prefix(5))
        let answer = await conversation(weather: FakeWeather(forecast: forecast)).answer(query("Казань на неделю")).answer
        #expect(answer?.results.first?.description?.hasPrefix("На 5 дней: ") == true, "\(String(describing: answer?.results.first?.description))")
    }

    @Test func privateCardsOfferToShareThePlaceAndGroupCardsDoNot() throws {
        let report = WeatherReport(forecast: .sample, fetchedAt: now)
        let texts = Texts.for(.ru)
        let shared = WeatherViews.render(.now, place: .kazan, reference: .current, report: report, texts: texts, now: now, sharing: true)
        let share = try #require(shared.keyboard.inlineKeyboard.joined().first { $0.text == "↗️ Поделиться" })
        #expect(share.switchInlineQueryChosenChat?.query == "Казань, Россия" && share.callbackData == nil)
        #expect(share.switchInlineQueryChosenChat?.allowGroupChats == true && share.switchInlineQueryChosenChat?.allowBotChats == false)
        let group = WeatherViews.render(.now, place: .kazan, reference: .current, report: report, texts: texts, now: now)
        #expect(!group.keyboard.inlineKeyboard.joined().contains { $0.switchInlineQueryChosenChat != nil })
    }

    @Test func wordsWithoutAPlaceListTheSendersOwnPlacesForTheTimeAsked() async {
        let store = FakeFavorites()
        store.chats.withLock { $0[41] = ChatRecord(id: 41, language: .ru, state: .idle, currentPlace: .saransk) }
        let answer = await conversation(store: store).answer(query("погода завтра")).answer
        #expect(answer?.results.map(\.title) == ["🏠 Саранск, Республика Мордовия, Россия 🇷🇺"])
        #expect(answer?.results.first?.description?.hasPrefix("Завтра: днём") == true)
        #expect(answer?.results.first?.inputMessageContent.messageText.contains("по часам") == true)
        let week = await conversation(store: store).answer(query("weather for the week", language: "en")).answer
        #expect(week?.results.first?.description?.hasPrefix("7 days: ") == true)
    }

    @Test func ofPlacesOfOneNameTheSendersOwnComesFirstTheNewestShown() async {
        let geocoder = FakeGeocoder(byName: ["Париж": [.parisFR, .parisUS]])
        let store = FakeFavorites()
        // /search Париж showed both, France first; then the user looked at Texas.
        var chat = ChatRecord(id: 41, language: .ru, state: .idle)
        _ = chat.remember(.parisFR)
        _ = chat.remember(.parisUS)
        store.chats.withLock { $0[41] = chat }
        let typed = await conversation(geocoder: geocoder, store: store).answer(query("Париж")).answer
        #expect(typed?.results.map(\.title) == ["Париж, Техас, США 🇺🇸", "Париж, Иль-де-Франс, Франция 🇫🇷"])
        let stranger = await conversation(geocoder: geocoder, store: store).answer(query("Париж", from: 43)).answer
        #expect(stranger?.results.first?.title == "Париж, Иль-де-Франс, Франция 🇫🇷")
        // «↗️ Поделиться» under Paris, Texas types its country too: that Paris alone, for anyone.
        let card = WeatherViews.render(
            .now, place: .parisUS, reference: .recent(2), report: WeatherReport(forecast: .sample, fetchedAt: now), texts: .for(.ru), now: now,
            standing: .other(saved: false), sharing: true)
        let shared = try? #require(card.keyboard.inlineKeyboard.joined().compactMap(\.switchInlineQueryChosenChat).first?.query)
        #expect(shared == "Париж, США")
        let sharedAnswer = await conversation(geocoder: geocoder, store: store).answer(query(shared ?? "", from: 43)).answer
        #expect(sharedAnswer?.results.map(\.title) == ["Париж, Техас, США 🇺🇸"])
    }

    @Test func pressNoticesAreInThePressersLanguage() async {
        let press = await conversation().pressInline(InlineButton(view: .now, refresh: true, language: .en, latitude: 55.79, longitude: 49.12).encoded, presserLanguage: .ru, presser: 41)
        #expect(press.edit?.text.contains("Feels like") == true)
        // The weather was fetched this very moment: «Обновлено», in Russian, under an English card.
        #expect(press.notice == Texts.for(.ru).refreshed)
    }
}
