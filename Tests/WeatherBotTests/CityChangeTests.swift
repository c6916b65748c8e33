import Foundation
import TelegramBotAPI
import Testing
@testable import WeatherBot
import WeatherBotSQLite
import WeatherBotStore

/// A chat's city changing while older cards of it are still on the screen.
@Suite struct CityChangeTests {
    typealias Chat = FavoritesConversationTests.Chat

    /// The card of a city chosen from a shared location, a few hundred metres from the centre the
    /// geocoder gives for the same name.
    func cardOfALocatedCity(_ chat: Chat) async throws -> Conversation.Step {
        let asked = try await chat.locate(latitude: 54.1901, longitude: 45.1832)
        return try await chat.press("Да, всё верно", in: asked)
    }

    @Test func anOldCardOfTheCityKeepsShowingItAfterASearchForItAndAnotherCity() async throws {
        let chat = try Chat()
        let cardA = try await cardOfALocatedCity(chat)
        // The same city looked up by name: a recent place of the same name nearby.
        let searched = try await chat.send(.command(.search("Саранск")))
        #expect(searched.replies.last?.text?.contains("📍 <b>Саранск</b>") == true, "\(searched.replies)")
        let asked = try await chat.send(.command(.city("Казань")))
        _ = try await chat.press("Да, всё верно", in: asked)
        #expect(try chat.database.chat(chat.id)?.currentPlace?.name == "Kazan")

        let hours = try await chat.press("По часам", in: cardA, messageID: 11)
        #expect(hours.replies.first == .answer(callbackQueryID: "q", text: nil), "\(hours.replies)")
        guard case .edit(.id(11), let text, let keyboard?) = hours.replies.last else {
            Issue.record("expected card A edited into its hours, got \(hours.replies)")
            return
        }
        #expect(text.contains("Саранск") && text.contains("по часам"), "\(text)")
        // No longer the chat's city: it may be saved or made the city again.
        #expect(keyboard.inlineKeyboard.flatMap { $0 }.contains { $0.text.contains("Сделать моим городом") })
        let now = try await chat.press("Сейчас", in: hours, messageID: 11)
        #expect(now.replies.last?.text?.contains("📍 <b>Саранск</b>") == true, "\(now.replies)")
    }

    @Test func anOldCardOfTheCityKeepsWorkingWhenTheSameCityIsChosenByName() async throws {
        let chat = try Chat()
        let cardA = try await cardOfALocatedCity(chat)
        let asked = try await chat.send(.command(.city("Саранск")))
        _ = try await chat.press("Да, всё верно", in: asked)
        let hours = try await chat.press("По часам", in: cardA, messageID: 11)
        guard case .edit(.id(11), let text, let keyboard?) = hours.replies.last else {
            Issue.record("expected card A edited into its hours, got \(hours.replies)")
            return
        }
        #expect(text.contains("Саранск"), "\(text)")
        // Still the chat's own city, so nothing offers to make it one.
        #expect(!keyboard.inlineKeyboard.flatMap { $0 }.contains { $0.text.contains("Сделать моим городом") }, "\(keyboard)")
    }
}

/// A traveller who shares where they stand only for the weather there.
@Suite struct JustTheWeatherHereTests {
    typealias Chat = FavoritesConversationTests.Chat

    func labels(_ step: Conversation.Step) -> [String] {
        step.replies.flatMap { reply -> [String] in
            guard case .edit(_, _, let keyboard?) = reply else { return [] }
            return keyboard.inlineKeyboard.flatMap { $0 }.map(\.text)
        }
    }

    @Test func aChatWithoutACityIsAskedOnlyYesOrNo() async throws {
        let chat = try Chat()
        let asked = try await chat.locate(latitude: 54.19, longitude: 45.18)
        #expect(labels(asked) == ["✅ Да, всё верно", "Нет, выбрать другой"])
    }

