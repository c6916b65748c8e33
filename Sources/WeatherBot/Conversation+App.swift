import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// A screen of the Mini App, which is always its user's private chat.
public enum AppScreen: Sendable, Hashable {
    /// A place's weather: the chat's city (the default city while it has none), or one of its
    /// favorites by its id, looked up among this chat's own.
    case weather(favorite: Int64?)
    /// A place found in the app, by name or by the user's location, with «⭐ В избранное».
    case place(AppPlace)
    /// The chat's city and favorites with their weather.
    case favorites
    /// Places named `query` (nil: the search field alone), namesakes told apart as /search does.
    case search(String?)
    /// Units, language and clock; notices and quiet hours; daily forecasts: the /settings, /alerts
    /// and /daily messages with the same buttons.
    case settings
}

/// A place the app found, as it asks for it again: its name and which of the places of that name
/// (the search's order, from the geocoding cache), or the point the user shared.
public enum AppPlace: Codable, Sendable, Hashable {
    case named(String, pick: Int)
    case point(latitude: Double, longitude: Double)
}

/// A change the user makes in the Mini App. It is a step of their private chat, taken in order
/// with the chat's messages, through the command that makes the same change in the chat: so the
/// chat is told as after the command, and its rules and limits hold.
public enum AppAction: Codable, Sendable, Hashable {
    /// Removes a favorite, by its id among the chat's own (as /del N does).
    case deleteFavorite(id: Int64)
    /// Moves a favorite to a position, 1 for the first (as /move N M does).
    case moveFavorite(id: Int64, to: Int)
    /// Saves a place among the favorites (as ⭐ under its card does), found by the server from
    /// what the app asked for, never from what it sent.
    case addFavorite(Place)
    /// Makes a place found the chat's city, as «📍 Сделать моим городом» under its card does.
    case makeCity(Place)
    /// A button of the settings screen, which is a button of /settings, /alerts or /daily: its
    /// callback data, pressed as in the chat (only those three messages' buttons are taken).
    case press(String)
    /// `/daily` with what was typed («8:00», «7:30 2 график»).
    case daily(String)
    /// `/alerts quiet` with what was typed («22:00-08:00», «off»).
    case quietHours(String)
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
        var context = appContext(chat: chat, userID: userID, languageCode: languageCode)
        let record = context.chat
        let texts = context.texts
        let html: String
        switch screen {
        case .weather(let favorite):
            html = await appWeather(favorite.map { .favorite($0) } ?? (record.currentPlace == nil ? .defaultCity : .current), &context)
        case .place(let wanted):
            html = await appPlace(wanted, &context)
        case .favorites:
            html = await appFavorites(&context)
        case .search(let query):
            html = await appSearch(query, &context)
        case .settings:
            html = await appSettings(&context)
        }
        return AppPage(html: html, language: texts.language)
    }

    /// The place `wanted` names for a user's private chat, found as the app's screen found it;
    /// nil when there is none (a name the geocoder no longer knows, the open sea).
    public func appLookUp(_ wanted: AppPlace, chat: ChatRecord?, userID: Int64, languageCode: String?) async -> Place? {
        var context = appContext(chat: chat, userID: userID, languageCode: languageCode)
        return try? await lookUp(wanted, &context)
    }

    /// The private chat of a user as the app reads it: as stored, or a new chat in the language
    /// Telegram gives for the user.
    private func appContext(chat: ChatRecord?, userID: Int64, languageCode: String?) -> Context {
        let now = clock.date
        let record = chat ?? ChatRecord(id: userID, language: Language(telegramCode: languageCode), state: .idle, createdAt: now, updatedAt: now)
        return Context(chat: record, state: record.state)
    }

    private func lookUp(_ wanted: AppPlace, _ context: inout Context) async throws -> Place? {
        switch wanted {
        case .named(let query, let pick):
            let places = try await geocode(query, alternatives: [], context.language, for: context.calls)
            return places.indices.contains(pick) ? places[pick] : nil
        case .point(let latitude, let longitude):
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
            return try await geocoder.places(atLatitude: latitude, longitude: longitude, language: context.language, for: context.calls).first
        }
    }

    /// A change made in the app: the command that makes it, with the favorite's number as the
    /// step finds it (the list may have changed since the app showed it). A favorite gone
    /// meanwhile is nothing to change, and nothing is said.
    func handle(_ action: AppAction, _ context: inout Context) async {
        switch action {
        case .addFavorite(let place):
            guard let list = try? await favorites(&context) else { return }
            await addFavorite(place, list: list, &context)
        case .deleteFavorite(let id):
            guard let list = try? await favorites(&context), let index = list.firstIndex(where: { $0.id == id }) else { return }
            await deleteCommand("\(index + 1)", &context)
        case .moveFavorite(let id, let position):
            guard let list = try? await favorites(&context), let index = list.firstIndex(where: { $0.id == id }), (1...list.count).contains(position),
                position != index + 1
            else { return }
            await moveCommand("\(index + 1) \(position)", &context)
        case .makeCity(let place):
            guard context.chat.currentPlace?.isSameCity(as: place) != true else { return }
            if context.chat.currentPlace != nil { context.say(context.texts.cityMade(Views.name(of: place, context.language))) }
            becomeCity(place, &context)
        case .press(let data):
            guard let pressed = CallbackAction(encoded: data), Self.appPresses(pressed) else { return }
            // No message was pressed and there is no spinner to stop. A unit or a language is
            // seen in the app and in every message after; what the chat will be sent unasked
            // (notices switched, a daily forecast cancelled) is said there as the press leaves it.
            await press(pressed, queryID: Self.appQuery, messageID: nil, &context)
            context.replies.removeAll { reply in
                if case .answer(Self.appQuery, _, _) = reply { return true }
                if case .setting = pressed { return true }
                return false
            }
        case .daily(let typed):
            await dailyCommand(typed, &context)
        case .quietHours(let typed):
            await alertsCommand("quiet " + typed, &context)
        }
    }

    /// The query id of a press made in the app, which has none: its answer is not sent.
    static let appQuery = "app"

    /// The buttons the settings screen shows: those of /settings, /alerts and /daily.
    static func appPresses(_ action: CallbackAction) -> Bool {
        switch action {
        case .setting, .notices, .cancelDaily: true
        default: false
        }
    }

    /// Saves `place` as the star under its card would, and says so in the chat; a place saved
    /// already, the chat's own city, or a full list is said as the star says it.
    private func addFavorite(_ place: Place, list: [Favorite], _ context: inout Context) async {
        let texts = context.texts
        if list.contains(where: { $0.place.isSamePlace(as: place) }) { return }
        if context.chat.currentPlace?.isSameCity(as: place) == true { return context.say(texts.ownCityIsFirst) }
        guard let all = try? await allFavorites(&context) else { return }
        if all.count >= maximumFavorites { return context.say(texts.favoritesFull(maximumFavorites)) }
        context.changes.append(.addFavorite(place, limit: maximumFavorites))
        let name = Views.distinctName(of: place, among: list.map(\.place) + [place], texts)
        context.say("\(texts.favoriteAdded): <b>\(HTML.escape(name))</b>")
    }

    private func appWeather(_ reference: PlaceReference, _ context: inout Context) async -> String {
        let texts = context.texts
        guard let place = await resolve(reference, &context) else { return AppViews.failure(.weather, texts.appPlaceGone, texts) }
        return await appWeather(place, tab: .weather, hint: reference == .defaultCity ? texts.appChooseCity : nil, star: nil, &context)
    }

    /// A place's screen, or the reason it could not be had as the chat would say it.
    private func appWeather(_ place: Place, tab: AppViews.Tab, hint: String?, star: AppViews.Star?, _ context: inout Context) async -> String {
        let texts = context.texts
        do {
            let report = try await report(.now, at: place, language: context.language, for: context.calls)
            return AppViews.place(place, report: report, texts: texts, now: clock.date, tab: tab, hint: hint, star: star)
        } catch {
            return AppViews.failure(tab, texts.weatherFailed(Views.reason(error, texts)), texts)
        }
    }

    /// A place found in the app: its screen, with the star that saves it (or says it is saved).
    private func appPlace(_ wanted: AppPlace, _ context: inout Context) async -> String {
        let texts = context.texts
        let place: Place?
        do {
            place = try await lookUp(wanted, &context)
        } catch {
            return AppViews.failure(.search, texts.weatherFailed(Views.reason(error, texts)), texts)
        }
        guard let place else { return AppViews.failure(.search, texts.appPlaceGone, texts) }
        let saved = ((try? await favorites(&context)) ?? []).first { $0.place.isSamePlace(as: place) }
        let star: AppViews.Star =
            if context.chat.currentPlace?.isSameCity(as: place) == true { .ownCity } else if let id = saved?.id { .saved(id, wanted) } else { .add(wanted) }
        return await appWeather(place, tab: .search, hint: nil, star: star, &context)
    }

    /// The /settings, /alerts and /daily messages as the chat would be sent them now, each with
    /// its buttons, and fields for what those commands take typed: quiet hours and a daily time.
    private func appSettings(_ context: inout Context) async -> String {
        let texts = context.texts
        let settings = settingsMessage(texts, epoch: SettingChoice.epoch(of: context.chat))
        var sections = [AppViews.Section(text: settings.text, keyboard: settings.keyboard, field: nil)]
        if context.chat.currentPlace != nil {
            if case .send(let text, .inline(let keyboard)?, _) = alertsMessage(context, usage: false) {
                sections.append(AppViews.Section(text: text, keyboard: keyboard, field: .quietHours))
            }
        } else {
            sections.append(AppViews.Section(text: texts.appAlertsNeedCity, keyboard: nil, field: nil))
        }
        var scratch = context
        scratch.replies = []
        await showSubscriptions(editing: nil, usage: false, &scratch)
        if case .send(let text, let markup, _)? = scratch.replies.last {
            var keyboard: InlineKeyboardMarkup?
            if case .inline(let buttons)? = markup { keyboard = buttons }
            sections.append(AppViews.Section(text: text, keyboard: keyboard, field: .daily))
        }
        return AppViews.settings(sections, texts: texts)
    }

    /// The search field, and the places named `query` when there is one.
    private func appSearch(_ query: String?, _ context: inout Context) async -> String {
        let texts = context.texts
        guard let query = query?.trimmingCharacters(in: .whitespacesAndNewlines), !query.isEmpty else {
            return AppViews.search(query: nil, found: [], texts: texts)
        }
        guard query.count <= Self.longestName else { return AppViews.search(query: query, found: [], texts: texts, note: texts.nameTooLong) }
        do {
            let places = try await geocode(query, alternatives: [], context.language, for: context.calls)
            let note = places.isEmpty ? Views.nothingFound(query, texts) : nil
            return AppViews.search(query: query, found: places, texts: texts, note: note)
        } catch {
            return AppViews.search(query: query, found: [], texts: texts, note: texts.weatherFailed(Views.reason(error, texts)))
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
