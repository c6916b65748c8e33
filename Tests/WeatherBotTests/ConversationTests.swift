import BotClock
import Foundation
import OpenWeather
import Synchronization
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot
import WeatherBotSQLite

@Suite struct ConversationTests {
    let chatID: Int64 = 77
    let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

    func conversation(
        geocoder: FakeGeocoder = FakeGeocoder(byName: ["Казань": [], "Париж": [.parisFR, .parisUS]], reverse: [.saransk]),
        weather: FakeWeather = FakeWeather(),
        store: any ChatStore = FakeFavorites(),
        activity: FakeActivity = FakeActivity(),
        mapLinks: FakeMapLinks? = nil
    ) -> Conversation {
        let now = fixedNow
        return Conversation(geocoder: geocoder, weather: weather, store: store, activity: activity, mapLinks: mapLinks, clock: ManualClock(now))
    }

    func incoming(_ intent: Intent, language: Language = .ru, query: String? = nil, messageID: Int? = nil, update: Int64 = 1) -> Conversation.Event {
        .incoming(Incoming(updateID: update, chatID: chatID, language: language, intent: intent, callbackQueryID: query, messageID: messageID))
    }

    @Test func startOnANewChatGreetsWithLocationKeyboard() async {
        let step = await conversation().handle(incoming(.command(.start)), chat: nil)
        #expect(step.chat.id == chatID)
        #expect(step.chat.state == .idle)
        guard case .send(let text, .keyboard(let keyboard)?, _) = step.replies.first else {
            Issue.record("expected a greeting with a reply keyboard, got \(step.replies)")
            return
        }
        #expect(text.contains("погоду"))
        #expect(keyboard.keyboard[0][0] == KeyboardButton(text: "📍 Отправить геолокацию", requestLocation: true))
        #expect(keyboard.keyboard[1][0].text == "🔎 Выбрать город вручную")
    }

    @Test func locationSaysLocatingThenAsksAboutTheCity() async {
        let bot = conversation()
        let first = await bot.handle(incoming(.location(latitude: 54.18, longitude: 45.17), update: 5), chat: nil)
        #expect(first.chat.state == .locating)
        #expect(first.replies == [.send(text: "🔎 Определяем город…", tag: "locate-5")])
        #expect(first.followUps == [.resolveLocation(latitude: 54.18, longitude: 45.17, statusTag: "locate-5", language: .ru)])

        let second = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        guard case .confirmingCity(let place, _) = second.chat.state,
            case .edit(.tag("locate-5"), let text, let keyboard?) = second.replies.first
        else {
            Issue.record("expected the status message edited into the question, got \(second.replies)")
            return
        }
        #expect(place.name(in: "ru") == "Саранск")
        #expect(place.latitude == 54.18)  // the user's own point
        #expect(text.contains("Это ваш город?"))
        #expect(text.contains("<b>Саранск</b>, Республика Мордовия, Россия 🇷🇺"))
        let question = second.chat.questionSeq
        #expect(keyboard.inlineKeyboard.map { $0[0].text } == ["✅ Да, всё верно", "Нет, выбрать другой"])
        #expect(keyboard.inlineKeyboard.map { $0[0].callbackData } == ["cy:\(question)", "cn:\(question)"])
    }

    @Test func aShortMapLinkIsFollowedToItsPointAndAskedAboutAsALocation() async {
        let link = "https://maps.app.goo.gl/Xk3bTq9wZp2"
        let bot = conversation(mapLinks: FakeMapLinks(targets: [link: "https://www.google.com/maps/place/54.18,45.17/@54.18,45.17,17z"]))
        let first = await bot.handle(incoming(.shortMapLink(link), update: 6), chat: nil)
        #expect(first.chat.state == .locating)
        #expect(first.replies == [.send(text: "🔎 Определяем город…", tag: "locate-6")])
        #expect(first.followUps == [.resolveMapLink(link: link, statusTag: "locate-6", language: .ru, inGroup: false)])

        let second = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        guard case .confirmingCity(let place, _) = second.chat.state, case .edit(.tag("locate-6"), let text, _) = second.replies.first else {
            Issue.record("expected the question about the link's point, got \(second.replies)")
            return
        }
        #expect(text.contains("Это ваш город?") && text.contains("Саранск"))
        #expect(place.latitude == 54.18 && place.longitude == 45.17)
    }

    @Test(arguments: [nil, "https://www.google.com/maps/place/Red+Square", "https://consent.example.com/?continue=x"])
    func aShortMapLinkThatLeadsToNoPointIsSaidSo(target: String?) async {
        let link = "https://yandex.ru/maps/-/CCUqMKR3"
        let bot = conversation(mapLinks: FakeMapLinks(targets: target.map { [link: $0] } ?? [:]))
        let first = await bot.handle(incoming(.shortMapLink(link)), chat: nil)
        let second = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        guard case .edit(.tag, let text, let keyboard?) = second.replies.first else {
            Issue.record("expected the status edited into an explanation, got \(second.replies)")
            return
        }
        #expect(text == "<b>Не удалось открыть ссылку на карту</b>\n\nПо ней не нашлось точки. Отправьте геолокацию, координаты (например, 55.75, 37.62) или название города.")
        #expect(keyboard.inlineKeyboard[0][0].callbackData == "man")
        #expect(second.chat.state == .idle)
    }

