public import Foundation

/// The Bot API's JSON: snake_case keys on the wire, camelCase in Swift. The types Telegram sends
/// name their snake_case keys themselves, so no key is converted (a conversion that cost an
/// allocation for every key of every answer); requests and stored updates are written by
/// ``JSONWriter``.
public enum TelegramJSON {
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }
}

/// Any JSON value, read and thrown away: for results the bot does not need.
struct IgnoredResult: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// One element of getUpdates' result. An update whose known parts do not decode still yields its
/// id, so the offset moves past it instead of failing the whole batch.
struct LossyUpdate: Decodable {
    var update: Update

    private struct IDOnly: Decodable {
        var updateId: Int64

        enum CodingKeys: String, CodingKey {
            case updateId = "update_id"
        }
    }

    init(from decoder: any Decoder) throws {
        if let update = try? Update(from: decoder) {
            self.update = update
        } else {
            self.update = Update(updateId: try IDOnly(from: decoder).updateId)
        }
    }
}

extension Update {
    /// An update as Telegram posts it to a webhook: one whose known parts do not decode still
    /// yields its id (and then belongs to no chat), as in getUpdates; a body without an update id
    /// throws.
    public static func posted(_ json: Data) throws -> Update {
        try postedDecoder.decode(LossyUpdate.self, from: json).update
    }

    /// One decoder for every post: it has no settings to change, and decodes concurrently.
    private static let postedDecoder = TelegramJSON.decoder()
}
