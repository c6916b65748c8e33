public import WeatherBotStore

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
    /// «🌦 Только погода здесь» on question `question`: the weather of the place asked about,
    /// leaving the chat's city as it is.
    case justWeather(question: Int)
    /// «Выбрать город вручную».
    case chooseManually
    /// «🔄 Повторить» under a failed search of question `question`. With the search itself
    /// (when it fits in the button), it still runs after the chat moved on to other questions.
    case retrySearch(question: Int, search: RetriedSearch? = nil)
    /// «🔄 Повторить» under a short map link whose site did not answer: the link followed again,
    /// as if sent again (only a short link of a known map that fits in the button).
    case retryMapLink(String)
    /// Result `index` of the list offered by question `question`.
    case pickPlace(question: Int, index: Int)
    /// «Сейчас», «По часам», «На 7 дней»: a view of a place's weather, editing the message.
    case view(WeatherView, PlaceReference)
    /// «🔄 Обновить» / «🔄 Повторить»: the same view with fresh data.
    case refresh(WeatherView, PlaceReference)
    /// «⭐ В избранное» (`saving` true) / «★ В избранном» (false) under a view of a place: saves
    /// it, or removes it again. Each says which it does, so a double tap does not undo itself;
    /// nil (buttons sent before they said) toggles.
    case addFavorite(WeatherView, PlaceReference, saving: Bool? = nil)
    /// «📍 Сделать моим городом» under a view of a place that is not the chat's city.
    case makeCity(WeatherView, PlaceReference)
    /// A place's button in the favorites list: its weather as a new message.
    case open(PlaceReference)
    /// A view of a place as a new message, leaving the message with the button as it is
    /// (the buttons under a daily forecast).
    case openView(WeatherView, PlaceReference)
    /// «📈 График» under a weather view: the place's chart as a new photo.
    case chart(ChartRequest.View, PlaceReference)
    /// «48 часов» / «Неделя» under a chart: the other view, replacing the photo.
    case chartView(ChartRequest.View, PlaceReference)
    /// «🗑 Удалить», «↕️ Переставить», «« Готово»: switch the favorites message between its modes.
    case favoritesMode(FavoritesMode)
    /// A delete button of the favorites message; in a group, with the member who opened it.
    case deleteFavorite(id: Int64, by: Int64? = nil)
    /// An up or down button of the favorites message.
    case moveFavorite(id: Int64, up: Bool)
    /// The answer to «Удалить всё?» of question `question`.
    case reset(confirmed: Bool, question: Int)
    /// The answer to «Отменить все ежедневные прогнозы?» (/daily off) of question `question`.
    case dailyOff(confirmed: Bool, question: Int)
    /// The cancel button of a daily forecast in the /daily list; in a group, with the member who opened it.
    case cancelDaily(id: Int64, by: Int64? = nil)
    /// A switch of the /alerts message, saying what it sets (so a double tap does not undo itself).
    case notices(NoticeSwitch, on: Bool)
    /// A choice of the /settings message, with the chat's ``SettingChoice/epoch(of:)`` when it was
    /// drawn: the message of a chat since reset is stale.
    case setting(SettingChoice, epoch: Int)

    /// The most bytes callback data may have.
    public static let maximumLength = 64

    /// The button's `callback_data`, such as `v:h0:c`: at most ``maximumLength`` bytes (a retried search drops its query to fit).
    public var encoded: String {
        switch self {
        case .confirmCity(let question): "cy:\(question)"
        case .rejectCity(let question): "cn:\(question)"
        case .justWeather(let question): "cw:\(question)"
        case .chooseManually: "man"
        case .retrySearch(let question, let search?)
        where "rq:\(question):\(search.purpose == .setCity ? "c" : "b"):\(search.query)".utf8.count <= Self.maximumLength:
            "rq:\(question):\(search.purpose == .setCity ? "c" : "b"):\(search.query)"
        case .retrySearch(let question, _): "rq:\(question)"
        case .retryMapLink(let link): "ml:\(link)"
        case .pickPlace(let question, let index): "pk:\(question):\(index)"
        case .view(let view, let place): "v:\(view.code):\(place.code)"
        case .refresh(let view, let place): "r:\(view.code):\(place.code)"
        case .addFavorite(let view, let place, let saving):
            "\(saving.map { $0 ? "fs" : "fr" } ?? "fa"):\(view.code):\(place.code)"
        case .makeCity(let view, let place): "mc:\(view.code):\(place.code)"
        case .open(let place): "o:\(place.code)"
        case .openView(let view, let place): "ov:\(view.code):\(place.code)"
        case .chart(let view, let place): "ch:\(view.rawValue):\(place.code)"
        case .chartView(let view, let place): "cv:\(view.rawValue):\(place.code)"
        case .favoritesMode(let mode): "fm:\(mode.rawValue)"
        case .deleteFavorite(let id, let member): "fd:\(id)" + (member.map { ":\($0)" } ?? "")
        case .moveFavorite(let id, let up): up ? "fu:\(id)" : "fw:\(id)"
        case .reset(let confirmed, let question): "rs:\(confirmed ? "y" : "n"):\(question)"
        case .dailyOff(let confirmed, let question): "do:\(confirmed ? "y" : "n"):\(question)"
        case .cancelDaily(let id, let member): "dc:\(id)" + (member.map { ":\($0)" } ?? "")
        case .notices(let which, let on): "al:\(which.rawValue):\(on ? "1" : "0")"
        case .setting(let choice, let epoch): "st:\(choice.code):\(epoch)"
        }
    }

    /// Reads a button's data back; nil when it is too long, of an older or unknown form, or damaged, which the bot answers as a stale button.
    public init?(encoded data: String) {
        guard data.utf8.count <= Self.maximumLength else { return nil }
        // A retried search carries its query last, which may hold colons of its own.
        if data.hasPrefix("rq:") {
            let parts = data.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard let question = Self.number(parts[1]) else { return nil }
            if parts.count == 2 { self = .retrySearch(question: question); return }
            guard parts.count == 4, parts[2] == "c" || parts[2] == "b",
                let query = RetriedSearch.query(parts[3])
            else { return nil }
            self = .retrySearch(question: question, search: RetriedSearch(query: query, purpose: parts[2] == "c" ? .setCity : .browse))
            return
        }
        // A link holds colons of its own.
        if data.hasPrefix("ml:") {
            let link = String(data.dropFirst(3))
            guard ShortMapLink.isShort(link) else { return nil }
            self = .retryMapLink(link)
            return
        }
        let parts = data.split(separator: ":", omittingEmptySubsequences: false)
        func number(_ index: Int) -> Int? {
            guard index < parts.count else { return nil }
            let part = parts[index]
            return Self.number(part)
        }
        switch (parts.first, parts.count) {
        case ("cy", 2):
            guard let question = number(1) else { return nil }
            self = .confirmCity(question: question)
        case ("cn", 2):
            guard let question = number(1) else { return nil }
            self = .rejectCity(question: question)
        case ("cw", 2):
            guard let question = number(1) else { return nil }
            self = .justWeather(question: question)
        case ("man", 1):
            self = .chooseManually
        case ("pk", 3):
            guard let question = number(1), let index = number(2) else { return nil }
            self = .pickPlace(question: question, index: index)
        case ("v", 3), ("r", 3), ("fa", 3), ("fs", 3), ("fr", 3), ("ov", 3), ("mc", 3):
            guard let view = WeatherView(code: parts[1]), let place = PlaceReference(code: parts[2]) else { return nil }
            switch parts[0] {
            case "v": self = .view(view, place)
            case "r": self = .refresh(view, place)
            case "ov": self = .openView(view, place)
            case "mc": self = .makeCity(view, place)
            case "fs": self = .addFavorite(view, place, saving: true)
            case "fr": self = .addFavorite(view, place, saving: false)
            default: self = .addFavorite(view, place)
            }
        case ("ch", 3), ("cv", 3):
            guard let view = ChartRequest.View(rawValue: String(parts[1])), let place = PlaceReference(code: parts[2]) else { return nil }
            self = parts[0] == "ch" ? .chart(view, place) : .chartView(view, place)
        case ("o", 2):
            guard let place = PlaceReference(code: parts[1]) else { return nil }
            self = .open(place)
        case ("fm", 2):
            guard let mode = FavoritesMode(rawValue: String(parts[1])) else { return nil }
            self = .favoritesMode(mode)
        case ("dc", 2), ("dc", 3), ("fd", 2), ("fd", 3):
            guard let id = number(1) else { return nil }
            var member: Int64?
            if parts.count == 3 {
                guard let user = Self.userID(parts[2]) else { return nil }
                member = user
            }
            self = parts[0] == "dc" ? .cancelDaily(id: Int64(id), by: member) : .deleteFavorite(id: Int64(id), by: member)
        case ("fu", 2), ("fw", 2):
            guard let id = number(1) else { return nil }
            self = .moveFavorite(id: Int64(id), up: parts[0] == "fu")
        case ("al", 3):
            guard let which = NoticeSwitch(rawValue: String(parts[1])), parts[2] == "1" || parts[2] == "0" else { return nil }
            self = .notices(which, on: parts[2] == "1")
        case ("st", 4):
            guard let choice = SettingChoice(key: parts[1], value: parts[2]), let epoch = Self.number(parts[3], digits: 15) else { return nil }
            self = .setting(choice, epoch: epoch)
        case ("rs", 3), ("do", 3):
            guard parts[1] == "y" || parts[1] == "n", let question = number(2) else { return nil }
            self = parts[0] == "rs" ? .reset(confirmed: parts[1] == "y", question: question) : .dailyOff(confirmed: parts[1] == "y", question: question)
        default:
            return nil
        }
    }
}