    /// A link the chat may not have followed this minute, or whose host did not answer, is said
    /// so, with the other ways; the chat can go on.
    @Test(arguments: [
        (MapLinkLookup.tooMany, "<b>⏳ Слишком много ссылок, попробуйте через минуту</b>"),
        (MapLinkLookup.unreachable, "<b>Не удалось открыть ссылку на карту</b>\n\nСайт карты не ответил. Попробуйте позже или отправьте геолокацию, координаты (например, 55.75, 37.62) или название города."),
    ])
    func aShortMapLinkNotFollowedNowIsSaidSo(failure: MapLinkLookup, said: String) async {
        let link = "https://maps.app.goo.gl/Xk3bTq9wZp2"
        let bot = conversation(mapLinks: FakeMapLinks(failures: [link: failure]))
        let first = await bot.handle(incoming(.shortMapLink(link)), chat: nil)
        let second = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        guard case .edit(.tag, let text, let keyboard?) = second.replies.first else {
            Issue.record("expected the status edited into an explanation, got \(second.replies)")
            return
        }
        #expect(text == said)
        // A site that did not answer is offered again; a share spent is not.
        let buttons = keyboard.inlineKeyboard.map { $0[0].callbackData }
        #expect(buttons == (failure == .unreachable ? ["ml:\(link)", "man"] : ["man"]))
        #expect(second.chat.state == .idle)
    }

    @Test func retryingAShortMapLinkWhoseSiteDidNotAnswerFollowsItAgain() async {
        let link = "https://maps.app.goo.gl/Xk3bTq9wZp2"
        let links = FakeMapLinks(failures: [link: .unreachable])
        let bot = conversation(mapLinks: links)
        let first = await bot.handle(incoming(.shortMapLink(link)), chat: nil)
        let failed = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        // The site answers now.
        let answering = conversation(mapLinks: FakeMapLinks(targets: [link: "https://www.google.com/maps/place/@54.19,45.18,12z"]))
        let button = CallbackAction(encoded: "ml:\(link)")
        #expect(button == .retryMapLink(link))
        // Only a short link of a known map is followed from a button.
        #expect(CallbackAction(encoded: "ml:https://example.com/abc") == nil)
        let retried = await answering.handle(incoming(.button(button), query: "q1", messageID: 7, update: 2), chat: failed.chat)
        #expect(retried.replies.contains { if case .answer = $0 { true } else { false } })
        guard case .send(let status, _, let tag?)? = retried.replies.first(where: { if case .send = $0 { true } else { false } }),
            case .resolveMapLink(link, tag, _, _, _)? = retried.followUps.first
        else {
            Issue.record("expected a new status and the link followed after the step, got \(retried.replies) \(retried.followUps)")
            return
        }
        #expect(status == "🔎 Определяем город…")
        let located = await answering.handle(.followUp(retried.followUps[0], chatID: chatID), chat: retried.chat)
        #expect(located.replies.contains { if case .edit(.tag(tag), _, _) = $0 { true } else { false } })
    }

    @Test func theOpenSeaOrAFailingGeocoderOffersManualChoice() async {
        for geocoder in [FakeGeocoder(reverse: []), FakeGeocoder(failure: OpenWeatherError(code: .server(502), endpoint: "/geo/1.0/reverse", message: ""))] {
            let bot = conversation(geocoder: geocoder)
            let first = await bot.handle(incoming(.location(latitude: 0, longitude: -30)), chat: nil)
            let second = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
            guard case .edit(.tag, let text, let keyboard?) = second.replies.first else {
                Issue.record("expected an edit, got \(second.replies)")
                continue
            }
            #expect(text.contains("Не удалось определить город"))
            // An outage is told as one, not as a point with no city.
            if geocoder.failure != nil {
                #expect(text.contains("сервис погоды") || text.contains("сервер"), "\(text)")
                #expect(!text.contains("нет города") && !text.contains("в море"), "\(text)")
            }
            #expect(keyboard.inlineKeyboard[0][0] == InlineKeyboardButton(text: "Выбрать город вручную", callbackData: "man"))
            #expect(second.chat.state == .idle)
            // An outage of the geocoder still shows the weather there, which needs no name.
            if geocoder.failure != nil {
                #expect(second.replies.count == 2)
                #expect(second.replies.last?.text?.hasPrefix("📍 <b>0.00, -30.00</b>") == true, "\(second.replies)")
                #expect(second.replies.last?.text?.contains("Ощущается как") == true)
                #expect(second.chat.currentPlace == nil)
            } else {
                #expect(second.replies.count == 1)
            }
        }
    }

