public import WeatherBotStore

extension Language {
    /// Every text in this language, from its own file (`Texts+Russian.swift`, …).
    var texts: Texts {
        switch self {
        case .ru: .russian
        case .en: .english
        }
    }

    /// The same, spoken to a group: what it shares is the chat's.
    var groupTexts: Texts {
        switch self {
        case .ru: .russianInGroup
        case .en: .englishInGroup
        }
    }

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
