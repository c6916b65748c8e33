import Foundation
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// A group chat with the real worker over real HTTP: questions by reply, the first city by
    /// any member, and favorites that only administrators (asked of Telegram) change.
    @Suite(.serialized) struct GroupEndToEndTests {
        static let group: Int64 = -1001
        static let anna: Int64 = 71
        static let boris: Int64 = 72
        static let admin: Int64 = 73

        @Test(arguments: StoreEngine.available, Intake.allCases) func aGroupChoosesItsCityByReplyAndOnlyAdministratorsChangeItsFavorites(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            telegram.state.withLock { $0.administrators = [Self.admin] }
            let bot = try await loopback.startBot()

            // /start: no location button (Telegram refuses it in groups), a question by reply to Anna.
            let start = telegram.sendGroupText("/start@weather_test_bot", in: Self.group, from: Self.anna)
            try await telegram.waitUntil("the greeting") { $0.sent.contains { $0.chatID == Self.group } }
            let greeting = try #require(telegram.state.withLock { $0.sent.first { $0.chatID == Self.group } })
            #expect(greeting.markup?.contains("request_location") == false)
            #expect(greeting.markup?.contains("\"force_reply\":true") == true, "\(greeting.markup ?? "")")
            #expect(greeting.markup?.contains("\"selective\":true") == true)
            #expect(greeting.replyTo == start)

            // Chatter is ignored; Anna's reply to the bot is the city's name.
            telegram.sendGroupText("Казань", in: Self.group, from: Self.boris)
            telegram.sendGroupText("Саранск", in: Self.group, from: Self.anna, replyingTo: greeting.messageID)
            try await telegram.waitUntil("the city question") { state in
                state.sent.contains { $0.chatID == Self.group && $0.text.contains("Это город чата?") }
            }
            #expect(!telegram.screen(Self.group).contains { $0.text.contains("Это город чата?") && $0.text.contains("Казань") })
            let question = try #require(telegram.screen(Self.group).last)
            try telegram.pressInGroup("Да, всё верно", on: question.messageID, in: Self.group, by: Self.anna)
            try await telegram.waitUntil("the card") { state in
                state.sent.contains { $0.chatID == Self.group && $0.text.contains("Ощущается как") }
            }
            #expect(try await bot.database.chat(Self.group)?.currentPlace?.name(in: "ru") == "Саранск")

            // Favorites through /search@bot: Anna's star is refused, saying who may; the administrator's is not.
            telegram.sendGroupText("/search@weather_test_bot Казань", in: Self.group, from: Self.anna)
            try await telegram.waitUntil("Kazan's card") { state in
                state.sent.contains { $0.chatID == Self.group && $0.text.contains("📍 <b>Казань</b>") }
            }
            let kazan = try #require(telegram.screen(Self.group).last)
            let answersBefore = telegram.state.withLock { $0.answerTexts.count }
            try telegram.pressInGroup("В избранное", on: kazan.messageID, in: Self.group, by: Self.anna)
            try await telegram.waitUntil("Anna's refusal") { $0.answerTexts.count == answersBefore + 1 }
            #expect(telegram.state.withLock { $0.answerTexts.last }?.contains("только её администраторы") == true)
            try telegram.pressInGroup("В избранное", on: kazan.messageID, in: Self.group, by: Self.admin)
            try await waitUntil("the favorite") { try await bot.database.favorites(chatID: Self.group).count == 1 }

            // Anna's /del is answered who may; the administrator's delete buttons refuse Boris, not the administrator.
            telegram.sendGroupText("/del@weather_test_bot", in: Self.group, from: Self.anna)
            try await telegram.waitUntil("the refusal") { state in
                state.sent.contains { $0.chatID == Self.group && $0.text.contains("только её администраторы") }
            }
            telegram.sendGroupText("/del@weather_test_bot", in: Self.group, from: Self.admin)
            try await telegram.waitUntil("the delete buttons") { state in
                state.sent.contains { $0.chatID == Self.group && ($0.markup ?? "").contains("🗑 1. Казань") }
            }
            let buttons = try #require(telegram.screen(Self.group).last)
            let answersThen = telegram.state.withLock { $0.answerTexts.count }
            try telegram.pressInGroup("Казань", on: buttons.messageID, in: Self.group, by: Self.boris)
            try await telegram.waitUntil("Boris's notice") { $0.answerTexts.count == answersThen + 1 }
            #expect(telegram.state.withLock { $0.answerTexts.last }?.contains("администратор") == true)
            #expect(try await bot.database.favorites(chatID: Self.group).count == 1)
            try telegram.pressInGroup("Казань", on: buttons.messageID, in: Self.group, by: Self.admin)
            try await waitUntil("the deletion") { try await bot.database.favorites(chatID: Self.group).isEmpty }

            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
