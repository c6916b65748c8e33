import Foundation
import OpenWeather
import Synchronization
import TelegramBotAPI
import Testing
import WeatherBotService
@testable import WeatherBot
@testable import WeatherBotSQLite
import WeatherBotStore

/// The favorites commands through the conversation, each step committed to a real SQLite file.
@Suite struct FavoritesConversationTests {
    final class Chat {
        let folder: URL
        let database: BotDatabase
        let conversation: Conversation
        let id: Int64
        var update: Int64 = 0
        /// The language the chat's user writes in.
        var language = Language.ru

        init(id: Int64 = 77, limit: Int = 20, membership: (any ChatMembership)? = nil, weather: any WeatherSource = FakeWeather()) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-fav-\(UUID().uuidString)")
            database = try BotDatabase.open(path: folder.appendingPathComponent("bot.sqlite").path)
            let geocoder = FakeGeocoder(
                byName: ["Саранск": [.saransk], "Париж": [.parisFR, .parisUS], "Казань": [.kazan], "Уфа": [.ufa], "Казань, Вахитовский": [.kazanDowntown], "Москва": [.moscow]], reverse: [.saransk])
            conversation = Conversation(
                geocoder: geocoder, weather: weather, store: database, activity: FakeActivity(), membership: membership, maximumFavorites: limit)
            self.id = id
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Handles one intent and commits the step, as the worker does.
        @discardableResult
        func send(
            _ intent: Intent, query: String? = nil, messageID: Int? = nil, from chatID: Int64? = nil, group: Bool = false, userMessageID: Int? = nil,
            sender: Int64? = nil, isEdit: Bool = false, bySelf: Bool = false
        ) async throws -> Conversation.Step {
            update += 1
            let chatID = chatID ?? id
            let item = try await database.receive([(updateID: update, chatID: chatID, payload: Data())], lastUpdateID: update)[0]
            let step = await conversation.handle(
                .incoming(Incoming(
                    updateID: update, chatID: chatID, language: language, intent: intent, callbackQueryID: query, messageID: messageID,
                    isGroup: group, senderID: sender, userMessageID: userMessageID, isEdit: isEdit, bySelf: bySelf)),
                chat: try database.chat(chatID))
            try await database.commitStep(chat: step.chat, handled: item.seq!, changes: step.changes, replies: [], followUps: [])
            return step
        }

        /// Shares a location and runs its follow-up, as the worker does: the step that asks «Это ваш город?».
        func locate(latitude: Double, longitude: Double) async throws -> Conversation.Step {
            let located = try await send(.location(latitude: latitude, longitude: longitude))
            let followUp = try #require(located.followUps.first)
            update += 1
            let item = try await database.receive([(updateID: update, chatID: id, payload: Data())], lastUpdateID: update)[0]
            let step = await conversation.handle(.followUp(followUp, chatID: id), chat: try database.chat(id))
            try await database.commitStep(chat: step.chat, handled: item.seq!, changes: step.changes, replies: [], followUps: [])
            return step
        }

        func press(
            _ label: String, in step: Conversation.Step, messageID: Int = 1, group: Bool = false, sender: Int64? = nil
        ) async throws -> Conversation.Step {
            let buttons = step.replies.flatMap { reply -> [InlineKeyboardButton] in
                switch reply {
                case .send(_, .inline(let keyboard)?, _), .edit(_, _, let keyboard?), .editKeyboard(_, let keyboard?), .chart(_, _, let keyboard?),
                    .editChart(_, _, _, let keyboard?):
                    keyboard.inlineKeyboard.flatMap { $0 }
                default: []
                }
            }
            let button = try #require(buttons.first { $0.text.contains(label) }, "no «\(label)» in \(buttons.map(\.text))")
            return try await send(.button(CallbackAction(encoded: button.callbackData!)), query: "q", messageID: messageID, group: group, sender: sender)
        }

        func favorites() throws -> [String] {
            try database.favorites(chatID: id).map { $0.place.name(in: "ru") }
        }

        /// Saves places by searching for each and pressing ⭐.
        func save(_ names: [String]) async throws {
            for name in names {
                let found = try await send(.command(.search(name)))
                _ = try await press("В избранное", in: found)
            }
        }
    }

