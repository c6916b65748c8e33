import Foundation
import TelegramBotAPI
import Testing
@testable import WeatherBot
import WeatherBotSQLite
import WeatherBotStore

/// The Mini App's screens, drawn by the conversation from the chat's record: the same words and
/// figures as the chat's own messages, of this chat only.
@Suite struct AppScreensTests {
    typealias Chat = FavoritesConversationTests.Chat

    /// The text of the step's first sent message.
    static func sent(_ step: Conversation.Step) throws -> String {
        for reply in step.replies { if case .send(let text, _, _) = reply { return text } }
        throw Missing()
    }

    struct Missing: Error {}

    /// Lines of a message, without the blank ones and the local time (which the two draws may
    /// read a minute apart).
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("🕒") }
    }

    @Test(arguments: [Language.ru, .en]) func thePlaceScreenSaysWhatTheCardSaysInTheChatsUnits(_ language: Language) async throws {
        let chat = try Chat()
        chat.language = language
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press(language == .ru ? "Да, всё верно" : "Yes", in: asked)
        if language == .en {
            var record = try #require(try chat.database.chat(chat.id))
            record.settings.temperature = .fahrenheit
            record.settings.windSpeed = .milesPerHour
            try await chat.database.commitStep(chat: record, handled: -1, changes: [], replies: [], followUps: [])
        }
        let card = try Self.sent(try await chat.send(.command(.weather)))
        let page = await chat.conversation.appPage(.weather(favorite: nil), chat: try chat.database.chat(chat.id), userID: chat.id, languageCode: nil)
        #expect(page.language == language)
        for line in Self.lines(card) {
            #expect(page.html.contains(line), "the app lacks «\(line)»")
        }
        if language == .en {
            #expect(page.html.contains("°F") && !page.html.contains("°C"))
            #expect(page.html.contains("mph"))
        }
    }

    @Test func theFavoritesScreenListsWhatFavListsAndOpensOnlyThisChatsOwn() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        try await chat.save(["Казань", "Уфа"])
        let list = try Self.sent(try await chat.send(.command(.favorites)))
        let record = try chat.database.chat(chat.id)
        let page = await chat.conversation.appPage(.favorites, chat: record, userID: chat.id, languageCode: "ru")
        for line in Self.lines(list).dropFirst(1) where !line.isEmpty {
            #expect(page.html.contains(line), "the app lacks «\(line)»")
        }
        let ids = try chat.database.favorites(chatID: chat.id).compactMap(\.id)
        for id in ids { #expect(page.html.contains("data-id=\"\(id)\"")) }

        // A favorite's screen is its weather; another chat's favorite is no place of this one.
        let kazan = await chat.conversation.appPage(.weather(favorite: ids[0]), chat: record, userID: chat.id, languageCode: "ru")
        #expect(kazan.html.contains("Казань"))
        let stranger = await chat.conversation.appPage(.weather(favorite: ids[0]), chat: nil, userID: 999, languageCode: "ru")
        #expect(stranger.html.contains("Этого места уже нет в избранном"))
        #expect(!stranger.html.contains("Казань"))
    }

    /// A user who never wrote to the bot sees the default city, in the language Telegram gives,
    /// and how to choose a city of their own.
    @Test func aNewUserSeesTheDefaultCityInTheirLanguage() async throws {
        let chat = try Chat()
        let page = await chat.conversation.appPage(.weather(favorite: nil), chat: nil, userID: 4040, languageCode: "en-GB")
        #expect(page.language == .en)
        #expect(page.html.contains("This is the weather in the default city"))
        #expect(page.html.contains("Moscow"))
    }

    /// A search in the app finds what /search finds, namesakes told apart by their country; a
    /// place picked has a star that saves it as the star under its card does, and the chat is told.
    @Test func aPlaceFoundInTheAppIsSavedAsItsStarSavesItAndTheChatIsTold() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        let record = try chat.database.chat(chat.id)
        let search = await chat.conversation.appPage(.search("Париж"), chat: record, userID: chat.id, languageCode: "ru")
        #expect(search.html.contains("Париж, Иль-де-Франс, Франция 🇫🇷") && search.html.contains("Париж, Техас, США 🇺🇸"), "\(search.html)")
        #expect(search.html.contains("data-query=\"q=%D0%9F%D0%B0%D1%80%D0%B8%D0%B6&amp;pick=1\""), "\(search.html)")

        let found = await chat.conversation.appPage(.place(.named("Париж", pick: 1)), chat: record, userID: chat.id, languageCode: "ru")
        #expect(found.html.contains("data-action=\"add\"") && found.html.contains("⭐ В избранное"))
        let place = try #require(await chat.conversation.appLookUp(.named("Париж", pick: 1), chat: record, userID: chat.id, languageCode: "ru"))
        let step = await chat.conversation.handle(.followUp(.app(.addFavorite(place), language: .ru), chatID: chat.id), chat: record)
        try await chat.database.commitStep(chat: step.chat, handled: -1, changes: step.changes, replies: [], followUps: [])
        #expect(try Self.sent(step).contains("⭐ Добавлено в избранное: <b>Париж</b>"))
        #expect(try chat.favorites() == ["Париж"])
        let saved = await chat.conversation.appPage(.place(.named("Париж", pick: 1)), chat: try chat.database.chat(chat.id), userID: chat.id, languageCode: "ru")
        #expect(saved.html.contains("★ В избранном") && !saved.html.contains("data-action=\"add\""))
        // Paris made the city from the app: said as the button under its card says it.
        let made = await chat.conversation.handle(.followUp(.app(.makeCity(place), language: .ru), chatID: chat.id), chat: try chat.database.chat(chat.id))
        #expect(try Self.sent(made).contains("📍 Теперь ваш город: Париж"))
        #expect(made.chat.currentPlace?.isSameCity(as: place) == true)
        // The city is no favorite: its screen says it is first anyway.
        let city = await chat.conversation.appPage(.search("Саранск"), chat: record, userID: chat.id, languageCode: "ru")
        #expect(city.html.contains("Саранск"))
        let own = await chat.conversation.appPage(.place(.named("Саранск", pick: 0)), chat: record, userID: chat.id, languageCode: "ru")
        #expect(own.html.contains("Это ваш город: в избранном он всегда первый") && !own.html.contains("data-action=\"add\""))
        // Nothing found is said as /search says it; a pick beyond the list is no place.
        let nothing = await chat.conversation.appPage(.search("Атлантида"), chat: record, userID: chat.id, languageCode: "ru")
        #expect(nothing.html.contains("Атлантида"))
        let gone = await chat.conversation.appPage(.place(.named("Париж", pick: 7)), chat: record, userID: chat.id, languageCode: "ru")
        #expect(gone.html.contains("class=\"failure\""))
    }

    /// The settings screen is /settings, /alerts and /daily with their buttons; a button pressed
    /// in the app is pressed as in the chat, and the next card follows. Only those messages'
    /// buttons are taken.
    @Test func settingsChangedInTheAppChangeTheNextCardAndTheChatIsTold() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        var record = try chat.database.chat(chat.id)
        let page = await chat.conversation.appPage(.settings, chat: record, userID: chat.id, languageCode: "ru")
        #expect(page.html.contains("data-press=\"") && page.html.contains("°F") && page.html.contains("Тихие часы"))
        let fahrenheit = try #require(page.html.components(separatedBy: "data-press=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            .first { CallbackAction(encoded: $0) == .setting(.temperature(.fahrenheit), epoch: SettingChoice.epoch(of: record!)) })

        func step(_ action: AppAction) async throws -> Conversation.Step {
            let step = await chat.conversation.handle(.followUp(.app(action, language: .ru), chatID: chat.id), chat: try chat.database.chat(chat.id))
            try await chat.database.commitStep(chat: step.chat, handled: -1, changes: step.changes, replies: [], followUps: [])
            return step
        }
        let pressed = try await step(.press(fahrenheit))
        // A unit is seen in the app and every message after: nothing is sent for each tap, and
        // there is no spinner to stop.
        #expect(pressed.replies.isEmpty)
        record = try chat.database.chat(chat.id)
        let card = await chat.conversation.appPage(.weather(favorite: nil), chat: record, userID: chat.id, languageCode: "ru")
        #expect(card.html.contains("°F") && !card.html.contains("°C"))
        let said = try Self.sent(try await chat.send(.command(.weather)))
        #expect(said.contains("°F"))

        // Typed fields are the commands: a daily forecast, quiet hours.
        #expect(try Self.sent(try await step(.daily("8:00"))).contains("08:00"))
        #expect(try chat.database.subscriptions(chatID: chat.id).map(\.hour) == [8])
        _ = try await step(.quietHours("23-7"))
        #expect(try chat.database.chat(chat.id)?.notices.quietHours(default: nil)?.start == 23 * 60)
        // A button of another message is not pressed from the app.
        let other = try await step(.press(CallbackAction.confirmCity(question: 1).encoded))
        #expect(other.replies.isEmpty && other.changes.isEmpty)
    }
}
