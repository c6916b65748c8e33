public import Foundation

/// The Telegram user who opened the Mini App, as Telegram vouched for them in the launch's
/// initData: whose favorites and settings a request of the app may read and change.
public struct MiniAppUser: Sendable, Hashable {
    /// The user's Telegram id, the same as the chat id of their private chat with the bot.
    public var id: Int64
    /// The language of the user's Telegram app (an IETF tag such as `ru`), for the app's texts;
    /// nil when Telegram did not say.
    public var languageCode: String?
    /// The user's first name, to greet them.
    public var firstName: String
    /// When Telegram launched the app for them; requests of a launch older than the
    /// authenticator's `maxAge` are refused.
    public var authDate: Date

    /// A user as a checked initData describes them.
    public init(id: Int64, languageCode: String?, firstName: String, authDate: Date) {
        self.id = id
        self.languageCode = languageCode
        self.firstName = firstName
        self.authDate = authDate
    }
}
