public import Foundation
public import HTTPTransport

/// The Bot API methods the bot uses, over one ``HTTPTransport``.
///
/// The token is only ever part of request URLs; nothing this type logs, throws or prints holds it.
public struct TelegramClient: Sendable, CustomStringConvertible {
    public enum ChatAction: String, Sendable {
        case typing
    }

    private let token: String
    private let apiURL: URL
    private let transport: any HTTPTransport
    /// Each method's URL, made once: building a URL is not free, and every reply needs one.
    private let methodURLs: [String: URL]
    /// The timeout of an ordinary call; long polls add their own poll timeout to it.
    public var requestTimeout: Duration

    public init(token: String, apiURL: URL, transport: any HTTPTransport, requestTimeout: Duration = .seconds(15)) {
        self.token = token
        self.apiURL = apiURL
        self.transport = transport
        self.requestTimeout = requestTimeout
        let base = apiURL.appendingPathComponent("bot\(token)")
        methodURLs = Dictionary(uniqueKeysWithValues: Self.methods.map { ($0, base.appendingPathComponent($0)) })
    }

    /// The methods this client calls.
    private static let methods = [
        "getMe", "deleteWebhook", "setWebhook", "getWebhookInfo", "getUpdates", "sendMessage", "editMessageText", "editMessageReplyMarkup", "answerCallbackQuery",
        "setMyCommands", "sendChatAction", "getChatMember", "sendPhoto", "editMessageMedia",
    ]

    public var description: String { "TelegramClient(\(apiURL.host ?? "?"), token: <redacted>)" }

    // MARK: Methods

    public func getMe() async throws(TelegramError) -> User {
        try await call("getMe") { _ in }
    }

    @discardableResult
    public func deleteWebhook(dropPendingUpdates: Bool = false) async throws(TelegramError) -> Bool {
        try await call("deleteWebhook") { $0.field("drop_pending_updates", dropPendingUpdates) }
    }

    /// Asks Telegram to post updates of the `allowedUpdates` kinds to `url` (https, where the
    /// reverse proxy in front ends TLS), at most `maxConnections` at once, each with
    /// `secretToken` in its `X-Telegram-Bot-Api-Secret-Token` header.
    public func setWebhook(url: URL, secretToken: String, allowedUpdates: [String], maxConnections: Int) async throws(TelegramError) {
        let _: Bool = try await call("setWebhook") { json in
            json.field("url", url.absoluteString)
            json.field("secret_token", secretToken)
            json.field("max_connections", maxConnections)
            json.key("allowed_updates")
            json.array(allowedUpdates) { json, kind in json.string(kind) }
        }
    }

    /// Where Telegram posts updates now, how many wait, and its last failure to post them.
    public func getWebhookInfo() async throws(TelegramError) -> WebhookInfo {
        try await call("getWebhookInfo") { _ in }
    }

    /// Long-polls for updates. The request may take `timeout` seconds plus the ordinary request timeout.
    /// The largest getUpdates answer taken: 100 updates of the largest kind, a 4,096-character
    /// message replying to another with every character written as a 6-byte escape (as Telegram
    /// writes non-ASCII text) and their entities, are about 12 MiB.
    public static let updatesBodyLimit = 16 << 20

    /// Updates from `offset` on. An answer too large or unreadable as a whole throws an error that
    /// names its first update id, when it can be found, so that the caller can ask for fewer.
    public func getUpdates(offset: Int64?, limit: Int = 100, timeout: Int, allowedUpdates: [String]) async throws(TelegramError) -> [Update] {
        let updates: [LossyUpdate] = try await call(
            "getUpdates", timeout: requestTimeout + .seconds(timeout), maximumBodySize: Self.updatesBodyLimit
        ) { json in
            if let offset { json.field("offset", offset) }
            json.field("limit", limit)
            json.field("timeout", timeout)
            json.key("allowed_updates")
            json.array(allowedUpdates) { json, kind in json.string(kind) }
        }
        return updates.map(\.update)
    }

