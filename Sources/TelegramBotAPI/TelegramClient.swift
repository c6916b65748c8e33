public import Foundation
public import HTTPTransport

/// The Bot API methods the bot uses, over one ``HTTPTransport``.
///
/// The token is only ever part of request URLs; nothing this type logs, throws or prints holds it.
public struct TelegramClient: Sendable, CustomStringConvertible {
    /// What the chat is shown the bot doing while an answer is on its way.
    public enum ChatAction: String, Sendable {
        /// «typing…» under the chat's name.
        case typing
    }

    private let token: String
    private let apiURL: URL
    private let transport: any HTTPTransport
    /// Each method's URL, made once: building a URL is not free, and every reply needs one.
    private let methodURLs: [String: URL]
    /// The timeout of an ordinary call; long polls add their own poll timeout to it.
    public var requestTimeout: Duration

    /// - Parameters:
    ///   - token: the bot's token from BotFather; it goes into every method's URL and nowhere else.
    ///   - apiURL: the Bot API server: Telegram's (`https://api.telegram.org`), a local one, or a
    ///     test's fake.
    ///   - requestTimeout: how long an ordinary call may take; a long poll gets its poll timeout on
    ///     top.
    public init(token: String, apiURL: URL, transport: any HTTPTransport, requestTimeout: Duration = .seconds(15)) {
        self.token = token
        self.apiURL = apiURL
        self.transport = transport
        self.requestTimeout = requestTimeout
        let base = apiURL.appendingPathComponent("bot\(token)")
        methodURLs = Dictionary(uniqueKeysWithValues: Self.methods.map { ($0, base.appendingPathComponent($0)) })
    }

    /// The methods this client calls.
    private static let methods =
        [GetMe.method, DeleteWebhook.method, SetWebhook.method, GetWebhookInfo.method, GetUpdates.method, SetMyCommands.method, SetChatMenuButton.method, SendChatAction.method, GetChatMember.method, AnswerInlineQuery.method]
        + BotRequest.Method.allCases.map(\.rawValue)

    /// The API's host, the token redacted: safe for the log.
    public var description: String { "TelegramClient(\(apiURL.host ?? "?"), token: <redacted>)" }

    // MARK: Methods

    /// The bot itself: a call that proves the token works (a refused token is
    /// ``TelegramError/isUnauthorized``) and tells the bot's username, which group messages
    /// address.
    public func getMe() async throws(TelegramError) -> User {
        try await call(GetMe())
    }

    /// Removes the webhook, so that getUpdates may be used; true when Telegram did so (also when
    /// there was none). With `dropPendingUpdates`, the updates waiting are thrown away too.
    @discardableResult
    public func deleteWebhook(dropPendingUpdates: Bool = false) async throws(TelegramError) -> Bool {
        try await call(DeleteWebhook(dropPendingUpdates: dropPendingUpdates))
    }

    /// Asks Telegram to post updates of the `allowedUpdates` kinds to `url` (https, where the
    /// reverse proxy in front ends TLS), at most `maxConnections` at once, each with
    /// `secretToken` in its `X-Telegram-Bot-Api-Secret-Token` header.
    public func setWebhook(url: URL, secretToken: String, allowedUpdates: [String], maxConnections: Int) async throws(TelegramError) {
        let _: Bool = try await call(
            SetWebhook(url: url.absoluteString, secretToken: secretToken, maxConnections: maxConnections, allowedUpdates: allowedUpdates))
    }

    /// Where Telegram posts updates now, how many wait, and its last failure to post them.
    public func getWebhookInfo() async throws(TelegramError) -> WebhookInfo {
        try await call(GetWebhookInfo())
    }

    /// The largest getUpdates answer taken: 100 updates of the largest kind, a 4,096-character
    /// message replying to another with every character written as a 6-byte escape (as Telegram
    /// writes non-ASCII text) and their entities, are about 12 MiB.
    public static let updatesBodyLimit = 16 << 20

    /// Long-polls for updates from `offset` on: Telegram answers as soon as there are any, or with
    /// none after `timeout` seconds, so the request may take that long plus ``requestTimeout``. An
    /// answer too large or unreadable as a whole throws an error that names its first update id,
    /// when it can be found, so that the caller can ask for fewer.
    public func getUpdates(offset: Int64?, limit: Int = 100, timeout: Int, allowedUpdates: [String]) async throws(TelegramError) -> [Update] {
        let updates: [LossyUpdate] = try await call(
            GetUpdates(offset: offset, limit: limit, timeout: timeout, allowedUpdates: allowedUpdates),
            timeout: requestTimeout + .seconds(timeout), maximumBodySize: Self.updatesBodyLimit)
        return updates.map(\.update)
    }

