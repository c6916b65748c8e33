import WeatherBotStore

extension Language {
    /// Every text in this language, from its own file (`Texts+Russian.swift`, …).
    var texts: Texts {
        switch self {
        case .ru: .russian
        case .en: .english
        }
    }
}
