import WeatherBotStore

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
}