    /// Sends a message, its text kept within Telegram's limit; of Telegram's answer only the new
    /// message's id is read.
    public func sendMessage(chatID: Int64, text: String, replyMarkup: ReplyMarkup? = nil) async throws(TelegramError) -> SentMessage {
        try await call(.sendMessage(chatID: chatID, text: text, replyMarkup: replyMarkup))
    }

    public func editMessageText(chatID: Int64, messageID: Int, text: String, replyMarkup: InlineKeyboardMarkup? = nil) async throws(TelegramError) {
        let _: IgnoredResult = try await call(.editMessageText(chatID: chatID, target: .id(messageID), text: text, replyMarkup: replyMarkup))
    }

    public func editMessageReplyMarkup(chatID: Int64, messageID: Int, replyMarkup: InlineKeyboardMarkup?) async throws(TelegramError) {
        let _: IgnoredResult = try await call(.editMessageReplyMarkup(chatID: chatID, target: .id(messageID), replyMarkup: replyMarkup))
    }

    public func answerCallbackQuery(id: String, text: String? = nil, showAlert: Bool = false) async throws(TelegramError) {
        let _: IgnoredResult = try await call(.answerCallbackQuery(id: id, text: text, showAlert: showAlert))
    }

    /// Makes a call prepared earlier. `messageID` names the message an edit applies to when the
    /// request does not (it was written before that message was sent).
    /// - Returns: the id of the message sent, for `sendMessage`; nil for the other methods.
    public func perform(_ request: BotRequest, messageID: Int? = nil) async throws(TelegramError) -> Int? {
        precondition(!request.isPhoto, "a photo call is made with its photo")
        if request.method == .sendMessage {
            let message: SentMessage = try await call(request)
            return message.messageId
        }
        precondition(!request.isEdit || request.messageID ?? messageID != nil, "an edit names its message")
        let _: IgnoredResult = try await call(request, messageID: messageID)
        return nil
    }

    /// Sends an edit's text and buttons as a new message, for when the message it applies to is
    /// gone or was never sent; returns the new message's id.
    public func performAsNewMessage(_ request: BotRequest) async throws(TelegramError) -> Int {
        precondition(request.method == .editMessageText, "only a text edit's parameters make a message")
        let message: SentMessage = try await call(BotRequest(method: .sendMessage, parameters: request.parameters))
        return message.messageId
    }

    /// Makes a photo request with the photo its ``BotRequest/photo`` names: uploaded
    /// (`multipart/form-data`) or by `file_id`. `messageID` is as for ``perform(_:messageID:)``.
    /// - Returns: the message with the photo's `file_id`.
    public func perform(_ request: BotRequest, photo: InputPhoto, messageID: Int? = nil) async throws(TelegramError) -> SentPhoto {
        let call = try PhotoCall(request, photo: photo, messageID: messageID)
        precondition(call.method == .sendPhoto || call.messageID != nil, "an edit names its message")
        return try await self.call(call)
    }

    /// Sends a photo edit's photo, caption and buttons as a new photo message, for when the message
    /// it applies to is gone or was never sent.
    public func performAsNewPhoto(_ request: BotRequest, photo: InputPhoto) async throws(TelegramError) -> SentPhoto {
        try await call(PhotoCall(request, photo: photo, messageID: nil, method: .sendPhoto))
    }

    /// Sets the command menu shown to users whose language is `languageCode`, or to everyone else when nil.
    public func setMyCommands(_ commands: [BotCommand], languageCode: String? = nil) async throws(TelegramError) {
        let _: Bool = try await call("setMyCommands") { json in
            json.key("commands")
            json.array(commands) { json, command in
                json.object { json in
                    json.field("command", command.command)
                    json.field("description", command.description)
                }
            }
            if let languageCode { json.field("language_code", languageCode) }
        }
    }

    /// A member's standing in a chat; only its status is read.
    public func getChatMember(chatID: Int64, userID: Int64) async throws(TelegramError) -> ChatMember {
        try await call("getChatMember") { json in
            json.field("chat_id", chatID)
            json.field("user_id", userID)
        }
    }

    public func sendChatAction(chatID: Int64, action: ChatAction) async throws(TelegramError) {
        let _: Bool = try await call("sendChatAction") { json in
            json.field("chat_id", chatID)
            json.field("action", action.rawValue)
        }
    }

