public import Foundation
import HTTPTransport
import Synchronization
import TelegramBotAPI

/// A Bot API on loopback that behaves like Telegram for one bot: it queues updates the test
/// sends as a user, long-polls them out honouring `offset` or, once a webhook is set, posts them
/// to it as Telegram does, and records what the bot says.
public final class FakeTelegram: Sendable {
    public static let token = "4242:FAKE-token-for-loopback-tests"

    public struct Sent: Sendable, Equatable {
        public var chatID: Int64
        public var messageID: Int
        public var text: String
        /// `reply_markup` as JSON text, when any.
        public var markup: String?
        /// The message it replies to (`reply_parameters`), when any.
        public var replyTo: Int? = nil
        /// When it was accepted.
        public var at = Date()
    }

    public struct Edit: Sendable, Equatable {
        public var chatID: Int64
        public var messageID: Int
        public var text: String
        public var markup: String?
    }

    /// A photo the bot sent or put in place of another: its message and how it came.
    public struct Photo: Sendable, Equatable {
        public var chatID: Int64
        public var messageID: Int
        public var caption: String
        public var markup: String?
        /// The `file_id` of the picture shown.
        public var fileID: String
        /// Whether its bytes were uploaded with this call (else it went by `file_id`).
        public var uploaded: Bool
        /// Whether it replaced the photo of an earlier message (`editMessageMedia`).
        public var isEdit: Bool
    }

    public struct State: Sendable {
        public var queued: [(id: Int, json: Data)] = []
        public var nextUpdateID = 1000
        public var nextMessageID = 1
        public var sent: [Sent] = []
        public var edits: [Edit] = []
        public var answers: [String] = []
        public var chatActions: [Int64] = []
        /// Every update id handed out by getUpdates, repeats included.
        public var delivered: [Int] = []
        /// Scripted failures: method name → responses to give before answering normally.
        public var failures: [String: [LoopbackResponse]] = [:]
        /// How many coming getUpdates calls hang (longer than the client waits) before answering.
        public var stalledPolls = 0
        /// Update ids started anew, lower than before (as after a quiet week): an offset above every
        /// waiting update confirms none of them.
        public var rebased = false
        /// Members getChatMember calls administrators.
        public var administrators: Set<Int64> = []
        /// The command menus set, by language code ("" for the default), as their descriptions.
        public var menus: [String: [String]] = [:]
        /// The texts of the answers to button presses, in order ("" for none).
        public var answerTexts: [String] = []
        /// Photos sent and replaced, in order; photo messages are in `sent` too, their caption as text.
        public var photos: [Photo] = []
        /// The pictures uploaded, by the `file_id` given them.
        public var files: [String: Data] = [:]
        /// The webhook set, when one is: updates are posted to it and getUpdates is refused.
        public var webhook: Webhook?
        /// setWebhook and deleteWebhook calls, in order: the URL set, or "" for a deletion.
        public var webhookCalls: [String] = []
        /// Every post to the webhook: the update id and the status it was answered with (0 when
        /// no answer came).
        public var posts: [(updateID: Int, status: Int)] = []
        /// Updates being posted now, by chat (an update of no chat counts as its own chat).
        public var posting: [Int: Int64] = [:]
        /// When an update whose post failed is posted again.
        public var retryAt: [Int: ContinuousClock.Instant] = [:]
        /// The last post that failed, as getWebhookInfo tells it.
        public var lastPostError: (date: Date, message: String)?
    }

    /// A webhook as setWebhook set it.
    public struct Webhook: Sendable {
        public var url: URL
        public var secret: String?
        public var maxConnections: Int
        public var allowedUpdates: [String]
    }

    public let state: Locked<State>
    public let server: LoopbackServer
    /// Posts updates to the webhook while one is set.
    private let poster: Task<Void, Never>
    /// How long after a failed post an update is posted again (Telegram waits longer).
    public static let retryDelay: Duration = .milliseconds(200)

