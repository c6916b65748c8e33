/// What an inline button asks for, encoded into its `callback_data` (at most 64 bytes).
///
/// Questions carry the chat's question number, so a button of an older question is recognised as
/// stale instead of acting on a state that has moved on. Decoding is defensive: anything that is
/// not exactly one of these encodings is `nil`.
public enum CallbackAction: Sendable, Hashable {
    /// «✅ Да, всё верно» on question `question`.
    case confirmCity(question: Int)
    /// «Нет, выбрать другой» on question `question`.
    case rejectCity(question: Int)
    /// «Выбрать город вручную».
    case chooseManually
    /// Result `index` of the list offered by question `question`.
    case pickPlace(question: Int, index: Int)
    /// «🔄 Повторить» / refresh: the weather of the chat's current city.
    case showWeather

    /// The most bytes callback data may have.
    public static let maximumLength = 64

    public var encoded: String {
        switch self {
        case .confirmCity(let question): "cy:\(question)"
        case .rejectCity(let question): "cn:\(question)"
        case .chooseManually: "man"
        case .pickPlace(let question, let index): "pk:\(question):\(index)"
        case .showWeather: "wx"
        }
    }

    public init?(encoded data: String) {
        guard data.utf8.count <= Self.maximumLength else { return nil }
        let parts = data.split(separator: ":", omittingEmptySubsequences: false)
        func number(_ index: Int) -> Int? {
            guard index < parts.count else { return nil }
            let part = parts[index]
            guard (1...9).contains(part.count), part.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return Int(part)
        }
        switch (parts.first, parts.count) {
        case ("cy", 2):
            guard let question = number(1) else { return nil }
            self = .confirmCity(question: question)
        case ("cn", 2):
            guard let question = number(1) else { return nil }
            self = .rejectCity(question: question)
        case ("man", 1):
            self = .chooseManually
        case ("pk", 3):
            guard let question = number(1), let index = number(2) else { return nil }
            self = .pickPlace(question: question, index: index)
        case ("wx", 1):
            self = .showWeather
        default:
            return nil
        }
    }
}
