/// The languages the bot speaks: Russian first, English for everyone else. Each has its texts in
/// its own file of the core, `Texts+Russian.swift`, `Texts+English.swift`, chosen in
/// `Language+Texts.swift`, where the rule for a Telegram user's language is too.
public enum Language: String, Codable, Sendable, Hashable, CaseIterable {
    case ru
    case en
}