    public init() async throws {
        let state = Locked(State())
        self.state = state
        server = try await LoopbackServer { request in
            await Self.answer(request, state)
        }
        poster = Task { await Self.postUpdates(state) }
    }

    deinit {
        poster.cancel()
    }

    /// Stops posting and answering.
    public func shutdown() async {
        poster.cancel()
        await server.shutdown()
    }

    public var url: URL { server.url }

    // MARK: Acting as a user

    private func enqueue(_ update: [String: Any]) {
        state.withLock { state in
            var update = update
            update["update_id"] = state.nextUpdateID
            let json = (try? JSONSerialization.data(withJSONObject: update)) ?? Data()
            state.queued.append((state.nextUpdateID, Self.escapingNonASCII(json)))
            state.nextUpdateID &+= 1  // wraps past the top of the range, which a test reaches
        }
    }

    /// Queues an update's JSON text as it is, valid or not, under the next update id.
    public func enqueueRaw(_ json: (Int) -> String) {
        state.withLock { state in
            state.queued.append((state.nextUpdateID, Data(json(state.nextUpdateID).utf8)))
            state.nextUpdateID &+= 1  // wraps past the top of the range, which a test reaches
        }
    }

    /// JSON with every non-ASCII character written as `\uXXXX`, as Telegram writes it.
    public static func escapingNonASCII(_ json: Data) -> Data {
        var text = ""
        for unit in String(decoding: json, as: UTF8.self).utf16 {
            if unit < 0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(unit))) } else { text += String(format: "\\u%04x", unit) }
        }
        return Data(text.utf8)
    }

    /// A long message that replies to another long one: Telegram includes the replied-to message.
    public func sendLongReply(_ text: String, replyingTo original: String, from chatID: Int64, language: String = "ru") {
        let chat: [String: Any] = ["id": chatID, "type": "private"]
        enqueue(["message": [
            "message_id": Int.random(in: 1...1_000_000), "date": 1_700_000_000, "from": Self.user(chatID, language), "chat": chat,
            "text": text,
            "reply_to_message": [
                "message_id": 1, "date": 1_699_999_000, "from": Self.user(chatID, language), "chat": chat, "text": original,
            ],
        ]])
    }

    private static func user(_ chatID: Int64, _ language: String) -> [String: Any] {
        ["id": chatID, "is_bot": false, "first_name": "Tester", "language_code": language]
    }

    /// The next update ids start anew at `id`, as Telegram does after a week without updates.
    public func rebaseUpdateIDs(to id: Int) {
        state.withLock { state in
            state.nextUpdateID = id
            state.rebased = true
        }
    }

    public func sendText(_ text: String, from chatID: Int64, language: String = "ru") {
        enqueue(["message": [
            "message_id": Int.random(in: 1...1_000_000), "date": 1_700_000_000, "from": Self.user(chatID, language),
            "chat": ["id": chatID, "type": "private"], "text": text,
        ]])
    }

    public func sendLocation(latitude: Double, longitude: Double, from chatID: Int64, language: String = "ru") {
        enqueue(["message": [
            "message_id": Int.random(in: 1...1_000_000), "date": 1_700_000_000, "from": Self.user(chatID, language),
            "chat": ["id": chatID, "type": "private"], "location": ["latitude": latitude, "longitude": longitude],
        ]])
    }

    /// A member's message in a group, perhaps a reply to one of the bot's messages; returns its id.
    @discardableResult
    public func sendGroupText(_ text: String, in groupID: Int64, from member: Int64, replyingTo botMessageID: Int? = nil, language: String = "ru") -> Int {
        let id = Int.random(in: 1...1_000_000)
        var message: [String: Any] = [
            "message_id": id, "date": 1_700_000_000, "from": Self.user(member, language),
            "chat": ["id": groupID, "type": "supergroup", "title": "Дача"], "text": text,
        ]
        if let botMessageID {
            message["reply_to_message"] = [
                "message_id": botMessageID, "date": 1_700_000_000, "chat": ["id": groupID, "type": "supergroup"],
                "from": ["id": 4242, "is_bot": true, "first_name": "Weather", "username": "weather_test_bot"], "text": "…",
            ]
        }
        enqueue(["message": message])
        return id
    }

    /// A member presses the button whose text contains `label` on the bot's message in a group.
    public func pressInGroup(_ label: String, on messageID: Int, in groupID: Int64, by member: Int64, language: String = "ru") throws {
        let markup = state.withLock { state in
            state.edits.last { $0.chatID == groupID && $0.messageID == messageID }?.markup
                ?? state.sent.last { $0.chatID == groupID && $0.messageID == messageID }?.markup
        }
        guard let markup, let data = Self.callbackData(label, in: markup) else {
            throw ButtonNotFound(label: label, messageID: messageID)
        }
        enqueue(["callback_query": [
            "id": "q\(Int.random(in: 1...1_000_000_000))", "from": Self.user(member, language), "chat_instance": "x", "data": data,
            "message": ["message_id": messageID, "date": 1_700_000_000, "chat": ["id": groupID, "type": "supergroup"], "text": "…"],
        ]])
    }

    /// Presses the inline button whose text contains `label` on message `messageID`.
    public func press(_ label: String, on messageID: Int, in chatID: Int64, language: String = "ru") throws {
        let markup = state.withLock { state in
            state.edits.last { $0.chatID == chatID && $0.messageID == messageID }?.markup
                ?? state.sent.last { $0.chatID == chatID && $0.messageID == messageID }?.markup
        }
        guard let markup, let data = Self.callbackData(label, in: markup) else {
            throw ButtonNotFound(label: label, messageID: messageID)
        }
        pressRaw(data: data, on: messageID, in: chatID, language: language)
    }

    /// Presses a button with any data; without `messageID`, as Telegram sends it for a message it no longer gives.
    public func pressRaw(data: String, on messageID: Int?, in chatID: Int64, language: String = "ru") {
        var query: [String: Any] = [
            "id": "q\(Int.random(in: 1...1_000_000_000))", "from": Self.user(chatID, language), "chat_instance": "x", "data": data,
        ]
        if let messageID {
            query["message"] = ["message_id": messageID, "date": 1_700_000_000, "chat": ["id": chatID, "type": "private"], "text": "…"]
        }
        enqueue(["callback_query": query])
    }

    public struct ButtonNotFound: Error { var label: String; var messageID: Int }

    public static func callbackData(_ label: String, in markup: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(markup.utf8)) as? [String: Any],
            let rows = object["inline_keyboard"] as? [[[String: Any]]]
        else { return nil }
        return rows.joined().first { ($0["text"] as? String)?.contains(label) ?? false }?["callback_data"] as? String
    }

    /// The messages of a chat as the user sees them now: each sent message with its latest edit.
    public func screen(_ chatID: Int64) -> [(messageID: Int, text: String, markup: String?)] {
        state.withLock { state in
            state.sent.filter { $0.chatID == chatID }.map { sent in
                let edit = state.edits.last { $0.chatID == chatID && $0.messageID == sent.messageID }
                return (sent.messageID, edit?.text ?? sent.text, edit.map(\.markup) ?? sent.markup)
            }
        }
    }

    /// Waits until `condition` holds of the state, failing after `timeout`.
    public func waitUntil(timeout: Duration = .seconds(30), _ what: String, _ condition: (State) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLock({ condition($0) }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(what: what)
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public var what: String
        public init(what: String) { self.what = what }
        public var description: String { "timed out waiting for \(what)" }
    }

    // MARK: The Bot API

    private static func answer(_ request: LoopbackRequest, _ state: Locked<State>) async -> LoopbackResponse {
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "bot\(Self.token)" else {
            return .json(["ok": false, "error_code": 404, "description": "Not Found"], status: 404)
        }
        let method = String(parts[1])
        let body = request.json ?? request.formParts.map(Self.fields) ?? [:]
        if let failure = state.withLock({ state -> LoopbackResponse? in
            guard var list = state.failures[method], !list.isEmpty else { return nil }
            let first = list.removeFirst()
            state.failures[method] = list
            return first
        }) {
            return failure
        }
        switch method {
        case "getMe":
            return .json(["ok": true, "result": ["id": 4242, "is_bot": true, "first_name": "Weather", "username": "weather_test_bot"]])
        case "getChatMember":
            let user = (body["user_id"] as? NSNumber)?.int64Value ?? 0
            let status = state.withLock { $0.administrators.contains(user) } ? "administrator" : "member"
            return .json(["ok": true, "result": ["status": status, "user": ["id": user, "is_bot": false, "first_name": "M"]]])
        case "setMyCommands":
            let descriptions = (body["commands"] as? [[String: Any]] ?? []).compactMap { $0["description"] as? String }
            state.withLock { $0.menus[body["language_code"] as? String ?? ""] = descriptions }
            return .json(["ok": true, "result": true])
        case "deleteWebhook":
            state.withLock { state in
                state.webhook = nil
                state.webhookCalls.append("")
            }
            return .json(["ok": true, "result": true])
        case "setWebhook":
            guard let url = (body["url"] as? String).flatMap(URL.init(string:)), url.scheme != nil else {
                return .json(["ok": false, "error_code": 400, "description": "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"], status: 400)
            }
            let hook = Webhook(
                url: url, secret: body["secret_token"] as? String, maxConnections: body["max_connections"] as? Int ?? 40,
                allowedUpdates: body["allowed_updates"] as? [String] ?? [])
            state.withLock { state in
                state.webhook = hook
                state.webhookCalls.append(url.absoluteString)
            }
            return .json(["ok": true, "result": true])
        case "getWebhookInfo":
            let (url, pending, failure) = state.withLock { state in (state.webhook?.url.absoluteString ?? "", state.queued.count, state.lastPostError) }
            var info: [String: any Sendable] = ["url": url, "has_custom_certificate": false, "pending_update_count": pending]
            if let failure {
                info["last_error_date"] = Int(failure.date.timeIntervalSince1970)
                info["last_error_message"] = failure.message
            }
            return .json(["ok": true, "result": info])
        case "getUpdates":
            if state.withLock({ $0.webhook != nil }) {
                return .json(
                    ["ok": false, "error_code": 409, "description": "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"],
                    status: 409)
            }
            if state.withLock({ state in
                guard state.stalledPolls > 0 else { return false }
                state.stalledPolls -= 1
                return true
            }) {
                try? await Task.sleep(for: .seconds(10))
                return .json(["ok": true, "result": [Any]()])
            }
            return await getUpdates(body, state)
        case "sendMessage":
            let chatID = (body["chat_id"] as? NSNumber)?.int64Value ?? 0
            let markup = body["reply_markup"].flatMap(jsonText)
            let messageID = state.withLock { state in
                let id = state.nextMessageID
                state.nextMessageID += 1
                let replyTo = ((body["reply_parameters"] as? [String: Any])?["message_id"] as? NSNumber)?.intValue
                state.sent.append(Sent(chatID: chatID, messageID: id, text: body["text"] as? String ?? "", markup: markup, replyTo: replyTo))
                return id
            }
            return .json(["ok": true, "result": [
                "message_id": messageID, "date": 1_700_000_000, "chat": ["id": chatID, "type": "private"], "text": body["text"] ?? "",
            ]])
        case "editMessageText":
            let chatID = (body["chat_id"] as? NSNumber)?.int64Value ?? 0
            let messageID = body["message_id"] as? Int ?? 0
            let known = state.withLock { state in
                guard state.sent.contains(where: { $0.chatID == chatID && $0.messageID == messageID }) else { return false }
                state.edits.append(Edit(chatID: chatID, messageID: messageID, text: body["text"] as? String ?? "", markup: body["reply_markup"].flatMap(jsonText)))
                return true
            }
            guard known else {
                return .json(["ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"], status: 400)
            }
            return .json(["ok": true, "result": true])
        case "editMessageReplyMarkup":
            let chatID = (body["chat_id"] as? NSNumber)?.int64Value ?? 0
            let messageID = body["message_id"] as? Int ?? 0
            let known = state.withLock { state in
                guard let sent = state.sent.last(where: { $0.chatID == chatID && $0.messageID == messageID }) else { return false }
                let text = state.edits.last { $0.chatID == chatID && $0.messageID == messageID }?.text ?? sent.text
                state.edits.append(Edit(chatID: chatID, messageID: messageID, text: text, markup: body["reply_markup"].flatMap(jsonText)))
                return true
            }
            guard known else {
                return .json(["ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"], status: 400)
            }
            return .json(["ok": true, "result": true])
        case "answerCallbackQuery":
            state.withLock {
                $0.answers.append(body["callback_query_id"] as? String ?? "")
                $0.answerTexts.append(body["text"] as? String ?? "")
            }
            return .json(["ok": true, "result": true])
        case "sendPhoto", "editMessageMedia":
            return photo(method, body, request.formParts, state)
        case "sendChatAction":
            state.withLock { $0.chatActions.append((body["chat_id"] as? NSNumber)?.int64Value ?? 0) }
            return .json(["ok": true, "result": true])
        default:
            return .json(["ok": false, "error_code": 404, "description": "Not Found: method not found"], status: 404)
        }
    }

    /// A form's text parts as the fields of a JSON body: objects (`reply_markup`, `media`) parsed.
    private static func fields(_ parts: [String: FormPart]) -> [String: Any] {
        parts.filter { $0.value.headers["content-type"] == nil }.mapValues { part -> Any in
            if let object = try? JSONSerialization.jsonObject(with: part.body) as? [String: Any] { return object }
            return Int64(part.text).map { NSNumber(value: $0) } ?? part.text
        }
    }

    /// `sendPhoto` and `editMessageMedia`: an uploaded picture gets a new `file_id`; one sent by
    /// `file_id` must be a picture uploaded before.
    private static func photo(_ method: String, _ body: [String: Any], _ form: [String: FormPart]?, _ state: Locked<State>) -> LoopbackResponse {
        let chatID = (body["chat_id"] as? NSNumber)?.int64Value ?? 0
        let isEdit = method == "editMessageMedia"
        let media = isEdit ? body["media"] as? [String: Any] ?? [:] : body
        let reference = (isEdit ? media["media"] : body["photo"]) as? String
        let caption = media["caption"] as? String ?? ""
        let markup = body["reply_markup"].flatMap(jsonText)
        let upload: Data? =
            if let reference, reference.hasPrefix("attach://") { form?[String(reference.dropFirst("attach://".count))]?.body } else { isEdit ? nil : form?["photo"]?.body }
        let result = state.withLock { state -> (messageID: Int, fileID: String)? in
            let fileID: String
            if let upload {
                fileID = "photo-\(state.files.count + 1)"
                state.files[fileID] = upload
            } else if let reference, state.files[reference] != nil {
                fileID = reference
            } else {
                return nil
            }
            var messageID = state.nextMessageID
            if isEdit {
                messageID = (body["message_id"] as? NSNumber)?.intValue ?? 0
                guard state.photos.contains(where: { $0.chatID == chatID && $0.messageID == messageID }) else { return (-1, fileID) }
                state.edits.append(Edit(chatID: chatID, messageID: messageID, text: caption, markup: markup))
            } else {
                state.nextMessageID += 1
                state.sent.append(Sent(chatID: chatID, messageID: messageID, text: caption, markup: markup))
            }
            state.photos.append(Photo(chatID: chatID, messageID: messageID, caption: caption, markup: markup, fileID: fileID, uploaded: upload != nil, isEdit: isEdit))
            return (messageID, fileID)
        }
        guard let result else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: wrong file identifier/HTTP URL specified"], status: 400)
        }
        guard result.messageID >= 0 else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"], status: 400)
        }
        return .json(["ok": true, "result": [
            "message_id": result.messageID, "date": 1_700_000_000, "chat": ["id": chatID, "type": "private"], "caption": caption,
            "photo": [
                ["file_id": "\(result.fileID)-small", "file_unique_id": "s", "width": 320, "height": 180],
                ["file_id": result.fileID, "file_unique_id": "b", "width": 1280, "height": 720],
            ],
        ]])
    }

    private static func getUpdates(_ body: [String: Any], _ state: Locked<State>) async -> LoopbackResponse {
        let offset = body["offset"] as? Int
        let limit = min(max(body["limit"] as? Int ?? 100, 1), 100)
        let timeout = min(body["timeout"] as? Int ?? 0, 2)
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            let batch = state.withLock { state -> [Data] in
                if let offset, !state.rebased || state.queued.map(\.id).max().map({ offset - 1 <= $0 }) ?? true {
                    state.queued.removeAll { $0.id < offset }
                }
                let batch = state.queued.prefix(limit)
                state.delivered += batch.map(\.id)
                return batch.map(\.json)
            }
            if !batch.isEmpty || ContinuousClock.now >= deadline {
                var body = Data(#"{"ok":true,"result":["#.utf8)
                body.append(contentsOf: Data(batch.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",").utf8))
                body.append(contentsOf: Data("]}".utf8))
                return LoopbackResponse(body: body)
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Posting to the webhook

    /// While a webhook is set, posts the waiting updates to it as Telegram does: a chat's updates
    /// one at a time and in order, up to `max_connections` requests at once, each with the secret
    /// header; an update leaves the queue only when its post is answered with a 2xx status, and
    /// is posted again a little later otherwise.
    private static func postUpdates(_ state: Locked<State>) async {
        let transport = AsyncHTTPTransport()
        await withTaskGroup(of: Void.self) { group in
            while !Task.isCancelled {
                let now = ContinuousClock.now
                let due = state.withLock { state -> [(id: Int, json: Data, hook: Webhook)] in
                    guard let hook = state.webhook else { return [] }
                    var busy = Set(state.posting.values)
                    var due: [(id: Int, json: Data, hook: Webhook)] = []
                    for (id, json) in state.queued where state.posting.count < hook.maxConnections {
                        let chat = (try? Update.posted(json))?.chatID ?? -Int64(id)
                        guard busy.insert(chat).inserted, state.retryAt[id].map({ $0 <= now }) ?? true else { continue }
                        state.posting[id] = chat
                        due.append((id, json, hook))
                    }
                    return due
                }
                for (id, json, hook) in due {
                    group.addTask { await post(id, json, to: hook, state, transport) }
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
            group.cancelAll()
        }
        try? await transport.shutdown()
    }

    private static func post(_ id: Int, _ json: Data, to hook: Webhook, _ state: Locked<State>, _ transport: AsyncHTTPTransport) async {
        var headers = ["Content-Type": "application/json"]
        if let secret = hook.secret { headers["X-Telegram-Bot-Api-Secret-Token"] = secret }
        let status = (try? await transport.send(TransportRequest(method: .post, url: hook.url, headers: headers, body: json, timeout: .seconds(30))))?.status ?? 0
        state.withLock { state in
            state.posts.append((id, status))
            state.posting[id] = nil
            if (200..<300).contains(status) {
                state.queued.removeAll { $0.id == id }
                state.delivered.append(id)
                state.retryAt[id] = nil
            } else {
                state.retryAt[id] = .now + retryDelay
                state.lastPostError = (Date(), status == 0 ? "Connection refused" : "Wrong response from the webhook: \(status) \(status == 401 ? "Unauthorized" : "Error")")
            }
        }
    }

    private static func jsonText(_ value: Any) -> String? {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }
}
