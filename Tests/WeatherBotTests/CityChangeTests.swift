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