    /// /fav's short weather for every favorite is the chat's, counted in its share of the day
    /// as a batch: not in its share of the minute, which twenty favorites on a cold cache would
    /// spend at once, and a row without its weather tells no refusal. A card is counted in both.
    /// The conversation says so itself: nothing around it sets who pays.
    @Test func theListsWeatherIsABatchOfTheChatsDay() async throws {
        let onBehalf = FakeWeather.OnBehalf()
        let chat = try Chat(weather: FakeWeather(onBehalf: onBehalf))
        try await chat.save(["Казань", "Уфа"])
        onBehalf.calls.withLock { $0 = [] }
        _ = try await chat.send(.command(.favorites))
        let row = FakeWeather.OnBehalf.Call(chat: chat.id, batch: true, refusalsShown: false)
        #expect(onBehalf.calls.withLock { $0 } == [row, row])
        _ = try await chat.send(.command(.weather))
        #expect(onBehalf.calls.withLock { $0 }.last == .init(chat: chat.id))
    }

    @Test func searchWithOneResultShowsItsWeatherWithAStarThatTogglesAndAButtonToMakeItTheCity() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        let step = try await chat.send(.command(.search("Казань")))
        guard case .send(let text, .inline(let keyboard)?, _) = step.replies.last else {
            Issue.record("expected a card, got \(step.replies)")
            return
        }
        #expect(text.contains("Казань"))
        #expect(keyboard.inlineKeyboard.dropLast().last?.map(\.text) == ["🔄 Обновить", "⭐ В избранное"])
        #expect(keyboard.inlineKeyboard.last?.map(\.text) == ["📍 Сделать моим городом"])
        #expect(try chat.database.chat(chat.id)?.currentPlace?.name == "Saransk")  // browsing does not change the city

        // The star saves, and the message is shown again with the star filled.
        let starred = try await chat.press("В избранное", in: step, messageID: 40)
        #expect(starred.replies.first == .answer(callbackQueryID: "q", text: "⭐ Добавлено в избранное"))
        guard case .edit(.id(40), _, let edited?) = starred.replies.last else {
            Issue.record("expected the card edited, got \(starred.replies)")
            return
        }
        #expect(edited.inlineKeyboard.flatMap { $0 }.contains { $0.text == "★ В избранном" })
        #expect(try chat.favorites() == ["Казань"])