    @Test func yesSavesTheCityWithItsTimeZoneAndShowsTheWeather() async throws {
        let bot = conversation()
        let first = await bot.handle(incoming(.location(latitude: 54.18, longitude: 45.17)), chat: nil)
        let asked = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        let yes = await bot.handle(
            incoming(.button(.confirmCity(question: asked.chat.questionSeq)), query: "q1", messageID: 50), chat: asked.chat)

        let saved = try #require(yes.chat.currentPlace)
        #expect(saved.name(in: "ru") == "Саранск")
        #expect(saved.timeZone == "Europe/Moscow")
        #expect(yes.chat.state == .idle)
        #expect(yes.replies.first == .answer(callbackQueryID: "q1"))
        // The first city: the question loses its buttons, and the saved city comes with the reply
        // keyboard taken away, since sharing a location is no longer the next step.
        #expect(yes.replies.contains(.editKeyboard(.id(50), keyboard: nil)))
        #expect(yes.replies.contains { reply in
            if case .send(let text, .removeKeyboard?, _) = reply { text.contains("Ваш город: <b>Саранск</b>") } else { false }
        })
        let card = try #require(yes.replies.last?.text)
        #expect(card.contains("Саранск"))
        #expect(card.contains("Местное время: 01:13"))  // 2023-11-14 22:13 UTC in Moscow
        #expect(card.contains("-3°C"))
        #expect(card.contains("Ощущается как: -8°C"))
        #expect(card.contains("Облачность: 75%"))
        #expect(card.contains("облачно с прояснениями"))
    }

    @Test func noAsksForANameAndOneResultIsAskedAbout() async {
        let geocoder = FakeGeocoder(byName: ["Саранск": [.saransk]], reverse: [.saransk])
        let bot = conversation(geocoder: geocoder)
        let first = await bot.handle(incoming(.location(latitude: 54.18, longitude: 45.17)), chat: nil)
        let asked = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        let no = await bot.handle(
            incoming(.button(.rejectCity(question: asked.chat.questionSeq)), query: "q2", messageID: 51), chat: asked.chat)
        #expect(no.chat.state == .awaitingCityName(.setCity))
        // The question shows what was answered; the prompt is for the user's own city.
        #expect(no.replies.contains { if case .edit(.id(51), let text, nil) = $0 { text.contains("Саранск") && text.contains("Ответ: нет") } else { false } })
        #expect(no.replies.contains { $0.text?.contains("Напишите название вашего города, например: <i>Казань</i>") ?? false })

        let typed = await bot.handle(incoming(.text("Саранск")), chat: no.chat)
        #expect(typed.chat.state == .confirmingCity(.saransk))
        #expect(typed.replies.first?.text?.contains("Это ваш город?") ?? false)
    }

    @Test func refreshSaysRefreshedOnlyWhenTheDataIsNew() async {
        var chat = ChatRecord(id: chatID, language: .ru, state: .idle, currentPlace: .saransk)
        chat.currentPlace?.timeZone = "Europe/Moscow"
        let new = await conversation().handle(incoming(.button(.refresh(.now, .current)), query: "q", messageID: 9), chat: chat)
        #expect(new.replies.first == .answer(callbackQueryID: "q", text: "🔄 Обновлено"))
        let young = conversation(weather: FakeWeather(fetchedAt: fixedNow.addingTimeInterval(-150)))
        let old = await young.handle(incoming(.button(.refresh(.now, .current)), query: "q", messageID: 9), chat: chat)
        #expect(old.replies.first == .answer(callbackQueryID: "q", text: "Данные свежие: получены 2 мин назад"))
    }

    @Test func theExampleIsNeverTheCityJustTurnedDownAndTheTwoPromptsDiffer() async {
        let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], region: nil, country: "RU", latitude: 55.79, longitude: 49.12)
        let bot = conversation(geocoder: FakeGeocoder(byName: [:], reverse: [kazan]))
        let first = await bot.handle(incoming(.location(latitude: 55.79, longitude: 49.12)), chat: nil)
        let asked = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        let no = await bot.handle(incoming(.button(.rejectCity(question: asked.chat.questionSeq)), query: "q"), chat: asked.chat)
        let prompt = no.replies.compactMap(\.text).joined()
        #expect(prompt.contains("например: <i>Самара</i>"), "\(prompt)")
        #expect(!prompt.contains("Казань"))
        let search = await bot.handle(incoming(.command(.search(nil))), chat: nil)
        #expect(search.replies.first?.text == "Какое место найти? Напишите название города или посёлка.")
    }

    @Test func severalResultsBecomeButtonsToldApartByRegionAndCountry() async throws {
        let bot = conversation()
        let typed = await bot.handle(incoming(.text("Париж")), chat: nil)
        guard case .send(_, .inline(let keyboard)?, _) = typed.replies.first else {
            Issue.record("expected buttons, got \(typed.replies)")
            return
        }
        #expect(keyboard.inlineKeyboard.map { $0[0].text } == ["Париж, Иль-де-Франс, Франция 🇫🇷", "Париж, Техас, США 🇺🇸"])
        let question = typed.chat.questionSeq
        let picked = await bot.handle(incoming(.button(.pickPlace(question: question, index: 1)), query: "q3", messageID: 8), chat: typed.chat)
        #expect(picked.chat.currentPlace?.region == "Texas")

        let outOfRange = await bot.handle(incoming(.button(.pickPlace(question: question, index: 7)), query: "q4"), chat: typed.chat)
        #expect(outOfRange.replies == [.answer(callbackQueryID: "q4", text: "Эта кнопка уже неактуальна")])
        #expect(outOfRange.chat.currentPlace == nil)
    }

    @Test func nothingFoundSaysSoAndAsksAgain() async {
        let step = await conversation().handle(incoming(.text("Казань")), chat: nil)
        #expect(step.chat.state == .awaitingCityName(.setCity))
        #expect(step.replies.first?.text?.contains("Ничего не нашлось по запросу «Казань»") ?? false)
    }

    @Test func buttonsOfOlderQuestionsGetAShortNoticeAndChangeNothing() async {
        let bot = conversation()
        let first = await bot.handle(incoming(.location(latitude: 54.18, longitude: 45.17)), chat: nil)
        let asked = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        let old = asked.chat.questionSeq - 1
        let stale = await bot.handle(incoming(.button(.confirmCity(question: old)), query: "q5"), chat: asked.chat)
        #expect(stale.replies == [.answer(callbackQueryID: "q5", text: "Эта кнопка уже неактуальна")])
        #expect(stale.chat.currentPlace == nil)
        #expect(stale.chat.state == asked.chat.state)

        let garbage = await bot.handle(incoming(.button(nil), query: "q6"), chat: asked.chat)
        #expect(garbage.replies == [.answer(callbackQueryID: "q6", text: "Эта кнопка больше не работает")])
    }

    @Test func everyButtonPressIsAnswered() async {
        let bot = conversation()
        let actions: [CallbackAction?] = [
            nil, .chooseManually, .view(.now, .defaultCity), .refresh(.daily, .current), .confirmCity(question: 0),
            .rejectCity(question: 0), .pickPlace(question: 0, index: 0), .addFavorite(.now, .recent(3)), .open(.favorite(1)),
            .favoritesMode(.move), .deleteFavorite(id: 5), .moveFavorite(id: 5, up: true), .reset(confirmed: true, question: 0),
        ]
        for (index, action) in actions.enumerated() {
            let step = await bot.handle(incoming(.button(action), query: "q\(index)"), chat: nil)
            let answers = step.replies.filter { if case .answer(let id, _, _) = $0 { id == "q\(index)" } else { false } }
            #expect(answers.count == 1, "action \(String(describing: action))")
        }
    }

    @Test func englishSpeakersGetEnglish() async {
        let bot = conversation()
        let first = await bot.handle(incoming(.location(latitude: 54.18, longitude: 45.17), language: .en), chat: nil)
        #expect(first.replies.first?.text == "🔎 Finding the city…")
        let asked = await bot.handle(.followUp(first.followUps[0], chatID: chatID), chat: first.chat)
        #expect(asked.replies.first?.text?.contains("Is this your city?") ?? false)
        #expect(asked.replies.first?.text?.contains("Saransk") ?? false)
        let help = await bot.handle(incoming(.command(.help), language: .en), chat: nil)
        #expect(help.replies.first?.text?.contains("/search") ?? false)
    }

    @Test func unknownCommandGetsAHintAndHelpListsCommands() async {
        let bot = conversation()
        let unknown = await bot.handle(incoming(.command(.unknown("<b>x"))), chat: nil)
        #expect(unknown.replies.first?.text == "Не знаю команды /&lt;b&gt;x. Список команд — /help")
        let help = await bot.handle(incoming(.command(.help)), chat: nil)
        for command in ["/start", "/weather", "/search", "/help"] {
            #expect(help.replies.first?.text?.contains(command) ?? false)
        }
    }

    @Test func startWithACityShowsItsWeather() async {
        let bot = conversation()
        var chat = ChatRecord(id: chatID, language: .ru, state: .idle, currentPlace: .saransk)
        chat.currentPlace?.timeZone = "Europe/Moscow"
        let step = await bot.handle(incoming(.command(.start)), chat: chat)
        #expect(step.replies.count == 1)
        #expect(step.replies[0].text?.contains("Ощущается как") ?? false)
    }

    @Test func withoutACityWeatherIsMoscowsWithAHint() async {
        let step = await conversation().handle(incoming(.command(.weather)), chat: nil)
        let text = step.replies.first?.text ?? ""
        #expect(text.contains("Москва"))
        #expect(text.contains("Напишите название своего города или отправьте геолокацию"))
    }

    @Test func weatherFailureOffersRetryInPlainWords() async {
        let bot = conversation(weather: FakeWeather(failure: OpenWeatherError(code: .rateLimited, endpoint: "/data/3.0/onecall", message: "")))
        let step = await bot.handle(incoming(.command(.weather)), chat: nil)
        guard case .send(let text, .inline(let keyboard)?, _) = step.replies.first else {
            Issue.record("expected a failure with a retry button, got \(step.replies)")
            return
        }
        #expect(text.contains("слишком много запросов"))
        #expect(keyboard.inlineKeyboard[0][0] == InlineKeyboardButton(text: "🔄 Повторить", callbackData: "r:n:m"))
    }

    @Test func userTextIsEscapedAndKeptShort() async {
        let geocoder = FakeGeocoder()
        let bot = conversation(geocoder: geocoder)
        let odd = "<script>&" + String(repeating: "я", count: 80)
        let step = await bot.handle(incoming(.text(odd)), chat: nil)
        let text = step.replies.first?.text ?? ""
        #expect(!text.contains("<script>"))
        #expect(text.contains("&lt;script&gt;&amp;"))
        #expect(text.utf16.count <= 4096)
        // A paragraph is no place's name: it is answered so, and never sent to the geocoder.
        let before = geocoder.calls.withLock { $0 }
        let long = await bot.handle(incoming(.text("<script>&" + String(repeating: "я", count: 5000))), chat: nil)
        #expect(long.replies.first?.text?.hasPrefix("Это слишком длинно для названия места") == true)
        #expect(geocoder.calls.withLock { $0 } == before)
    }

    @Test func showsTypingWhileWaitingOnOpenWeather() async {
        let activity = FakeActivity()
        _ = await conversation(activity: activity).handle(incoming(.command(.weather)), chat: nil)
        #expect(activity.chats.withLock { $0 } == [chatID])
    }

    func chatWithCity() -> ChatRecord {
        var place = Place.saransk
        place.timeZone = "Europe/Moscow"
        return ChatRecord(id: chatID, language: .ru, state: .idle, currentPlace: place)
    }

    @Test func theCardShowsTodaysPollenWhereThePlaceHasItAndNothingIsAskedElsewhere() async throws {
        let hour = Date(timeIntervalSince1970: 1_699_999_200)
        // Today's mean: birch (140 + 100) / 2 = 120, high; grass 3, low.
        let hours = (-2..<3).map { PollenReading(time: hour.addingTimeInterval(Double($0) * 3600), grains: [.birch: $0.isMultiple(of: 2) ? 140 : 100, .grass: 3]) }
        let asked = FakeWeather.Asked()
        let bot = conversation(weather: FakeWeather(pollenHours: hours, pollenAsked: asked))
        let moscow = ChatRecord(id: chatID, language: .ru, state: .idle, currentPlace: .moscow)
        let card = await bot.handle(incoming(.command(.weather)), chat: moscow)
        #expect(card.replies.first?.text?.contains("\n🌼 Пыльца: берёза — высокий уровень, злаки — низкий\n") == true, "\(card.replies)")
        var english = moscow
        english.language = .en
        let inEnglish = await bot.handle(incoming(.command(.weather), language: .en), chat: english)
        #expect(inEnglish.replies.first?.text?.contains("\n🌼 Pollen: birch — high, grass — low\n") == true, "\(inEnglish.replies)")
        #expect(asked.places.withLock { $0 } == ["Moscow", "Moscow"])
        // The hours say nothing of pollen, and ask nothing.
        let hourly = await bot.handle(incoming(.button(.view(.hourly(page: 0), .current)), query: "q", messageID: 5), chat: moscow)
        #expect(hourly.replies.last?.text?.contains("🌼") == false)
        // Outside the data's coverage nothing is asked, and nothing shown.
        let saransk = await bot.handle(incoming(.command(.weather)), chat: chatWithCity())
        #expect(saransk.replies.first?.text?.contains("Ощущается как") == true)
        #expect(saransk.replies.first?.text?.contains("🌼") == false)
        #expect(asked.places.withLock { $0 } == ["Moscow", "Moscow"])
        // No reading of today: no line.
        let late = conversation(weather: FakeWeather(pollenHours: hours.map { PollenReading(time: $0.time.addingTimeInterval(-2 * 86_400), grains: $0.grains) }))
        let withoutHour = await late.handle(incoming(.command(.weather)), chat: moscow)
        #expect(withoutHour.replies.first?.text?.contains("🌼") == false)
    }

    @Test func switchingViewsEditsTheSameMessage() async throws {
        let bot = conversation()
        for (view, marker) in [(WeatherView.hourly(page: 0), "по часам"), (.daily, "на 7 дней"), (.now, "Ощущается как")] {
            let step = await bot.handle(incoming(.button(.view(view, .current)), query: "q", messageID: 31), chat: chatWithCity())
            #expect(step.replies.first == .answer(callbackQueryID: "q"))
            guard case .edit(.id(31), let text, let keyboard?) = step.replies.last else {
                Issue.record("expected an edit of message 31, got \(step.replies)")
                continue
            }
            #expect(text.contains(marker))
            #expect(text.contains("Саранск"))
            #expect(keyboard.inlineKeyboard.last?.first?.text == "🔄 Обновить")
        }
    }

    @Test func aViewOfTheCurrentCityWithoutOneIsStale() async {
        let step = await conversation().handle(incoming(.button(.view(.daily, .current)), query: "q", messageID: 3), chat: nil)
        #expect(step.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
    }

    @Test func retryAfterAFailureEditsTheFailureIntoTheWeather() async throws {
        let failing = conversation(weather: FakeWeather(failure: OpenWeatherError(code: .network, endpoint: "/data/3.0/onecall", message: "")))
        let failed = await failing.handle(incoming(.command(.weather)), chat: chatWithCity())
        guard case .send(let text, .inline(let keyboard)?, _) = failed.replies.first else {
            Issue.record("expected a failure message, got \(failed.replies)")
            return
        }
        #expect(text.contains("нет связи с сервисом погоды"))
        #expect(keyboard.inlineKeyboard[0][0].callbackData == "r:n:c\(try #require(failed.chat.currentPlace).cityMark)")
        let retried = await conversation().handle(incoming(.button(.refresh(.now, .current)), query: "q", messageID: 12), chat: failed.chat)
        guard case .edit(.id(12), let card, _) = retried.replies.last else {
            Issue.record("expected the failure edited into a card, got \(retried.replies)")
            return
        }
        #expect(card.contains("Ощущается как"))
    }

    @Test func aPressOnWhatTheMessageShowsAlreadyEditsNothingAndSaysSo() async throws {
        let bot = conversation()
        let chat = ChatRecord(id: chatID, language: .ru, state: .idle, currentPlace: .kazan)
        let card = await bot.handle(incoming(.command(.weather)), chat: chat)
        guard case .send(let text, .inline(let keyboard)?, _) = card.replies.first else {
            Issue.record("expected a card, got \(card.replies)")
            return
        }
        let hours = try #require(keyboard.inlineKeyboard.joined().first { $0.text == "По часам" }?.callbackData)
        let refresh = try #require(keyboard.inlineKeyboard.joined().first { $0.text == "🔄 Обновить" }?.callbackData)
        guard case .refresh(let view, let place)? = CallbackAction(encoded: refresh) else {
            Issue.record("expected a refresh button, got \(refresh)")
            return
        }
        // The card pressed again (its button in another message of it), as Telegram shows it: plain text, with its buttons.
        var press = Incoming(updateID: 2, chatID: chatID, language: .ru, intent: .button(.view(view, place)), callbackQueryID: "q", messageID: 12)
        press.shown = ShownMessage(text: HTML.plainText(of: text), keyboard: keyboard)
        let again = await bot.handle(.incoming(press), chat: card.chat)
        #expect(again.replies == [.answer(callbackQueryID: "q", text: "Уже показано")])
        // A refresh whose data did not change edits nothing either, and says it refreshed.
        press.intent = .button(CallbackAction(encoded: refresh))
        let refreshed = await bot.handle(.incoming(press), chat: card.chat)
        #expect(refreshed.replies.count == 1)
        guard case .answer("q", let notice?, _)? = refreshed.replies.first else {
            Issue.record("expected the press answered, got \(refreshed.replies)")
            return
        }
        #expect(notice == "🔄 Обновлено")
        // Another view is edited in as before.
        press.intent = .button(CallbackAction(encoded: hours))
        let other = await bot.handle(.incoming(press), chat: card.chat)
        #expect(other.replies.contains { if case .edit(.id(12), _, _) = $0 { true } else { false } })
        #expect(other.replies.contains(.answer(callbackQueryID: "q", text: nil)))
    }

    @Test func weatherWithoutACityIsTheDefaultCitysWithAHintAndItsOwnButtons() async {
        let step = await conversation().handle(incoming(.command(.weather)), chat: nil)
        guard case .send(let text, .inline(let keyboard)?, _) = step.replies.first else {
            Issue.record("expected a card, got \(step.replies)")
            return
        }
        #expect(text.contains("Москва"))
        #expect(text.contains("отправьте геолокацию"))
        #expect(keyboard.inlineKeyboard[0].map(\.callbackData) == ["v:n:m", "v:h0:m", "v:d:m"])
        // The hint's button is there: the default city can be made the chat's own.
        #expect(keyboard.inlineKeyboard.last?.map(\.callbackData) == ["mc:n:m"])
    }

    @Test func typedCoordinatesAskAboutTheCityThere() async {
        for typed in ["55.75, 37.62", "55.75 37.62", "55,75 37,62", "55.75,37.62", "-33.92; 18.42"] {
            let intent = UpdateRouter.intent(of: Message(messageID: 1, date: 1, chat: Chat(id: chatID), text: typed))
            guard case .typedPoint(_, _, .coordinates) = intent else {
                Issue.record("«\(typed)» is not read as coordinates: \(intent)")
                continue
            }
            let step = await conversation().handle(incoming(intent), chat: nil)
            #expect(step.replies.first?.text == "🔎 Определяем город…")
        }
        for notCoordinates in ["Москва", "1.2.3 4", "55.75", "12 34 56", "5e1 3"] {
            let intent = UpdateRouter.intent(of: Message(messageID: 1, date: 1, chat: Chat(id: chatID), text: notCoordinates))
            #expect(intent == .text(notCoordinates), "«\(notCoordinates)»")
        }
        // Two whole numbers are coordinates too: off the globe, they are said to be, not searched.
        for offTheGlobe in ["91, 10", "10, 181"] {
            let intent = UpdateRouter.intent(of: Message(messageID: 1, date: 1, chat: Chat(id: chatID), text: offTheGlobe))
            #expect(intent == .coordinatesOutOfRange, "«\(offTheGlobe)»")
        }
    }
}

