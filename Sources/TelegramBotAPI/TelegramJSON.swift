import Foundation

/// The Bot API's JSON conventions: snake_case keys on the wire, camelCase in Swift.
public enum TelegramJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
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
    }

    init(from decoder: any Decoder) throws {
        if let update = try? Update(from: decoder) {
            self.update = update
        } else {
            self.update = Update(updateId: try IDOnly(from: decoder).updateId)
        }
    }
}
