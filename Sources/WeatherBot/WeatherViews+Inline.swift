public import Foundation
import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

extension WeatherViews {
    /// A view as a message sent from an inline result shows it: the text a private chat gets,
    /// under «Сейчас», «По часам», «На 7 дней» and «🔄 Обновить», whose data carry the place's
    /// point and the message's language (``InlineButton``), since the message belongs to no chat.
    public static func inline(_ view: WeatherView, place: Place, report: WeatherReport, texts: Texts, now: Date) -> Rendered {
        let shown = text(view, place: place, report: report, texts: texts, now: now)
        func data(_ target: WeatherView, refresh: Bool) -> String {
            InlineButton(view: target, refresh: refresh, language: texts.language, latitude: place.latitude, longitude: place.longitude).encoded
        }
        var rows = viewRows(shown.view, texts, hourlyPageCount: shown.pageCount) { data($0, refresh: false) }
        rows.append([InlineKeyboardButton(text: texts.refreshButton, callbackData: data(shown.view, refresh: true))])
        return Rendered(text: shown.text, keyboard: InlineKeyboardMarkup(inlineKeyboard: rows))
    }

    /// The weather now in a line of plain text: «-3°C, облачно, ветер 4 м/с».
    static func summary(_ current: CurrentWeather, _ texts: Texts) -> String {
        let speed = Int(current.windSpeed.rounded())
        let wind = speed > 0 ? "\(texts.wind.lowercased()) \(speed) \(texts.speedUnit)" : texts.calm
        return "\(temperature(current.temperature)), \(ConditionWords.text(current.condition, texts.language).lowercased()), \(wind)"
    }
}