@Suite struct GroupConversationTests {
    typealias Chat = FavoritesConversationTests.Chat

    /// As member 9, whom the chats given a membership know as an administrator.
    func group(_ intent: Intent, _ chat: Chat, messageID: Int = 41) async throws -> Conversation.Step {
        try await chat.send(intent, group: true, userMessageID: messageID, sender: 9)
    }

    @Test func startInAGroupAsksByReplyWithoutALocationButton() async throws {
        let chat = try Chat(id: -100)
        let start = try await group(.command(.start), chat)
        guard case .send(let text, .forceReply(let question)?, _) = start.replies.first else {
            Issue.record("expected a question by reply, got \(start.replies)")
            return
        }
        #expect(text.contains("/city"))
        #expect(question.selective == true && question.replyTo == 41)
        // The member's reply is the city's name, asked about as usual.
        let answer = try await group(.text("Казань"), chat, messageID: 43)
        #expect(answer.replies.last?.text?.contains("Это город чата?") == true, "\(answer.replies)")
    }

    @Test func cityByNameGoesThroughTheQuestionInGroupsAndPrivateChats() async throws {
        let chat = try Chat(id: -100, membership: FakeMembership(administrators: [9]))
        let asked = try await group(.command(.city("Казань")), chat)
        // A group is spoken to as a group: the city is the chat's.
        #expect(asked.replies.last?.text?.contains("Это город чата?") == true)
        _ = try await chat.press("Да, всё верно", in: asked)
        #expect(try chat.database.chat(-100)?.currentPlace?.name == "Kazan")
        let privately = try Chat(id: 5)
        let prompt = try await privately.send(.command(.city(nil)))
        #expect(prompt.replies.last?.text?.contains("Напишите название вашего города") == true)
        let confirmed = try await chat.press("Да, всё верно", in: try await group(.command(.city("Саранск")), chat), group: true, sender: 9)
        #expect(confirmed.replies.contains { $0.text?.hasPrefix("📍 Город чата: <b>Саранск</b>") == true }, "\(confirmed.replies)")
        let card = try await group(.command(.search("Казань")), chat)
        guard case .send(_, .inline(let keyboard)?, _) = card.replies.last else {
            Issue.record("expected a card, got \(card.replies)")
            return
        }
        #expect(keyboard.inlineKeyboard.joined().contains { $0.text == "📍 Сделать городом чата" }, "\(keyboard)")
        let daily = try await group(.command(.daily("")), chat)
        #expect(daily.replies.last?.text?.contains("для города чата") == true, "\(daily.replies)")
        let help = try await group(.command(.help), chat)
        #expect(help.replies.last?.text?.contains("/weather — погода в городе чата") == true)
        #expect(help.replies.last?.text?.contains("вашем") == false)
    }

