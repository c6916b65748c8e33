public import Foundation
public import OpenWeather
public import TelegramBotAPI
public import WeatherBotStore

/// The daily forecast message: «Прогноз на сегодня», the date and the place; morning, day, evening
/// and night; conditions; precipitation; wind; a one-line summary; «По часам» and «На 7 дней».
public enum DailyForecastView {
    /// The buttons, which open the subscription's place: the only part that differs between
    /// subscribers of the same place, day and language. «На 7 дней» says the days `forecast` has.
    public static func keyboard(subscriptionID: Int64, texts: Texts, forecast: Forecast? = nil) -> InlineKeyboardMarkup {
        let reference = PlaceReference.subscription(subscriptionID)
        let days = forecast.map(WeatherViews.days(in:)) ?? 7
        return InlineKeyboardMarkup(inlineKeyboard: [[
            InlineKeyboardButton(text: texts.hourlyButton, callbackData: CallbackAction.openView(.hourly(page: 0), reference).encoded),
            InlineKeyboardButton(text: texts.daysButton(days), callbackData: CallbackAction.openView(.daily, reference).encoded),
        ]])
    }

    /// The 48-hour chart that follows the forecast when the subscription asked for it
    /// (`/daily 8:00 chart`); its buttons switch views of the subscription's place.
    public static func chart(subscriptionID: Int64, place: Place, report: WeatherReport, texts: Texts) -> Reply {
        let chart = ChartRequest(view: .hours, place: place, language: texts.language, forecastTime: report.fetchedAt, settings: texts.settings)
        return .chart(
            chart, caption: ChartViews.caption(.hours, place: place, texts: texts),
            keyboard: ChartViews.keyboard(.hours, .subscription(subscriptionID), texts))
    }

    /// Whether `forecast` tells `day` (`yyyy-MM-dd`, local to the place): one fetched yesterday
    /// still does.
    public static func tells(_ forecast: Forecast, day: String) -> Bool {
        forecast.daily.contains { DailySchedule.day(of: $0.time, in: forecast.timeZone.timeZone) == day }
    }

    /// The message's text for `day` (`yyyy-MM-dd`, local to the place). Made of the last known
    /// weather (`lastKnown`, while OpenWeather does not answer), it ends saying so, with when that
    /// weather was fetched and how long before `lastKnown.now`. With what was known of the day
    /// before at the place (`yesterday`), it says how today compares; with `pollen` by the hour
    /// (where the place has it), the day's highest level of each kind.
    public static func text(
        place: Place, forecast: Forecast, day: String, texts: Texts, lastKnown: (fetchedAt: Date, now: Date)? = nil,
        yesterday: DayTemperatures? = nil, air: [AirQuality]? = nil, pollen: [PollenReading]? = nil
    ) -> String {
        let zone = forecast.timeZone.timeZone
        let today = forecast.daily.first { DailySchedule.day(of: $0.time, in: zone) == day }
        var lines = [
            "🗓 <b>\(texts.forecastForToday)</b> — \(WeatherViews.dayLabel(DailySchedule.noon(of: day, in: zone) ?? forecast.current.time, zone, texts, startsLine: false))",
            WeatherViews.header(place, texts),
            "",
        ]
        if let today {
            let chance = WeatherViews.percent(today.precipitationChance)
            lines += [
                "🌅 \(texts.morning): \(texts.temperature(today.morningTemperature)) · ☀️ \(texts.afternoon): \(texts.temperature(today.dayTemperature))",
                "🌆 \(texts.evening): \(texts.temperature(today.eveningTemperature)) · 🌙 \(texts.night): \(texts.temperature(today.nightTemperature))",
            ]
            if let yesterday, let compared = comparison(today, with: yesterday, texts) { lines.append("🌡 " + compared) }
            lines += [
                "\(WeatherViews.emoji(forIcon: today.condition.icon, clouds: today.clouds)) \(WeatherViews.skyDescription(ConditionWords.text(today.condition, texts.language), clouds: today.clouds, texts))",
            ]
            // A dry day is said once, by the summary, not also as «0,0 мм, вероятность 0%».
            if texts.showsPrecipitation(today.precipitation) || chance > 0 {
                let amount = "\(texts.precipitation(today.precipitation)) \(texts.precipitationUnit)"
                lines.append("☔ " + texts.precipitationChance(amount, chance))
            }
            lines.append("💨 \(texts.wind): \(WeatherViews.wind(today.windSpeed, today.windDegrees, gust: nil, texts))")
            if let uv = WeatherViews.uv(today.uvIndex, texts, texts.uvDayMaximum) { lines.append(uv) }
            if let warning = airWarning(air, day: day, zone: zone, texts) { lines.append(warning) }
            if let line = WeatherViews.pollen(dayPollen(pollen, day: day, zone: zone), texts) { lines.append(line) }
            lines += ["", "<i>\(summary(today, texts))</i>"]
        } else {
            lines.append(texts.noDayForecast)
        }
        if let (fetchedAt, now) = lastKnown {
            // Under an hour in minutes, then in whole hours, rounded down.
            let minutes = max(Int(now.timeIntervalSince(fetchedAt) / 60), 1)
            let age = minutes < 60 ? texts.minutesShort(minutes) : texts.hoursShort(minutes / 60)
            lines += ["", "⚠️ " + texts.lastKnownForecast(WeatherViews.dayAndTime(fetchedAt, zone, texts), age)]
        }
        if let source = WeatherViews.sourceMark(forecast, texts) { lines += ["", source] }
        return HTML.fitting(lines.joined(separator: "\n"))
    }

