public import Foundation
import OpenWeather
public import TelegramBotAPI
public import WeatherBotStore

/// The weather messages: the current card, «По часам», «На 7 дней», their buttons, and failures.
/// Pure functions of the forecast, the place, the language and the time.
public enum WeatherViews {
    /// A rendered view: its text and the buttons under it.
    public struct Rendered: Sendable, Hashable {
        /// Telegram HTML, every inserted value escaped.
        public var text: String
        /// The rows of buttons under the text; may have none.
        public var keyboard: InlineKeyboardMarkup
    }

    /// How the place of a view stands to the chat, which decides the buttons under it.
    public enum Standing: Sendable, Hashable {
        /// The chat's own city: no star (it is always first in /fav) and nothing to make it so.
        case ownCity
        /// Another place: «⭐ В избранное» or «★ В избранном», and «📍 Сделать моим городом».
        case other(saved: Bool)
    }

    /// - Parameter sharing: a private chat's view gets «↗️ Поделиться», which offers the place's
    ///   name as an inline query in a chat the user chooses.
    /// - Parameter app: the Mini App's page, which a private chat's view offers last («📱 Открыть приложение»).
    public static func render(
        _ view: WeatherView, place: Place, reference: PlaceReference, report: WeatherReport, texts: Texts, now: Date,
        standing: Standing = .ownCity, sharing: Bool = false, app: URL? = nil
    ) -> Rendered {
        let shown = text(view, place: place, report: report, texts: texts, now: now)
        var keyboard = keyboard(
            shown.view, reference, texts, hourlyPageCount: shown.pageCount, standing: standing, sharing: sharing ? place : nil,
            days: days(in: report.forecast))
        if let app { keyboard.inlineKeyboard.append([InlineKeyboardButton(text: texts.openAppButton, webApp: WebAppInfo(url: app.absoluteString))]) }
        return Rendered(text: shown.text, keyboard: keyboard)
    }

    /// A view's text, the view it shows (an hourly page past the last is the last) and how many
    /// hourly pages there are.
    static func text(_ view: WeatherView, place: Place, report: WeatherReport, texts: Texts, now: Date) -> (text: String, view: WeatherView, pageCount: Int) {
        var text: String
        var view = view
        var pageCount = 1
        let mark = footnote(report, texts)
        // The mark is part of the page: an hour list that fills a message leaves room for it.
        let room = HTML.maximumMessageLength - (mark.map { $0.utf16.count + 2 } ?? 0)
        switch view {
        case .now:
            text = card(place, report.forecast, texts, now: now, air: report.air, pollen: report.pollen)
        case .hourly(let page):
            let pages = hourlyPages(place, report.forecast, texts, now: now, limit: room, byDay: page == 1)
            let index = min(max(page, 0), pages.count - 1)
            view = .hourly(page: pages.count > 1 ? index : 0)
            text = pages[index]
            pageCount = page == 1 ? pages.count : hourlyPages(place, report.forecast, texts, now: now, limit: room, byDay: false).count
        case .daily:
            text = daily(place, report.forecast, texts)
        }
        if let mark {
            text = HTML.fitting(text, limit: room) + "\n\n" + mark
        }
        return (HTML.fitting(text), view, pageCount)
    }

    /// «⏱ данные на 16:28» under weather that is not fresh (a refresh failed and older weather
    /// stands in), the time in the place's zone; nil for fresh weather. Every view that shows
    /// weather says it so: the card, the hours, the days, /fav's rows.
    static func staleMark(_ report: WeatherReport, _ texts: Texts) -> String? {
        guard report.isStale else { return nil }
        return "⏱ " + texts.dataAsOf(texts.time(report.fetchedAt, in: report.forecast.timeZone.timeZone))
    }

    /// «Данные: Open-Meteo» under weather the second source gave (OpenWeather's is not named):
    /// what a reader sees differ from another card (no warnings, other models) has its reason.
    static func sourceMark(_ forecast: Forecast, _ texts: Texts) -> String? {
        forecast.source == .openMeteo ? texts.dataFrom("Open-Meteo") : nil
    }

