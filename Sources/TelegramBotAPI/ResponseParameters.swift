/// Why a request failed, beyond its code and description.
public struct ResponseParameters: Codable, Sendable, Hashable {
    /// Set when a group became a supergroup: the supergroup's chat id, which messages for the group
    /// must be sent to instead.
    public var migrateToChatID: Int64?
    /// Set when the bot sent too fast: whole seconds to wait before trying again.
    public var retryAfter: Int?

    enum CodingKeys: String, CodingKey {
        case migrateToChatID = "migrate_to_chat_id", retryAfter = "retry_after"
    }

    /// Parameters as a fake Telegram sends them; nil leaves a field out.
    public init(migrateToChatID: Int64? = nil, retryAfter: Int? = nil) {
        self.migrateToChatID = migrateToChatID
        self.retryAfter = retryAfter
    }
}

/// The envelope around every Bot API answer.
struct APIResponse<Result: Decodable>: Decodable {
    var ok: Bool
    var result: Result?
    var errorCode: Int?
    var description: String?
    var parameters: ResponseParameters?

    enum CodingKeys: String, CodingKey {
        case ok, result, errorCode = "error_code", description, parameters
    }
}
