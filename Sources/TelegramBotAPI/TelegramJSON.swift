public import Foundation

/// The Bot API's JSON: snake_case keys on the wire, camelCase in Swift. Every type names its
/// snake_case keys itself, so no key is converted (a conversion that cost an allocation for every
/// key of every answer). Requests, and the updates and requests the store keeps, are written by
/// ``encoded(_:)``: their `Encodable` form, by one encoder configuration.
///
/// The values on the busiest paths (the requests of messages, edits and answers, and the updates
/// the inbox keeps) also write themselves field by field (``JSONWritable``), which costs a seventh
/// of a `JSONEncoder` pass: measured with weatherbot-bench, the encoder alone added a fifth to the
/// CPU of an update in a backlog (BENCHMARKS.md). Tests hold what each writes to what its
/// `Encodable` form gives.
public enum TelegramJSON {
    /// A decoder for Telegram's answers and the stored updates, with no key conversion: each type
    /// names its snake_case keys. Unknown fields are skipped.
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// The one way a request or a stored update is written: keys sorted, so that the same value
    /// always gives the same bytes, and `/` left as it is.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One encoder for every call: its settings never change, and it encodes concurrently.
    private static let shared = encoder()

    /// `value` as JSON.
    ///
    /// The Bot API's types hold strings, integers, booleans and coordinates Telegram sent, and
    /// nothing JSON cannot write; encoding one cannot fail.
    public static func encoded(_ value: some Encodable) -> Data {
        if let writable = value as? any JSONWritable { return writable.jsonData }
        do {
            return try shared.encode(value)
        } catch {
            preconditionFailure("a Bot API value did not encode: \(error)")
        }
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
        var updateID: Int64

        enum CodingKeys: String, CodingKey {
            case updateID = "update_id"
        }
    }

    init(from decoder: any Decoder) throws {
        if let update = try? Update(from: decoder) {
            self.update = update
        } else {
            self.update = Update(updateID: try IDOnly(from: decoder).updateID)
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
