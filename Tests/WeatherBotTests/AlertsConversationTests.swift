import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot
import WeatherBotSQLite

/// /alerts through the conversation, each step committed to a real SQLite file.
@Suite struct AlertsConversationTests {
    typealias Chat = FavoritesConversationTests.Chat

    func withCity(_ chat: Chat) async throws {
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
    }

    func settings(_ chat: Chat) throws -> NoticeSettings {
        try #require(try chat.database.chat(chat.id)).notices
    }

    @Test func withoutACityTheChatIsToldHowToChooseOneTheWayThatWorksThere() async throws {
        let chat = try Chat()
        let step = try await chat.send(.command(.alerts(nil)))
        #expect(step.replies.last?.text?.hasPrefix("Уведомления приходят для вашего города. Сначала выберите его") == true)
        #expect(step.replies.last?.text?.contains("геолокацию") == true)
        let group = try Chat(id: -100)
        let inGroup = try await group.send(.command(.alerts("on")), group: true, userMessageID: 3, sender: 7)
        #expect(inGroup.replies.last?.text == "Уведомления приходят для города чата. Сначала выберите его: напишите /city и название, например /city Казань.")
        #expect(try settings(group) == .off)
        // The city typed, its question still open: the chat is told to answer it, not to type /city again.
        _ = try await group.send(.command(.city("Саранск")), group: true, userMessageID: 4, sender: 7)
        let open = try await group.send(.command(.alerts("on")), group: true, userMessageID: 5, sender: 7)
        #expect(open.replies.last?.text == "Сначала ответьте на вопрос выше о городе: уведомления приходят для выбранного города.")
    }

    @Test func theMessageShowsEachNoticeAndItsSwitchesRedrawIt() async throws {
        let chat = try Chat()
        try await withCity(chat)
        let shown = try await chat.send(.command(.alerts(nil)))
        let text = try #require(shown.replies.last?.text)
        #expect(text.hasPrefix("🔔 <b>Уведомления</b> — <b>Саранск</b>"))
        #expect(text.contains("☐ ☔ Дождь или снег в ближайший час"))
        #expect(text.contains("☐ ⚠️ Предупреждения о непогоде"))
        #expect(text.contains("🌙 Тихие часы: 22:00–08:00 по местному времени"))
        #expect(text.contains("а те, что начнутся позже, — когда тихие часы кончатся"))
        #expect(!text.contains("One Call"))

        let pressed = try await chat.press("Дождь или снег", in: shown, messageID: 40)
        #expect(try settings(chat) == NoticeSettings(rain: true))
        guard case .edit(.id(40), let redrawn, let keyboard?) = pressed.replies.last else {
            Issue.record("expected the message redrawn, got \(pressed.replies)")
            return
        }
        #expect(redrawn.contains("✅ ☔ Дождь или снег в ближайший час"))
        // A second tap of the old button sets the same again: it does not undo the first.
        _ = try await chat.press("Дождь или снег", in: shown, messageID: 40)
        #expect(try settings(chat).rain)
        let quietOff = try await chat.press("Тихие часы: 22:00–08:00 — выключить", in: pressed, messageID: 40)
        #expect(try settings(chat).quiet == .off)
        #expect(quietOff.replies.last?.text?.contains("Тихих часов нет") == true)
        // Off, the button offers the default back.
        let quietOn = try await chat.press("Включить тихие часы 22:00–08:00", in: quietOff, messageID: 40)
        #expect(try settings(chat).quiet == nil)
        _ = try await chat.press("Тихие часы: 22:00–08:00 — выключить", in: quietOn, messageID: 40)
        _ = try await chat.press("Предупреждения", in: pressed, messageID: 40)
        #expect(try settings(chat) == NoticeSettings(rain: true, warnings: true, quiet: .off))
        #expect(keyboard.inlineKeyboard.count == 3)
    }

