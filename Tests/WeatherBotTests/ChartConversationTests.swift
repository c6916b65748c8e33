import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot
import WeatherBotSQLite

/// «📈 График» under the weather views, the view buttons under a chart, and /daily with the chart.
@Suite struct ChartConversationTests {
    typealias Chat = FavoritesConversationTests.Chat

    func withCity(_ chat: Chat? = nil) async throws -> Chat {
        let chat = try chat ?? Chat()
        let asked = try await chat.send(.text(chat.language == .ru ? "Саранск" : "Саранск"))
        _ = try await chat.press(chat.language == .ru ? "Да, всё верно" : "Yes", in: asked)
        return chat
    }

    /// The photo a step sends: its chart, caption and buttons.
    func chart(in step: Conversation.Step) throws -> (request: ChartRequest, caption: String, keyboard: [String], target: MessageTarget?) {
        for reply in step.replies {
            switch reply {
            case .chart(let request, let caption, let keyboard):
                return (request, caption, keyboard?.inlineKeyboard.joined().map(\.text) ?? [], nil)
            case .editChart(let target, let request, let caption, let keyboard):
                return (request, caption, keyboard?.inlineKeyboard.joined().map(\.text) ?? [], target)
            default: continue
            }
        }
        throw NoChart(replies: step.replies)
    }

    struct NoChart: Error { var replies: [Reply] }

    @Test func theChartButtonSendsThe48HourChartOfTheCardsPlaceAsAPhoto() async throws {
        let chat = try await withCity()
        let card = try await chat.send(.command(.weather))
        let pressed = try await chat.press("📈 График", in: card, messageID: 5)
        #expect(pressed.replies.first == .answer(callbackQueryID: "q"))
        let sent = try chart(in: pressed)
        #expect(sent.target == nil, "a new photo, the card stays")
        #expect(sent.request.view == .hours)
        #expect(sent.request.place.name == "Саранск")
        #expect(sent.request.place.latitude == Place.saransk.latitude && sent.request.place.longitude == Place.saransk.longitude)
        #expect(sent.request.language == .ru)
        #expect(sent.request.forecastTime == FakeWeather().fetchedAt)
        #expect(sent.caption.contains("<b>Саранск</b>") && sent.caption.hasSuffix("— 48 часов"), "\(sent.caption)")
        #expect(sent.keyboard == ["· 48 часов ·", "Неделя"])
    }

    @Test func theViewButtonsUnderAChartReplaceItsPhoto() async throws {
        let chat = try await withCity()
        let card = try await chat.send(.command(.weather))
        let photo = try await chat.press("📈 График", in: card)
        let week = try await chat.press("Неделя", in: photo, messageID: 9)
        let replaced = try chart(in: week)
        #expect(replaced.target == .id(9))
        #expect(replaced.request.view == .week)
        #expect(replaced.caption.hasSuffix("— неделя"))
        #expect(replaced.keyboard == ["48 часов", "· Неделя ·"])
        let back = try chart(in: try await chat.press("48 часов", in: week, messageID: 9))
        #expect(back.target == .id(9) && back.request.view == .hours)
    }

    @Test func theSevenDayViewsChartIsTheWeeks() async throws {
        let chat = try await withCity()
        let card = try await chat.send(.command(.weather))
        let days = try await chat.press("На 7 дней", in: card)
        #expect(try chart(in: try await chat.press("📈 График", in: days)).request.view == .week)
    }