        // Pressed again, it removes the place: the star no longer claims it is saved.
        let again = try await chat.press("В избранном", in: starred, messageID: 40)
        #expect(again.replies.first == .answer(callbackQueryID: "q", text: "☆ Убрано из избранного"))
        guard case .edit(.id(40), _, let unstarred?) = again.replies.last else {
            Issue.record("expected the card edited, got \(again.replies)")
            return
        }
        #expect(unstarred.inlineKeyboard.flatMap { $0 }.contains { $0.text == "⭐ В избранное" })
        #expect(try chat.favorites() == [])
    }

    @Test func theButtonsOfAnOldCityCardKeepShowingThatCityAfterTheCityChanged() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        let saranskCard = try await chat.send(.command(.weather))
        // Kazan becomes the city; the Saransk card is still in the chat.
        let kazan = try await chat.send(.command(.search("Казань")))
        _ = try await chat.press("Сделать моим городом", in: kazan)
        #expect(try chat.database.chat(chat.id)?.currentPlace?.name == "Kazan")

        let refreshed = try await chat.press("Обновить", in: saranskCard, messageID: 30)
        guard case .edit(.id(30), let text, let keyboard?) = refreshed.replies.last else {
            Issue.record("expected the card edited, got \(refreshed.replies)")
            return
        }
        #expect(text.contains("Саранск") && !text.contains("Казань"))
        // No longer the city: the card offers to save it and to make it the city again.
        #expect(keyboard.inlineKeyboard.flatMap { $0 }.contains { $0.text == "📍 Сделать моим городом" })
        let week = try await chat.press("На 7 дней", in: saranskCard, messageID: 30)
        #expect(week.replies.last?.text?.contains("Саранск") == true)

        // The card of the city now stays the city's.
        let kazanCard = try await chat.send(.command(.weather))
        let kazanWeek = try await chat.press("На 7 дней", in: kazanCard, messageID: 31)
        guard case .edit(_, let kazanText, let kazanKeyboard?) = kazanWeek.replies.last else {
            Issue.record("expected the card edited, got \(kazanWeek.replies)")
            return
        }
        #expect(kazanText.contains("Казань"))
        #expect(!kazanKeyboard.inlineKeyboard.flatMap { $0 }.contains { $0.text == "📍 Сделать моим городом" })
    }

    @Test func aListOfPlacesForTomorrowOpensTomorrowsHours() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        let list = try await chat.send(.text("погода в Париже завтра"))
        let picked = try await chat.press("Техас", in: list)
        guard case .send(let text, _, _) = picked.replies.last else {
            Issue.record("expected a new message, got \(picked.replies)")
            return
        }
        #expect(text.contains("Париж") && text.contains("по часам"), "\(text)")
    }

    @Test func moveWithNumbersOutOfRangeIsToldTheRangeAndItsExampleWorks() async throws {
        let chat = try Chat()
        try await chat.save(["Уфа", "Казань"])
        let outOfRange = try await chat.send(.command(.move("0 5")))
        #expect(outOfRange.replies.last?.text?.contains("от 1 до 2") == true, "\(outOfRange.replies)")
        let words = try await chat.send(.command(.move("first last")))
        #expect(words.replies.last?.text == "Укажите два номера: откуда и куда, например: /move 2 1")
        // The example, followed literally, moves.
        _ = try await chat.send(.command(.move("2 1")))
        #expect(try chat.favorites() == ["Казань", "Уфа"])

        // With one favorite, no example could move it: the answer says so.
        let single = try Chat(id: 78)
        try await single.save(["Уфа"])
        for typed in ["0 5", "2 1", "1 1"] {
            let nowhere = try await single.send(.command(.move(typed)), from: 78)
            #expect(nowhere.replies.last?.text == "В избранном одно место (Уфа) — переставлять нечего.", "\(typed): \(nowhere.replies)")
        }
    }

    @Test func afterDelTheCardsStarNoLongerClaimsThePlaceIsSaved() async throws {
        let chat = try Chat()
        let card = try await chat.send(.command(.search("Казань")))
        let starred = try await chat.press("В избранное", in: card, messageID: 40)
        _ = try await chat.send(.command(.delete("1")))
        // The old card's filled star says the place is gone already, and the card shows it so.
        let pressed = try await chat.press("В избранном", in: starred, messageID: 40)
        #expect(pressed.replies.first == .answer(callbackQueryID: "q", text: "☆ Уже не в избранном"))
        #expect(try chat.favorites().isEmpty)
        let again = try await chat.press("В избранное", in: pressed, messageID: 40)
        #expect(again.replies.first == .answer(callbackQueryID: "q", text: "⭐ Добавлено в избранное"))
        #expect(try chat.favorites() == ["Казань"])
    }

    @Test func twoFavoritesOfOneNameAreToldApartInTheListAndTheNotices() async throws {
        let chat = try Chat()
        for label in ["Иль-де-Франс", "Техас"] {
            let list = try await chat.send(.command(.search("Париж")))
            let card = try await chat.press(label, in: list)
            _ = try await chat.press("В избранное", in: card)
        }
        let list = try await chat.send(.command(.favorites))
        guard case .send(_, .inline(let keyboard)?, _) = list.replies.last else {
            Issue.record("expected the list, got \(list.replies)")
            return
        }
        #expect(keyboard.inlineKeyboard.joined().map(\.text).prefix(2) == ["1. Париж, Франция", "2. Париж, США"], "\(keyboard)")
        let deleted = try await chat.send(.command(.delete("1")))
        #expect(deleted.replies.last?.text == "🗑 Удалено: Париж, Франция")
    }

    @Test func aDoubleTapOnTheStarDoesNotUndoItself() async throws {
        let chat = try Chat()
        let card = try await chat.send(.command(.search("Казань")))
        // Both presses come from the card as it was: «⭐ В избранное».
        let first = try await chat.press("В избранное", in: card, messageID: 40)
        let second = try await chat.press("В избранное", in: card, messageID: 40)
        #expect(first.replies.first == .answer(callbackQueryID: "q", text: "⭐ Добавлено в избранное"))
        #expect(second.replies.first == .answer(callbackQueryID: "q", text: "★ Уже в избранном"))
        #expect(try chat.favorites() == ["Казань"])
        // And so for removing: two presses of «★ В избранном» remove it once.
        let removed = try await chat.press("В избранном", in: first, messageID: 40)
        let twice = try await chat.press("В избранном", in: first, messageID: 40)
        #expect(removed.replies.first == .answer(callbackQueryID: "q", text: "☆ Убрано из избранного"))
        #expect(twice.replies.first == .answer(callbackQueryID: "q", text: "☆ Уже не в избранном"))
        #expect(try chat.favorites().isEmpty)
    }

    @Test func everyResultOfASearchKeepsWorkingAfterTheFirstPick() async throws {
        let chat = try Chat()
        let list = try await chat.send(.command(.search("Париж")))
        #expect(list.replies.last?.text?.contains("Нашлось несколько") == true)
        let first = try await chat.press("Франция", in: list)
        #expect(first.replies.last?.text?.contains("Франция") == true, "\(first.replies)")
        // The other result, and the first again, still open their places.
        let second = try await chat.press("США", in: list)
        #expect(second.replies.last?.text?.contains("Техас") == true, "\(second.replies)")
        let again = try await chat.press("Франция", in: list)
        #expect(again.replies.last?.text?.contains("Франция") == true, "\(again.replies)")
        #expect(!again.replies.contains(.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")))
    }

    @Test func theChatsCityIsNeverListedAgainAmongFavorites() async throws {
        let chat = try Chat()
        try await chat.save(["Уфа", "Казань"])
        // Kazan becomes the city from a point a few kilometres from the saved one.
        let card = try await chat.send(.command(.search("Казань, Вахитовский")))
        _ = try await chat.press("Сделать моим городом", in: card)
        let list = try await chat.send(.command(.favorites))
        let text = try #require(list.replies.last?.text)
        #expect(text.components(separatedBy: "Казань").count == 2, "\(text)")  // once, as the city
        #expect(text.contains("1. ") && text.contains("Уфа") && !text.contains("2. "), "\(text)")
        // Numbers count in the list as shown: Kazan is not №2 behind the user's back.
        let deleted = try await chat.send(.command(.delete("1")))
        #expect(deleted.replies.last?.text?.contains("Уфа") == true)
        #expect(try await chat.send(.command(.delete(nil))).replies.last?.text?.contains("нечего") == true)
        // Nothing saved is lost: another city brings Kazan back among favorites.
        let ufa = try await chat.send(.command(.search("Саранск")))
        _ = try await chat.press("Сделать моим городом", in: ufa)
        #expect(try await chat.send(.command(.favorites)).replies.last?.text?.contains("1. ") == true)
        #expect(try chat.favorites() == ["Казань"])
    }

    @Test func movesThatMoveNothingSaySo() async throws {
        let chat = try Chat()
        try await chat.save(["Уфа", "Казань"])
        let same = try await chat.send(.command(.move("1 1")))
        #expect(same.replies.last?.text?.contains("ничего не переставлено") == true)
        let buttons = try await chat.send(.command(.move(nil)))
        let up = try await chat.press("⬆️", in: buttons)
        #expect(up.replies == [.answer(callbackQueryID: "q", text: "Это место и так первое")], "\(up.replies)")
        #expect(try chat.favorites() == ["Уфа", "Казань"])
        let empty = try Chat(id: 78)
        #expect(try await empty.send(.command(.move("1 2"))).replies.last?.text?.contains("нечего") == true)
    }

    @Test func aSearchedPlaceBecomesTheCityWithOnePress() async throws {
        let chat = try Chat()
        let card = try await chat.send(.command(.search("Казань")))
        let made = try await chat.press("Сделать моим городом", in: card, messageID: 41)
        #expect(made.replies.first == .answer(callbackQueryID: "q", text: "📍 Теперь ваш город: Казань"))
        #expect(try chat.database.chat(chat.id)?.currentPlace?.name == "Kazan")
        // The card is now the city's: no star, no button to make it the city again.
        guard case .edit(.id(41), _, let keyboard?) = made.replies.last else {
            Issue.record("expected the card edited, got \(made.replies)")
            return
        }
        let labels = keyboard.inlineKeyboard.flatMap { $0 }.map(\.text)
        #expect(!labels.contains { $0.contains("избранн") || $0.contains("моим городом") }, "\(labels)")
        let mark = try #require(try chat.database.chat(chat.id)?.currentPlace?.cityMark)
        #expect(keyboard.inlineKeyboard[0].map(\.callbackData) == ["v:n:c\(mark)", "v:h0:c\(mark)", "v:d:c\(mark)"])
        // And /weather shows it from now on.
        let weather = try await chat.send(.command(.weather))
        #expect(weather.replies.last?.text?.contains("Казань") == true)
    }

    @Test func theChatsOwnCityIsNotOfferedAsAFavorite() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        let card = try await chat.send(.command(.search("Саранск")))
        guard case .send(_, .inline(let keyboard)?, _) = card.replies.last else {
            Issue.record("expected a card, got \(card.replies)")
            return
        }
        #expect(keyboard.inlineKeyboard.last?.map(\.text) == ["🔄 Обновить"])
        let forced = try await chat.send(.button(.addFavorite(.now, .recent(1))), query: "q", messageID: 3)
        #expect(forced.replies == [.answer(callbackQueryID: "q", text: "Это ваш город — в /fav он и так первый")])
        #expect(try chat.favorites().isEmpty)
    }

    @Test func severalResultsArePickedFromButtons() async throws {
        let chat = try Chat()
        // Typed without a city yet, a name chooses the city…
        let step = try await chat.send(.text("Париж"))
        let picked = try await chat.press("Техас", in: step)
        #expect(picked.chat.currentPlace?.region == "Texas")
        // …while /search only looks a place up.
        let browse = try await chat.send(.command(.search("Париж")))
        let card = try await chat.press("Франция", in: browse)
        guard case .send(let text, _, _) = card.replies.last else {
            Issue.record("expected a card, got \(card.replies)")
            return
        }
        #expect(text.contains("Франция"))
        #expect(card.chat.currentPlace?.region == "Texas")
    }

    @Test func theListShowsTheCityFirstThenFavoritesWithWeather() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        try await chat.save(["Казань", "Уфа"])
        let list = try await chat.send(.command(.favorites))
        guard case .send(let text, .inline(let keyboard)?, _) = list.replies.last else {
            Issue.record("expected the list, got \(list.replies)")
            return
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 5)
        #expect(lines[0] == "⭐ <b>Избранное</b>")
        #expect(lines[2].hasPrefix("📍 <b>Саранск</b>"))
        #expect(lines[2].hasSuffix("☁️ -3°C, без осадков"))
        #expect(lines[3].hasPrefix("1. <b>Казань</b>"))
        #expect(lines[4].hasPrefix("2. <b>Уфа</b>"))
        #expect(keyboard.inlineKeyboard.flatMap { $0 }.map(\.text) == ["📍 Саранск", "1. Казань", "2. Уфа", "🗑 Удалить", "↕️ Переставить"])

        let deleteMode = try await chat.press("Удалить", in: list, messageID: 8)
        #expect(deleteMode.replies.contains { if case .edit(.id(8), _, let keyboard?) = $0 { keyboard.inlineKeyboard.count == 3 } else { false } })
        let afterDelete = try await chat.press("🗑 1. Казань", in: deleteMode, messageID: 8)
        #expect(try chat.favorites() == ["Уфа"])
        #expect(afterDelete.replies.first == .answer(callbackQueryID: "q", text: "🗑 Удалено: Казань"))
        // One place left has nowhere to move: the list offers no «Переставить», and an older
        // list's button says so, as /move does.
        guard case .send(_, .inline(let single)?, _) = try await chat.send(.command(.favorites)).replies.last else {
            Issue.record("expected the list")
            return
        }
        #expect(single.inlineKeyboard.flatMap { $0 }.map(\.text) == ["📍 Саранск", "1. Уфа", "🗑 Удалить"])
        let oldMove = try await chat.press("Переставить", in: list, messageID: 7)
        guard case .edit(.id(7), let text, let keyboard?)? = oldMove.replies.last else {
            Issue.record("expected the old list redrawn, got \(oldMove.replies)")
            return
        }
        #expect(text.hasSuffix("В избранном одно место (Уфа) — переставлять нечего."), "\(text)")
        #expect(keyboard.inlineKeyboard.flatMap { $0 }.map(\.text) == ["« Готово"])
    }

    @Test func delAndMoveTakeNumbersAndExplainTheRange() async throws {
        let chat = try Chat()
        try await chat.send(.command(.weather))
        try await chat.save(["Казань", "Уфа", "Саранск"])
        #expect(try chat.favorites() == ["Казань", "Уфа", "Саранск"])

        try await chat.send(.command(.move("3 1")))
        #expect(try chat.favorites() == ["Саранск", "Казань", "Уфа"])
        for bad in ["4 1", "0 2", "a b", "1", "1 2 3", "-1 2"] {
            let step = try await chat.send(.command(.move(bad)))
            #expect(step.replies.first?.text?.contains("1 до 3") == true || step.replies.first?.text?.contains("два номера") == true, "«\(bad)»")
        }
        #expect(try chat.favorites() == ["Саранск", "Казань", "Уфа"])

        for bad in ["4", "0", "x", "1.5", "99999999999999"] {
            let step = try await chat.send(.command(.delete(bad)))
            #expect(step.replies.first?.text == "Укажите номер от 1 до 3, например: /del 1", "«\(bad)»")
        }
        let deleted = try await chat.send(.command(.delete("2")))
        #expect(deleted.replies.first?.text == "🗑 Удалено: Казань")
        #expect(try chat.favorites() == ["Саранск", "Уфа"])

        let buttons = try await chat.send(.command(.move(nil)))
        let down = try await chat.press("⬇️", in: buttons)
        #expect(try chat.favorites() == ["Уфа", "Саранск"])
        #expect(down.replies.first == .answer(callbackQueryID: "q", text: "↕️ Саранск теперь №2"))
        let deleteButtons = try await chat.send(.command(.delete(nil)))
        #expect(deleteButtons.replies.first?.text?.contains("Выберите, что удалить") == true)
    }

    @Test func theLimitIsSaidClearly() async throws {
        let chat = try Chat(limit: 2)
        try await chat.send(.command(.weather))
        try await chat.save(["Казань", "Уфа"])
        let third = try await chat.send(.command(.search("Саранск")))
        let refused = try await chat.press("В избранное", in: third)
        #expect(refused.replies == [.answer(callbackQueryID: "q", text: "В избранном уже 2 места — это максимум. Удалите одно: /del", showAlert: true)])
        #expect(try chat.favorites() == ["Казань", "Уфа"])
    }

    @Test func anotherChatsButtonsChangeNothingHere() async throws {
        let owner = try Chat(id: 1)
        try await owner.send(.command(.weather))
        try await owner.save(["Казань"])
        try await owner.send(.command(.daily("8:00 1")))
        let id = try #require(try owner.database.favorites(chatID: 1).first?.id)
        let subscription = try #require(try owner.database.subscriptions(chatID: 1).first?.id)
        let forged: [CallbackAction] = [
            .deleteFavorite(id: id), .moveFavorite(id: id, up: false), .open(.favorite(id)), .view(.daily, .favorite(id)),
            .cancelDaily(id: subscription), .view(.hourly(page: 0), .subscription(subscription)), .addFavorite(.now, .subscription(subscription)),
            .reset(confirmed: true, question: 1), .confirmCity(question: 1),
        ]
        for action in forged {
            let step = try await owner.send(.button(action), query: "q", messageID: 5, from: 2)
            #expect(step.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")], "\(action)")
        }
        #expect(try owner.favorites() == ["Казань"])
        #expect(try owner.database.subscriptions(chatID: 1).count == 1)
        #expect(try owner.database.chat(2)?.currentPlace == nil)
    }

    @Test func resetForgetsEverythingAndStartIsAFirstRunAgain() async throws {
        let chat = try Chat()
        let asked = try await chat.send(.text("Саранск"))
        _ = try await chat.press("Да, всё верно", in: asked)
        try await chat.save(["Казань"])
        let question = try await chat.send(.command(.reset))
        #expect(question.replies.first?.text?.contains("Удалить всё") == true)
        let cancelled = try await chat.press("Отмена", in: question)
        #expect(cancelled.replies.last == .edit(.id(1), text: "Ничего не удалено."))
        #expect(try chat.favorites() == ["Казань"])

        let again = try await chat.send(.command(.reset))
        let stale = try await chat.press("Да, удалить всё", in: question)
        #expect(stale.replies == [.answer(callbackQueryID: "q", text: "Эта кнопка уже неактуальна")])
        _ = try await chat.press("Да, удалить всё", in: again)
        #expect(try chat.favorites().isEmpty)
        #expect(try chat.database.chat(chat.id)?.currentPlace == nil)
        let start = try await chat.send(.command(.start))
        guard case .send(let text, .keyboard?, _) = start.replies.first else {
            Issue.record("expected the first-run greeting, got \(start.replies)")
            return
        }
        #expect(text.contains("Привет"))
    }
}

