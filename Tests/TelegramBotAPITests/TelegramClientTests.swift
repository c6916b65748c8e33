import Foundation
import HTTPTransport
import Synchronization
import Testing
@testable import TelegramBotAPI
import WeatherBotTesting

@Suite struct TelegramClientTests {
    static let token = "123456:TEST-token-never-logged"

    /// A loopback Bot API answering each method with a canned JSON body, recording what it got.
    final class FakeAPI: Sendable {
        let server: LoopbackServer

        init(_ answer: @escaping @Sendable (String, [String: Any]) -> LoopbackResponse) async throws {
            server = try await LoopbackServer { request in
                let method = String(request.path.split(separator: "/").last ?? "")
                return answer(method, request.json ?? [:])
            }
        }

        var client: TelegramClient {
            TelegramClient(token: TelegramClientTests.token, apiURL: server.url, transport: NIOHTTPTransport())
        }
    }

    @Test func callsGoToTheTokenPathWithJSONBodies() async throws {
        let api = try await FakeAPI { method, _ in
            .json(["ok": true, "result": ["message_id": 42, "date": 1, "chat": ["id": 5, "type": "private"], "text": "hi"]])
        }
        defer { Task { await api.server.shutdown() } }
        let keyboard = ReplyKeyboardMarkup(keyboard: [[KeyboardButton(text: "📍", requestLocation: true)]])
        let messageID = try await api.client.perform(.sendMessage(chatID: 5, text: "<b>hi</b>", replyMarkup: .keyboard(keyboard)))
        #expect(messageID == 42)

        let request = try #require(api.server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/bot\(Self.token)/sendMessage")
        #expect(request.headers["content-type"] == "application/json")
        let body = try #require(request.json)
        #expect(body["chat_id"] as? Int == 5)
        #expect(body["parse_mode"] as? String == "HTML")
        let markup = try #require(body["reply_markup"] as? [String: Any])
        let rows = try #require(markup["keyboard"] as? [[[String: Any]]])
        #expect(rows[0][0]["request_location"] as? Bool == true)
        #expect(markup["resize_keyboard"] as? Bool == true)
    }

    @Test func aQuestionByReplyAnswersTheMembersMessage() async throws {
        let api = try await FakeAPI { _, _ in
            .json(["ok": true, "result": ["message_id": 43, "date": 1, "chat": ["id": -100, "type": "supergroup"], "text": "?"]])
        }
        defer { Task { await api.server.shutdown() } }
        let question = ForceReply(selective: true, inputFieldPlaceholder: "Город", replyTo: 41)
        _ = try await api.client.perform(.sendMessage(chatID: -100, text: "Какой город?", replyMarkup: .forceReply(question)))
        let body = try #require(api.server.requests.first?.json)
        let markup = try #require(body["reply_markup"] as? [String: Any])
        #expect(markup["force_reply"] as? Bool == true)
        #expect(markup["selective"] as? Bool == true)
        #expect(markup["input_field_placeholder"] as? String == "Город")
        #expect(markup["replyTo"] == nil)
        let parameters = try #require(body["reply_parameters"] as? [String: Any])
        #expect(parameters["message_id"] as? Int == 41)
        #expect(parameters["allow_sending_without_reply"] as? Bool == true)
    }