    /// What stands under a view's weather: its age when it is not fresh, and its source when it is
    /// the second one; nil when neither.
    static func footnote(_ report: WeatherReport, _ texts: Texts) -> String? {
        let marks = [staleMark(report, texts), sourceMark(report.forecast, texts)].compactMap { $0 }
        return marks.isEmpty ? nil : marks.joined(separator: "\n")
    }

    /// «Сейчас», «По часам», «На 7 дней», then «📈 График» (with «↗️ Поделиться» when `sharing`),
    /// then «🔄 Обновить» with the star, then «📍 Сделать моим городом» for a place that is not the
    /// chat's city; the current view's button is marked.
    /// - Parameter days: how many days «На 7 дней» opens: the button says so.
    static func keyboard(
        _ view: WeatherView, _ reference: PlaceReference, _ texts: Texts, hourlyPageCount: Int, standing: Standing = .ownCity,
        sharing place: Place? = nil, days: Int = 7
    ) -> InlineKeyboardMarkup {
        var rows = viewRows(view, texts, hourlyPageCount: hourlyPageCount, days: days) { CallbackAction.view($0, reference).encoded }
        var chartRow = [InlineKeyboardButton(text: texts.chartButton, callbackData: CallbackAction.chart(ChartViews.view(for: view), reference).encoded)]
        if let place { chartRow.append(shareButton(place, texts)) }
        rows.append(chartRow)
        var last = [InlineKeyboardButton(text: texts.refreshButton, callbackData: CallbackAction.refresh(view, reference).encoded)]
        if case .other(let saved) = standing {
            let star = saved ? texts.savedFavoriteButton : texts.addFavoriteButton
            last.append(InlineKeyboardButton(text: star, callbackData: CallbackAction.addFavorite(view, reference, saving: !saved).encoded))
        }
        rows.append(last)
        if case .other = standing {
            rows.append([InlineKeyboardButton(text: texts.makeCityButton, callbackData: CallbackAction.makeCity(view, reference).encoded)])
        }
        return InlineKeyboardMarkup(inlineKeyboard: rows)
    }

    /// «Сейчас», «По часам», «На 7 дней» (or as many days as there are: `days`), the current one
    /// marked, and the hourly view's other day; `data` is each view's callback data.
    static func viewRows(
        _ view: WeatherView, _ texts: Texts, hourlyPageCount: Int, days: Int = 7, data: (WeatherView) -> String
    ) -> [[InlineKeyboardButton]] {
        func button(_ title: String, _ target: WeatherView, selected: Bool) -> InlineKeyboardButton {
            InlineKeyboardButton(text: selected ? "· \(title) ·" : title, callbackData: data(target))
        }
        var isHourly = false
        if case .hourly = view { isHourly = true }
        var rows = [[
            button(texts.nowButton, .now, selected: view == .now),
            button(texts.hourlyButton, .hourly(page: 0), selected: isHourly),
            button(texts.daysButton(days), .daily, selected: view == .daily),
        ]]
        if case .hourly(let page) = view, hourlyPageCount > 1 {
            rows.append([
                page == 0
                    ? InlineKeyboardButton(text: texts.nextDayButton, callbackData: data(.hourly(page: 1)))
                    : InlineKeyboardButton(text: texts.previousDayButton, callbackData: data(.hourly(page: 0)))
            ])
        }
        return rows
    }

    /// «↗️ Поделиться»: the chats to choose from, and the place's name typed there after the
    /// bot's, with its country («Париж, США»), which the search keeps to: of two Parises, the one
    /// shared is found.
    static func shareButton(_ place: Place, _ texts: Texts) -> InlineKeyboardButton {
        let name = place.name(in: texts.language.rawValue)
        let query = PlaceWords.country(of: place, texts).map { "\(name), \($0)" } ?? name
        return InlineKeyboardButton(
            text: texts.shareButton,
            switchInlineQueryChosenChat: SwitchInlineQueryChosenChat(
                query: query, allowUserChats: true, allowBotChats: false, allowGroupChats: true, allowChannelChats: true))
    }

    /// The failure message, with «🔄 Повторить» for the same view.
    static func failure(_ error: any Error, view: WeatherView, reference: PlaceReference, texts: Texts) -> Rendered {
        let keyboard = InlineKeyboardMarkup(inlineKeyboard: [
            [InlineKeyboardButton(text: texts.retryButton, callbackData: CallbackAction.refresh(view, reference).encoded)]
        ])
        return Rendered(text: "⚠️ " + texts.weatherFailed(Views.reason(error, texts)), keyboard: keyboard)
    }

