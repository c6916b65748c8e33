import BotClock
import Foundation
import OpenWeather
public import WeatherBotStore

/// A screen of the Mini App, which is always its user's private chat.
public enum AppScreen: Sendable, Hashable {
    /// A place's weather: the chat's city (the default city while it has none), or one of its
    /// favorites by its id, looked up among this chat's own.
    case weather(favorite: Int64?)
    /// The chat's city and favorites with their weather.
    case favorites
}

/// A change the user makes in the Mini App. It is a step of their private chat, taken in order
/// with the chat's messages, through the command that makes the same change in the chat: so the
/// chat is told as after the command, and its rules and limits hold.
public enum AppAction: Codable, Sendable, Hashable {
    /// Removes a favorite, by its id among the chat's own (as /del N does).
    case deleteFavorite(id: Int64)
    /// Moves a favorite to a position, 1 for the first (as /move N M does).
    case moveFavorite(id: Int64, to: Int)
}

/// A screen drawn for the app: an HTML fragment in the chat's language.
public struct AppPage: Sendable, Hashable {
    /// The fragment the page puts in place.
    public var html: String
    /// The language it is written in, which the page takes for itself.
    public var language: Language
}

extension Conversation {
    /// Draws `screen` for a user's private chat as the chat would show it: its units, language and
    /// city, the same reports through the same caches, paid from the chat's own share of calls.
    /// Nothing is changed: a screen is a look, as a press on «Сейчас» under a card is.
    /// - Parameters:
    ///   - chat: the chat's record; nil for a user who has not written to the bot yet, drawn as a
    ///     new chat in the language Telegram gives for the user.
    ///   - userID: the user, whose private chat has the same id.
    public func appPage(_ screen: AppScreen, chat: ChatRecord?, userID: Int64, languageCode: String?) async -> AppPage {
        let now = clock.date
        let record = chat ?? ChatRecord(id: userID, language: Language(telegramCode: languageCode), state: .idle, createdAt: now, updatedAt: now)
        var context = Context(chat: record, state: record.state)
        let texts = context.texts
        let html: String
        switch screen {
        case .weather(let favorite):
            html = await appWeather(favorite.map { .favorite($0) } ?? (record.currentPlace == nil ? .defaultCity : .current), &context)
        case .favorites:
            html = await appFavorites(&context)
        }
        return AppPage(html: html, language: texts.language)
    }

    /// A change made in the app: the command that makes it, with the favorite's number as the
    /// step finds it (the list may have changed since the app showed it). A favorite gone
    /// meanwhile is nothing to change, and nothing is said.
    func handle(_ action: AppAction, _ context: inout Context) async {
        guard let list = try? await favorites(&context) else { return }
        switch action {
        case .deleteFavorite(let id):
            guard let index = list.firstIndex(where: { $0.id == id }) else { return }
            await deleteCommand("\(index + 1)", &context)
        case .moveFavorite(let id, let position):
            guard let index = list.firstIndex(where: { $0.id == id }), (1...list.count).contains(position), position != index + 1 else { return }
            await moveCommand("\(index + 1) \(position)", &context)
        }
    }

    private func appWeather(_ reference: PlaceReference, _ context: inout Context) async -> String {
        let texts = context.texts
        guard let place = await resolve(reference, &context) else { return AppViews.failure(.weather, texts.appPlaceGone, texts) }
        do {
            let report = try await report(.now, at: place, language: context.language, for: context.calls)
            let hint = reference == .defaultCity ? texts.appChooseCity : nil
            return AppViews.place(place, report: report, texts: texts, now: clock.date, hint: hint)
        } catch {
            return AppViews.failure(.weather, texts.weatherFailed(Views.reason(error, texts)), texts)
        }
    }

    private func appFavorites(_ context: inout Context) async -> String {
        let texts = context.texts
        guard let list = try? await favorites(&context) else {
            return AppViews.failure(.favorites, texts.weatherFailed(texts.reasonServer), texts)
        }
        let (current, rows) = await favoriteRows(list, withWeather: true, &context)
        return AppViews.favorites(current: current, favorites: rows, texts: texts)
    }
}