    @Test func aLocationSharedInAGroupAsksAboutTheChatsCity() async throws {
        let chat = try Chat(id: -100)
        let located = try await chat.send(.location(latitude: 54.19, longitude: 45.18), group: true, userMessageID: 41)
        #expect(located.followUps.first == .resolveLocation(latitude: 54.19, longitude: 45.18, statusTag: "locate-1", language: .ru, inGroup: true))
        let asked = await chat.conversation.handle(.followUp(located.followUps[0], chatID: -100), chat: try chat.database.chat(-100))
        #expect(asked.replies.first?.text?.hasPrefix("Это город чата?") == true, "\(asked.replies)")
    }

    /// A plain member who shares a location in a group that has a city gets the weather there,
    /// and the question is left to the administrators, who answer it as any.
    @Test func aMembersLocationInAGroupWithACityShowsTheWeatherThereAndAsksTheAdministrators() async throws {
        let chat = try Chat(id: -100, membership: FakeMembership(administrators: [9]))
        _ = try await chat.press("Да, всё верно", in: try await group(.command(.city("Казань")), chat), group: true, sender: 9)
        let located = try await chat.send(.location(latitude: 54.19, longitude: 45.18), group: true, userMessageID: 44, sender: 5)
        guard case .resolveLocation(54.19, 45.18, let tag, .ru, true?, nil, true?)? = located.followUps.first else {
            Issue.record("expected the point looked up for a member, got \(located.followUps)")
            return
        }
        // The follow-up as the worker runs it: handled, then committed.
        chat.update += 1
        let item = try await chat.database.receive([(updateID: chat.update, chatID: -100, payload: Data())], lastUpdateID: chat.update)[0]
        let asked = await chat.conversation.handle(.followUp(located.followUps[0], chatID: -100), chat: try chat.database.chat(-100))
        try await chat.database.commitStep(chat: asked.chat, handled: item.seq!, changes: asked.changes, replies: [], followUps: [])
        guard case .edit(.tag(tag), let question, let keyboard?)? = asked.replies.first else {
            Issue.record("expected the status edited into the question, got \(asked.replies)")
            return
        }
        #expect(question.hasPrefix("Сделать это место городом чата? Решают администраторы.\n\n📍 <b>Саранск</b>"), "\(question)")
        #expect(keyboard.inlineKeyboard.count == 2, "no «only the weather here»: it is shown")
        #expect(asked.replies.contains { if case .send(let text, .inline?, _) = $0 { text.hasPrefix("📍 <b>Саранск</b>") } else { false } }, "\(asked.replies)")
        // The member may not say yes; an administrator may.
        let refused = try await chat.press("Да, всё верно", in: asked, group: true, sender: 5)
        #expect(refused.replies.contains { if case .answer(_, let text?, true) = $0 { text.contains("администратор") } else { false } }, "\(refused.replies)")
        #expect(try chat.database.chat(-100)?.currentPlace?.name == "Kazan")
        let confirmed = try await chat.press("Да, всё верно", in: asked, group: true, sender: 9)
        #expect(try chat.database.chat(-100)?.currentPlace?.name == "Saransk")
        // A group's city, first or changed, is said by editing the question.
        #expect(confirmed.replies.contains { if case .edit(.id, let text, nil) = $0 { text.hasPrefix("📍 Город чата: <b>Саранск</b>") } else { false } }, "\(confirmed.replies)")
        // An administrator's location asks as before, with «only the weather here».
        let administrators = try await chat.send(.location(latitude: 55.79, longitude: 49.12), group: true, userMessageID: 45, sender: 9)
        guard case .resolveLocation(_, _, _, _, true?, nil, nil)? = administrators.followUps.first else {
            Issue.record("expected the point looked up for an administrator, got \(administrators.followUps)")
            return
        }
    }