    @Test func aChatWithACityGetsTheWeatherOfThePointAndKeepsItsCity() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.command(.city("Казань")))
        _ = try await chat.press("Да, всё верно", in: asked)
        let question = try await chat.locate(latitude: 54.19, longitude: 45.18)
        #expect(labels(question) == ["✅ Да, всё верно", "Нет, выбрать другой", "🌦 Только погода здесь"])

        let here = try await chat.press("Только погода здесь", in: question, messageID: 30)
        #expect(here.replies.first == .answer(callbackQueryID: "q", text: nil))
        guard case .edit(.id(30), let answered, nil) = here.replies[1] else {
            Issue.record("expected the question to show its answer, got \(here.replies)")
            return
        }
        #expect(answered.hasPrefix("Это ваш город?") && answered.hasSuffix("<i>Ответ: только погода здесь, город прежний</i>"), "\(answered)")
        guard case .send(let card, .inline(let keyboard)?, _) = here.replies.last else {
            Issue.record("expected the point's weather, got \(here.replies)")
            return
        }
        #expect(card.contains("📍 <b>Саранск</b>") && card.contains("Ощущается как"), "\(card)")
        // Not the city: it can be saved, or made the city after all.
        #expect(keyboard.inlineKeyboard.flatMap { $0 }.contains { $0.text == "📍 Сделать моим городом" })
        #expect(try chat.database.chat(chat.id)?.currentPlace?.name == "Kazan")
        #expect(try chat.database.chat(chat.id)?.state == .idle)
        // The question is answered: «Да» on it now changes nothing.
        let late = try await chat.press("Да, всё верно", in: question, messageID: 30)
        #expect(late.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
        #expect(try chat.database.chat(chat.id)?.currentPlace?.name == "Kazan")
    }

    @Test func theButtonSpeaksEnglishToo() async throws {
        let chat = try Chat()
        chat.language = .en
        let asked = try await chat.send(.command(.city("Казань")))
        _ = try await chat.press("Yes", in: asked)
        let question = try await chat.locate(latitude: 54.19, longitude: 45.18)
        #expect(labels(question).last == "🌦 Just the weather here")
    }
}

/// Lists of places say what a pick will do, and what was picked.
@Suite struct PlaceListTests {
    typealias Chat = FavoritesConversationTests.Chat

    func prompt(_ step: Conversation.Step) -> String? {
        guard case .send(let text, .inline?, _) = step.replies.last else { return nil }
        return text
    }

    @Test func aListForTheCityAsksForOneAndAListToLookUpForAPlace() async throws {
        let chat = try Chat()
        let city = try await chat.send(.command(.city("Париж")))
        #expect(prompt(city) == "Нашлось несколько мест. Выберите свой город:")
        let search = try await chat.send(.command(.search("Париж")))
        // A search's list stays true after any number of picks: each shows a place's weather.
        #expect(prompt(search) == "Нашлось несколько мест. Нажмите на любое — покажу погоду там.")
        chat.language = .en
        #expect(prompt(try await chat.send(.command(.city("Париж")))) == "Several places match. Choose your city:")
        #expect(prompt(try await chat.send(.command(.search("Париж")))) == "Several places match. Tap any of them to see its weather.")
    }

    @Test func theFirstCitysListSaysWhatWasPickedWithoutItsButtons() async throws {
        let chat = try Chat()
        let list = try await chat.send(.text("Париж"))
        let picked = try await chat.press("Техас", in: list, messageID: 20)
        #expect(picked.replies.contains(.edit(.id(20), text: "Нашлось несколько мест. Выберите свой город:\n\n<i>Выбрано: Париж, Техас, США 🇺🇸</i>")), "\(picked.replies)")
        #expect(picked.replies.contains { $0.text?.hasPrefix("📍 Ваш город: <b>Париж</b>, Техас") == true }, "\(picked.replies)")
        // A later city picked from a list: the list becomes «📍 Ваш город: …».
        let again = try await chat.send(.command(.city("Париж")))
        let second = try await chat.press("Иль-де-Франс", in: again, messageID: 21)
        guard case .edit(.id(21), let text, nil) = second.replies[1] else {
            Issue.record("expected the list edited, got \(second.replies)")
            return
        }
        #expect(text.hasPrefix("📍 Ваш город: <b>Париж</b>, Иль-де-Франс"), "\(text)")
    }
}
