import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// The Mini App's screens as HTML fragments, which its page puts in place. They are drawn from the
/// same pieces as the chat's messages: the card's lines are the card's, an hour and a day read as
/// the hours and the week do, a favorite's row as /fav's. So the app and the chat cannot say two
/// things of one place at one minute. Every inserted value is escaped (the texts' HTML is
/// Telegram's subset: `<b>`, `<i>` and entities, which a page shows as they are).
enum AppViews {
    /// The tabs every screen starts with, the current one marked.
    enum Tab: String, CaseIterable {
        case weather, favorites, search, settings
    }

    /// What a found place's screen says of its being saved: a button that saves it, that it is
    /// saved (with the favorite's id, which ✕ removes), or that it is the chat's own city.
    enum Star {
        case add(AppPlace)
        case saved(Int64, AppPlace)
        case ownCity
    }

    static func tabs(_ current: Tab, _ texts: Texts) -> String {
        let items = Tab.allCases.map { tab in
            let title: String
            switch tab {
            case .weather: title = texts.appWeatherTab
            case .favorites: title = texts.appFavoritesTab
            case .search: title = texts.appSearchTab
            case .settings: title = texts.appSettingsTab
            }
            let current = tab == current ? " aria-current=\"page\"" : ""
            return "<a href=\"#\" data-screen=\"\(tab.rawValue)\"\(current)>\(HTML.escape(title))</a>"
        }
        return "<nav class=\"tabs\">\(items.joined())</nav>"
    }

    // MARK: A place

    /// The place now (the card's lines), the hours to the end of tomorrow as a strip, the days as
    /// rows, and the next 48 hours as a chart whose points say their hour and figures when touched.
    /// - Parameters:
    ///   - tab: the tab it is shown under: the weather for the chat's places, the search for one found.
    ///   - hint: a line under the card, such as the default city's «choose your city».
    ///   - star: for a place found, whether it is saved, and the button that saves it.
    static func place(
        _ place: Place, report: WeatherReport, texts: Texts, now: Date, tab: Tab = .weather, hint: String? = nil, star: Star? = nil
    ) -> String {
        let forecast = report.forecast
        let zone = forecast.timeZone.timeZone
        var html = tabs(tab, texts)
        html += "<section class=\"place\" data-screen-shown=\"place\">"
        // The card, line by line: its header is the screen's title.
        var card = WeatherViews.card(place, forecast, texts, now: now, air: report.air, pollen: report.pollen).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if let mark = WeatherViews.footnote(report, texts) { card += mark.split(separator: "\n").map(String.init) }
        html += "<h1>\(card.first ?? "")</h1><ul class=\"card\">"
        html += card.dropFirst().map { "<li>\($0)</li>" }.joined()
        html += "</ul>"
        if let hint { html += "<p class=\"hint\">\(HTML.escape(hint))</p>" }
        func cityButton(_ wanted: AppPlace) -> String {
            "<button type=\"button\" class=\"star\" data-action=\"city\" data-place=\"\(HTML.escape(query(wanted)))\">\(HTML.escape(texts.makeCityButton))</button>"
        }
        switch star {
        case .add(let wanted)?:
            html += "<p class=\"actions\"><button type=\"button\" class=\"star\" data-action=\"add\" data-place=\"\(HTML.escape(query(wanted)))\">"
                + "\(HTML.escape(texts.addFavoriteButton))</button> \(cityButton(wanted))</p>"
        case .saved(let id, let wanted)?:
            html += "<p class=\"actions\"><span>\(HTML.escape(texts.savedFavoriteButton))</span> "
                + "<button type=\"button\" class=\"delete\" data-action=\"delete\" data-id=\"\(id)\" aria-label=\"\(HTML.escape(texts.appDeleteLabel))\">✕</button> "
                + "\(cityButton(wanted))</p>"
        case .ownCity?:
            html += "<p class=\"hint\">\(HTML.escape(texts.appOwnCity))</p>"
        case nil:
            break
        }
        html += hours(forecast, zone, texts, now: now)
        html += days(forecast, zone, texts)
        html += chart(forecast, zone, texts, now: now)
        return html + "</section>"
    }

