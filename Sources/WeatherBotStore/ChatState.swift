public import Foundation

/// Where a chat's conversation stands; persisted with the chat after every step.
public enum ChatState: Codable, Sendable, Hashable {
    /// Nothing asked.
    case idle
    /// A location arrived; the city is being determined.
    case locating
    /// «Это ваш город?» was asked about this place; `then` is what the search asked to see once
    /// it is the city («погода в Казани завтра»), nil for the weather now.
    case confirmingCity(Place, then: AskedView? = nil)
    /// A city name is expected as the next text, for `purpose`.
    case awaitingCityName(SearchPurpose)
    /// A search failed for a reason of the service's; «🔄 Повторить» runs it again, or a new name is typed.
    case searchFailed(query: String, alternatives: [String] = [], purpose: SearchPurpose)
    /// A list of places was offered; one is to be picked, for `purpose`, then shown as `then`.
    case choosingPlace([Place], SearchPurpose, then: AskedView? = nil)
    /// «Удалить всё?» was asked, by this member (in a group, an administrator).
    case confirmingReset(askedBy: Int64? = nil)
    /// «Отменить все ежедневные прогнозы?» (/daily off) was asked, by this member.
    case confirmingDailyOff(askedBy: Int64? = nil)

    /// Decodes a stored state; anything unreadable (a state from a future version, damage) is `idle`.
    public init(stored data: Data) {
        // Most chats rest in `idle` between messages: no decoder for that.
        if data == Self.storedIdle {
            self = .idle
            return
        }
        self = (try? JSONDecoder().decode(ChatState.self, from: data)) ?? .idle
    }

    /// The form kept in the chat's `state` column: JSON, read back by ``init(stored:)``.
    public var stored: Data {
        if self == .idle { return Self.storedIdle }
        return (try? JSONEncoder().encode(self)) ?? Data()
    }

    private static let storedIdle = (try? JSONEncoder().encode(ChatState.idle)) ?? Data()
}

/// A view other than the weather now that a search asked for.
public enum AskedView: String, Codable, Sendable, Hashable {
    /// «…завтра»: tomorrow's hours.
    case tomorrow
    /// «…на неделю»: the seven days.
    case week
}

/// What a search by name is for.
public enum SearchPurpose: String, Codable, Sendable, Hashable {
    /// Choosing the chat's own city: one result is asked about, a pick becomes the city.
    case setCity
    /// Looking a place up: one result shows its weather, a pick shows its weather.
    case browse
}