    /// How `today` compares with `yesterday` at the same place: the afternoon's highest when they
    /// differ by 2 °C or more, else the night's lowest, else nothing. Said in the chat's degrees.
    static func comparison(_ today: DailyForecast, with yesterday: DayTemperatures, _ texts: Texts) -> String? {
        for (difference, afternoon) in [(today.maximumTemperature - yesterday.maximum, true), (today.minimumTemperature - yesterday.minimum, false)] {
            guard difference.isFinite, abs(difference.rounded()) >= 2 else { continue }
            return texts.comparedWithYesterday(abs(texts.degreesDifference(difference)), difference > 0, afternoon)
        }
        return nil
    }

    /// A warning when the air forecast for the day reaches level 4 or 5 at any hour of it.
    static func airWarning(_ air: [AirQuality]?, day: String, zone: TimeZone, _ texts: Texts) -> String? {
        let worst = (air ?? []).filter { DailySchedule.day(of: $0.time, in: zone) == day }.map(\.index).max() ?? 0
        guard worst >= 4, texts.airWarnings.indices.contains(worst - 4) else { return nil }
        return "😷 " + texts.airWarnings[worst - 4]
    }

    /// Each kind of pollen's mean over the hours of `day` (`yyyy-MM-dd`, local to the place), the
    /// count its levels are for; nil when no hour of it is known.
    static func dayPollen(_ readings: [PollenReading]?, day: String, zone: TimeZone) -> PollenReading? {
        let hours = (readings ?? []).filter { DailySchedule.day(of: $0.time, in: zone) == day }
        guard let first = hours.first else { return nil }
        return PollenReading.dayMean(of: hours, at: first.time)
    }

    /// One line a person would say about the day: an umbrella (or warm clothes for snow) only
    /// when the chance reaches ``WeatherViews/likelyPrecipitation``, as the card and the hours
    /// call it likely; some precipitation below it is possible; none, dry.
    static func summary(_ day: DailyForecast, _ texts: Texts) -> String {
        let range = texts.rangeSummary(texts.temperature(day.minimumTemperature), texts.temperature(day.maximumTemperature))
        let advice: String
        if WeatherViews.isLikely(day.precipitationChance) {
            advice = day.condition.icon.hasPrefix("13") ? texts.snowSummary : texts.umbrellaSummary
        } else if WeatherViews.percent(day.precipitationChance) > 0 || texts.showsPrecipitation(day.precipitation) {
            advice = texts.possibleSummary
        } else {
            advice = texts.drySummary
        }
        return "\(range) \(advice)"
    }
}
