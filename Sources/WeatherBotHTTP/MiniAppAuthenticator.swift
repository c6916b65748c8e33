import BotClock
import Crypto
public import Foundation

/// Tells whether a request of the Mini App comes from the Telegram user it names.
///
/// Every request of the app carries the initData Telegram handed it at launch: a query string of
/// fields (`query_id`, `user`, `auth_date`, `signature`, …) and a `hash`, the HMAC-SHA256 of those
/// fields keyed with a secret only Telegram and the bot can derive from the bot's token. A request
/// whose hash is not that one was not launched by Telegram for that user, and one launched more
/// than ``maxAge`` ago is a replay of an old launch; both are refused before any field is read.
///
/// It keeps only the secret derived from the token, never the token, and its description shows
/// neither.
public struct MiniAppAuthenticator: Sendable {
    /// How long after Telegram launched the app its initData is still taken.
    public let maxAge: Duration
    /// HMAC-SHA256 of the bot's token keyed with "WebAppData": the key of every launch's hash.
    private let secretKey: SymmetricKey

    /// How far ahead of the server's clock a launch may be dated, for clocks slightly apart.
    static let clockSkew: TimeInterval = 60

    /// An authenticator for the bot with this token, taking launches up to `maxAge` old (a day by
    /// default).
    public init(botToken: String, maxAge: Duration = .seconds(86_400)) {
        self.secretKey = Self.secretKey(botToken: botToken)
        self.maxAge = maxAge
    }

    /// The user a request's initData vouches for, or why it is refused.
    ///
    /// The hash is checked before any field is trusted; then the launch's age, then the user.
    public func check(_ initData: String?, now: Date) throws(Refusal) -> MiniAppUser {
        guard let initData, !initData.isEmpty else { throw .missing }
        var fields = try Self.fields(of: initData)
        guard let hashText = fields.removeValue(forKey: "hash"), let hash = Self.bytes(ofHex: hashText) else {
            throw .malformed
        }
        let checked = Data(Self.dataCheckString(fields.map { ($0.key, $0.value) }).utf8)
        // Constant time: how much of a guessed hash matched must not show in the answer's timing.
        guard HMAC<SHA256>.isValidAuthenticationCode(hash, authenticating: checked, using: secretKey) else {
            throw .forged
        }
        guard let authText = fields["auth_date"], let seconds = Int64(authText) else { throw .malformed }
        let authDate = Date(timeIntervalSince1970: TimeInterval(seconds))
        let age = now.timeIntervalSince(authDate)
        guard age <= maxAge.timeInterval, age >= -Self.clockSkew else { throw .expired }
        guard let userText = fields["user"], let user = try? JSONDecoder().decode(UserFields.self, from: Data(userText.utf8)) else {
            throw .malformed
        }
        return MiniAppUser(id: user.id, languageCode: user.languageCode, firstName: user.firstName, authDate: authDate)
    }

    /// An initData as Telegram would hand it to the app for the bot with `botToken`: `fields` in
    /// their order, each percent-encoded, then their `hash`. For the tests, the browser tests and
    /// the benchmark, which launch the app without Telegram.
    ///
    /// Only unreserved characters are left as they are, so that `+`, `&`, `=`, spaces and non-ASCII
    /// text in a value (the user's JSON) reach ``check(_:now:)`` unchanged; a `hash` among `fields`
    /// is left out.
    public static func sign(_ fields: [(String, String)], botToken: String) -> String {
        let signed = fields.filter { $0.0 != "hash" }
        let code = HMAC<SHA256>.authenticationCode(
            for: Data(dataCheckString(signed).utf8), using: secretKey(botToken: botToken))
        return (signed + [("hash", hex(code))])
            .map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }
            .joined(separator: "&")
    }

    /// The initData of a launch by `user` at `authDate`, as Telegram writes it: `query_id` (when
    /// given), `user` as JSON, `auth_date` in Unix seconds, and `hash`.
    public static func sign(
        user: (id: Int64, firstName: String, languageCode: String?), authDate: Date, botToken: String,
        queryID: String? = "AAHzq0YaAAAAAPOrRhr3Jc1Q"
    ) -> String {
        let json = (try? JSONEncoder().encode(UserFields(id: user.id, firstName: user.firstName, languageCode: user.languageCode)))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var fields: [(String, String)] = []
        if let queryID { fields.append(("query_id", queryID)) }
        fields.append(("user", json))
        fields.append(("auth_date", String(Int64(authDate.timeIntervalSince1970.rounded(.down)))))
        return sign(fields, botToken: botToken)
    }
}

