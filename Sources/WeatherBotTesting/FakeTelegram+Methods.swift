import Foundation

extension FakeTelegram {
    /// Answers one Bot API call.
    func answer(_ request: LoopbackRequest) async -> LoopbackResponse {
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "bot\(token)" else {
            return .json(["ok": false, "error_code": 404, "description": "Not Found"], status: 404)
        }
        let method = String(parts[1])
        let form = request.formParts
        let body = request.json ?? form.map(Self.fields) ?? request.urlEncodedFields.map(Self.fields) ?? [:]
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
        case "setChatMenuButton":
            let button = body["menu_button"] as? [String: Any]
            let url = (button?["web_app"] as? [String: Any])?["url"] as? String
            state.withLock { $0.menuButton = url.map { (text: button?["text"] as? String ?? "", url: $0) } }
            return .json(["ok": true, "result": true])
        case "deleteWebhook":
            state.withLock { state in
                state.webhook = nil
                state.webhookCalls.append("")
            }
            return .json(["ok": true, "result": true])
        case "setWebhook":
            return setWebhook(body)
        case "getWebhookInfo":
            return webhookInfo()
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
            return await getUpdates(body)
        case "answerInlineQuery":
            return answerInline(body)
        case "editMessageText" where body["inline_message_id"] != nil:
            return editInline(body)
        case "sendMessage", "editMessageText", "editMessageReplyMarkup", "answerCallbackQuery", "sendPhoto", "editMessageMedia":
            return reply(method, body, form)
        case "sendChatAction":
            state.withLock { state in
                if recording { state.chatActions.append((body["chat_id"] as? NSNumber)?.int64Value ?? 0) }
            }
            return .json(["ok": true, "result": true])
        default:
            return .json(["ok": false, "error_code": 404, "description": "Not Found: method not found"], status: 404)
        }
    }

    /// A form's text parts as the fields of a JSON body.
    private static func fields(_ parts: [String: FormPart]) -> [String: Any] {
        fields(parts.filter { $0.value.headers["content-type"] == nil }.mapValues(\.text))
    }

    /// A form's fields as those of a JSON body: objects (`reply_markup`, `media`) and lists
    /// (`allowed_updates`) parsed, whole numbers as numbers.
    private static func fields(_ texts: [String: String]) -> [String: Any] {
        texts.mapValues { text -> Any in
            if let structure = try? JSONSerialization.jsonObject(with: Data(text.utf8)), structure is [String: Any] || structure is [Any] { return structure }
            return Int64(text).map { NSNumber(value: $0) } ?? text
        }
    }

    /// A reply: a message, an edit, a photo or an answer to a button press. Beyond the sending
    /// limits a message is refused with 429; an accepted one counts for its chat, may let a press
    /// held back for it come out, and is told to the observer.
    private func reply(_ method: String, _ body: [String: Any], _ form: [String: FormPart]?) -> LoopbackResponse {
        let isAnswer = method == "answerCallbackQuery"
        let (response, connections) = state.withLock { state -> (LoopbackResponse, [CheckedContinuation<NextPost, Never>]) in
            let now = Date()
            let query = body["callback_query_id"] as? String
            let chat = (body["chat_id"] as? NSNumber)?.int64Value ?? query.flatMap { state.feed.callbackChats[$0] } ?? 0
            if !isAnswer, let limits, !limits.admit(chat: chat, at: now, &state.pace) {
                state.rateLimited += 1
                return (
                    .json(["ok": false, "error_code": 429, "description": "Too Many Requests: retry after 1", "parameters": ["retry_after": 1]], status: 429),
                    []
                )
            }
            let (response, uploaded) = accept(method, chat: chat, body, form, &state)
            guard (200..<300).contains(response.status) else { return (response, []) }
            state.feed.received[chat, default: 0] += 1
            if !isAnswer && release?.start == .firstMessage && state.feed.origin == nil { state.feed.origin = now }
            observer?.accepted(
                AcceptedReply(
                    method: method, chat: chat, callbackQueryID: isAnswer ? query : nil, uploaded: uploaded, at: now,
                    text: method == "sendMessage" ? body["text"] as? String : nil, silent: (body["disable_notification"] as? Bool) == true))
            // A press held back for this chat's replies may be posted now. A long poll stopped at
            // one looks again on its own, a moment later (``getUpdates(_:)``).
            var connections: [CheckedContinuation<NextPost, Never>] = []
            if state.posting.held.contains(chat) {
                state.posting.examine.append(chat)
                connections = advance(at: now, &state)
            }
            return (response, connections)
        }
        resume([], connections)
        return response
    }

    /// What one reply does to the chat, and the answer to it; for a photo, whether it was uploaded.
    private func accept(_ method: String, chat: Int64, _ body: [String: Any], _ form: [String: FormPart]?, _ state: inout State) -> (LoopbackResponse, Bool?) {
        let markup = recording ? body["reply_markup"].flatMap(Self.jsonText) : nil
        let notFound = LoopbackResponse.json(["ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"], status: 400)
        switch method {
        case "sendMessage":
            let id = state.nextMessageID
            state.nextMessageID += 1
            if recording {
                state.messages.insert(MessageKey(chat: chat, message: id))
                let replyTo = ((body["reply_parameters"] as? [String: Any])?["message_id"] as? NSNumber)?.intValue
                let silent = (body["disable_notification"] as? Bool) == true
                state.sent.append(
                    Sent(chatID: chat, messageID: id, text: body["text"] as? String ?? "", markup: markup, replyTo: replyTo, silent: silent))
            }
            // Telegram gives the whole message back; without a transcript, only what the bot reads
            // of it, as earlier rounds of the benchmark measured.
            var message: [String: Any] = ["message_id": id, "date": 1_700_000_000, "chat": ["id": chat, "type": "private"]]
            if recording { message["text"] = body["text"] ?? "" }
            return (.json(["ok": true, "result": message]), nil)
        case "editMessageText", "editMessageReplyMarkup":
            let id = (body["message_id"] as? NSNumber)?.intValue ?? 0
            guard !recording || state.messages.contains(MessageKey(chat: chat, message: id)) else { return (notFound, nil) }
            if recording {
                let text =
                    method == "editMessageText"
                    ? body["text"] as? String ?? ""
                    : state.edits.last { $0.chatID == chat && $0.messageID == id }?.text ?? state.sent.last { $0.chatID == chat && $0.messageID == id }?.text ?? ""
                state.edits.append(Edit(chatID: chat, messageID: id, text: text, markup: markup))
            }
            return (.json(["ok": true, "result": true]), nil)
        case "answerCallbackQuery":
            if recording {
                state.answers.append(body["callback_query_id"] as? String ?? "")
                state.answerTexts.append(body["text"] as? String ?? "")
            }
            return (.json(["ok": true, "result": true]), nil)
        default:
            return photo(method, chat: chat, body, form, markup: markup, &state)
        }
    }

    /// `sendPhoto` and `editMessageMedia`: an uploaded picture gets a new `file_id`; one sent by
    /// `file_id` must be a picture uploaded before, and a photo replaced must be one (known only
    /// with a transcript: the benchmark's prepared presses name messages the fake never sent).
    private func photo(
        _ method: String, chat: Int64, _ body: [String: Any], _ form: [String: FormPart]?, markup: String?, _ state: inout State
    ) -> (LoopbackResponse, Bool?) {
        let isEdit = method == "editMessageMedia"
        let media = isEdit ? body["media"] as? [String: Any] ?? [:] : body
        let reference = (isEdit ? media["media"] : body["photo"]) as? String
        let caption = media["caption"] as? String ?? ""
        let upload: Data? =
            if let reference, reference.hasPrefix("attach://") { form?[String(reference.dropFirst("attach://".count))]?.body } else { isEdit ? nil : form?["photo"]?.body }
        let fileID: String
        if let upload {
            fileID = "photo-\(state.fileIDs.count + 1)"
            state.fileIDs.insert(fileID)
            if recording { state.files[fileID] = upload }
        } else if let reference, recording ? state.files[reference] != nil : state.fileIDs.contains(reference) {
            fileID = reference
        } else {
            return (.json(["ok": false, "error_code": 400, "description": "Bad Request: wrong file identifier/HTTP URL specified"], status: 400), nil)
        }
        var messageID = state.nextMessageID
        if isEdit {
            messageID = (body["message_id"] as? NSNumber)?.intValue ?? 0
            guard !recording || state.photoMessages.contains(MessageKey(chat: chat, message: messageID)) else {
                return (.json(["ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"], status: 400), nil)
            }
            if recording { state.edits.append(Edit(chatID: chat, messageID: messageID, text: caption, markup: markup)) }
        } else {
            state.nextMessageID += 1
            if recording {
                state.messages.insert(MessageKey(chat: chat, message: messageID))
                state.photoMessages.insert(MessageKey(chat: chat, message: messageID))
                state.sent.append(Sent(chatID: chat, messageID: messageID, text: caption, markup: markup))
            }
        }
        if recording {
            state.photos.append(Photo(chatID: chat, messageID: messageID, caption: caption, markup: markup, fileID: fileID, uploaded: upload != nil, isEdit: isEdit))
        }
        let response = LoopbackResponse.json(["ok": true, "result": [
            "message_id": messageID, "date": 1_700_000_000, "chat": ["id": chat, "type": "private"], "caption": caption,
            "photo": [
                ["file_id": "\(fileID)-small", "file_unique_id": "s", "width": 320, "height": 180],
                ["file_id": fileID, "file_unique_id": "b", "width": 1280, "height": 720],
            ],
        ]])
        return (response, upload != nil)
    }

    static func jsonText(_ value: Any) -> String? {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }
}
