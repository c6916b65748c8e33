import Foundation
import WeatherBot
import WeatherBotStore
import WeatherBotSQLite

/// Chats written straight into a worker's database through WeatherBotStore, as the bot itself
/// would have left them, before the worker starts.
enum Seed {
    /// Chats `ids` with one daily forecast each, due now (or at `due`), in `cells` places far enough
    /// apart to need a weather call each (chat `id` is in cell `id % cells`).
    static func dailyForecastsDue(chats ids: ClosedRange<Int64>, cells: Int, at due: Date? = nil, in database: BotDatabase) async throws {
        let now = due ?? Date().addingTimeInterval(-1)
        let minute = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: now)
        let places = ids.map { id in
            let cell = Int(id % Int64(cells))
            return Place(
                name: "Place \(cell)", localNames: ["ru": "Место \(cell)"], country: "RU", latitude: 40 + Double(cell / 25) * 0.5,
                longitude: 20 + Double(cell % 25) * 0.5, timeZone: "UTC")
        }
        try await database.insert(
            chats: zip(ids, places).map { id, place in ChatRecord(id: id, language: .ru, state: .idle, currentPlace: place) },
            subscriptions: zip(ids, places).map { id, place in
                Subscription(
                    chatID: id, place: place, timeZone: "UTC", hour: minute.hour ?? 0, minute: minute.minute ?? 0,
                    nextSendAt: now)
            })
    }

    /// Chats `ids` whose city is Moscow and who were just asked «Это ваш город?» about Kazan
    /// (after sharing a location there): question number 1 is open, so «✅ Да» on it (`cy:1`) is
    /// a real confirmation.
    static func askedAboutTheirCity(chats ids: ClosedRange<Int64>, in database: BotDatabase) async throws {
        let moscow = Place(
            name: "Moscow", localNames: ["ru": "Москва"], country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
        let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], region: "Tatarstan", country: "RU", latitude: 55.79, longitude: 49.12)
        let asked = ChatState.confirmingCity(kazan)
        try await database.insert(chats: ids.map { ChatRecord(id: $0, language: .ru, state: asked, currentPlace: moscow, questionSeq: 1) })
    }

    /// Chats `ids` with one daily forecast each, due at `due` (a whole minute, UTC), two chats to a
    /// place (chat `id` is in cell `(id − first) / 2`, far enough from the others to need a weather
    /// call of its own), one Russian and one English in each.
    static func dailyForecasts(chats ids: ClosedRange<Int64>, due: Date, in database: BotDatabase) async throws {
        let minute = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: due)
        let chats = ids.map { id in
            let cell = Int((id - ids.lowerBound) / 2)
            return ChatRecord(id: id, language: id.isMultiple(of: 2) ? .ru : .en, state: .idle, currentPlace: cellPlace(cell))
        }
        try await database.insert(
            chats: chats,
            subscriptions: chats.map { chat in
                Subscription(
                    chatID: chat.id, place: chat.currentPlace!, timeZone: "UTC", hour: minute.hour ?? 0, minute: minute.minute ?? 0,
                    nextSendAt: due)
            })
    }

    /// Place number `cell` of a grid 0.5° apart (25 to a row from 40° N, 20° E): each one a
    /// weather cache cell of its own.
    static func cellPlace(_ cell: Int) -> Place {
        Place(
            name: "Place \(cell)", localNames: ["ru": "Место \(cell)"], country: "RU", latitude: 40 + Double(cell / 25) * 0.5,
            longitude: 20 + Double(cell % 25) * 0.5, timeZone: "UTC")
    }

    /// Chats whose city is set, each in its language, with nothing asked.
    static func chats(_ chats: [(id: Int64, language: Language, city: Place)], in database: BotDatabase) async throws {
        try await database.insert(chats: chats.map { ChatRecord(id: $0.id, language: $0.language, state: .idle, currentPlace: $0.city) })
    }

    /// Favorites saved in chats stored already, in order, each chat's in one step of its own as
    /// the bot commits them.
    static func favorites(_ favorites: [(chat: ChatRecord, places: [Place])], in database: BotDatabase) async throws {
        let steps = favorites.enumerated().map { index, saved in
            ReceivedStep(
                updateID: Int64(index + 1), chat: saved.chat, changes: saved.places.map { .addFavorite($0, limit: 20) }, replies: [], followUps: [])
        }
        _ = try await database.receive(steps.map { (updateID: $0.updateID, chatID: $0.chat.id, payload: Data()) }, steps: steps, lastUpdateID: 0)
    }
}