    // MARK: The card

    static func card(_ place: Place, _ forecast: Forecast, _ texts: Texts, now: Date, air: AirQuality? = nil, pollen: PollenReading? = nil) -> String {
        let zone = forecast.timeZone.timeZone
        let current = forecast.current
        var lines = [
            header(place, texts),
            "🕒 \(texts.localTime): \(texts.time(now, in: zone))",
            "",
            "\(emoji(forIcon: current.condition.icon, clouds: current.clouds)) <b>\(texts.temperature(current.temperature))</b>, \(HTML.escape(ConditionWords.text(current.condition, texts.language)))",
            "\(texts.feelsLike): \(texts.temperature(current.feelsLike))",
            "\(texts.clouds): \(current.clouds)%",
            "💨 \(texts.wind): \(wind(current.windSpeed, current.windDegrees, gust: current.windGust, texts))",
            "💧 \(texts.humidity): \(current.humidity)%",
            "🌡 \(texts.pressure): \(texts.pressure(current.pressure)) \(texts.pressureUnit)",
        ]
        if let line = Self.air(air, texts) { lines.append(line) }
        if let line = Self.pollen(pollen, texts) { lines.append(line) }
        let precipitation = (current.rain ?? 0) + (current.snow ?? 0)
        if precipitation > 0 {
            let icon = (current.snow ?? 0) > (current.rain ?? 0) ? "🌨" : "🌧"
            lines.append("\(icon) \(texts.precipitationNow): \(texts.precipitation(precipitation)) \(texts.precipitationRateUnit)")
        } else if let likely = likelySoon(forecast, now: now, texts) {
            lines.append(likely)
        }
        if let sunrise = current.sunrise, let sunset = current.sunset {
            lines.append("🌅 \(texts.sunrise): \(texts.time(sunrise, in: zone)) · 🌇 \(texts.sunset): \(texts.time(sunset, in: zone))")
            // The sun's strength while it is up: at night a UV index says nothing.
            if now >= sunrise && now < sunset, let line = uv(current.uvIndex, texts, texts.uvNow) { lines.append(line) }
        }
        let active = Self.warnings(forecast.alerts.filter { $0.end > now }, in: texts.language)
        let alerts = active.prefix(3)
        if !alerts.isEmpty { lines.append("") }
        for alert in alerts {
            let event = HTML.escape(HTML.truncate(alert.event, maximumCharacters: 80))
            let sender = alert.sender.isEmpty ? "" : " (\(HTML.escape(HTML.truncate(alert.sender, maximumCharacters: 60))))"
            lines.append("⚠️ <b>\(event)</b>: \(period(alert.start, alert.end, zone, texts))\(sender)")
        }
        if active.count > alerts.count {
            lines.append(texts.moreAlerts(active.count - alerts.count))
        }
        return lines.joined(separator: "\n")
    }

