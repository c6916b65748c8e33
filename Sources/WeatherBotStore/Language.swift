/// The languages the bot speaks: Russian first, English for everyone else. Each has its texts in
/// its own file of the core, `Texts+Russian.swift`, `Texts+English.swift`, chosen in
/// `Language+Texts.swift`.
public enum Language: String, Codable, Sendable, Hashable, CaseIterable {
    case ru
    case en

    /// Languages whose speakers mostly read Russian more easily than English.
    public static let readersOfRussian: Set<String> = ["ru", "uk", "be", "kk"]

    /// Russian for `ru`, `uk`, `be`, `kk` (with any region) and when Telegram gives no language;
    /// English for every other language: a German user reads English more likely than Russian.
    public init(telegramCode: String?) {
        guard let code = telegramCode?.lowercased(), !code.isEmpty else {
            self = .ru
            return
        }
        let base = code.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? code
        self = Self.readersOfRussian.contains(base) ? .ru : .en
    }
}
