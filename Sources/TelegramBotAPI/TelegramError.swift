public import HTTPTransport
/// A failed Bot API call.
///
/// Carries what the API said (`error_code`, `description`, `retry_after`, `migrate_to_chat_id`)
/// or why no answer was read. Its description names the method, never the URL: that holds the token.
public struct TelegramError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the call failed: at Telegram, on the way, or in reading the answer.
    public enum Code: Sendable, Hashable {
        /// The API answered `ok: false` (or an HTTP error) with this `error_code`.
        case api(Int)
        /// No HTTP answer: connection, timeout, cancellation.
        case transport
        /// An answer came that could not be decoded.
        case undecodable
        /// The answer was larger than the call allows.
        case tooLarge
    }

    /// Where the call failed, with the API's `error_code` when Telegram refused it.
    public var code: Code
    /// The Bot API method called (`sendMessage`, `getUpdates`…), for the log and for checks that
    /// depend on it.
    public var method: String
    /// What went wrong in words: the API's `description`, or a short reason; the client takes the
    /// token out of it.
    /// Read it as ``reason``; the underscore keeps it apart from ``description``.
    public var description_: String
    /// For a 429: whole seconds Telegram asks the bot to wait before it calls again.
    public var retryAfter: Int?
    /// When the group became a supergroup: the chat id to send to instead.
    public var migrateToChatID: Int64?
    /// For an answer to getUpdates that could not be read (``Code/undecodable``,
    /// ``Code/tooLarge``): the first update id it names, if any.
    public var firstUpdateID: Int64?
    /// For ``Code/transport``: what kind of failure it was, when the transport said.
    public var transport: TransportError.Code?

    /// An error as the client, the outbox sender or a test makes it; `description` becomes
    /// ``reason``.
    public init(
        code: Code, method: String, description: String, retryAfter: Int? = nil, migrateToChatID: Int64? = nil, firstUpdateID: Int64? = nil
    ) {
        self.code = code
        self.method = method
        self.description_ = description
        self.retryAfter = retryAfter
        self.migrateToChatID = migrateToChatID
        self.firstUpdateID = firstUpdateID
    }

    /// The API's `error_code`, when it gave one.
    public var errorCode: Int? {
        if case .api(let code) = code { return code }
        return nil
    }

    /// The API's own words (`description`), or a short reason when there was no answer.
    public var reason: String { description_ }

    /// One line for the log naming the method, what failed and Telegram's words, with the wait or
    /// the new chat id when given; never the URL or the token.
    public var description: String {
        var text: String
        switch code {
        case .api(let code): text = "Telegram \(method) failed with \(code): \(description_)"
        case .transport: text = "Telegram \(method) got no answer: \(description_)"
        case .undecodable: text = "Telegram \(method) answered something undecodable: \(description_)"
        case .tooLarge: text = "Telegram \(method) answered with more than allowed: \(description_)"
        }
        if let retryAfter { text += " (retry after \(retryAfter) s)" }
        if let migrateToChatID { text += " (chat migrated to \(migrateToChatID))" }
        return text
    }
}

extension TelegramError {
    /// 401: the token is not valid.
    public var isUnauthorized: Bool { errorCode == 401 || errorCode == 404 && method == "getMe" }
    /// 409: another getUpdates or a webhook is active.
    public var isConflict: Bool { errorCode == 409 }
    /// 403: the user blocked the bot, or the bot cannot write to this chat.
    public var isForbidden: Bool { errorCode == 403 }
    /// 429: flood control; `retryAfter` says for how long.
    public var isRateLimited: Bool { errorCode == 429 }
    /// Worth trying again later: 5xx, 429, or no answer at all.
    public var isTransient: Bool {
        switch code {
        case .transport: return true
        case .api(let code): return code == 429 || code >= 500
        case .undecodable, .tooLarge: return false
        }
    }
    /// No answer because Telegram's TLS certificate was not trusted: the CA certificates.
    public var isCertificateRejected: Bool { transport == .certificateRejected }
    /// An answer that came but could not be read whole: too large, or not what the API sends.
    public var isUnreadableAnswer: Bool { code == .undecodable || code == .tooLarge }
    /// Editing with the same text and buttons: harmless.
    public var isMessageNotModified: Bool {
        errorCode == 400 && description_.lowercased().contains("message is not modified")
    }
    /// A photo sent by `file_id` that Telegram no longer knows.
    public var isFileRejected: Bool {
        errorCode == 400 && description_.lowercased().contains("file identifier")
    }
    /// The message to edit is gone or can no longer be edited.
    public var isMessageUneditable: Bool {
        guard errorCode == 400 else { return false }
        let text = description_.lowercased()
        return text.contains("message to edit not found") || text.contains("message can't be edited")
    }
    /// The callback query can no longer be answered.
    public var isQueryTooOld: Bool {
        guard errorCode == 400 else { return false }
        let text = description_.lowercased()
        return text.contains("query is too old") || text.contains("query id is invalid")
    }
}