    @Test func onOffAndQuietHoursAreTypedToo() async throws {
        let chat = try Chat()
        try await withCity(chat)
        let on = try await chat.send(.command(.alerts("on")))
        #expect(on.replies.count == 1)
        #expect(on.replies.first?.text?.hasPrefix("Уведомления включены: дождь в ближайший час и предупреждения о непогоде.\n\n🔔 <b>Уведомления</b>") == true)
        #expect(try settings(chat) == NoticeSettings(rain: true, warnings: true))
        let quiet = try await chat.send(.command(.alerts("quiet 23:00-07:00")))
        #expect(quiet.replies.first?.text?.hasPrefix("Тихие часы изменены: 23:00–07:00.\n") == true)
        // «/alerts quiet» alone shows them as they are.
        let asked = try await chat.send(.command(.alerts("quiet")))
        #expect(asked.replies.first?.text?.hasPrefix("🔔 <b>Уведомления</b>") == true)
        #expect(asked.replies.first?.text?.contains("🌙 Тихие часы: 23:00–07:00 по местному времени.") == true)
        #expect(try settings(chat).quiet == .hours(QuietHours(stored: "23:00-07:00")!))
        // A user who copies the hint's example with a dash of their own.
        _ = try await chat.send(.command(.alerts("quiet 23:30 – 6:45")))
        #expect(try settings(chat).quiet == .hours(QuietHours(start: 23 * 60 + 30, end: 6 * 60 + 45)!))
        // As a 12-hour clock writes them, as /daily's times are.
        _ = try await chat.send(.command(.alerts("quiet 11pm-6am")))
        #expect(try settings(chat).quiet == .hours(QuietHours(start: 23 * 60, end: 6 * 60)!))
        _ = try await chat.send(.command(.alerts("quiet 10 вечера - 7 утра")))
        #expect(try settings(chat).quiet == .hours(QuietHours(start: 22 * 60, end: 7 * 60)!))
        _ = try await chat.send(.command(.alerts("quiet 23:30 – 6:45")))
        let bad = try await chat.send(.command(.alerts("quiet 25:00-07:00")))
        #expect(bad.replies.first?.text?.hasPrefix("Не понимаю часы «25:00-07:00»") == true)
        // The same start and end: read, and told why it is no quiet hours.
        let empty = try await chat.send(.command(.alerts("quiet 23:00-23:00")))
        #expect(empty.replies.first?.text?.hasPrefix("Тихие часы с 23:00 до 23:00 — это ни одного часа.") == true)
        let own = QuietHours(start: 23 * 60 + 30, end: 6 * 60 + 45)!
        #expect(try settings(chat).quiet == .hours(own))
        // Off, the chat's own hours are kept: the button and «/alerts quiet on» bring them back.
        let quietOff = try await chat.send(.command(.alerts("quiet off")))
        #expect(try settings(chat).quiet == .paused(own))
        #expect(try settings(chat).quietHours(default: .night) == nil)
        #expect(quietOff.replies.first?.text?.contains("🌙 Тихих часов нет") == true)
        let back = try await chat.press("Включить тихие часы 23:30–06:45", in: quietOff, messageID: 41)
        #expect(try settings(chat).quiet == .hours(own))
        _ = try await chat.press("Тихие часы: 23:30–06:45 — выключить", in: back, messageID: 41)
        #expect(try settings(chat).quiet == .paused(own))
        let typedOn = try await chat.send(.command(.alerts("quiet on")))
        #expect(typedOn.replies.first?.text?.hasPrefix("Тихие часы изменены: 23:30–06:45.\n") == true)
        _ = try await chat.send(.command(.alerts("quiet off")))
        let unknown = try await chat.send(.command(.alerts("maybe")))
        #expect(unknown.replies.first?.text?.hasPrefix("Не понимаю «maybe». <code>/alerts on</code>") == true)
        _ = try await chat.send(.command(.alerts("off")))
        #expect(try settings(chat) == NoticeSettings(rain: false, warnings: false, quiet: .paused(own)))
        chat.language = .en
        let english = try await chat.send(.command(.alerts("on")))
        #expect(english.replies.first?.text?.hasPrefix("Notices are on: rain within the hour and official weather warnings.\n") == true)
        #expect(english.replies.first?.text?.contains("🌙 No quiet hours") == true)
        // Without quiet hours, the button offers the chat's own back (the default when it had none).
        #expect(english.replies.first.map { "\($0)".contains("Turn on quiet hours 23:30–06:45") } == true)
    }

    @Test func theFreePlanSaysRainIsToldRoughly() async throws {
        var weather = FakeWeather()
        weather.minutes = false
        let chat = try Chat(weather: weather)
        try await withCity(chat)
        let shown = try await chat.send(.command(.alerts(nil)))
        #expect(shown.replies.last?.text?.contains("поминутные уведомления требуют подписки One Call 3.0") == true)
    }

