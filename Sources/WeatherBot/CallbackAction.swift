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
    /// «Сейчас», «По часам», «На 7 дней»: a view of a place's weather, editing the message.
    case view(WeatherView, PlaceReference)
    /// «🔄 Обновить» / «🔄 Повторить»: the same view with fresh data.
    case refresh(WeatherView, PlaceReference)

    /// The most bytes callback data may have.
    public static let maximumLength = 64

    public var encoded: String {
        switch self {
        case .confirmCity(let question): "cy:\(question)"
        case .rejectCity(let question): "cn:\(question)"
        case .chooseManually: "man"
        case .pickPlace(let question, let index): "pk:\(question):\(index)"
        case .view(let view, let place): "v:\(view.code):\(place.code)"
        case .refresh(let view, let place): "r:\(view.code):\(place.code)"
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
        case ("v", 3), ("r", 3):
            guard let view = WeatherView(code: parts[1]), let place = PlaceReference(code: parts[2]) else { return nil }
            self = parts[0] == "v" ? .view(view, place) : .refresh(view, place)
        default:
            return nil
        }
    }
}

/// Which view of the weather a message shows.
public enum WeatherView: Sendable, Hashable {
    /// The current weather card.
    case now
    /// «По часам»; `page` 0 is the rest of today, 1 tomorrow, when both do not fit in one message.
    case hourly(page: Int)
    /// «На 7 дней».
    case daily

    var code: String {
        switch self {
        case .now: "n"
        case .hourly(let page): "h\(page)"
        case .daily: "d"
        }
    }

    init?(code: Substring) {
        switch code {
        case "n": self = .now
        case "d": self = .daily
        case "h0": self = .hourly(page: 0)
        case "h1": self = .hourly(page: 1)
        default: return nil
        }
    }
}

/// Which place a weather message is about, as its buttons name it.
public enum PlaceReference: Sendable, Hashable {
    /// The chat's current city.
    case current
    /// The configured default city, for chats without one.
    case defaultCity

    var code: String {
        switch self {
        case .current: "c"
        case .defaultCity: "m"
        }
    }

    init?(code: Substring) {
        switch code {
        case "c": self = .current
        case "m": self = .defaultCity
        default: return nil
        }
    }
}