    // MARK: Transport

    /// The URL of a method: the token is a path component of every one.
    private func url(of method: String) -> URL {
        methodURLs[method] ?? apiURL.appendingPathComponent("bot\(token)").appendingPathComponent(method)
    }

    /// Makes a prepared call and decodes the envelope's `result`.
    private func call<Result: Decodable>(_ request: BotRequest, messageID: Int? = nil) async throws(TelegramError) -> Result {
        let id = request.isEdit ? request.messageID ?? messageID : nil
        return try await call(request.method.rawValue, body: request.parameters(messageID: id))
    }

    /// Calls `method` with the JSON object `parameters` writes and decodes the envelope's `result`.
    func call<Result: Decodable>(
        _ method: String,
        timeout: Duration? = nil,
        maximumBodySize: Int? = nil,
        parameters: (inout JSONWriter) -> Void
    ) async throws(TelegramError) -> Result {
        var json = JSONWriter()
        json.object(parameters)
        return try await call(method, body: json.data, timeout: timeout, maximumBodySize: maximumBodySize)
    }

    /// Makes a photo call, uploading the photo when it is not a `file_id`.
    private func call<Result: Decodable>(_ photo: PhotoCall) async throws(TelegramError) -> Result {
        let encoded: (contentType: String, body: Data)
        do {
            encoded = try photo.encoded()
        } catch {
            throw TelegramError(code: .transport, method: photo.method.rawValue, description: "the upload could not be written: \(error)")
        }
        return try await call(photo.method.rawValue, body: encoded.body, contentType: encoded.contentType)
    }

    /// Posts `body` to `method` and decodes the envelope's `result`.
    private func call<Result: Decodable>(
        _ method: String,
        body: Data,
        contentType: String = "application/json",
        timeout: Duration? = nil,
        maximumBodySize: Int? = nil
    ) async throws(TelegramError) -> Result {
        let request = HTTPRequest(
            method: .post,
            url: url(of: method),
            headers: ["Content-Type": contentType],
            body: body,
            timeout: timeout ?? requestTimeout,
            maximumBodySize: maximumBodySize
        )
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw TelegramError(
                code: error.code == .tooLarge ? .tooLarge : .transport, method: method, description: redacted(error.description),
                firstUpdateID: error.bodyStart.flatMap(Self.firstUpdateID))
        }
        let envelope: APIResponse<Result>
        do {
            envelope = try TelegramJSON.decoder().decode(APIResponse<Result>.self, from: response.body)
        } catch {
            if response.status != 200 {
                throw TelegramError(code: .api(response.status), method: method, description: "HTTP \(response.status)")
            }
            throw TelegramError(
                code: .undecodable, method: method, description: "the answer did not decode", firstUpdateID: Self.firstUpdateID(in: response.body))
        }
        if envelope.ok, let result = envelope.result {
            return result
        }
        throw TelegramError(
            code: .api(envelope.errorCode ?? response.status),
            method: method,
            description: redacted(envelope.description ?? "no description"),
            retryAfter: envelope.parameters?.retryAfter,
            migrateToChatID: envelope.parameters?.migrateToChatId
        )
    }

    /// The number after the first `"update_id":` in a JSON text, complete or cut short.
    static func firstUpdateID(in data: Data) -> Int64? {
        let bytes = [UInt8](data)
        let key = Array(#""update_id""#.utf8)
        guard bytes.count > key.count,
            let start = (0...(bytes.count - key.count)).first(where: { bytes[$0..<$0 + key.count].elementsEqual(key) })
        else { return nil }
        var index = start + key.count
        while index < bytes.count, [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(ascii: "\t")].contains(bytes[index]) {
            index += 1
        }
        let digits = bytes[index...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
        // A number cut off by the end of the bytes may be missing digits: not trusted.
        guard index + digits.count < bytes.count else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }

    /// Words that came from elsewhere, with the token taken out should they ever echo it,
    /// percent-encoded or not.
    private func redacted(_ text: String) -> String {
        text.redacting(token)
    }
}
