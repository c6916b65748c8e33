import TelegramBotAPI
import Testing
@testable import WeatherBot
import WeatherBotStore

@Suite struct UpdateRouterTests {
    func message(_ text: String? = nil, location: Location? = nil, language: String? = "ru") -> Update {
        Update(
            updateID: 10,
            message: Message(
                messageID: 5, from: User(id: 77, firstName: "Анна", languageCode: language), date: 1_700_000_000,
                chat: Chat(id: 77), text: text, location: location))
    }

    @Test func aPressCarriesWhatItsMessageShowsWhenTelegramGivesIt() {
        let keyboard = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "Сейчас", callbackData: "v:n:c1")]])
        func press(_ message: Message?) -> Incoming? {
            UpdateRouter.route(Update(updateID: 1, callbackQuery: CallbackQuery(id: "q", from: User(id: 77, firstName: "А"), message: message, data: "v:n:c1")))
        }
        let shown = press(Message(messageID: 3, date: 5, chat: Chat(id: 77), text: "Казань", keyboard: keyboard))
        #expect(shown?.shown == ShownMessage(text: "Казань", keyboard: keyboard))
        // Telegram no longer gives an old message: nothing to compare with.
        #expect(press(Message(messageID: 0, date: 0, chat: Chat(id: 77)))?.shown == nil)
        // A keyboard that did not read is not taken for none.
        var unread = Message(messageID: 3, date: 5, chat: Chat(id: 77), text: "Казань")
        unread.keyboard = ShownKeyboard(nil)
        #expect(press(unread)?.shown == nil)
    }

    @Test func commandsWithArgumentsAndBotNames() {
        #expect(UpdateRouter.route(message("/start"))?.intent == .command(.start))
        #expect(UpdateRouter.route(message("/start@WeatherBot"))?.intent == .command(.start))
        // The button above inline results opens the private chat with a parameter.
        #expect(UpdateRouter.route(message("/start city"))?.intent == .command(.startAt(.city)))
        #expect(UpdateRouter.route(message("/start search"))?.intent == .command(.startAt(.search)))
        #expect(UpdateRouter.route(message("/start frobnicate"))?.intent == .command(.start))
        // A card sent from the bot's own inline results into its chat is not a request; another bot's is read.
        var card = message("📍 Казань, Татарстан, Россия 🇷🇺\n🕒 Местное время: 14:05")
        card.message?.viaBot = User(id: 4242, isBot: true, firstName: "Weather", username: "Weather_Bot")
        #expect(UpdateRouter.route(card, botUsername: "weather_bot")?.intent == .ignored)
        card.message?.viaBot = User(id: 1, isBot: true, firstName: "GIF", username: "gif")
        #expect(UpdateRouter.route(card, botUsername: "weather_bot")?.intent != .ignored)
        #expect(UpdateRouter.route(message("/HELP"))?.intent == .command(.help))
        #expect(UpdateRouter.route(message("/search  Нижний Новгород "))?.intent == .command(.search("Нижний Новгород")))
        #expect(UpdateRouter.route(message("/search"))?.intent == .command(.search(nil)))
        #expect(UpdateRouter.route(message("/weather"))?.intent == .command(.weather))
        #expect(UpdateRouter.route(message("/weather Париж завтра"))?.intent == .command(.weatherIn("Париж завтра")))
        #expect(UpdateRouter.route(message("/chart"))?.intent == .command(.chart(nil)))
        #expect(UpdateRouter.route(message("/chart week"))?.intent == .command(.chart("week")))
        #expect(UpdateRouter.route(message("/frobnicate now"))?.intent == .command(.unknown("frobnicate")))
        #expect(UpdateRouter.route(message("/fav"))?.intent == .command(.favorites))
        #expect(UpdateRouter.route(message("/del 2"))?.intent == .command(.delete("2")))
        #expect(UpdateRouter.route(message("/del"))?.intent == .command(.delete(nil)))
        #expect(UpdateRouter.route(message("/move 3 1"))?.intent == .command(.move("3 1")))
        #expect(UpdateRouter.route(message("/reset"))?.intent == .command(.reset))
    }

    @Test func locationsAndTexts() {
        let routed = UpdateRouter.route(message(location: Location(latitude: 54.18, longitude: 45.17)))
        #expect(routed?.intent == .location(latitude: 54.18, longitude: 45.17))
        #expect(routed?.chatID == 77)
        #expect(UpdateRouter.route(message(location: Location(latitude: 91, longitude: 0)))?.intent == .unsupported)
        #expect(UpdateRouter.route(message("  Казань "))?.intent == .text("Казань"))
        #expect(UpdateRouter.route(message("   "))?.intent == .unsupported)
        #expect(UpdateRouter.route(message(nil))?.intent == .unsupported)  // a sticker, a photo
    }

    @Test func keyboardButtonAsksForACityInBothLanguages() {
        #expect(UpdateRouter.route(message("🔎 Выбрать город вручную"))?.intent == .command(.chooseCity))
        #expect(UpdateRouter.route(message("🔎 Choose city manually", language: "en"))?.intent == .command(.chooseCity))
    }

    @Test func russianForReadersOfRussianAndEnglishForEveryoneElse() {
        for code in ["ru", "uk", "be", "kk", "ru-RU", "UK"] {
            #expect(UpdateRouter.route(message("/start", language: code))?.language == .ru, "\(code)")
        }
        for code in ["en", "en-GB", "de", "fr", "es", "zh-hans", "pt-br"] {
            #expect(UpdateRouter.route(message("/start", language: code))?.language == .en, "\(code)")
        }
        // No language at all: the product is Russian first.
        #expect(UpdateRouter.route(message("/start", language: nil))?.language == .ru)
    }

    @Test func buttonsCarryQueryAndMessage() {
        let update = Update(
            updateID: 11,
            callbackQuery: CallbackQuery(
                id: "q1", from: User(id: 77, firstName: "A", languageCode: "en"),
                message: Message(messageID: 9, date: 1, chat: Chat(id: 77)), data: "cy:3"))
        let routed = UpdateRouter.route(update)
        #expect(routed?.intent == .button(.confirmCity(question: 3)))
        #expect(routed?.callbackQueryID == "q1")
        #expect(routed?.messageID == 9)
        #expect(routed?.language == .en)

        var garbage = update
        garbage.callbackQuery?.data = "nonsense"
        #expect(UpdateRouter.route(garbage)?.intent == .button(nil))
    }

    @Test func editsAreReadAsEditsButALiveLocationMovingIsNotAndUnknownUpdatesAreDropped() {
        let edited = UpdateRouter.route(Update(updateID: 12, editedMessage: Message(messageID: 1, date: 1, chat: Chat(id: 5), text: "Казань")))
        #expect(edited?.intent == .text("Казань"))
        #expect(edited?.isEdit == true && edited?.userMessageID == 1)
        let moving = Update(updateID: 13, editedMessage: Message(messageID: 2, date: 1, chat: Chat(id: 5), location: Location(latitude: 55, longitude: 37)))
        #expect(UpdateRouter.route(moving)?.intent == .ignored)
        #expect(UpdateRouter.route(Update(updateID: 14)) == nil)
    }

    @Test func inGroupsOnlyCommandsForThisBotAndLocationsCount() {
        func group(_ text: String?, location: Location? = nil) -> Update {
            Update(updateID: 20, message: Message(messageID: 1, from: User(id: 5, firstName: "A"), date: 1, chat: Chat(id: -100, type: .supergroup), text: text, location: location))
        }
        #expect(UpdateRouter.route(group("/start@weather_test_bot"), botUsername: "Weather_Test_Bot")?.intent == .command(.start))
        #expect(UpdateRouter.route(group("/start@other_bot"), botUsername: "weather_test_bot")?.intent == .ignored)
        #expect(UpdateRouter.route(group("/weather"), botUsername: "weather_test_bot")?.intent == .command(.weather))
        #expect(UpdateRouter.route(group("Всем привет"))?.intent == .ignored)
        #expect(UpdateRouter.route(group(nil))?.intent == .ignored)
        #expect(UpdateRouter.route(group(nil, location: Location(latitude: 1, longitude: 2)))?.intent == .location(latitude: 1, longitude: 2))
    }
}

