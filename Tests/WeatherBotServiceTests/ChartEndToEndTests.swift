import Foundation
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Charts through the real worker and sender: drawn with Cairo, uploaded to the loopback Bot
    /// API as a form, and sent again by `file_id`.
    @Suite(.serialized) struct ChartEndToEndTests {
        /// Shares a location, confirms the city and waits for its card; returns the card's message id.
        func cityAndCard(_ telegram: FakeTelegram, chatID: Int64, language: String = "ru") async throws -> Int {
            let ru = language == "ru"
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID, language: language)
            try await telegram.waitUntil("the question in \(chatID)") { state in
                state.edits.contains { $0.chatID == chatID && $0.text.contains(ru ? "Это ваш город?" : "Is this your city?") }
            }
            let question = try #require(telegram.screen(chatID).last).messageID
            try telegram.press(ru ? "Да, всё верно" : "Yes", on: question, in: chatID, language: language)
            try await telegram.waitUntil("the card in \(chatID)") { state in
                state.sent.contains { $0.chatID == chatID && $0.text.contains(ru ? "Ощущается как" : "Feels like") }
            }
            return try #require(telegram.screen(chatID).last { $0.text.contains(ru ? "Ощущается как" : "Feels like") }).messageID
        }

        /// Presses `label` on `messageID` and waits for the photo it sends or replaces.
        func pressForPhoto(_ telegram: FakeTelegram, _ label: String, on messageID: Int, in chatID: Int64, language: String = "ru") async throws
            -> FakeTelegram.Photo
        {
            let before = telegram.state.withLock { $0.photos.count }
            try telegram.press(label, on: messageID, in: chatID, language: language)
            try await telegram.waitUntil("a photo in \(chatID)") { $0.photos.count > before }
            return try #require(telegram.state.withLock { $0.photos.last })
        }

        /// The width and height a PNG's header gives.
        static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
            let bytes = [UInt8](data.prefix(24))
            guard bytes.count == 24, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
            let number = { (range: Range<Int>) in bytes[range].reduce(0) { $0 << 8 | Int($1) } }
            return (number(16..<20), number(20..<24))
        }

        @Test(arguments: StoreEngine.available, Intake.allCases) func aChartIsUploadedOnceAndEveryOtherChatGetsItByFileID(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            let cards = [
                try await cityAndCard(telegram, chatID: 501), try await cityAndCard(telegram, chatID: 502),
                try await cityAndCard(telegram, chatID: 503, language: "en"),
            ]

            let first = try await pressForPhoto(telegram, "📈 График", on: cards[0], in: 501)
            #expect(first.uploaded && !first.isEdit)
            #expect(first.caption.contains("Саранск") && first.caption.hasSuffix("— 48 часов"), "\(first.caption)")
            #expect(first.markup?.contains("Неделя") == true)
            let png = try #require(telegram.state.withLock { $0.files[first.fileID] })
            #expect(Self.pngSize(png).map { [$0.width, $0.height] } == [1280, 720])

            // The second chat's chart is the same picture: by file_id, nothing drawn or uploaded.
            let second = try await pressForPhoto(telegram, "📈 График", on: cards[1], in: 502)
            #expect(!second.uploaded && second.fileID == first.fileID)
            #expect(second.chatID == 502 && second.caption == first.caption)
            // English labels make another picture.
            let english = try await pressForPhoto(telegram, "📈 Chart", on: cards[2], in: 503, language: "en")
            #expect(english.uploaded && english.fileID != first.fileID)
            #expect(english.caption.hasSuffix("— 48 hours") && english.markup?.contains("Week") == true)

            // «Неделя» replaces the photo under it: drawn once, then by file_id for the other chat.
            let week = try await pressForPhoto(telegram, "Неделя", on: first.messageID, in: 501)
            #expect(week.isEdit && week.uploaded && week.messageID == first.messageID && week.caption.hasSuffix("— неделя"))
            let otherWeek = try await pressForPhoto(telegram, "Неделя", on: second.messageID, in: 502)
            #expect(otherWeek.isEdit && !otherWeek.uploaded && otherWeek.fileID == week.fileID && otherWeek.messageID == second.messageID)
            #expect(telegram.state.withLock { $0.photos.filter(\.uploaded).count } == 3)

            // Telegram no longer knowing a file_id costs the chart one more drawing and upload; the
            // photo is still replaced.
            telegram.state.withLock { $0.files.removeAll() }
            let again = try await pressForPhoto(telegram, "48 часов", on: second.messageID, in: 502)
            #expect(again.uploaded && again.isEdit && again.messageID == second.messageID)

            // A chart's button on a photo Telegram no longer has: the chart comes as a new photo.
            let markup = try #require(first.markup)
            let weekData = try #require(FakeTelegram.callbackData("Неделя", in: markup))
            let before = telegram.state.withLock { $0.photos.count }
            telegram.pressRaw(data: weekData, on: 9_999, in: 501)
            try await telegram.waitUntil("the chart as a new photo") { $0.photos.count > before }
            let replacement = try #require(telegram.state.withLock { $0.photos.last })
            #expect(!replacement.isEdit && replacement.chatID == 501 && replacement.caption.hasSuffix("— неделя"))

            try await bot.stop()
            await loopback.shutdown()
        }

        /// The outbox keeps what makes the chart, not the picture: a chart not yet sent when the bot
        /// stops is drawn and sent after it starts again.
        @Test(arguments: StoreEngine.available, Intake.allCases) func aChartNotYetSentWhenTheBotStopsIsSentAfterItStartsAgain(_ engine: StoreEngine, _ intake: Intake) async throws {
            let loopback = try await Loopback(engine: engine, intake: intake)
            let telegram = loopback.telegram
            var bot = try await loopback.startBot()
            let card = try await cityAndCard(telegram, chatID: 601)
            telegram.state.withLock {
                $0.failures["sendPhoto"] = Array(repeating: .json(["ok": false, "error_code": 502, "description": "Bad Gateway"], status: 502), count: 100)
            }
            try telegram.press("📈 График", on: card, in: 601)
            try await telegram.waitUntil("the button's answer") { $0.answers.count >= 2 }
            // The answer's row leaves the outbox once its delivery is committed, just after
            // Telegram got it; the chart's row stays.
            var backlog = try await bot.database.outboxBacklog()
            for _ in 0..<100 where backlog != 1 {
                try await Task.sleep(for: .milliseconds(50))
                backlog = try await bot.database.outboxBacklog()
            }
            #expect(backlog == 1)
            await bot.kill()

            telegram.state.withLock { $0.failures["sendPhoto"] = nil }
            bot = try await loopback.startBot()
            try await telegram.waitUntil("the chart after the restart") { $0.photos.count == 1 }
            let photo = try #require(telegram.state.withLock { $0.photos.first })
            #expect(photo.uploaded && photo.chatID == 601 && photo.caption.contains("Саранск"))
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
