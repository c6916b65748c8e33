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
            InlineButton(view: target, refresh: refresh, language: texts.language, settings: texts.settings, latitude: place.latitude, longitude: place.longitude).encoded
        }
        var rows = viewRows(shown.view, texts, hourlyPageCount: shown.pageCount, days: days(in: report.forecast)) { data($0, refresh: false) }
        rows.append([InlineKeyboardButton(text: texts.refreshButton, callbackData: data(shown.view, refresh: true))])
        return Rendered(text: shown.text, keyboard: InlineKeyboardMarkup(inlineKeyboard: rows))
    }

    /// A result's line of plain text, of what its message shows: the weather now («-3°C, облачно,
    /// ветер 4 м/с»); tomorrow's day and night («Завтра: днём +1°C, ночью -4°C, снег»); the
    /// week's range («На 7 дней: -8…+5°C»). The hours of today are described by the weather now.
    static func summary(_ view: WeatherView, _ forecast: Forecast, _ texts: Texts, now: Date) -> String {
        switch view {
        case .hourly(page: 1):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = forecast.timeZone.timeZone
            guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: now),
                let day = forecast.daily.first(where: { calendar.isDate($0.time, inSameDayAs: tomorrow) })
            else { break }
            let sky = ConditionWords.text(day.condition, texts.language).lowercased()
            return "\(texts.tomorrow): \(texts.dayTime) \(texts.temperature(day.dayTemperature)), \(texts.nightTime) \(texts.temperature(day.nightTemperature)), \(sky)"
        case .daily:
            let days = forecast.daily.prefix(7)
            guard let low = days.map(\.minimumTemperature).min(), let high = days.map(\.maximumTemperature).max() else { break }
            // The days there are: five on the free plan.
            return "\(texts.daysButton(days.count)): \(texts.signedDegrees(low))…\(texts.temperature(high))"
        default:
            break
        }
        let current = forecast.current
        let speed = texts.speed(current.windSpeed)
        let wind = speed > 0 ? "\(texts.wind.lowercased()) \(speed) \(texts.speedUnit)" : texts.calm
        return "\(texts.temperature(current.temperature)), \(ConditionWords.text(current.condition, texts.language).lowercased()), \(wind)"
    }
}
