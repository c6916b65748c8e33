public import Foundation

/// What getWebhookInfo tells of the webhook: its URL (empty when none is set), the updates
/// waiting to be posted, and Telegram's last failure to post one.
public struct WebhookInfo: Decodable, Sendable, Equatable {
    /// The URL Telegram posts to; empty when the bot has no webhook (it is polling).
    public var url: String
    /// Updates Telegram holds, not yet posted or not yet accepted; zero when absent.
    public var pendingUpdateCount: Int
    /// When Telegram last failed to post an update, and why.
    public var lastErrorDate: Date?
    /// Telegram's words for that failure (a status code, a timeout); shown to the operator as they
    /// are.
    public var lastErrorMessage: String?
    /// How many connections at once Telegram opens to post updates; nil when not told.
    public var maxConnections: Int?
    /// The update kinds Telegram posts (`message`, `callback_query`…); nil when it posts its
    /// default set.
    public var allowedUpdates: [String]?

    /// What getWebhookInfo would answer, as a test or a fake Telegram makes it up.
    public init(
        url: String, pendingUpdateCount: Int = 0, lastErrorDate: Date? = nil, lastErrorMessage: String? = nil, maxConnections: Int? = nil,
        allowedUpdates: [String]? = nil
    ) {
        self.url = url
        self.pendingUpdateCount = pendingUpdateCount
        self.lastErrorDate = lastErrorDate
        self.lastErrorMessage = lastErrorMessage
        self.maxConnections = maxConnections
        self.allowedUpdates = allowedUpdates
    }

    enum CodingKeys: String, CodingKey {
        case url, pendingUpdateCount = "pending_update_count", lastErrorDate = "last_error_date", lastErrorMessage = "last_error_message"
        case maxConnections = "max_connections", allowedUpdates = "allowed_updates"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        pendingUpdateCount = try container.decodeIfPresent(Int.self, forKey: .pendingUpdateCount) ?? 0
        // Unix time, as every date of the Bot API.
        lastErrorDate = try container.decodeIfPresent(Int64.self, forKey: .lastErrorDate).map { Date(timeIntervalSince1970: TimeInterval($0)) }
        lastErrorMessage = try container.decodeIfPresent(String.self, forKey: .lastErrorMessage)
        maxConnections = try container.decodeIfPresent(Int.self, forKey: .maxConnections)
        allowedUpdates = try container.decodeIfPresent([String].self, forKey: .allowedUpdates)
    }
}