extension CallbackAction {
    /// A decimal number of 1 to 12 ASCII digits; nil for anything else (signs, spaces, other digits).
    static func number(_ text: Substring, digits: Int = 12) -> Int? {
        guard (1...digits).contains(text.count), text.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(text)
    }

    /// A Telegram user id: 1 to 16 ASCII digits (ids fit in 52 bits).
    static func userID(_ text: Substring) -> Int64? {
        number(text, digits: 16).map(Int64.init)
    }
}

/// The search a «🔄 Повторить» button runs again.
public struct RetriedSearch: Sendable, Hashable {
    /// The place name as the user typed it.
    public var query: String
    /// Whether the search was for the chat's own city or to look a place up.
    public var purpose: SearchPurpose

    /// A search to run again for `query`, with the purpose it had.
    public init(query: String, purpose: SearchPurpose) {
        self.query = query
        self.purpose = purpose
    }

    /// A query as a button may carry it: some text, no control characters.
    static func query(_ text: Substring) -> String? {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return String(text)
    }
}

/// The switches of the /alerts message.
public enum NoticeSwitch: String, Sendable, Hashable {
    /// Rain or snow within the hour.
    case rain = "r"
    /// Official warnings.
    case warnings = "w"
    /// A day of high pollen, where the chat's city has pollen data.
    case pollen = "p"
    /// Quiet hours: on (the chat's, or the default) or none.
    case quiet = "q"
}

