import Foundation
import OpenWeather

extension ForecastBody {
    /// The answer as OpenWeather's model: the weather now; the hours from the current one on;
    /// the days, their parts (night 00–06, morning 06–12, day 12–18, evening 18–24) and their
    /// clouds, humidity and pressure from that day's hours in the place's zone; and the next hour
    /// by the minute from the quarter hours. Open-Meteo has no warnings.
    var forecast: Forecast {
        let offset = self.offset
        let zone: PlaceTimeZone =
            if let timezone, TimeZone(identifier: timezone) != nil { .identifier(timezone) } else { .offset(seconds: offset) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.timeZone
        let days = daySpans(offset: offset)
        let now = current.time.date(offset: offset) ?? Date(timeIntervalSince1970: 0)
        let allHours = hours(offset: offset, days: days)
        let thisHour = calendar.dateInterval(of: .hour, for: now)?.start ?? now
        return Forecast(
            timeZone: zone, current: weatherNow(at: now, offset: offset, days: days), minutely: minutes(from: now, offset: offset),
            hourly: allHours.filter { $0.time >= thisHour }, daily: dailyForecasts(days: days, hours: allHours, calendar: calendar),
            alerts: [], source: .openMeteo)
    }

    /// Each day of `daily`: its index, its start, its sunrise and sunset.
    private struct DaySpan {
        var index: Int
        var start: Date
        var sunrise: Date?
        var sunset: Date?
    }

    private func daySpans(offset: Int) -> [DaySpan] {
        guard let daily else { return [] }
        return daily.time.enumerated().compactMap { index, time in
            guard let start = time.date(offset: offset) else { return nil }
            let sunrise = daily.sunrise.flatMap { $0.indices.contains(index) ? $0[index] : nil }?.date(offset: offset)
            let sunset = daily.sunset.flatMap { $0.indices.contains(index) ? $0[index] : nil }?.date(offset: offset)
            return DaySpan(index: index, start: start, sunrise: sunrise, sunset: sunset)
        }
    }

    /// The day `date` falls in: the last whose start is not after it, if it began within a day.
    private func day(of date: Date, in days: [DaySpan]) -> DaySpan? {
        guard let day = days.last(where: { $0.start <= date }), date.timeIntervalSince(day.start) < 90_000 else { return nil }
        return day
    }

    /// Whether it is day at `date`: the answer's `is_day` when given, else between the day's
    /// sunrise and sunset when the answer has them, else day.
    private func isDay(_ flag: Double?, at date: Date, days: [DaySpan]) -> Bool {
        if let flag, flag.isFinite { return flag >= 0.5 }
        guard let day = day(of: date, in: days), let sunrise = day.sunrise, let sunset = day.sunset else { return true }
        return sunrise <= date && date < sunset
    }

    private func weatherNow(at now: Date, offset: Int, days: [DaySpan]) -> CurrentWeather {
        let clouds = percent(current.cloudCover)
        let today = day(of: now, in: days)
        // Rain and showers are millimetres; snowfall is centimetres of snow, which Open-Meteo's
        // documentation turns into water: "For the water equivalent in millimeter, divide by 7.
        // E.g. 7 cm snow = 10 mm precipitation water equivalent".
        let liquid = [current.rain, current.showers].compactMap { $0 }
        return CurrentWeather(
            time: now, temperature: current.temperature ?? 0, feelsLike: current.apparentTemperature ?? current.temperature ?? 0,
            clouds: clouds, humidity: percent(current.humidity), pressure: current.pressure ?? 0, windSpeed: current.windSpeed ?? 0,
            windGust: current.windGusts, windDegrees: current.windDirection ?? 0,
            condition: WeatherCode.condition(
                code: WeatherCode.code(current.weatherCode), isDay: isDay(current.isDay, at: now, days: days), clouds: clouds),
            sunrise: today?.sunrise, sunset: today?.sunset, rain: liquid.isEmpty ? nil : liquid.reduce(0, +),
            snow: current.snowfall.map { $0 * 10 / 7 }, uvIndex: current.uvIndex)
    }

    /// Every hour of the answer with a temperature: an hour without one is no step to show.
    private func hours(offset: Int, days: [DaySpan]) -> [HourlyForecast] {
        guard let hourly else { return [] }
        return hourly.time.enumerated().compactMap { index, time in
            guard let date = time.date(offset: offset), let temperature = hourly.temperature[at: index] else { return nil }
            let clouds = percent(hourly.cloudCover[at: index])
            return HourlyForecast(
                time: date, temperature: temperature, clouds: clouds, humidity: percent(hourly.humidity[at: index]),
                pressure: hourly.pressure[at: index] ?? 0, windSpeed: hourly.windSpeed[at: index] ?? 0,
                windDegrees: hourly.windDirection[at: index] ?? 0,
                // A chance the model does not give (`null`: past its range) counts as none.
                precipitationChance: (hourly.precipitationProbability[at: index] ?? 0) / 100,
                precipitation: hourly.precipitation[at: index] ?? 0,
                condition: WeatherCode.condition(
                    code: WeatherCode.code(hourly.weatherCode[at: index]),
                    isDay: isDay(hourly.isDay[at: index], at: date, days: days), clouds: clouds),
                feelsLike: hourly.apparentTemperature[at: index])
        }
    }

    /// The days with both their highest and lowest temperature, each at its local noon.
    private func dailyForecasts(days: [DaySpan], hours: [HourlyForecast], calendar: Calendar) -> [DailyForecast] {
        guard let daily else { return [] }
        return days.compactMap { span in
            let index = span.index
            guard let maximum = daily.maximum[at: index], let minimum = daily.minimum[at: index] else { return nil }
            let steps = hours.filter { calendar.isDate($0.time, inSameDayAs: span.start) }
            func hour(_ step: HourlyForecast) -> Int { calendar.component(.hour, from: step.time) }
            func average(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
            func temperature(in range: Range<Int>) -> Double? { average(steps.filter { range.contains(hour($0)) }.map(\.temperature)) }
            let clouds = Int((average(steps.map { Double($0.clouds) }) ?? 0).rounded())
            let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: span.start) ?? span.start
            return DailyForecast(
                time: noon, dayTemperature: temperature(in: 12..<18) ?? maximum, nightTemperature: temperature(in: 0..<6) ?? minimum,
                morningTemperature: temperature(in: 6..<12) ?? minimum, eveningTemperature: temperature(in: 18..<24) ?? maximum,
                minimumTemperature: minimum, maximumTemperature: maximum, clouds: clouds,
                humidity: Int((average(steps.map { Double($0.humidity) }) ?? 0).rounded()),
                pressure: average(steps.map(\.pressure)) ?? 0, windSpeed: daily.windSpeedMax[at: index] ?? 0,
                windDegrees: daily.windDirectionDominant[at: index] ?? 0,
                precipitationChance: (daily.precipitationProbabilityMax[at: index] ?? 0) / 100,
                precipitation: daily.precipitationSum[at: index] ?? 0,
                condition: WeatherCode.condition(code: WeatherCode.code(daily.weatherCode[at: index]), isDay: true, clouds: clouds),
                uvIndex: daily.uvIndexMax[at: index])
        }
    }

    /// The hour from `now` by the minute: each quarter hour's millimetres as fifteen minutes at
    /// four times the rate (mm an hour). The minutes stop at a quarter hour without a value;
    /// none without `minutely_15`.
    private func minutes(from now: Date, offset: Int) -> [MinutePrecipitation] {
        guard let minutely15 else { return [] }
        let start = (now.timeIntervalSince1970 / 900).rounded(.down) * 900
        let end = start + 3600
        var minutes: [MinutePrecipitation] = []
        for (index, time) in minutely15.time.enumerated() {
            guard let slot = time.date(offset: offset)?.timeIntervalSince1970, slot + 900 > start, slot < end else { continue }
            guard let amount = minutely15.precipitation[at: index] else { break }
            for minute in 0..<15 {
                let at = slot + Double(minute * 60)
                if at >= start && at < end {
                    minutes.append(MinutePrecipitation(time: Date(timeIntervalSince1970: at), precipitation: amount * 4))
                }
            }
        }
        return minutes
    }
}

/// A percentage as OpenWeather's models keep it: an Int from 0 to 100, 0 when unknown.
func percent(_ value: Double?) -> Int {
    guard let value, value.isFinite else { return 0 }
    return Int(min(max(value, 0), 100).rounded())
}