    @Test func noticesFollowTheCityAndTheReplySaysSo() async throws {
        let chat = try Chat()
        try await withCity(chat)
        _ = try await chat.send(.command(.alerts("on")))
        let moved = try await chat.send(.command(.city("Казань")))
        let changed = try await chat.press("Да, всё верно", in: moved)
        #expect(changed.replies.contains { $0.text == "🔔 Уведомления теперь приходят для этого города." })
        #expect(try #require(try chat.database.chat(chat.id)).currentPlace?.name == "Kazan")
        // Without notices, a change of city says nothing of them.
        _ = try await chat.send(.command(.alerts("off")))
        let again = try await chat.send(.command(.city("Уфа")))
        let quiet = try await chat.press("Да, всё верно", in: again)
        #expect(!quiet.replies.contains { $0.text?.contains("Уведомления") == true })
    }

    @Test func resetForgetsThem() async throws {
        let chat = try Chat()
        try await withCity(chat)
        _ = try await chat.send(.command(.alerts("on")))
        let question = try await chat.send(.command(.reset))
        #expect(question.replies.first?.text?.contains("ежедневные прогнозы, уведомления и настройки") == true)
        let shown = try await chat.send(.command(.alerts(nil)))
        _ = try await chat.press("Да, удалить всё", in: question)
        #expect(try chat.database.chat(chat.id)?.notices ?? .off == .off)
        // The old message's switch, pressed after the reset, says how to begin again and loses its buttons.
        let stale = try await chat.press("Дождь", in: shown, messageID: 44)
        #expect(stale.replies.contains(.edit(.id(44), text: "Уведомления приходят для вашего города. Сначала выберите его: напишите /city и название, например /city Казань, или отправьте геолокацию.")))
        #expect(try chat.database.chat(chat.id)?.notices ?? .off == .off)
    }

    @Test func inAGroupOnlyAdministratorsChangeThem() async throws {
        let membership = FakeMembership(administrators: [9])
        let chat = try Chat(id: -100, membership: membership)
        let asked = try await chat.send(.command(.city("Саранск")), group: true, userMessageID: 1, sender: 7)
        _ = try await GroupPermissionTests().press("Да", in: asked, by: 7, chat, chat.conversation)
        // A member may look, not turn them on, by command or by button.
        let refused = try await chat.send(.command(.alerts("on")), group: true, userMessageID: 2, sender: 7)
        #expect(refused.replies.last?.text == GroupPermissionTests.refusal)
        let shown = try await chat.send(.command(.alerts(nil)), group: true, userMessageID: 4, sender: 8)
        #expect(shown.replies.last?.text?.contains("Уведомления") == true)
        let pressed = try await GroupPermissionTests().press("Дождь", in: shown, by: 8, chat, chat.conversation)
        #expect(pressed.replies == [.answer(callbackQueryID: "q", text: GroupPermissionTests.refusal, showAlert: true)])
        #expect(try settings(chat) == .off)
        // The administrator may.
        _ = try await GroupPermissionTests().press("Дождь", in: shown, by: 9, chat, chat.conversation)
        #expect(try settings(chat).rain)
        _ = try await chat.send(.command(.alerts("off")), group: true, userMessageID: 5, sender: 9)
        #expect(try settings(chat) == .off)
    }

    @Test func aForgedSwitchIsAnUnknownButton() async throws {
        let chat = try Chat()
        try await withCity(chat)
        for data in ["al:x:1", "al:r:2", "al:r", "al:r:1:9"] {
            #expect(CallbackAction(encoded: data) == nil, "\(data)")
        }
        #expect(CallbackAction(encoded: "al:q:0") == .notices(.quiet, on: false))
        #expect(CallbackAction.notices(.warnings, on: true).encoded == "al:w:1")
    }

    // MARK: Pollen

