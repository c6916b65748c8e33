import Foundation
import TelegramBotAPI
import Testing
@testable import WeatherBot
import WeatherBotSQLite
import WeatherBotStore

/// `/settings` in a conversation: the message and its toggles, per chat and per group, whatever a
/// button says, and the units and language it sets followed everywhere the chat reads a number.
@Suite struct SettingsConversationTests {
    typealias Chat = FavoritesConversationTests.Chat

    func keyboard(_ step: Conversation.Step) -> [String] {
        step.replies.flatMap { reply -> [String] in
            switch reply {
            case .send(_, .inline(let keyboard)?, _), .edit(_, _, let keyboard?): keyboard.inlineKeyboard.joined().map(\.text)
            default: []
            }
        }
    }

    @Test func eachPressSetsOneChoiceAndRedrawsTheMessage() async throws {
        let chat = try Chat()
        let shown = try await chat.send(.command(.settings))
        #expect(shown.replies.first?.text?.hasPrefix("⚙️ <b>Настройки</b>") == true)
        #expect(keyboard(shown).filter { $0.hasPrefix("✓") } == ["✓ °C", "✓ м/с", "✓ мм рт. ст.", "✓ Как в Telegram", "✓ 24 часа"])

        let pressed = try await chat.press("°F", in: shown, messageID: 30)
        #expect(pressed.replies.first == .answer(callbackQueryID: "q", text: "✅ Сохранено"))
        guard case .edit(.id(30), let text, _)? = pressed.replies.last else {
            Issue.record("expected an edit, got \(pressed.replies)")
            return
        }
        #expect(text.contains("🌡 Температура: °F") && text.contains("+41°F"))
        #expect(keyboard(pressed).contains("✓ °F"))
        #expect(try chat.database.chat(chat.id)?.settings == ChatSettings(temperature: .fahrenheit))

        // The same choice again changes nothing and draws nothing.
        let again = try await chat.press("°F", in: pressed, messageID: 30)
        #expect(again.replies == [.answer(callbackQueryID: "q", text: nil)])

        _ = try await chat.press("км/ч", in: pressed, messageID: 30)
        _ = try await chat.press("12 часов", in: pressed, messageID: 30)
        #expect(try chat.database.chat(chat.id)?.settings == ChatSettings(temperature: .fahrenheit, windSpeed: .kilometresPerHour, clock: .twelveHour))
    }

    @Test func theCardTheHoursAndTheListsFollowTheChatsUnits() async throws {
        let chat = try Chat()
        try await chat.save(["Казань"])
        let shown = try await chat.send(.command(.settings))
        for label in ["°F", "mph", "inHg", "12 часов"] { _ = try await chat.press(label, in: shown, messageID: 30) }
        let card = try await chat.send(.command(.weather))
        let text = try #require(card.replies.last?.text)
        #expect(text.contains("°F") && !text.contains("°C"), "\(text)")
        #expect(text.contains(" mph") && text.contains(" inHg") && (text.contains(" AM") || text.contains(" PM")), "\(text)")
        let list = try await chat.send(.command(.favorites))
        #expect(list.replies.last?.text?.contains("°F") == true)
        let daily = try await chat.send(.command(.daily("19:30 1")))
        #expect(daily.replies.last?.text?.contains("7:30 PM") == true, "\(daily.replies)")
        let forecasts = try await chat.send(.command(.daily(nil)))
        #expect(forecasts.replies.last?.text?.contains("⏰ 7:30 PM") == true)
    }

    @Test func aChosenLanguageIsTheChatsWhateverTheWritersTelegramSays() async throws {
        let chat = try Chat()
        let shown = try await chat.send(.command(.settings))
        let english = try await chat.press("English", in: shown, messageID: 30)
        #expect(english.replies.first == .answer(callbackQueryID: "q", text: "✅ Saved"))
        #expect(english.replies.last?.text?.hasPrefix("⚙️ <b>Settings</b>") == true)
        let help = try await chat.send(.command(.help))
        #expect(help.replies.last?.text?.hasPrefix("I show the weather") == true)
        #expect(try chat.database.chat(chat.id)?.language == .en)
        // Back to the writer's Telegram: Russian again, in the same step.
        let back = try await chat.press("As in Telegram", in: english, messageID: 30)
        #expect(back.replies.first == .answer(callbackQueryID: "q", text: "✅ Сохранено"))
        #expect(try chat.database.chat(chat.id)?.settings.language == nil)
        #expect(try chat.database.chat(chat.id)?.language == .ru)
    }