    @Test func aGroupsFirstCityIsSaidAsAChangedOneIs() async throws {
        let chat = try Chat(id: -100, membership: FakeMembership(administrators: [9]))
        let first = try await chat.press("Да, всё верно", in: try await group(.command(.city("Казань")), chat), group: true, sender: 9)
        #expect(first.replies.contains { if case .edit(.id, let text, nil) = $0 { text.hasPrefix("📍 Город чата: <b>Казань</b>") } else { false } }, "\(first.replies)")
        #expect(!first.replies.contains { if case .editKeyboard = $0 { true } else { false } })
        #expect(!first.replies.contains { if case .send(let text, _, _) = $0 { text.hasPrefix("📍 Город чата") } else { false } })
    }
}

/// Administrators as a table, counting the questions asked.
final class FakeMembership: ChatMembership {
    let administrators: Set<Int64>
    let asked = Mutex(0)
    init(administrators: Set<Int64>) { self.administrators = administrators }
    func isAdministrator(_ userID: Int64, of chatID: Int64) async -> Bool {
        asked.withLock { $0 += 1 }
        return administrators.contains(userID)
    }
}

@Suite struct GroupPermissionTests {
    typealias Chat = FavoritesConversationTests.Chat
    static let groupID: Int64 = -100

    func press(_ label: String, in step: Conversation.Step, by member: Int64, _ chat: Chat, _ conversation: Conversation) async throws -> Conversation.Step {
        let buttons = step.replies.flatMap { reply -> [InlineKeyboardButton] in
            switch reply {
            case .send(_, .inline(let keyboard)?, _), .edit(_, _, let keyboard?): keyboard.inlineKeyboard.flatMap { $0 }
            default: []
            }
        }
        let button = try #require(buttons.first { $0.text.contains(label) }, "no «\(label)» in \(buttons.map(\.text))")
        return try await chat.send(
            .button(CallbackAction(encoded: button.callbackData!)), query: "q", messageID: 60, group: true, sender: member)
    }