/// The modes of the favorites message.
public enum FavoritesMode: String, Sendable, Hashable {
    case list = "l"
    case delete = "d"
    case move = "m"
}

extension WeatherView {
    /// What a search asked to see, as the chat's state keeps it while a question is open.
    var asked: AskedView? {
        switch self {
        case .now: nil
        case .hourly: .tomorrow
        case .daily: .week
        }
    }

    init(_ asked: AskedView?) {
        switch asked {
        case nil: self = .now
        case .tomorrow: self = .hourly(page: 1)
        case .week: self = .daily
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
    /// The chat's city as it was when the message was sent, by ``Place/cityMark``: after the city
    /// changed, the message's buttons still show that place.
    case city(mark: Int)
    /// The configured default city, for chats without one.
    case defaultCity
    /// One of the chat's favorites, by id (checked against the chat that pressed).
    case favorite(Int64)
    /// A place recently shown to the chat, such as a search result, by its id within the chat.
    case recent(Int)
    /// The place of one of the chat's daily forecasts, by the subscription's id.
    case subscription(Int64)

    var code: String {
        switch self {
        case .current: "c"
        case .city(let mark): "c\(mark)"
        case .defaultCity: "m"
        case .favorite(let id): "f\(id)"
        case .recent(let id): "s\(id)"
        case .subscription(let id): "t\(id)"
        }
    }

    init?(code: Substring) {
        switch code.first {
        case "c" where code.count == 1: self = .current
        case "c": guard let mark = CallbackAction.number(code.dropFirst(), digits: 4) else { return nil }; self = .city(mark: mark)
        case "m" where code.count == 1: self = .defaultCity
        case "f": guard let id = CallbackAction.number(code.dropFirst()) else { return nil }; self = .favorite(Int64(id))
        case "s": guard let id = CallbackAction.number(code.dropFirst()) else { return nil }; self = .recent(id)
        case "t": guard let id = CallbackAction.number(code.dropFirst()) else { return nil }; self = .subscription(Int64(id))
        default: return nil
        }
    }
}