    @Test func aGroupsSettingsAreItsAdministratorsAndItsLanguageIsNotWhoeverWroteLast() async throws {
        let chat = try Chat(id: -100, membership: FakeMembership(administrators: [9]))
        let shown = try await chat.send(.command(.settings), group: true, userMessageID: 1, sender: 7)
        #expect(shown.replies.first?.text?.contains("Настройки чата") == true)
        let refused = try await GroupPermissionTests().press("English", in: shown, by: 7, chat, chat.conversation)
        #expect(refused.replies == [.answer(callbackQueryID: "q", text: GroupPermissionTests.refusal, showAlert: true)])
        #expect(try chat.database.chat(-100)?.settings == .defaults)
        _ = try await GroupPermissionTests().press("English", in: shown, by: 9, chat, chat.conversation)
        #expect(try chat.database.chat(-100)?.settings.language == .en)
        // A member whose Telegram is Russian writes: the group is still spoken to in English.
        chat.language = .ru
        let help = try await chat.send(.command(.help), group: true, userMessageID: 2, sender: 7)
        #expect(help.replies.last?.text?.hasPrefix("I show the weather for this chat's city") == true)
        #expect(try chat.database.chat(-100)?.language == .en)
    }

    @Test func otherChatsAreUntouchedWhateverAButtonSays() async throws {
        let mine = try Chat(id: 5)
        let other = try Chat(id: 6)
        _ = try await other.send(.command(.settings))
        _ = try await mine.send(.command(.settings))
        let epoch = SettingChoice.epoch(of: try #require(try mine.database.chat(5)))
        // Every choice pressed in chat 5, and garbage: chat 6 keeps its defaults.
        for choice: SettingChoice in [.temperature(.fahrenheit), .windSpeed(.milesPerHour), .pressure(.hectopascals), .language(.en), .clock(.twelveHour)] {
            _ = try await mine.send(.button(.setting(choice, epoch: epoch)), query: "q", messageID: 1)
        }
        let forged = try await mine.send(.button(CallbackAction(encoded: "st:t:k:\(epoch)")), query: "q", messageID: 1)
        #expect(forged.replies.first?.text != nil)
        #expect(try mine.database.chat(5)?.settings.stored == "t=f w=mph p=hpa l=en h=12")
        #expect(try other.database.chat(6)?.settings == .defaults)
    }

    @Test func resetForgetsTheSettingsAndTheOldMessageIsStale() async throws {
        let chat = try Chat()
        let old = try await chat.send(.command(.settings))
        _ = try await chat.press("°F", in: old, messageID: 8)
        let question = try await chat.send(.command(.reset))
        _ = try await chat.press("Да", in: question)
        #expect(try chat.database.chat(chat.id)?.settings == .defaults)
        // The message from before the reset saves nothing, and shows the settings as they are.
        let stale = try await chat.press("12 часов", in: old, messageID: 8)
        #expect(stale.replies.first == .answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна"), "\(stale.replies)")
        guard case .edit(.id(8), let text, _)? = stale.replies.last else {
            Issue.record("expected the old message drawn again, got \(stale.replies)")
            return
        }
        #expect(text.contains("Температура: °C") && text.contains("Время: 24 часа"))
        #expect(try chat.database.chat(chat.id)?.settings == .defaults)
        let shown = try await chat.send(.command(.settings))
        #expect(keyboard(shown).contains("✓ °C"))
    }

    @Test func theChoiceMadeAlreadyChangesNothingAndAnotherLanguageKeepsThePressureUnit() async throws {
        let chat = try Chat()
        let shown = try await chat.send(.command(.settings))
        let same = try await chat.press("°C", in: shown, messageID: 8)
        #expect(same.replies == [.answer(callbackQueryID: "q", text: nil)])
        #expect(try chat.database.chat(chat.id)?.settings == .defaults)
        // Russian reads mm Hg; English chosen, it still does (the unit shown stays what it was).
        let english = try await chat.press("English", in: shown, messageID: 8)
        #expect(english.replies.last?.text?.contains("Pressure: mmHg") == true, "\(english.replies)")
        #expect(try chat.database.chat(chat.id)?.settings == ChatSettings(pressure: .millimetresOfMercury, language: .en))
    }
}
