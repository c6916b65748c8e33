import Foundation
import WeatherBotStore

/// Where a chat's conversation stands; persisted with the chat after every step.
public enum ChatState: Codable, Sendable, Hashable {
    /// Nothing asked.
    case idle
    /// A location arrived; the city is being determined.
    case locating
    /// «Это ваш город?» was asked about this place.
    case confirmingCity(Place)
    /// A city name is expected as the next text.
    case awaitingCityName
    /// A list of places was offered; one is to be picked.
    case choosingPlace([Place])

    /// Decodes a stored state; anything unreadable (a state from a future version, damage) is `idle`.
    public init(stored data: Data) {
        self = (try? JSONDecoder().decode(ChatState.self, from: data)) ?? .idle
    }

    public var stored: Data {
        (try? JSONEncoder().encode(self)) ?? Data()
    }
}
