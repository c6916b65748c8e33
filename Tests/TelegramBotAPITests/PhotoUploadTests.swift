import Foundation
import HTTPTransport
import Testing
@testable import TelegramBotAPI
import WeatherBotTesting

@Suite struct PhotoUploadTests {
    /// The parts of a `multipart/form-data` body, by name.
    static func parts(of request: LoopbackRequest) throws -> [String: FormPart] {
        #expect(request.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        return try #require(request.formParts)
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<5_000).map { UInt8($0 % 251) })
    static let keyboard = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "Неделя", callbackData: "g:w")]])

    static func photoAnswer(_ method: String) -> LoopbackResponse {
        .json([
            "ok": true,
            "result": [
                "message_id": 50, "date": 1, "chat": ["id": 5, "type": "private"],
                "photo": [
                    ["file_id": "big", "file_unique_id": "b", "width": 1280, "height": 720],
                    ["file_id": "small", "file_unique_id": "s", "width": 90, "height": 51],
                ],
            ],
        ])
    }

    @Test func aChartIsUploadedAsMultipartAndItsLargestSizeIsKeptByFileID() async throws {
        let api = try await TelegramClientTests.FakeAPI { method, _ in Self.photoAnswer(method) }
        defer { Task { await api.server.shutdown() } }
        let chart = BotRequest.sendPhoto(chatID: 5, photo: "chart of Moscow", caption: "📈 <b>Москва</b> · 48 часов", replyMarkup: Self.keyboard)
        let sent = try await api.client.perform(chart, photo: .upload(Self.png, filename: "chart.png"))
        #expect(sent == SentPhoto(messageID: 50, fileID: "big"))

        let request = try #require(api.server.requests.first)
        #expect(request.path == "/bot\(TelegramClientTests.token)/sendPhoto")
        let parts = try Self.parts(of: request)
        #expect(Set(parts.keys) == ["chat_id", "caption", "parse_mode", "reply_markup", "photo"])
        #expect(parts["chat_id"]?.body == Data("5".utf8))
        #expect(parts["caption"].map { String(decoding: $0.body, as: UTF8.self) } == "📈 <b>Москва</b> · 48 часов")
        #expect(parts["parse_mode"]?.body == Data("HTML".utf8))
        let markup = try #require(parts["reply_markup"]).body
        #expect((try JSONSerialization.jsonObject(with: markup) as? [String: Any])?["inline_keyboard"] != nil)
        let photo = try #require(parts["photo"])
        #expect(photo.body == Self.png)
        #expect(photo.headers["content-type"] == "image/png")
        #expect(photo.headers["content-disposition"]?.contains(#"filename="chart.png""#) == true)
    }

    @Test func aPhotoTelegramKeepsGoesByItsFileIDAsJSON() async throws {
        let api = try await TelegramClientTests.FakeAPI { method, _ in Self.photoAnswer(method) }
        defer { Task { await api.server.shutdown() } }
        _ = try await api.client.perform(.sendPhoto(chatID: 5, photo: "chart of London", caption: "📈 London"), photo: .fileID("big"))
        let request = try #require(api.server.requests.first)
        #expect(request.headers["content-type"] == "application/json")
        let body = try #require(request.json)
        #expect(body["photo"] as? String == "big")
        #expect(body["caption"] as? String == "📈 London")
        #expect(request.body.count < 200)
    }

    /// Switching a chart's view replaces the photo of its message: the new picture is attached and
    /// `media` points at it, the caption inside `media`.
    @Test func anEditReplacesThePhotoByAnAttachmentTheMediaNames() async throws {
        let api = try await TelegramClientTests.FakeAPI { method, _ in Self.photoAnswer(method) }
        defer { Task { await api.server.shutdown() } }
        let edit = BotRequest.editMessageMedia(chatID: 5, target: .id(50), photo: "week", caption: "📈 Москва · неделя", replyMarkup: Self.keyboard)
        let edited = try await api.client.perform(edit, photo: .upload(Self.png, filename: "week.png"))
        #expect(edited.fileID == "big")
        let request = try #require(api.server.requests.first)
        #expect(request.path.hasSuffix("/editMessageMedia"))
        let parts = try Self.parts(of: request)
        #expect(Set(parts.keys) == ["chat_id", "message_id", "media", "reply_markup", "chart"])
        #expect(parts["message_id"]?.body == Data("50".utf8))
        let mediaPart = try #require(parts["media"])
        let media = try #require(try JSONSerialization.jsonObject(with: mediaPart.body) as? [String: Any])
        #expect(media["type"] as? String == "photo")
        #expect(media["media"] as? String == "attach://chart")
        #expect(media["caption"] as? String == "📈 Москва · неделя")
        #expect(media["parse_mode"] as? String == "HTML")
        #expect(parts["chart"]?.body == Self.png)

        let tagged = BotRequest.editMessageMedia(chatID: 5, target: .tag("chart"), photo: "week", caption: nil)
        var addressed = tagged
        addressed.messageID = 51
        _ = try await api.client.perform(addressed, photo: .fileID("big"))
        let byID = try #require(api.server.requests.last?.json)
        #expect((byID["media"] as? [String: Any])?["media"] as? String == "big")
        #expect(byID["message_id"] as? Int == 51)

        // A photo whose message is gone goes as a new photo, with the edit's caption and buttons.
        _ = try await api.client.perform(edit.asNewMessage, photo: .fileID("big"))
        let asNew = try #require(api.server.requests.last)
        #expect(asNew.path.hasSuffix("/sendPhoto"))
        #expect(asNew.json?["photo"] as? String == "big")
        #expect(asNew.json?["caption"] as? String == "📈 Москва · неделя")
        #expect(asNew.json?["message_id"] == nil)
    }

    @Test func aCaptionLongerThanTelegramTakesIsCutAtALine() async throws {
        let api = try await TelegramClientTests.FakeAPI { method, _ in Self.photoAnswer(method) }
        defer { Task { await api.server.shutdown() } }
        let caption = (1...200).map { "строка \($0)" }.joined(separator: "\n")
        _ = try await api.client.perform(.sendPhoto(chatID: 5, photo: "long", caption: caption), photo: .fileID("big"))
        let sent = try #require(api.server.requests.first?.json?["caption"] as? String)
        #expect(sent.utf16.count <= HTML.maximumCaptionLength)
        #expect(sent.hasSuffix("\n…"))
    }
}