    /// Makes a call prepared earlier; an edit names its message (``BotRequest/messageID``). Of
    /// Telegram's answer only a new message's id is read.
    /// - Returns: the id of the message sent, for `sendMessage`; nil for the other methods.
    public func perform(_ request: BotRequest) async throws(TelegramError) -> Int? {
        precondition(!request.isPhoto, "a photo call is made with its photo")
        precondition(!request.isEdit || request.messageID != nil, "an edit names its message")
        if request.method == .sendMessage {
            let message: SentMessage = try await call(request.method.rawValue, body: request.parameters)
            return message.messageID
        }
        let _: IgnoredResult = try await call(request.method.rawValue, body: request.parameters)
        return nil
    }

    /// Makes a photo request with the photo its ``BotRequest/photo`` names: uploaded
    /// (`multipart/form-data`) or by `file_id`. An edit names its message, as for ``perform(_:)``.
    /// - Returns: the message with the photo's `file_id`.
    public func perform(_ request: BotRequest, photo: InputPhoto) async throws(TelegramError) -> SentPhoto {
        precondition(request.isPhoto, "a photo call sends or replaces a photo")
        precondition(!request.isEdit || request.messageID != nil, "an edit names its message")
        let call = PhotoCall(request, photo: photo)
        let encoded: (contentType: String, body: Data)
        do {
            encoded = try call.encoded()
        } catch {
            throw TelegramError(code: .transport, method: request.method.rawValue, description: "the upload could not be written: \(error)")
        }
        return try await self.call(request.method.rawValue, body: encoded.body, contentType: encoded.contentType)
    }

    /// Offers the results of an inline query.
    public func answerInlineQuery(_ answer: AnswerInlineQuery) async throws(TelegramError) {
        let _: Bool = try await call(answer)
    }

    /// Edits a message sent from an inline result.
    public func editInlineMessageText(_ edit: EditInlineMessageText) async throws(TelegramError) {
        let _: IgnoredResult = try await call(edit)
    }

    /// Sets the command menu shown to users whose language is `languageCode`, or to everyone else when nil.
    public func setMyCommands(_ commands: [BotCommand], languageCode: String? = nil) async throws(TelegramError) {
        let _: Bool = try await call(SetMyCommands(commands: commands, languageCode: languageCode))
    }

    /// Makes the bot's default menu button, beside every private chat's message field, open the
    /// Mini App at `url`, labelled `text`.
    public func setMenuButton(_ text: String, opening url: String) async throws(TelegramError) {
        let _: Bool = try await call(SetChatMenuButton(menuButton: .init(text: text, webApp: WebAppInfo(url: url))))
    }

    /// A member's standing in a chat; only its status is read.
    public func getChatMember(chatID: Int64, userID: Int64) async throws(TelegramError) -> ChatMember {
        try await call(GetChatMember(chatID: chatID, userID: userID))
    }

    /// Shows `action` in the chat until the bot's next message arrives there, for five seconds at
    /// most; the bot sends it once, for an answer that is slow to come.
    public func sendChatAction(chatID: Int64, action: ChatAction) async throws(TelegramError) {
        let _: Bool = try await call(SendChatAction(chatID: chatID, action: action.rawValue))
    }

    // MARK: Transport

    /// The URL of a method: the token is a path component of every one.
    private func url(of method: String) -> URL {
        methodURLs[method] ?? apiURL.appendingPathComponent("bot\(token)").appendingPathComponent(method)
    }

    /// Calls `request`'s method with its JSON and decodes the envelope's `result`.
    private func call<Request: TelegramRequest, Result: Decodable>(
        _ request: Request, timeout: Duration? = nil, maximumBodySize: Int? = nil
    ) async throws(TelegramError) -> Result {
        try await call(Request.method, body: TelegramJSON.encoded(request), timeout: timeout, maximumBodySize: maximumBodySize)
    }

    /// Posts `body` to `method` and decodes the envelope's `result`.
    private func call<Result: Decodable>(
        _ method: String,
        body: Data,
        contentType: String = "application/json",
        timeout: Duration? = nil,
        maximumBodySize: Int? = nil
    ) async throws(TelegramError) -> Result {
        let request = TransportRequest(
            method: .post,
            url: url(of: method),
            headers: ["Content-Type": contentType],
            body: body,
            timeout: timeout ?? requestTimeout,
            maximumBodySize: maximumBodySize
        )
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            var failure = TelegramError(
                code: error.code == .tooLarge ? .tooLarge : .transport, method: method, description: redacted(error.description),
                firstUpdateID: error.bodyStart.flatMap(Self.firstUpdateID))
            failure.transport = error.code
            throw failure
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
            migrateToChatID: envelope.parameters?.migrateToChatID
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
