import Foundation
import HTTPTransport

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
    /// The timeout of an ordinary call; long polls add their own poll timeout to it.
    public var requestTimeout: Duration

    public init(token: String, apiURL: URL, transport: any HTTPTransport, requestTimeout: Duration = .seconds(15)) {
        self.token = token
        self.apiURL = apiURL
        self.transport = transport
        self.requestTimeout = requestTimeout
    }

    public var description: String { "TelegramClient(\(apiURL.host ?? "?"), token: <redacted>)" }

    // MARK: Methods

    public func getMe() async throws(TelegramError) -> User {
        try await call("getMe", NoParameters())
    }

    @discardableResult
    public func deleteWebhook(dropPendingUpdates: Bool = false) async throws(TelegramError) -> Bool {
        struct Parameters: Encodable { var dropPendingUpdates: Bool }
        return try await call("deleteWebhook", Parameters(dropPendingUpdates: dropPendingUpdates))
    }

    /// Long-polls for updates. The request may take `timeout` seconds plus the ordinary request timeout.
    public func getUpdates(offset: Int64?, limit: Int = 100, timeout: Int, allowedUpdates: [String]) async throws(TelegramError) -> [Update] {
        struct Parameters: Encodable {
            var offset: Int64?
            var limit: Int
            var timeout: Int
            var allowedUpdates: [String]
        }
        let parameters = Parameters(offset: offset, limit: limit, timeout: timeout, allowedUpdates: allowedUpdates)
        let updates: [LossyUpdate] = try await call("getUpdates", parameters, timeout: requestTimeout + .seconds(timeout))
        return updates.map(\.update)
    }

    /// Sends a message; of Telegram's answer only the new message's id is read.
    public func sendMessage(chatID: Int64, text: String, replyMarkup: ReplyMarkup? = nil) async throws(TelegramError) -> SentMessage {
        struct Parameters: Encodable {
            var chatId: Int64
            var text: String
            var parseMode = "HTML"
            var linkPreviewOptions = LinkPreviewOptions()
            var replyMarkup: ReplyMarkup?
        }
        return try await call("sendMessage", Parameters(chatId: chatID, text: text, replyMarkup: replyMarkup))
    }

    public func editMessageText(chatID: Int64, messageID: Int, text: String, replyMarkup: InlineKeyboardMarkup? = nil) async throws(TelegramError) {
        struct Parameters: Encodable {
            var chatId: Int64
            var messageId: Int
            var text: String
            var parseMode = "HTML"
            var linkPreviewOptions = LinkPreviewOptions()
            var replyMarkup: InlineKeyboardMarkup?
        }
        let _: IgnoredResult = try await call(
            "editMessageText", Parameters(chatId: chatID, messageId: messageID, text: text, replyMarkup: replyMarkup))
    }

    public func editMessageReplyMarkup(chatID: Int64, messageID: Int, replyMarkup: InlineKeyboardMarkup?) async throws(TelegramError) {
        struct Parameters: Encodable {
            var chatId: Int64
            var messageId: Int
            var replyMarkup: InlineKeyboardMarkup?
        }
        let _: IgnoredResult = try await call(
            "editMessageReplyMarkup", Parameters(chatId: chatID, messageId: messageID, replyMarkup: replyMarkup))
    }

    public func answerCallbackQuery(id: String, text: String? = nil, showAlert: Bool = false) async throws(TelegramError) {
        struct Parameters: Encodable {
            var callbackQueryId: String
            var text: String?
            var showAlert: Bool?
        }
        let _: Bool = try await call(
            "answerCallbackQuery", Parameters(callbackQueryId: id, text: text, showAlert: showAlert ? true : nil))
    }

    /// Sets the command menu shown to users whose language is `languageCode`, or to everyone else when nil.
    public func setMyCommands(_ commands: [BotCommand], languageCode: String? = nil) async throws(TelegramError) {
        struct Parameters: Encodable {
            var commands: [BotCommand]
            var languageCode: String?
        }
        let _: Bool = try await call("setMyCommands", Parameters(commands: commands, languageCode: languageCode))
    }

    public func sendChatAction(chatID: Int64, action: ChatAction) async throws(TelegramError) {
        struct Parameters: Encodable {
            var chatId: Int64
            var action: String
        }
        let _: Bool = try await call("sendChatAction", Parameters(chatId: chatID, action: action.rawValue))
    }

    // MARK: Transport

    private struct NoParameters: Encodable {}

    private struct LinkPreviewOptions: Encodable {
        var isDisabled = true
    }

    /// Calls `method` with a JSON body and decodes the envelope's `result`.
    func call<Parameters: Encodable, Result: Decodable>(
        _ method: String,
        _ parameters: Parameters,
        timeout: Duration? = nil
    ) async throws(TelegramError) -> Result {
        let body: Data
        do {
            body = try TelegramJSON.encoder().encode(parameters)
        } catch {
            throw TelegramError(code: .undecodable, method: method, description: "could not encode the request")
        }
        let url = apiURL.appendingPathComponent("bot\(token)").appendingPathComponent(method)
        let request = HTTPRequest(
            method: .post,
            url: url,
            headers: ["Content-Type": "application/json"],
            body: body,
            timeout: timeout ?? requestTimeout
        )
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            throw TelegramError(code: .transport, method: method, description: error.description)
        } catch {
            throw TelegramError(code: .transport, method: method, description: String(describing: type(of: error)))
        }
        let envelope: APIResponse<Result>
        do {
            envelope = try TelegramJSON.decoder().decode(APIResponse<Result>.self, from: response.body)
        } catch {
            if response.status != 200 {
                throw TelegramError(code: .api(response.status), method: method, description: "HTTP \(response.status)")
            }
            throw TelegramError(code: .undecodable, method: method, description: "the answer did not decode")
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

    /// The API's words, with the token taken out should they ever echo it.
    private func redacted(_ text: String) -> String {
        token.isEmpty ? text : text.replacingOccurrences(of: token, with: "<redacted>")
    }
}