extension Place {
    static let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], region: "Tatarstan", country: "RU", latitude: 55.79, longitude: 49.12)
    /// Kazan as a point a few kilometres from the centre, as a shared location names it.
    static let kazanDowntown = Place(name: "Kazan", localNames: ["ru": "Казань"], region: "Tatarstan", country: "RU", latitude: 55.75, longitude: 49.2)
    static let ufa = Place(name: "Ufa", localNames: ["ru": "Уфа"], region: "Bashkortostan", country: "RU", latitude: 54.74, longitude: 55.97)
}

@Suite struct ReviewedSeamsTests {
    typealias Chat = FavoritesConversationTests.Chat

    @Test func twoVillagesOfOneNameStayTwoPlaces() {
        let a = Place(name: "Ivanovka", localNames: ["ru": "Ивановка"], region: "Тамбовская область", country: "RU", latitude: 52.0, longitude: 41.0)
        var b = a
        b.latitude += 0.18  // some 20 km north, in the same region
        #expect(!a.isSamePlace(as: b))
        #expect(a.isSameCity(as: b))
        b.latitude += 0.1
        #expect(!a.isSameCity(as: b))
        var c = a
        c.region = "Саратовская область"
        c.latitude += 0.05
        #expect(!a.isSameCity(as: c))
    }

