import Foundation
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Places and favorites through the real worker over loopback HTTP, as a user would use them.
    @Suite(.serialized) struct PlacesEndToEndTests {
        let chatID: Int64 = 808

        @Test(arguments: StoreEngine.available, Intake.allCases) func searchStarListMoveDeleteResetAndStartAgain(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()

            // The chat's own city first.
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await telegram.waitUntil("the city's card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }

            // /search → ⭐, three times.
            for name in ["Казань", "Уфа"] {
                telegram.sendText("/search \(name)", from: chatID)
                try await telegram.waitUntil("\(name)'s card") { state in state.sent.last?.text.contains(name) ?? false }
                try telegram.press("В избранное", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
                try await telegram.waitUntil("the star on \(name)") { state in state.edits.last?.markup?.contains("★ В избранном") ?? false }
            }
            telegram.sendText("/search Париж", from: chatID)
            try await telegram.waitUntil("the choice") { state in state.sent.last?.text.contains("Нашлось несколько мест") ?? false }
            try telegram.press("Франция", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await telegram.waitUntil("Paris's card") { state in state.sent.last?.text.contains("Париж") ?? false }
            try telegram.press("В избранное", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await waitUntil("three favorites") { try await bot.database.favorites(chatID: chatID).count == 3 }

            telegram.sendText("/fav", from: chatID)
            try await telegram.waitUntil("the list") { state in state.sent.last?.text.contains("Избранное") ?? false }
            let list = try #require(telegram.screen(chatID).last)
            let lines = list.text.split(separator: "\n").map(String.init)
            #expect(lines[1].hasPrefix("📍 <b>Саранск</b>"))
            #expect(lines[2].hasPrefix("1. <b>Казань</b>"))
            #expect(lines[3].hasPrefix("2. <b>Уфа</b>"))
            #expect(lines[4].hasPrefix("3. <b>Париж</b>, Иль-де-Франс, Франция 🇫🇷"))
            #expect(lines.dropFirst().allSatisfy { $0.contains("°C") })

            telegram.sendText("/move 3 1", from: chatID)
            try await telegram.waitUntil("the move") { state in state.sent.last?.text.contains("теперь №1") ?? false }
            telegram.sendText("/del 2", from: chatID)
            try await telegram.waitUntil("the deletion") { state in state.sent.last?.text.contains("Удалено: Казань") ?? false }
            telegram.sendText("/del 7", from: chatID)
            try await telegram.waitUntil("the range") { state in state.sent.last?.text.contains("от 1 до 2") ?? false }
            #expect(try await bot.database.favorites(chatID: chatID).map { $0.place.name(in: "ru") } == ["Париж", "Уфа"])

            // The reorder buttons on the list message edit it in place.
            try telegram.press("Переставить", on: list.messageID, in: chatID)
            try await telegram.waitUntil("the reorder buttons") { state in state.edits.last?.text.contains("⬆️ и ⬇️") ?? false }

            telegram.sendText("/reset", from: chatID)
            try await telegram.waitUntil("the reset question") { state in state.sent.last?.text.contains("Удалить всё") ?? false }
            try telegram.press("Да, удалить всё", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await telegram.waitUntil("the reset") { state in state.edits.last?.text.contains("Всё удалено") ?? false }
            #expect(try await bot.database.favorites(chatID: chatID).isEmpty)

            telegram.sendText("/start", from: chatID)
            try await telegram.waitUntil("the greeting") { state in state.sent.last?.text.contains("Привет") ?? false }
            #expect(telegram.screen(chatID).last?.markup?.contains("request_location") ?? false)

            try await bot.stop()
            #expect(try await bot.database.chat(chatID)?.currentPlace == nil)
            await loopback.shutdown()
        }
    }
}