    /// A call written before its message was sent gets that message's id when made; should the
    /// message be gone, the same parameters send it anew.
    @Test func aPreparedEditNamesItsMessageWhenMadeOrBecomesANewMessage() async throws {
        let api = try await FakeAPI { method, _ in
            method == "sendMessage"
                ? .json(["ok": true, "result": ["message_id": 43, "date": 1, "chat": ["id": 5, "type": "private"], "text": "x"]])
                : .json(["ok": true, "result": true])
        }
        defer { Task { await api.server.shutdown() } }
        let keyboard = InlineKeyboardMarkup(inlineKeyboard: [[InlineKeyboardButton(text: "Да", callbackData: "cy:1")]])
        let edit = BotRequest.editMessageText(chatID: 5, target: .tag("locate:7"), text: "Это ваш город?", replyMarkup: keyboard)
        var addressed = edit
        addressed.messageID = 9
        #expect(try await api.client.perform(addressed) == nil)
        #expect(try await api.client.perform(edit.asNewMessage) == 43)
        let known = BotRequest.editMessageReplyMarkup(chatID: 5, target: .id(8), replyMarkup: nil)
        #expect(try await api.client.perform(known) == nil)

        let requests = api.server.requests
        #expect(requests.map { $0.path.split(separator: "/").last.map(String.init) } == ["editMessageText", "sendMessage", "editMessageReplyMarkup"])
        let edited = try #require(requests[0].json)
        #expect(edited["message_id"] as? Int == 9)
        #expect(edited["chat_id"] as? Int == 5)
        #expect(edited["text"] as? String == "Это ваш город?")
        #expect((edited["reply_markup"] as? [String: Any])?["inline_keyboard"] != nil)
        let sent = try #require(requests[1].json)
        #expect(sent["message_id"] == nil)
        #expect(sent["text"] as? String == "Это ваш город?")
        #expect((sent["reply_markup"] as? [String: Any])?["inline_keyboard"] != nil)
        // An id known as the request was written is the one it posts.
        #expect(requests[2].json?["message_id"] as? Int == 8)
    }

    @Test func theErrorEnvelopeBecomesATypedError() async throws {
        let api = try await FakeAPI { method, _ in
            switch method {
            case "sendMessage":
                .json(["ok": false, "error_code": 429, "description": "Too Many Requests: retry after 5", "parameters": ["retry_after": 5]], status: 429)
            case "editMessageText":
                .json(["ok": false, "error_code": 400, "description": "Bad Request: message is not modified"], status: 400)
            case "getMe":
                .json(["ok": false, "error_code": 401, "description": "Unauthorized"], status: 401)
            case "answerCallbackQuery":
                .json(["ok": false, "error_code": 400, "description": "Bad Request: query is too old and response timeout expired or query ID is invalid"], status: 400)
            default:
                .json(["ok": false, "error_code": 400, "description": "Bad Request: group chat was upgraded to a supergroup chat", "parameters": ["migrate_to_chat_id": -1001234567890]], status: 400)
            }
        }
        defer { Task { await api.server.shutdown() } }
        let client = api.client

        let rateLimited = await #expect(throws: TelegramError.self) { _ = try await client.perform(.sendMessage(chatID: 1, text: "x")) }
        #expect(rateLimited?.errorCode == 429)
        #expect(rateLimited?.retryAfter == 5)
        #expect(rateLimited?.isRateLimited == true)
        #expect(rateLimited?.isTransient == true)

        let notModified = await #expect(throws: TelegramError.self) { _ = try await client.perform(.editMessageText(chatID: 1, target: .id(2), text: "x")) }
        #expect(notModified?.isMessageNotModified == true)

        let unauthorized = await #expect(throws: TelegramError.self) { try await client.getMe() }
        #expect(unauthorized?.isUnauthorized == true)

        let tooOld = await #expect(throws: TelegramError.self) { _ = try await client.perform(.answerCallbackQuery(id: "q")) }
        #expect(tooOld?.isQueryTooOld == true)

        let migrated = await #expect(throws: TelegramError.self) { try await client.sendChatAction(chatID: 1, action: .typing) }
        #expect(migrated?.migrateToChatID == -1001234567890)
        for error in [rateLimited, notModified, unauthorized, tooOld, migrated].compactMap({ $0 }) {
            #expect(!error.description.contains(Self.token))
        }
    }