@Suite struct GroupRouterTests {
    static let bot = User(id: 999, isBot: true, firstName: "Погода", username: "weather_bot")

    func group(_ text: String, replyingTo author: User? = nil) -> Incoming? {
        UpdateRouter.route(
            Update(
                updateID: 3,
                message: Message(
                    messageID: 41, from: User(id: 7, firstName: "Анна", languageCode: "ru"), date: 1, chat: Chat(id: -100, type: .supergroup),
                    text: text, replyToMessage: author.map { RepliedMessage(messageID: 40, from: $0) })),
            botUsername: "weather_bot")
    }

    @Test func theGroupsOwnChatterIsLeftAlone() {
        #expect(group("Казань")?.intent == .ignored)
        #expect(group("55.75, 37.62")?.intent == .ignored)
        #expect(group("Казань", replyingTo: User(id: 8, firstName: "Борис"))?.intent == .ignored)
        #expect(group("/start@other_bot")?.intent == .ignored)
    }

    @Test func aReplyToTheBotOrAMentionIsReadAsInAPrivateChat() {
        let reply = group("Казань", replyingTo: Self.bot)
        #expect(reply?.intent == .text("Казань"))
        #expect(reply?.isGroup == true && reply?.senderID == 7 && reply?.userMessageID == 41)
        #expect(group("@Weather_Bot Казань")?.intent == .text("Казань"))
        #expect(group("55.75, 37.62", replyingTo: Self.bot)?.intent == .typedPoint(latitude: 55.75, longitude: 37.62, source: .coordinates))
        #expect(group("@weather_bot")?.intent == .chatter)
    }

    @Test func aMentionIsAWordOfItsOwnAndOnlyItIsTakenOut() {
        #expect(group("@weather_bot -33.87, 151.21")?.intent == .typedPoint(latitude: -33.87, longitude: 151.21, source: .coordinates))
        #expect(group("@weather_bot, Казань")?.intent == .text("Казань"))
        #expect(group("Погода в Казани, @weather_bot?")?.intent == .text("Погода в Казани"))
        #expect(group("@weather_bot_dev Казань")?.intent == .ignored)
        #expect(group("@weather_bot Казань", replyingTo: Self.bot)?.intent == .text("Казань"))
        // A city is a city, whatever it sounds like in English.
        #expect(group("Nice", replyingTo: Self.bot)?.intent == .text("Nice"))
    }

    @Test func cityAndSearchTakeTheirNameAfterTheBotsName() {
        #expect(group("/city@weather_bot Казань")?.intent == .command(.city("Казань")))
        #expect(group("/city")?.intent == .command(.city(nil)))
        #expect(group("/search@weather_bot Нижний Новгород")?.intent == .command(.search("Нижний Новгород")))
    }
}