    /// Each warning once, in the reader's language where the feed has it: entries of one warning
    /// (``WeatherAlert/identity``) in Russian and English become the one written in `language`'s
    /// script, or the first when none is. In the feed's order.
    static func warnings(_ alerts: [WeatherAlert], in language: Language) -> [WeatherAlert] {
        func isCyrillic(_ text: String) -> Bool { text.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) } }
        var order: [WeatherAlert.Identity] = []
        var entries: [WeatherAlert.Identity: [WeatherAlert]] = [:]
        for alert in alerts {
            if entries[alert.identity] == nil { order.append(alert.identity) }
            entries[alert.identity, default: []].append(alert)
        }
        return order.compactMap { identity in
            let all = entries[identity] ?? []
            return all.first { isCyrillic($0.event) == (language == .ru) } ?? all.first
        }
    }

    /// The air's sign on the card: its own, not fog's 🌫, which the sky of a foggy day shows.
    static let airSign = "🍃"

    /// «🍃 Воздух: хороший», with fine particles from «умеренный» on; nil without a reading.
    static func air(_ air: AirQuality?, _ texts: Texts) -> String? {
        guard let air, texts.airLevels.indices.contains(air.index - 1) else { return nil }
        let particles = air.index >= 3 ? air.pm25.map { texts.airParticles(Int($0.rounded())) } : nil
        return "\(airSign) " + texts.airNow(texts.airLevels[air.index - 1], particles)
    }

    /// Pollen's sign on the card and in the daily forecast.
    static let pollenSign = "🌼"

    /// «🌼 Пыльца: берёза — высокий уровень, злаки — низкий»: every kind above none, the highest
    /// first, in words (never grains per m³); nil without a reading (outside the data's coverage,
    /// or late) or when every kind is at none.
    static func pollen(_ reading: PollenReading?, _ texts: Texts) -> String? {
        guard let levels = reading?.levels, !levels.isEmpty else { return nil }
        return "\(pollenSign) " + texts.pollenNow(levels.map { (texts.pollenKind($0.kind), texts.pollenLevel($0.level)) })
    }

    /// «🔆 УФ 6, высокий: нужен крем и головной убор» for an index of 3 or more (moderate and
    /// up, as the WHO counts them); nil below, or when it is not known (the free plan).
    static func uv(_ index: Double?, _ texts: Texts, _ line: (String, String, String) -> String) -> String? {
        guard let index, index.isFinite else { return nil }
        let rounded = Int(index.rounded())
        let level: Int
        switch rounded {
        case ..<3: return nil
        case 3...5: level = 0
        case 6...7: level = 1
        case 8...10: level = 2
        default: level = 3
        }
        return "🔆 " + line("\(rounded)", texts.uvLevels[level][0], texts.uvLevels[level][1])
    }

    // MARK: By the hour

    /// The hours from the next one to the end of tomorrow in the place's time zone, by day. An
    /// hour's figures are a forecast for its start: the hour under way («20:00 −6°C» at 20:27) would
    /// stand beside the card's measured now (−7°C) and contradict it, so the list starts after it,
    /// as the chart does.
    static func hourlyDays(_ forecast: Forecast, now: Date) -> [(day: Date, hours: [HourlyForecast])] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = forecast.timeZone.timeZone
        let today = calendar.startOfDay(for: now)
        guard let end = calendar.date(byAdding: .day, value: 2, to: today) else { return [] }
        var days: [(day: Date, hours: [HourlyForecast])] = []
        for hour in forecast.hourly where hour.time >= now && hour.time < end {
            let day = calendar.startOfDay(for: hour.time)
            if days.last?.day == day {
                days[days.count - 1].hours.append(hour)
            } else {
                days.append((day, [hour]))
            }
        }
        return days
    }

    /// One page when everything fits in a message, otherwise a page per day; a page per day
    /// always when `byDay` (tomorrow was asked for: «погода завтра» opens on tomorrow).
    static func hourlyPages(
        _ place: Place, _ forecast: Forecast, _ texts: Texts, now: Date, limit: Int = HTML.maximumMessageLength, byDay: Bool = false
    ) -> [String] {
        let zone = forecast.timeZone.timeZone
        var title = "\(header(place, texts)) — \(texts.hourlyTitle)"
        if forecast.hourlyStep > 1 { title += " (\(texts.everyThreeHours))" }
        let legend = "<i>\(texts.hourlyLegend(texts.speedUnit, texts.pressureUnit, likelyPrecipitation))</i>"
        let days = hourlyDays(forecast, now: now)
        guard !days.isEmpty else { return [[title, "", texts.noHours].joined(separator: "\n")] }
        let sections = days.map { day, hours in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let isToday = calendar.isDate(day, inSameDayAs: now)
            let name = isToday ? texts.today : texts.tomorrow
            return (["<b>\(name) — \(dayLabel(day, zone, texts, startsLine: false))</b>"] + hours.map { hourLine($0, zone, texts) })
                .joined(separator: "\n")
        }
        let whole = ([title, legend] + sections).joined(separator: "\n\n")
        if whole.utf16.count <= limit && !byDay { return [whole] }
        return sections.map { [title, legend, $0].joined(separator: "\n\n") }
    }

    static func hourLine(_ hour: HourlyForecast, _ zone: TimeZone, _ texts: Texts) -> String {
        [
            "\(texts.time(hour.time, in: zone)) \(emoji(forIcon: hour.condition.icon, clouds: hour.clouds)) <b>\(texts.temperature(hour.temperature))</b>",
            "💨\(texts.speed(hour.windSpeed)) \(windPoint(hour.windDegrees, texts))",
            "\(texts.pressure(hour.pressure))",
            "💧\(hour.humidity)%",
            // Cloud cover in words, not ☁️: the line's first emoji already is the sky.
            "\(texts.cloudsShort) \(hour.clouds)%",
            "☔" + chance(hour.precipitationChance),
        ].joined(separator: " · ")
    }

    // MARK: Likely precipitation

    /// The chance, in percent, from which precipitation is «likely»: the card says from when, the
    /// hours and the days show it in bold, and the daily forecast advises an umbrella.
    static let likelyPrecipitation = 50

    /// A chance 0…1 in whole percent, as every view shows it.
    static func percent(_ chance: Double) -> Int {
        chance.isFinite ? Int((chance * 100).rounded()) : 0
    }

    /// Whether precipitation of this chance is likely: its shown percent reaches ``likelyPrecipitation``.
    static func isLikely(_ chance: Double) -> Bool {
        percent(chance) >= likelyPrecipitation
    }

    /// «25%», or «<b>60%</b>» when likely.
    static func chance(_ chance: Double) -> String {
        isLikely(chance) ? "<b>\(percent(chance))%</b>" : "\(percent(chance))%"
    }

    /// How far ahead the card looks for likely precipitation.
    static let likelyHorizon: TimeInterval = 12 * 3600

    /// The card's «☔ Вероятны осадки: с 15:00, 60%»: the first hour within ``likelyHorizon``
    /// whose chance is likely; nil when none is.
    static func likelySoon(_ forecast: Forecast, now: Date, _ texts: Texts) -> String? {
        let hour = forecast.hourly.first { $0.time >= now && $0.time < now.addingTimeInterval(likelyHorizon) && isLikely($0.precipitationChance) }
        return hour.map { texts.precipitationLikely(texts.time($0.time, in: forecast.timeZone.timeZone), percent($0.precipitationChance)) }
    }

    // MARK: Seven days

    static func daily(_ place: Place, _ forecast: Forecast, _ texts: Texts) -> String {
        let zone = forecast.timeZone.timeZone
        let days = forecast.daily.prefix(Self.days(in: forecast))
        var lines = ["\(header(place, texts)) — \(texts.dailyTitle(days.count))"]
        for day in days {
            let shown = dayLines(day, zone, texts)
            lines += ["", "<b>\(shown.label)</b> \(shown.temperatures)", shown.details]
        }
        if days.count < 7 {
            lines.append("")
            lines.append("<i>\(texts.onlyDays(days.count))</i>")
        }
        return lines.joined(separator: "\n")
    }

    /// A day of «На 7 дней»: «Пн, 30 ноября», «🌧 днём <b>+3°C</b>, ночью -1°C», and its sky,
    /// precipitation and wind; the app's week shows the same.
    static func dayLines(_ day: DailyForecast, _ zone: TimeZone, _ texts: Texts) -> (label: String, temperatures: String, details: String) {
        let temperatures = "\(emoji(forIcon: day.condition.icon, clouds: day.clouds)) "
            + "\(texts.dayTime) <b>\(texts.temperature(day.dayTemperature))</b>, \(texts.nightTime) \(texts.temperature(day.nightTemperature))"
        var details = [skyDescription(ConditionWords.text(day.condition, texts.language), clouds: day.clouds, texts)]
        if texts.showsPrecipitation(day.precipitation) {
            details.append("☔ \(texts.precipitation(day.precipitation)) \(texts.precipitationUnit) (\(chance(day.precipitationChance)))")
        } else if percent(day.precipitationChance) > 0 {
            details.append("☔ \(chance(day.precipitationChance))")
        }
        details.append("💨 \(wind(day.windSpeed, day.windDegrees, gust: nil, texts))")
        return (dayLabel(day.time, zone, texts, startsLine: true), temperatures, details.joined(separator: " · "))
    }

    // MARK: Pieces

    /// How many days «На 7 дней» shows: seven, or fewer when the forecast has fewer (the free plan).
    static func days(in forecast: Forecast) -> Int {
        forecast.daily.isEmpty ? 7 : min(forecast.daily.count, 7)
    }

    static func header(_ place: Place, _ texts: Texts) -> String {
        "📍 <b>\(Views.name(of: place, texts.language))</b>\(Views.details(of: place, texts.language))"
    }

    /// The 16-point compass direction the wind blows from.
    static func windPoint(_ degrees: Double, _ texts: Texts) -> String {
        guard degrees.isFinite else { return "" }
        let normalized = degrees.truncatingRemainder(dividingBy: 360) + (degrees < 0 ? 360 : 0)
        return texts.windPoints[Int((normalized / 22.5).rounded()) % 16]
    }

    /// «4 м/с, ЮЗ (порывы до 9 м/с)», «14 km/h, SW», or «штиль»: in the chat's unit.
    static func wind(_ speed: Double, _ degrees: Double, gust: Double?, _ texts: Texts) -> String {
        let rounded = texts.speed(speed)
        guard rounded > 0 else { return texts.calm }
        var text = "\(rounded) \(texts.speedUnit), \(windPoint(degrees, texts))"
        if let gust, texts.speed(gust) > rounded {
            text += " (\(texts.gusts("\(texts.speed(gust)) \(texts.speedUnit)")))"
        }
        return text
    }

    /// «Пт, 21 ноября» (weekday first) or «пт 21 ноября»; «Fri, 21 Nov» in English.
    /// «Ср, 15 ноября» in every view: capitalised at the start of a line, «ср, 15 ноября» after
    /// «Сегодня —» (English weekdays keep their capital).
    static func dayLabel(_ date: Date, _ zone: TimeZone, _ texts: Texts, startsLine: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.weekday, .day, .month], from: date)
        let weekday = (startsLine ? texts.weekdays : texts.weekdaysInSentence)[((parts.weekday ?? 1) - 1) % 7]
        let month = texts.months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday), \(parts.day ?? 1) \(month)"
    }

    /// «15 ноября 00:13–13:13» within one day, «15 ноября 21:00 – 16 ноября 09:00» across days.
    static func period(_ start: Date, _ end: Date, _ zone: TimeZone, _ texts: Texts) -> String {
        if DailySchedule.day(of: start, in: zone) == DailySchedule.day(of: end, in: zone) {
            return "\(dayAndTime(start, zone, texts))–\(texts.time(end, in: zone))"
        }
        return "\(dayAndTime(start, zone, texts)) – \(dayAndTime(end, zone, texts))"
    }

    /// «21 ноября 14:00» in the place's zone.
    static func dayAndTime(_ date: Date, _ zone: TimeZone, _ texts: Texts) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.day, .month], from: date)
        return "\(parts.day ?? 1) \(texts.months[((parts.month ?? 1) - 1) % 12]) \(texts.time(date, in: zone))"
    }

    /// The condition emoji for an OpenWeather icon code such as `01d`.
    /// «ясно, облачность 0%», but «небольшая облачность (81%)»: the word once when the
    /// description speaks of clouds already (its stem, the first six letters: «облачн», «clouds»).
    static func skyDescription(_ description: String, clouds: Int, _ texts: Texts) -> String {
        let word = texts.clouds.lowercased()
        if description.lowercased().contains(word.prefix(6)) { return "\(HTML.escape(description)) (\(clouds)%)" }
        return "\(HTML.escape(description)), \(word) \(clouds)%"
    }

    /// The sky as an emoji. A clear or nearly clear icon is checked against the cover measured
    /// with it: ☀️ only for a clear day, never beside «облачность 81%».
    static func emoji(forIcon icon: String, clouds: Int? = nil) -> String {
        let night = icon.hasSuffix("n")
        switch icon.prefix(2) {
        case "01", "02":
            // Few clouds at night are the moon between them, not an overcast sky.
            if night { return "🌙" }
            switch clouds ?? (icon.hasPrefix("01") ? 0 : 20) {
            case ...10: return "☀️"
            case ...50: return "🌤"
            case ...84: return "🌥"
            default: return "☁️"
            }
        case "03": return "🌥"
        case "04": return "☁️"
        case "09": return "🌧"
        case "10": return night ? "🌧" : "🌦"
        case "11": return "⛈"
        case "13": return "❄️"
        case "50": return "🌫"
        default: return "🌡"
        }
    }
}
