/// The languages the bot speaks: Russian first, English for users whose Telegram is in English.
public enum Language: String, Codable, Sendable, Hashable, CaseIterable {
    case ru
    case en

    /// English for `en`, `en-US` and the like; Russian for everything else.
    public init(telegramCode: String?) {
        if let code = telegramCode?.lowercased(), code == "en" || code.hasPrefix("en-") {
            self = .en
        } else {
            self = .ru
        }
    }
}
