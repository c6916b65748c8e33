/// The parameters of one Bot API method: a call posts them as its JSON body, written by
/// ``TelegramJSON/encoded(_:)`` under the Bot API's own names.
public protocol TelegramRequest: Encodable, Sendable {
    /// The method's name, the last component of its URL.
    static var method: String { get }
}