    @Test func updatesOfUnknownKindsOrShapesDoNotBreakTheBatch() async throws {
        let api = try await FakeAPI { _, _ in
            .json([
                "ok": true,
                "result": [
                    ["update_id": 1, "message": ["message_id": 1, "date": 1, "chat": ["id": 5, "type": "private"], "text": "hi", "brand_new_field": [1, 2]]],
                    ["update_id": 2, "poll": ["id": "p"]],
                    ["update_id": 3, "message": ["message_id": "not a number"]],
                    ["update_id": 4, "callback_query": ["id": "q", "from": ["id": 5, "is_bot": false, "first_name": "A"], "data": "cy:1",
                                                        "message": ["message_id": 0, "date": 0, "chat": ["id": 5, "type": "private"]]]],
                ],
            ])
        }
        defer { Task { await api.server.shutdown() } }
        let updates = try await api.client.getUpdates(offset: 1, timeout: 0, allowedUpdates: ["message"])
        #expect(updates.map(\.updateID) == [1, 2, 3, 4])
        #expect(updates[0].message?.text == "hi")
        #expect(updates[1].chatID == nil)
        #expect(updates[2].message == nil)
        #expect(updates[3].callbackQuery?.data == "cy:1")
        let body = try #require(api.server.requests.first?.json)
        #expect(body["offset"] as? Int == 1)
        #expect(body["allowed_updates"] as? [String] == ["message"])
    }

    @Test func theFirstUpdateIdOfAnUnreadableAnswerIsFound() {
        #expect(TelegramClient.firstUpdateID(in: Data(#"{"ok":true,"result":[{"update_id":123456,"message":{"#.utf8)) == 123456)
        #expect(TelegramClient.firstUpdateID(in: Data(#"{"ok":true,"result":[{"update_id" : 77}]}"#.utf8)) == 77)
        // Cut off inside the number: it may be missing digits.
        #expect(TelegramClient.firstUpdateID(in: Data(#"{"ok":true,"result":[{"update_id":12345"#.utf8)) == nil)
        #expect(TelegramClient.firstUpdateID(in: Data(#"{"ok":true,"result":[]}"#.utf8)) == nil)
        #expect(TelegramClient.firstUpdateID(in: Data()) == nil)
    }

    @Test func serverTextQuotingTheTokenInAnySpellingIsRedacted() async throws {
        let encoded = Self.token.replacingOccurrences(of: ":", with: "%3a")
        let api = try await FakeAPI { _, _ in
            .json(
                ["ok": false, "error_code": 500, "description": "Internal error at /bot\(Self.token)/sendMessage, /bot\(encoded)/sendMessage"],
                status: 500)
        }
        defer { Task { await api.server.shutdown() } }
        let error = await #expect(throws: TelegramError.self) { _ = try await api.client.perform(.sendMessage(chatID: 1, text: "x")) }
        let text = error.map { "\($0) \($0.reason)" } ?? ""
        #expect(!text.contains("TEST-token"), "\(text)")
        #expect(text.contains("Internal error at /bot<redacted>/sendMessage"))
    }

    @Test func noAnswerIsATransportErrorWithoutTheToken() async throws {
        let server = try await LoopbackServer { _ in .json([:]) }
        let url = server.url
        await server.shutdown()
        let client = TelegramClient(token: Self.token, apiURL: url, transport: NIOHTTPTransport())
        let error = await #expect(throws: TelegramError.self) { try await client.getMe() }
        #expect(error?.code == .transport)
        #expect(error?.isTransient == true)
        #expect(!(error?.description.contains(Self.token) ?? true))
        #expect(!"\(client)".contains(Self.token))
    }

    @Test func aSlowServerTimesOut() async throws {
        let server = try await LoopbackServer { _ in
            try? await Task.sleep(for: .seconds(30))
            return .json(["ok": true, "result": true])
        }
        defer { Task { await server.shutdown() } }
        let client = TelegramClient(token: Self.token, apiURL: server.url, transport: NIOHTTPTransport(), requestTimeout: .seconds(1))
        let started = ContinuousClock.now
        let error = await #expect(throws: TelegramError.self) { try await client.sendChatAction(chatID: 1, action: .typing) }
        #expect(error?.code == .transport)
        // Far sooner than the server would answer, however loaded the machine is.
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}