    /// The hours from the next one to the end of tomorrow, each «14:00 ☀️ +3°C ☔ 10% 💨 4»,
    /// under its day's name as the hours' view names it.
    static func hours(_ forecast: Forecast, _ zone: TimeZone, _ texts: Texts, now: Date) -> String {
        let days = WeatherViews.hourlyDays(forecast, now: now)
        guard !days.isEmpty else { return "" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var html = "<h2>\(HTML.escape(texts.hourlyButton))</h2><div class=\"hours\">"
        for (day, hours) in days {
            let name = calendar.isDate(day, inSameDayAs: now) ? texts.today : texts.tomorrow
            html += "<div class=\"day-name\">\(HTML.escape(name))<br>\(WeatherViews.dayLabel(day, zone, texts, startsLine: false))</div>"
            for hour in hours {
                html += "<div class=\"hour\"><time>\(texts.time(hour.time, in: zone))</time>"
                html += "<span class=\"sky\">\(WeatherViews.emoji(forIcon: hour.condition.icon, clouds: hour.clouds))</span>"
                html += "<b>\(texts.temperature(hour.temperature))</b>"
                html += "<span>☔\(WeatherViews.chance(hour.precipitationChance))</span>"
                html += "<span>💨\(texts.speed(hour.windSpeed)) \(texts.speedUnit)</span><span>\(WeatherViews.windPoint(hour.windDegrees, texts))</span></div>"
            }
        }
        return html + "</div>"
    }

    /// The days as the week's view shows them, one row each.
    static func days(_ forecast: Forecast, _ zone: TimeZone, _ texts: Texts) -> String {
        let days = forecast.daily.prefix(WeatherViews.days(in: forecast))
        guard !days.isEmpty else { return "" }
        var html = "<h2>\(HTML.escape(texts.daysButton(days.count)))</h2><ul class=\"days\">"
        for day in days {
            let shown = WeatherViews.dayLines(day, zone, texts)
            html += "<li><span class=\"day-label\">\(shown.label)</span> <span class=\"temps\">\(shown.temperatures)</span><br><small>\(shown.details)</small></li>"
        }
        return html + "</ul>"
    }

    /// The next 48 hours' temperatures as a line, drawn here; each point carries what a touch on
    /// it shows: its hour, temperature, feels-like, precipitation chance and wind, in the chat's units.
    static func chart(_ forecast: Forecast, _ zone: TimeZone, _ texts: Texts, now: Date) -> String {
        let hours = Array(forecast.hourly.filter { $0.time >= now }.prefix(48))
        guard hours.count > 1 else { return "" }
        let values = hours.map { Texts.inChatUnit($0.temperature, texts.settings.temperature ?? .celsius) }
        let (width, height, pad) = (480.0, 160.0, 12.0)
        let low = (values.min() ?? 0) - 1, high = (values.max() ?? 0) + 1
        func x(_ index: Int) -> Double { pad + (width - 2 * pad) * Double(index) / Double(hours.count - 1) }
        func y(_ value: Double) -> Double { pad + (height - 2 * pad) * (high - value) / (high - low) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        let line = values.indices.map { "\(number(x($0))),\(number(y(values[$0])))" }.joined(separator: " ")
        var html = "<h2>\(HTML.escape(texts.chartHoursTitle))</h2>"
        html += "<figure class=\"chart\"><svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(HTML.escape(texts.chartHoursTitle))\">"
        html += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/>"
        for (index, hour) in hours.enumerated() {
            let readout = [
                texts.time(hour.time, in: zone), texts.temperature(hour.temperature),
                hour.feelsLike.map { "\(texts.feelsLike) \(texts.temperature($0))" },
                "☔\(WeatherViews.percent(hour.precipitationChance))%", "💨\(texts.speed(hour.windSpeed)) \(texts.speedUnit)",
            ].compactMap { $0 }.joined(separator: " · ")
            html += "<circle cx=\"\(number(x(index)))\" cy=\"\(number(y(values[index])))\" r=\"3\" data-readout=\"\(HTML.escape(readout))\"/>"
        }
        html += "</svg><figcaption class=\"readout\" aria-live=\"polite\"></figcaption></figure>"
        return html
    }

    /// A screen that could not be drawn: the reason as the chat says it.
    static func failure(_ tab: Tab, _ text: String, _ texts: Texts) -> String {
        tabs(tab, texts) + "<p class=\"failure\">⚠️ \(text)</p>"
    }

    /// What a query's value keeps unescaped: ASCII letters, digits and `-._~`.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// How the page asks for a found place again: `q=…&pick=…`, or `lat=…&lon=…`.
    static func query(_ place: AppPlace) -> String {
        switch place {
        case .named(let name, let pick):
            let value = name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            return "q=\(value)&pick=\(pick)"
        case .point(let latitude, let longitude):
            return "lat=\(latitude)&lon=\(longitude)"
        }
    }

    // MARK: Search

    /// The search field with «📍 Моё местоположение», then the places named `query`, told apart
    /// as /search's buttons tell them; `note` says why there are none.
    static func search(query: String?, found: [Place], texts: Texts, note: String? = nil) -> String {
        var html = tabs(.search, texts) + "<section class=\"search\" data-screen-shown=\"search\">"
        html += "<form class=\"search-form\" role=\"search\"><input type=\"search\" name=\"q\" maxlength=\"100\" autocomplete=\"off\""
        html += " placeholder=\"\(HTML.escape(texts.appSearchPlaceholder))\" value=\"\(HTML.escape(query ?? ""))\">"
        html += "<button type=\"submit\">\(HTML.escape(texts.appSearchButton))</button></form>"
        html += "<p><button type=\"button\" class=\"locate\" data-action=\"locate\" data-denied=\"\(HTML.escape(texts.appLocationDenied))\">"
        html += "\(HTML.escape(texts.appMyLocation))</button></p>"
        if let note { html += "<p class=\"hint\">\(note)</p>" }
        if !found.isEmpty, let query {
            html += "<ul class=\"places\">"
            for (index, place) in found.enumerated() {
                let label = Views.buttonLabel(of: place, among: found, texts)
                html += "<li><a href=\"#\" data-screen=\"place\" data-query=\"\(HTML.escape(Self.query(.named(query, pick: index))))\">\(HTML.escape(label))</a></li>"
            }
            html += "</ul>"
        }
        return html + "</section>"
    }

    // MARK: Settings

    /// A message of the chat shown in the app: its text, its buttons, and a field for what its
    /// command takes typed.
    struct Section {
        enum Field {
            /// `/alerts quiet …`: the quiet hours typed.
            case quietHours
            /// `/daily …`: a daily forecast's time (and place) typed.
            case daily
        }

        var text: String
        var keyboard: InlineKeyboardMarkup?
        var field: Field?
    }

    /// The settings: each message as the chat shows it, its buttons pressed as the chat's are.
    static func settings(_ sections: [Section], texts: Texts) -> String {
        var html = tabs(.settings, texts) + "<section class=\"settings\" data-screen-shown=\"settings\">"
        for section in sections {
            html += "<div class=\"message\"><p>\(section.text.replacingOccurrences(of: "\n", with: "<br>"))</p>"
            for row in section.keyboard?.inlineKeyboard ?? [] {
                html += "<div class=\"buttons\">"
                for button in row {
                    guard let data = button.callbackData else { continue }
                    let chosen = button.text.hasPrefix("✓ ")
                    html += "<button type=\"button\" data-action=\"press\" data-press=\"\(HTML.escape(data))\" aria-pressed=\"\(chosen)\">\(HTML.escape(button.text))</button>"
                }
                html += "</div>"
            }
            switch section.field {
            case .quietHours?:
                html += field("quiet", label: texts.appQuietLabel, placeholder: "22:00-08:00", button: texts.appSave)
            case .daily?:
                html += field("daily", label: texts.appDailyLabel, placeholder: "8:00", button: texts.appAdd)
            case nil:
                break
            }
            html += "</div>"
        }
        return html + "</section>"
    }

    private static func field(_ action: String, label: String, placeholder: String, button: String) -> String {
        "<form class=\"typed\" data-action=\"\(action)\"><label>\(HTML.escape(label)) <input name=\"text\" maxlength=\"40\" autocomplete=\"off\" "
            + "placeholder=\"\(placeholder)\"></label><button type=\"submit\">\(HTML.escape(button))</button></form>"
    }

    // MARK: Favorites

    /// The chat's city first, then its favorites as /fav lists them; a row opens its place, and a
    /// favorite's row can be deleted or dragged by its handle to another position.
    static func favorites(current: FavoritesViews.Row?, favorites: [FavoritesViews.Row], texts: Texts) -> String {
        var html = tabs(.favorites, texts) + "<section class=\"favorites\" data-screen-shown=\"favorites\"><h1>\(texts.favoritesTitle)</h1>"
        html += "<ul class=\"places\">"
        if let current {
            html += "<li class=\"city\"><a href=\"#\" data-screen=\"weather\">\(FavoritesViews.line(current, texts))</a></li>"
        } else {
            html += "<li class=\"city\">\(HTML.escape(texts.appNoCity))</li>"
        }
        for row in favorites {
            guard case .favorite(let id) = row.reference else { continue }
            html += "<li class=\"favorite\" data-id=\"\(id)\"><span class=\"handle\" aria-hidden=\"true\">☰</span>"
            html += "<a href=\"#\" data-screen=\"weather\" data-query=\"favorite=\(id)\">\(FavoritesViews.line(row, texts))</a>"
            html += "<button type=\"button\" class=\"delete\" data-action=\"delete\" data-id=\"\(id)\" aria-label=\"\(HTML.escape(texts.appDeleteLabel))\">✕</button></li>"
        }
        html += "</ul>"
        if favorites.isEmpty { html += "<p class=\"hint\">\(HTML.escape(texts.appNoFavorites))</p>" }
        return html + "</section>"
    }
}