    @Test func thePollenSwitchIsShownWhereTheCityHasPollenAndTurnsItOnAndOff() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Москва"))
        _ = try await chat.press("Да, всё верно", in: asked)
        let shown = try await chat.send(.command(.alerts(nil)))
        let text = try #require(shown.replies.last?.text)
        #expect(text.contains("☐ ⚠️ Предупреждения о непогоде\n☐ 🌼 Пыльца: день с высоким уровнем\n🌙 Тихие часы"), "\(text)")
        let pressed = try await chat.press("Пыльца", in: shown, messageID: 40)
        #expect(try settings(chat) == NoticeSettings(pollen: true))
        guard case .edit(.id(40), let redrawn, let keyboard?) = pressed.replies.last else {
            Issue.record("expected the message redrawn, got \(pressed.replies)")
            return
        }
        #expect(redrawn.contains("✅ 🌼 Пыльца: день с высоким уровнем"))
        #expect(keyboard.inlineKeyboard.map { $0[0].text }.contains("✅ 🌼 Пыльца: день с высоким уровнем"))
        #expect(keyboard.inlineKeyboard.count == 4)
        _ = try await chat.press("Пыльца", in: pressed, messageID: 40)
        #expect(try settings(chat) == .off)
        // «/alerts on» turns on rain and warnings: pollen is asked for by its own switch, and
        // «/alerts off» turns it off with the rest.
        _ = try await chat.send(.command(.alerts("on")))
        #expect(try settings(chat) == NoticeSettings(rain: true, warnings: true))
        _ = try await chat.press("Пыльца", in: shown, messageID: 40)
        #expect(try settings(chat) == NoticeSettings(rain: true, warnings: true, pollen: true))
        _ = try await chat.send(.command(.alerts("off")))
        #expect(try settings(chat) == .off)
        chat.language = .en
        let english = try await chat.send(.command(.alerts(nil)))
        #expect(english.replies.last?.text?.contains("☐ 🌼 Pollen: a high pollen day") == true)
    }

    @Test func outsidePollenDataThereIsNoSwitchButTheSettingIsKept() async throws {
        let chat = try Chat()
        try await withCity(chat)
        // Saransk, just east of the data's edge: nothing is said of pollen.
        let outside = try await chat.send(.command(.alerts(nil)))
        #expect(outside.replies.last?.text?.contains("Пыльца") == false)
        let move = try await chat.send(.command(.city("Москва")))
        _ = try await chat.press("Да, всё верно", in: move)
        let shown = try await chat.send(.command(.alerts(nil)))
        _ = try await chat.press("Пыльца", in: shown, messageID: 41)
        #expect(try settings(chat).pollen)
        // To Kazan: no switch, the setting kept for a city that has the data; with pollen alone
        // on, the move does not say notices follow, since none can come there.
        let away = try await chat.send(.command(.city("Казань")))
        let moved = try await chat.press("Да, всё верно", in: away)
        #expect(!moved.replies.contains { $0.text?.contains("Уведомления теперь приходят") == true })
        let there = try await chat.send(.command(.alerts(nil)))
        #expect(there.replies.last?.text?.contains("Пыльца") == false)
        #expect(try settings(chat) == NoticeSettings(pollen: true))
        // The switch of the old message, pressed there, changes nothing and draws the message without it.
        let old = try await chat.press("Пыльца", in: shown, messageID: 41)
        #expect(try settings(chat) == NoticeSettings(pollen: true))
        #expect(old.replies.last.map { "\($0)".contains("Пыльца") } == false)
        // Back in Moscow, it is on as it was.
        let back = try await chat.send(.command(.city("Москва")))
        let returned = try await chat.press("Да, всё верно", in: back)
        #expect(returned.replies.contains { $0.text == "🔔 Уведомления теперь приходят для этого города." })
        let again = try await chat.send(.command(.alerts(nil)))
        #expect(again.replies.last?.text?.contains("✅ 🌼 Пыльца: день с высоким уровнем") == true)
    }

    @Test func inAGroupOnlyAdministratorsTurnPollenOn() async throws {
        let chat = try Chat(id: -100, membership: FakeMembership(administrators: [9]))
        let asked = try await chat.send(.command(.city("Москва")), group: true, userMessageID: 1, sender: 7)
        _ = try await GroupPermissionTests().press("Да", in: asked, by: 7, chat, chat.conversation)
        let shown = try await chat.send(.command(.alerts(nil)), group: true, userMessageID: 2, sender: 8)
        let refused = try await GroupPermissionTests().press("Пыльца", in: shown, by: 8, chat, chat.conversation)
        #expect(refused.replies == [.answer(callbackQueryID: "q", text: GroupPermissionTests.refusal, showAlert: true)])
        #expect(try settings(chat) == .off)
        _ = try await GroupPermissionTests().press("Пыльца", in: shown, by: 9, chat, chat.conversation)
        #expect(try settings(chat).pollen)
        #expect(try settings(chat).setBy == 9)
    }

    @Test func buttonsOfEarlierMessagesReadAsTheyDidAndPollensIsItsOwn() {
        #expect(CallbackAction(encoded: "al:r:1") == .notices(.rain, on: true))
        #expect(CallbackAction(encoded: "al:w:0") == .notices(.warnings, on: false))
        #expect(CallbackAction(encoded: "al:q:1") == .notices(.quiet, on: true))
        #expect(CallbackAction(encoded: "al:p:1") == .notices(.pollen, on: true))
        #expect(CallbackAction.notices(.pollen, on: false).encoded == "al:p:0")
    }
}
