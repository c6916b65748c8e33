public import Foundation

/// What getWebhookInfo tells of the webhook: its URL (empty when none is set), the updates
/// waiting to be posted, and Telegram's last failure to post one.
public struct WebhookInfo: Decodable, Sendable, Equatable {
    public var url: String
    public var pendingUpdateCount: Int
    /// When Telegram last failed to post an update, and why.
    public var lastErrorDate: Date?
    public var lastErrorMessage: String?
    public var maxConnections: Int?
    public var allowedUpdates: [String]?

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