    static let refusal = "В группе общее меняют только её администраторы: город, избранное, ежедневные прогнозы, уведомления, /settings и /reset. Погоду может смотреть каждый."

    @Test func inAGroupOnlyAdministratorsDeleteMoveOrReset() async throws {
        let membership = FakeMembership(administrators: [9])
        let chat = try Chat(id: Self.groupID, membership: membership)
        try await chat.save(["Уфа", "Казань"])

        // A member is told who may, by command and by every button; nothing changes.
        for command in [Command.delete(nil), .delete("1"), .move(nil), .move("2 1"), .reset] {
            let refused = try await chat.send(.command(command), group: true, userMessageID: 50, sender: 7)
            #expect(refused.replies.map(\.text) == [Self.refusal], "\(command)")
        }
        let buttons = try await chat.send(.command(.delete(nil)), group: true, userMessageID: 51, sender: 9)
        let refused = try await press("Уфа", in: buttons, by: 7, chat, chat.conversation)
        #expect(refused.replies == [.answer(callbackQueryID: "q", text: Self.refusal, showAlert: true)])
        let moves = try await chat.send(.command(.move(nil)), group: true, userMessageID: 52, sender: 9)
        let notMoved = try await press("⬇️", in: moves, by: 7, chat, chat.conversation)
        #expect(notMoved.replies == [.answer(callbackQueryID: "q", text: Self.refusal, showAlert: true)])
        #expect(try chat.favorites() == ["Уфа", "Казань"])

        // An administrator deletes, also with the buttons another administrator opened.
        _ = try await press("Уфа", in: buttons, by: 9, chat, chat.conversation)
        #expect(try chat.favorites() == ["Казань"])

        // A reset asked by an administrator is not a member's to confirm.
        let question = try await chat.send(.command(.reset), group: true, userMessageID: 53, sender: 9)
        let other = try await press("Да", in: question, by: 8, chat, chat.conversation)
        #expect(other.replies == [.answer(callbackQueryID: "q", text: Self.refusal, showAlert: true)])
        #expect(try chat.favorites() == ["Казань"])
        _ = try await press("Да", in: question, by: 9, chat, chat.conversation)
        #expect(try chat.favorites() == [])
    }

