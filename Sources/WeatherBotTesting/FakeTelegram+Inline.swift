public import Foundation

// Inline mode as a user meets it: a query typed after the bot's name, the results offered, one
// of them sent into a chat, and its buttons pressed there by anyone.

extension FakeTelegram {
    /// One `answerInlineQuery` the bot made.
    public struct InlineAnswer: Sendable, Equatable {
        /// One result offered.
        public struct Result: Sendable, Equatable {
            /// The result's id, which the message sent from it names.
            public var id: String
            /// The title shown in the list.
            public var title: String
            /// The line under the title; nil when none.
            public var description: String?
            /// The message the result sends, and its buttons (JSON).
            public var messageText: String
            /// The buttons of that message as JSON text; nil when none.
            public var markup: String?
        }

        /// The inline query answered.
        public var queryID: String
        /// The results offered, in order.
        public var results: [Result]
        /// `cache_time` in seconds; nil when the bot left Telegram's default.
        public var cacheTime: Int?
        /// `is_personal`: whether Telegram keeps the results cached for this user alone; nil when left out.
        public var isPersonal: Bool?
        /// The button above the results, and the `/start` parameter it opens the bot's chat with.
        public var buttonText: String?
        /// The parameter of that `/start`, when there is a button.
        public var startParameter: String?
        /// When the answer was accepted.
        public var at: Date
    }

    /// A message sent from an inline result, as the chat it went to shows it now.
    public struct InlineMessage: Sendable, Equatable {
        /// The `inline_message_id` Telegram gives it, which edits name.
        public var id: String
        /// Its text now, HTML tags included.
        public var text: String
        /// Its buttons now, as JSON text; nil when none.
        public var markup: String?
        /// How many times the bot edited it.
        public var edits: Int
        /// When each edit was accepted.
        public var editedAt: [Date] = []
    }

    /// A user types `@bot query` in some chat; returns the query's id.
    @discardableResult
    public func sendInlineQuery(
        _ text: String, from userID: Int64, language: String = "ru", chatType: String = "private", location: (latitude: Double, longitude: Double)? = nil
    ) -> String {
        let id = "iq\(Int.random(in: 1...1_000_000_000))"
        var query: [String: Any] = [
            "id": id, "from": ["id": userID, "is_bot": false, "first_name": "Tester", "language_code": language], "query": text, "offset": "",
            "chat_type": chatType,
        ]
        if let location { query["location"] = ["latitude": location.latitude, "longitude": location.longitude] }
        enqueueUpdate(["inline_query": query])
        return id
    }

    /// The user picks result `index` of the answer to `queryID`: its message goes into a chat, with
    /// an `inline_message_id` of its own, which this returns.
    public func chooseInlineResult(_ index: Int, of queryID: String) throws -> String {
        try state.withLock { state in
            guard let answer = state.inlineAnswers.last(where: { $0.queryID == queryID }), answer.results.indices.contains(index) else {
                throw ButtonNotFound(label: "result \(index) of \(queryID)", messageID: 0)
            }
            let result = answer.results[index]
            let id = "im\(state.inlineMessages.count + 1)"
            state.inlineMessages.append(InlineMessage(id: id, text: result.messageText, markup: result.markup, edits: 0))
            return id
        }
    }

    /// Someone in the chat the inline message went to presses its button whose text contains `label`.
    public func pressInline(_ label: String, on inlineMessageID: String, by userID: Int64, language: String = "ru") throws -> String {
        let markup = state.withLock { $0.inlineMessages.first { $0.id == inlineMessageID }?.markup }
        guard let markup, let data = Self.callbackData(label, in: markup) else {
            throw ButtonNotFound(label: label, messageID: 0)
        }
        let id = "q\(Int.random(in: 1...1_000_000_000))"
        enqueueUpdate(["callback_query": [
            "id": id, "from": ["id": userID, "is_bot": false, "first_name": "Friend", "language_code": language], "chat_instance": "x",
            "inline_message_id": inlineMessageID, "data": data,
        ]])
        return id
    }

    /// The message sent from an inline result, as it shows now.
    public func inlineMessage(_ id: String) -> InlineMessage? {
        state.withLock { state in state.inlineMessages.first { $0.id == id } }
    }

    /// `answerInlineQuery`: never limited (it is not a message), kept and told to the observer.
    func answerInline(_ body: [String: Any]) -> LoopbackResponse {
        let queryID = body["inline_query_id"] as? String ?? ""
        guard let results = body["results"] as? [[String: Any]], results.count <= 50 else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: RESULTS_TOO_MUCH"], status: 400)
        }
        var ids = Set<String>()
        var parsed: [InlineAnswer.Result] = []
        for result in results {
            guard result["type"] as? String == "article", let id = result["id"] as? String, !id.isEmpty, id.utf8.count <= 64, ids.insert(id).inserted,
                let title = result["title"] as? String, !title.isEmpty,
                let content = result["input_message_content"] as? [String: Any], let text = content["message_text"] as? String, !text.isEmpty
            else {
                return .json(["ok": false, "error_code": 400, "description": "Bad Request: RESULT_INVALID"], status: 400)
            }
            parsed.append(
                InlineAnswer.Result(
                    id: id, title: title, description: result["description"] as? String, messageText: text,
                    markup: result["reply_markup"].flatMap(Self.jsonText)))
        }
        let button = body["button"] as? [String: Any]
        let answer = InlineAnswer(
            queryID: queryID, results: parsed, cacheTime: (body["cache_time"] as? NSNumber)?.intValue, isPersonal: body["is_personal"] as? Bool,
            buttonText: button?["text"] as? String, startParameter: button?["start_parameter"] as? String, at: Date())
        state.withLock { state in
            if recording { state.inlineAnswers.append(answer) }
            observer?.accepted(AcceptedReply(method: "answerInlineQuery", chat: 0, callbackQueryID: nil, uploaded: nil, at: answer.at, inlineQueryID: queryID))
        }
        return .json(["ok": true, "result": true])
    }

    /// `editMessageText` of a message sent from an inline result.
    func editInline(_ body: [String: Any]) -> LoopbackResponse {
        let id = body["inline_message_id"] as? String ?? ""
        let markup = body["reply_markup"].flatMap(Self.jsonText)
        return state.withLock { state in
            guard let index = state.inlineMessages.firstIndex(where: { $0.id == id }) else {
                return .json(["ok": false, "error_code": 400, "description": "Bad Request: MESSAGE_ID_INVALID"], status: 400)
            }
            // Paced as a chat's messages, keyed apart from every chat.
            if let limits, !limits.admit(chat: Int64.min + Int64(index), at: Date(), &state.pace) {
                state.rateLimited += 1
                return .json(["ok": false, "error_code": 429, "description": "Too Many Requests: retry after 1", "parameters": ["retry_after": 1]], status: 429)
            }
            let text = body["text"] as? String ?? ""
            if state.inlineMessages[index].text == text && state.inlineMessages[index].markup == markup {
                return .json(
                    ["ok": false, "error_code": 400, "description": "Bad Request: message is not modified: specified new message content and reply markup are exactly the same"],
                    status: 400)
            }
            state.inlineMessages[index].text = text
            state.inlineMessages[index].markup = markup
            state.inlineMessages[index].edits += 1
            state.inlineMessages[index].editedAt.append(Date())
            observer?.accepted(AcceptedReply(method: "editMessageText", chat: 0, callbackQueryID: nil, uploaded: nil, at: Date()))
            return .json(["ok": true, "result": true])
        }
    }
}
