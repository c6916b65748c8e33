import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// The favorites message (/fav) in its three modes: the list, delete buttons, up and down buttons.
enum FavoritesViews {
    /// One row of the list: a place with its weather, or nil when that could not be had.
    struct Row: Sendable {
        var place: Place
        var reference: PlaceReference
        var number: Int?
        /// The place's weather; the row shows its now, and its age when it is not fresh.
        var report: WeatherReport?
    }

    /// - Parameter owner: in a group, the member the delete buttons belong to.
    static func render(current: Row?, favorites: [Row], mode: FavoritesMode, texts: Texts, owner: Int64? = nil) -> WeatherViews.Rendered {
        var lines = [texts.favoritesTitle, ""]
        let places = ([current].compactMap { $0 } + favorites).map(\.place)
        var keyboard: [[InlineKeyboardButton]] = []
        switch mode {
        case .list:
            lines.append(current.map { line($0, texts) } ?? texts.noCurrentCity)
            lines += favorites.map { line($0, texts) }
            if favorites.isEmpty { lines += ["", texts.noFavorites] }
            let buttons = ([current].compactMap { $0 } + favorites).map { row in
                InlineKeyboardButton(text: label(row, among: places, texts), callbackData: CallbackAction.open(row.reference).encoded)
            }
            // Two places a row keeps long lists compact.
            keyboard = stride(from: 0, to: buttons.count, by: 2).map { Array(buttons[$0..<min($0 + 2, buttons.count)]) }
            // One place has nowhere to move: no «Переставить» beside it, as /move says.
            var modes: [InlineKeyboardButton] = []
            if !favorites.isEmpty {
                modes.append(InlineKeyboardButton(text: texts.deleteModeButton, callbackData: CallbackAction.favoritesMode(.delete).encoded))
            }
            if favorites.count > 1 {
                modes.append(InlineKeyboardButton(text: texts.moveModeButton, callbackData: CallbackAction.favoritesMode(.move).encoded))
            }
            if !modes.isEmpty { keyboard.append(modes) }
        case .delete:
            lines.append(favorites.isEmpty ? texts.noFavorites : texts.chooseToDelete)
            keyboard = favorites.compactMap { row in
                guard case .favorite(let id) = row.reference else { return nil }
                return [InlineKeyboardButton(text: "🗑 " + label(row, among: places, texts), callbackData: CallbackAction.deleteFavorite(id: id, by: owner).encoded)]
            }
            keyboard.append([InlineKeyboardButton(text: texts.doneButton, callbackData: CallbackAction.favoritesMode(.list).encoded)])
        case .move where favorites.count == 1:
            // An older list's «Переставить» after the others were deleted.
            lines.append(texts.onlyOneFavorite(Views.name(of: favorites[0].place, texts.language)))
            keyboard = [[InlineKeyboardButton(text: texts.doneButton, callbackData: CallbackAction.favoritesMode(.list).encoded)]]
        case .move:
            lines.append(favorites.isEmpty ? texts.noFavorites : texts.chooseToMove)
            keyboard = favorites.compactMap { row in
                guard case .favorite(let id) = row.reference else { return nil }
                return [
                    InlineKeyboardButton(text: label(row, among: places, texts), callbackData: CallbackAction.open(row.reference).encoded),
                    InlineKeyboardButton(text: "⬆️", callbackData: CallbackAction.moveFavorite(id: id, up: true).encoded),
                    InlineKeyboardButton(text: "⬇️", callbackData: CallbackAction.moveFavorite(id: id, up: false).encoded),
                ]
            }
            keyboard.append([InlineKeyboardButton(text: texts.doneButton, callbackData: CallbackAction.favoritesMode(.list).encoded)])
        }
        return WeatherViews.Rendered(text: HTML.fitting(lines.joined(separator: "\n")), keyboard: InlineKeyboardMarkup(inlineKeyboard: keyboard))
    }

    /// «📍 Саранск — -3°C, без осадков» or «2. Париж, Франция 🇫🇷 — +8°C, 🌧 0,4 мм»; weather
    /// that is not fresh ends with the views' mark: «… · ⏱ данные на 16:28».
    static func line(_ row: Row, _ texts: Texts) -> String {
        let prefix = row.number.map { "\($0)." } ?? "📍"
        let name = "<b>\(Views.name(of: row.place, texts.language))</b>\(Views.details(of: row.place, texts.language))"
        guard let report = row.report else { return "\(prefix) \(name) — \(texts.unavailable)" }
        let weather = report.forecast.current
        let line = "\(prefix) \(name) — \(WeatherViews.emoji(forIcon: weather.condition.icon, clouds: weather.clouds)) \(texts.temperature(weather.temperature)), \(precipitation(weather, texts))"
        return WeatherViews.staleMark(report, texts).map { "\(line) · \($0)" } ?? line
    }

    static func precipitation(_ weather: CurrentWeather, _ texts: Texts) -> String {
        let rain = weather.rain ?? 0
        let snow = weather.snow ?? 0
        guard rain + snow > 0 else { return texts.noPrecipitation }
        return "\(snow > rain ? "🌨" : "🌧") \(texts.precipitation(rain + snow)) \(texts.precipitationRateUnit)"
    }

    /// «1. Париж», or «1. Париж, Франция» beside another Paris.
    static func label(_ row: Row, among places: [Place], _ texts: Texts) -> String {
        let name = HTML.truncate(Views.distinctName(of: row.place, among: places, texts), maximumCharacters: 30)
        return row.number.map { "\($0). \(name)" } ?? "📍 \(name)"
    }
}