    @Test func anAnonymousAdministratorWritesAsTheGroupAndIsNotLookedUp() async throws {
        let membership = FakeMembership(administrators: [9])
        let chat = try Chat(id: Self.groupID, membership: membership)
        try await chat.save(["Уфа"])
        // Telegram's placeholder user, on behalf of the group itself.
        let update = Update(updateID: 1, message: Message(
            messageID: 5, from: User(id: 1_087_968_824, isBot: true, firstName: "Group"), date: 1,
            chat: TelegramBotAPI.Chat(id: Self.groupID, type: .supergroup), text: "/del 1",
            senderChat: TelegramBotAPI.Chat(id: Self.groupID, type: .supergroup)))
        let incoming = try #require(UpdateRouter.route(update))
        #expect(incoming.bySelf)
        _ = try await chat.send(incoming.intent, group: true, userMessageID: 5, sender: incoming.senderID, bySelf: true)
        #expect(try chat.favorites() == [])
        #expect(membership.asked.withLock { $0 } == 0)
    }

    @Test func theFirstCityIsAnyMembersThenTheAdministratorsToChange() async throws {
        let chat = try Chat(id: Self.groupID, membership: FakeMembership(administrators: [9]))
        let asked = try await chat.send(.command(.city("Казань")), group: true, userMessageID: 50, sender: 7)
        _ = try await press("Да", in: asked, by: 7, chat, chat.conversation)
        #expect(try chat.database.chat(Self.groupID)?.currentPlace?.name == "Kazan")

        // Then a member may not change it, by /city or by a card's button; anyone still looks places up.
        for command in [Command.city("Уфа"), .city(nil), .chooseCity] {
            let refused = try await chat.send(.command(command), group: true, userMessageID: 51, sender: 7)
            #expect(refused.replies.map(\.text) == [Self.refusal], "\(command)")
        }
        let card = try await chat.send(.command(.search("Уфа")), group: true, userMessageID: 52, sender: 7)
        #expect(card.replies.last?.text?.contains("Уфа") == true)
        let made = try await press("Сделать городом чата", in: card, by: 7, chat, chat.conversation)
        #expect(made.replies.first == .answer(callbackQueryID: "q", text: Self.refusal, showAlert: true))
        let starred = try await press("⭐", in: card, by: 7, chat, chat.conversation)
        #expect(starred.replies.first == .answer(callbackQueryID: "q", text: Self.refusal, showAlert: true))
        #expect(try chat.favorites() == [])
        // The question an administrator's /city asks is not a member's to answer.
        let question = try await chat.send(.command(.city("Саранск")), group: true, userMessageID: 53, sender: 9)
        let yes = try await press("Да", in: question, by: 7, chat, chat.conversation)
        #expect(yes.replies.first == .answer(callbackQueryID: "q", text: Self.refusal, showAlert: true))
        #expect(try chat.database.chat(Self.groupID)?.currentPlace?.name == "Kazan")
        _ = try await press("Да", in: question, by: 9, chat, chat.conversation)
        #expect(try chat.database.chat(Self.groupID)?.currentPlace?.name == "Saransk")
    }

    @Test func aHintInAGroupAsksForAReplySoThatTheNameTypedNextReachesTheBot() async throws {
        let chat = try Chat(id: Self.groupID)
        let hint = try await chat.send(.chatter, group: true, userMessageID: 50, sender: 7)
        guard case .send(let text, .forceReply(let question)?, _) = hint.replies.last else {
            Issue.record("expected a question by reply, got \(hint.replies)")
            return
        }
        #expect(text.hasPrefix("Ответьте на это сообщение названием города"))
        #expect(question.selective == true && question.replyTo == 50)

        // Without a city, the default city's card says how to choose one in a group.
        let card = try await chat.send(.command(.weather), group: true, userMessageID: 51, sender: 7)
        #expect(card.replies.last?.text?.contains("ответьте на это сообщение его названием") == true)
        let privately = try await Chat(id: 7).send(.command(.weather))
        #expect(privately.replies.last?.text?.contains("Напишите название своего города") == true)
    }

    @Test func aGroupButtonIsForAdministratorsWhicheverMemberItNames() async throws {
        let chat = try Chat(id: Self.groupID, membership: FakeMembership(administrators: [9]))
        try await chat.save(["Уфа", "Казань"])
        let ids = try chat.database.favorites(chatID: Self.groupID).compactMap(\.id)

        // Whichever member a forged button names, only an administrator's press counts.
        let byMember = try await chat.send(.button(.deleteFavorite(id: ids[0], by: 7)), query: "q", messageID: 60, group: true, sender: 7)
        #expect(byMember.replies.first?.text?.contains("администратор") == true)
        #expect(try chat.favorites() == ["Уфа", "Казань"])
        _ = try await chat.send(.button(.deleteFavorite(id: ids[0], by: nil)), query: "q", messageID: 60, group: true, sender: 9)
        #expect(try chat.favorites() == ["Казань"])

        // In a private chat the same button is the chat's own.
        let own = try Chat(id: 7)
        try await own.save(["Уфа"])
        let ownID = try #require(own.database.favorites(chatID: 7).first?.id)
        _ = try await own.send(.button(.deleteFavorite(id: ownID, by: nil)), query: "q", messageID: 60, sender: 7)
        #expect(try own.favorites() == [])
    }
}