    @Test func theLimitCountsTheFavoriteHiddenAsTheCity() async throws {
        let chat = try Chat(limit: 2)
        try await chat.save(["Уфа", "Казань"])
        let kazan = try await chat.send(.command(.search("Казань")))
        _ = try await chat.press("Сделать моим городом", in: kazan)
        // One favorite shows, but two are kept: a third is refused, not claimed as added.
        let paris = try await chat.send(.command(.search("Саранск")))
        let starred = try await chat.press("В избранное", in: paris)
        #expect(starred.replies.first?.text?.contains("максимум") == true, "\(starred.replies)")
        #expect(try chat.favorites() == ["Уфа", "Казань"])
    }

    @Test func makingTheFirstCityFromACardTakesTheKeyboardAway() async throws {
        let chat = try Chat()
        let weather = try await chat.send(.command(.weather))
        let made = try await chat.press("Сделать моим городом", in: weather)
        #expect(made.replies.contains { if case .send(_, .removeKeyboard?, _) = $0 { true } else { false } }, "\(made.replies)")
        // A second city comes without another removal.
        let kazan = try await chat.send(.command(.search("Казань")))
        let again = try await chat.press("Сделать моим городом", in: kazan)
        #expect(!again.replies.contains { if case .send(_, .removeKeyboard?, _) = $0 { true } else { false } })
    }

    @Test func redrawnDeleteButtonsStayTheAskersAfterAnAdministratorPresses() async throws {
        let chat = try Chat(id: -100, membership: FakeMembership(administrators: [9]))
        try await chat.save(["Уфа", "Казань"])
        _ = try await chat.send(.command(.delete(nil)), group: true, userMessageID: 50, sender: 7)
        let byAdmin = try await chat.send(
            .button(.deleteFavorite(id: try #require(chat.database.favorites(chatID: -100).first?.id), by: 7)),
            query: "q", messageID: 60, group: true, sender: 9)
        let redrawn = byAdmin.replies.compactMap { reply -> InlineKeyboardMarkup? in
            if case .edit(_, _, let keyboard?) = reply { keyboard } else { nil }
        }.last
        let actions = (redrawn?.inlineKeyboard ?? []).flatMap { $0 }.compactMap { $0.callbackData.flatMap(CallbackAction.init(encoded:)) }
        #expect(!actions.isEmpty)
        for action in actions {
            if case .deleteFavorite(_, let owner) = action { #expect(owner == 7) }
        }
    }
}