    /// What makes the picture, and nothing else, is in the request: two chats asking for the same
    /// place's chart ask for one picture, which another language or view makes another.
    @Test func chatsAskingForTheSamePlacesChartAskForOnePicture() async throws {
        let first = try await withCity(try Chat(id: 1))
        let second = try await withCity(try Chat(id: 2))
        try await second.send(.command(.search("Казань")))
        let one = try chart(in: try await first.press("📈 График", in: try await first.send(.command(.weather))))
        let other = try chart(in: try await second.press("📈 График", in: try await second.send(.command(.weather))))
        #expect(one.request.encoded == other.request.encoded)
        #expect(ChartRequest(encoded: one.request.encoded) == one.request)

        let english = try Chat(id: 3)
        english.language = .en
        _ = try await withCity(english)
        let inEnglish = try chart(in: try await english.press("📈 Chart", in: try await english.send(.command(.weather))))
        #expect(inEnglish.request.encoded != one.request.encoded)
        #expect(inEnglish.caption.hasSuffix("— 48 hours"))
        #expect(inEnglish.keyboard == ["· 48 hours ·", "Week"])
        for garbage in ["", "{}", "chart", #"{"view":"x"}"#] { #expect(ChartRequest(encoded: garbage) == nil) }
    }

    @Test func aChartWithoutWeatherSaysWhyAndSendsNothing() async throws {
        let chat = try await withCity()
        let card = try await chat.send(.command(.weather))
        let failing = try Chat(id: chat.id, weather: FakeWeather(failure: OpenWeatherError(code: .server(502), endpoint: "/data/3.0/onecall", message: "")))
        // The same database file is not shared: the failing chat needs its own city.
        _ = try await withCity(failing)
        let pressed = try await failing.press("📈 График", in: card)
        guard case .answer(_, let text?, true) = pressed.replies.first else {
            Issue.record("expected an alert, got \(pressed.replies)")
            return
        }
        #expect(text.hasPrefix("Не удалось получить погоду"))
        #expect(pressed.replies.count == 1)
    }

    /// Each chart is drawn and uploaded: a chat asking on and on gets six a minute, then is told
    /// once in a message, and each press of a button still gets its short alert.
    @Test func aChatGetsSixChartsAMinuteAndIsToldSoOnce() async throws {
        let chat = try await withCity()
        let card = try await chat.send(.command(.weather))
        for press in 1...6 {
            #expect((try? chart(in: try await chat.press("📈 График", in: card))) != nil, "press \(press)")
        }
        let refusal = "Слишком много графиков подряд: не больше 6 в минуту. Подождите минуту."
        let typed = try await chat.send(.command(.chart(nil)))
        #expect(typed.replies.map(\.text) == ["⚠️ " + refusal])
        #expect(try await chat.send(.command(.chart(nil))).replies.isEmpty)
        let pressed = try await chat.press("📈 График", in: card)
        #expect(pressed.replies == [.answer(callbackQueryID: "q", text: refusal, showAlert: true)])
        // The weather itself is still shown.
        #expect(try await chat.send(.command(.weather)).replies.first?.text?.contains("Саранск") == true)
    }

    /// In a group any member may look at the chart: nothing of the chat's changes, and nobody is
    /// asked anything.
    @Test func inAGroupAnyMembersPressSendsTheChart() async throws {
        let chat = try Chat(id: -100_500)
        let asked = try await chat.send(.command(.city("Саранск")), group: true, sender: 1)
        _ = try await chat.press("Да, всё верно", in: asked)
        let card = try await chat.send(.command(.weather), group: true, sender: 1)
        let data = card.replies.compactMap { reply -> String? in
            guard case .send(_, .inline(let keyboard)?, _) = reply else { return nil }
            return keyboard.inlineKeyboard.joined().first { $0.text == "📈 График" }?.callbackData
        }
        let action = try #require(data.first.flatMap(CallbackAction.init(encoded:)))
        let pressed = try await chat.send(.button(action), query: "q", messageID: 4, group: true, sender: 2)
        let sent = try chart(in: pressed)
        #expect(sent.request.place.name == "Саранск" && sent.target == nil)
        #expect(pressed.replies.count == 2)
    }

    @Test func aChartOfAPlaceNoLongerSavedIsAStaleButton() async throws {
        let chat = try await withCity()
        let step = try await chat.send(.button(.chartView(.week, .favorite(999))), query: "q", messageID: 3)
        #expect(step.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
    }

    // MARK: /daily with the chart

    @Test func aDailyForecastCanComeWithTheChartAndTheListSaysSo() async throws {
        let chat = try await withCity()
        let step = try await chat.send(.command(.daily("8:00 chart")))
        #expect(step.replies.first?.text?.contains("📈 С графиком на 48 часов.") == true, "\(step.replies)")
        let subscribed = try #require(try chat.database.subscriptions(chatID: chat.id).first)
        #expect(subscribed.withChart && subscribed.hour == 8)
        try await chat.save(["Казань"])
        for typed in ["9:00 1 с графиком", "10:00 график 1", "7 pm + chart."] {
            let step = try await chat.send(.command(.daily(typed)))
            #expect(step.replies.first?.text?.hasPrefix("✅") == true, "\(typed): \(step.replies)")
        }
        let subscriptions = try chat.database.subscriptions(chatID: chat.id)
        #expect(subscriptions.map(\.withChart) == [true, true, true, true])
        #expect(subscriptions.map { $0.place.name(in: "ru") } == ["Саранск", "Казань", "Казань", "Саранск"])
        let list = try #require(try await chat.send(.command(.daily(nil))).replies.first?.text)
        #expect(list.contains("⏰ 08:00 — <b>Саранск</b> · 📈 с графиком"), "\(list)")
        #expect(list.contains("<code>/daily 8:00 график</code>"))
    }

    /// Asking again for the same forecast with or without the chart changes it, keeping its
    /// schedule; asking for it as it is, or without saying, leaves it and says how to change it.
    @Test func theSameForecastWithOrWithoutTheChartChangesIt() async throws {
        let chat = try await withCity()
        try await chat.send(.command(.daily("8:00")))
        let before = try #require(try chat.database.subscriptions(chatID: chat.id).first)
        let on = try await chat.send(.command(.daily("8:00 chart")))
        #expect(on.replies.first?.text == "📈 Прогноз в 08:00 (<b>Саранск</b>) теперь приходит с графиком.")
        let after = try #require(try chat.database.subscriptions(chatID: chat.id).first)
        #expect(after.withChart && after.id == before.id && after.nextSendAt == before.nextSendAt)
        for typed in ["8:00 график", "8:00"] {
            let again = try await chat.send(.command(.daily(typed)))
            #expect(again.replies.first?.text == "Такой прогноз уже есть, с графиком. Без графика: <code>/daily 08:00 без графика</code>", "\(typed)")
            #expect(try chat.database.subscriptions(chatID: chat.id).map(\.withChart) == [true])
        }
        let off = try await chat.send(.command(.daily("8:00 без графика")))
        #expect(off.replies.first?.text == "Прогноз в 08:00 (<b>Саранск</b>) теперь приходит без графика.")
        #expect(try chat.database.subscriptions(chatID: chat.id).map(\.withChart) == [false])
        for typed in ["8:00", "8:00 no chart", "without chart 8:00"] {
            #expect(try await chat.send(.command(.daily(typed))).replies.first?.text == "Такой прогноз уже есть.", "\(typed)")
        }
    }

    @Test func theChartWordsMayStandAnywhereInDaily() {
        let cases: [(String, String, Bool?)] = [
            ("8:00", "8:00", nil), ("chart 9:30", "9:30", true), ("график 9:15", "9:15", true), ("9:00 1 с графиком", "9:00 1", true),
            ("7 pm + chart.", "7 pm", true), ("8:00 без графика", "8:00", false), ("8:00 without chart", "8:00", false),
            ("no chart 8:00 2", "8:00 2", false), ("8:00 и", "8:00 и", nil),
        ]
        for (typed, rest, chart) in cases {
            let (read, withChart) = Conversation.chartOption(typed)
            #expect(read == rest && withChart == chart, "\(typed) → \(read), \(String(describing: withChart))")
        }
    }

    // MARK: Asking by words

    @Test func theChartCanBeAskedForByCommandOrInWords() async throws {
        let chat = try await withCity()
        for (typed, view) in [("график", ChartRequest.View.hours), ("📈 График", .hours), ("покажи график на неделю", .week), ("chart", .hours)] {
            let step = try await chat.send(.text(typed))
            #expect(try chart(in: step).request.view == view, "\(typed)")
            #expect(step.replies.count == 1, "no button was pressed: nothing to answer")
        }
        #expect(try chart(in: try await chat.send(.command(.chart(nil)))).request.view == .hours)
        #expect(try chart(in: try await chat.send(.command(.chart("неделя")))).request.view == .week)
        // «погода на неделю» is the week of the chat's city, not a place called «неделю».
        let week = try #require(try await chat.send(.text("погода на неделю")).replies.first?.text)
        #expect(week.contains("на 7 дней"), "\(week)")
    }

    /// `/chart Tokyo` and «график Токио» are Tokyo's chart, not its card; the city stays as it was.
    @Test(arguments: [(Intent.command(.chart("Казань")), ChartRequest.View.hours), (.text("график Казань"), .hours),
                      (.text("Казань график на неделю"), .week), (.command(.chart("Казань на неделю")), .week), (.text("chart for Казань"), .hours)])
    func aChartAskedForByNameIsThatPlacesChart(intent: Intent, view: ChartRequest.View) async throws {
        let chat = try await withCity()
        let step = try await chat.send(intent)
        let sent = try chart(in: step)
        #expect(sent.request.place.latitude == Place.kazan.latitude && sent.request.view == view, "\(intent): \(sent.request)")
        #expect(!step.replies.contains { $0.text?.contains("Ощущается как") == true }, "no card: \(step.replies)")
        #expect(step.chat.currentPlace?.name == "Saransk")
    }

    /// Namesakes are offered as for a card, and the one picked sends its chart.
    @Test func aPickedNamesakeSendsItsChart() async throws {
        let chat = try await withCity()
        let list = try await chat.send(.command(.chart("Париж")))
        #expect(list.replies.last?.text == "Нашлось несколько мест. Нажмите на любое — пришлю его график.", "\(list.replies)")
        #expect((try? chart(in: list)) == nil)
        let picked = try chart(in: try await chat.press("Техас", in: list))
        #expect(picked.request.place.latitude == Place.parisUS.latitude && picked.request.view == .hours, "\(picked.request)")
        let week = try chart(in: try await chat.press("Франция", in: try await chat.send(.text("график Париж на неделю"))))
        #expect(week.request.place.latitude == Place.parisFR.latitude && week.request.view == .week, "\(week.request)")
    }

    @Test func aChartAskedForWithoutWeatherSaysWhy() async throws {
        let chat = try Chat(weather: FakeWeather(failure: OpenWeatherError(code: .server(502), endpoint: "/data/3.0/onecall", message: "")))
        let step = try await chat.send(.command(.chart(nil)))
        #expect(step.replies.first?.text?.hasPrefix("⚠️ Не удалось получить погоду") == true, "\(step.replies)")
    }
}