extension MiniAppAuthenticator: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names the type and the age it allows; never the token or the key.
    public var description: String { "MiniAppAuthenticator(maxAge: \(maxAge.timeInterval.formatted()) s)" }
    /// The same as ``description``: nothing secret to add.
    public var debugDescription: String { description }
    /// No children, so that `dump` does not walk into the key's bytes either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension MiniAppAuthenticator {
    /// Why a request's initData was refused.
    ///
    /// Its description names the reason only, never the initData, the hash or the token.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, for the endpoint's answer and the log.
        public enum Code: String, Sendable, Hashable {
            /// The request carried no initData: the app was opened outside Telegram.
            case missing
            /// The initData is not a query string Telegram writes: no hash or not 64 hex digits,
            /// a field twice, or (once the hash holds) no `auth_date` or no readable `user`.
            case malformed
            /// The hash is not the one the bot's token gives for these fields: a field was
            /// changed, or the data was signed for another bot.
            case forged
            /// The launch is older than the authenticator's `maxAge`, or dated more than a minute
            /// ahead of the server's clock.
            case expired
        }

        /// What was wrong with the initData.
        public var code: Code

        /// A refusal for this reason.
        public init(code: Code) {
            self.code = code
        }

        /// No initData.
        public static let missing = Refusal(code: .missing)
        /// Not an initData as Telegram writes it.
        public static let malformed = Refusal(code: .malformed)
        /// A hash the bot's token does not give.
        public static let forged = Refusal(code: .forged)
        /// Too old, or from the future.
        public static let expired = Refusal(code: .expired)

        /// One line naming the reason.
        public var description: String { "Mini App initData refused: \(code.rawValue)" }
    }
}

extension MiniAppAuthenticator {
    /// The user as Telegram writes it in the `user` field's JSON; the fields the bot reads.
    private struct UserFields: Codable {
        var id: Int64
        var firstName: String
        var languageCode: String?

        enum CodingKeys: String, CodingKey {
            case id
            case firstName = "first_name"
            case languageCode = "language_code"
        }
    }

    /// The key of every launch's hash: HMAC-SHA256 of the token, keyed with "WebAppData".
    private static func secretKey(botToken: String) -> SymmetricKey {
        let code = HMAC<SHA256>.authenticationCode(for: Data(botToken.utf8), using: SymmetricKey(data: Data("WebAppData".utf8)))
        return SymmetricKey(data: code)
    }

    /// What the hash is computed over: `key=value` for every field but the hash, values decoded,
    /// sorted by key, one a line. The `signature` field stays in.
    private static func dataCheckString(_ fields: [(String, String)]) -> String {
        fields.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "\n")
    }

    /// The query string's fields by key, decoded as a browser's URLSearchParams does (`+` is a
    /// space, `%XX` a byte of UTF-8); a piece without `=`, an undecodable one or a key twice is
    /// malformed.
    private static func fields(of query: String) throws(Refusal) -> [String: String] {
        var fields: [String: String] = [:]
        for piece in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = piece.firstIndex(of: "="),
                let key = decoded(piece[..<equals]), !key.isEmpty,
                let value = decoded(piece[piece.index(after: equals)...])
            else { throw .malformed }
            guard fields.updateValue(value, forKey: key) == nil else { throw .malformed }
        }
        return fields
    }

    /// A key or value with `+` read as a space and percent-escapes decoded; nil when an escape is
    /// broken or the bytes are not UTF-8.
    private static func decoded(_ part: Substring) -> String? {
        String(part.map { $0 == "+" ? " " : $0 }).removingPercentEncoding
    }

    /// The characters a key or value keeps as they are: RFC 3986's unreserved ones.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with every character but the unreserved ones percent-encoded as UTF-8, so a space is
    /// `%20`, never `+`.
    private static func percentEncoded(_ text: String) -> String {
        // Nil only for a string that is not Unicode, which a Swift string never is.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// The 32 bytes written as 64 hex digits (either case), or nil.
    private static func bytes(ofHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// The value of one hex digit, or nil.
    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The code in lowercase hex, as Telegram writes the hash.
    private static func hex(_ code: HMAC<SHA256>.MAC) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: code.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }
}
