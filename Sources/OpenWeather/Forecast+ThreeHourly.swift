import Foundation

extension Forecast {
    /// A forecast from the free plan: current weather plus 3-hour steps, with the days derived from
    /// the steps in the place's time zone (night: 00–06, morning: 06–12, day: 12–18, evening: 18–24).
    static func fromFreePlan(current: CurrentWeather, steps: [HourlyForecast], offsetSeconds: Int) -> Forecast {
        let zone = PlaceTimeZone.offset(seconds: offsetSeconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.timeZone
        var byDay: [(day: DateComponents, steps: [HourlyForecast])] = []
        for step in steps {
            let day = calendar.dateComponents([.year, .month, .day], from: step.time)
            if byDay.last?.day == day {
                byDay[byDay.count - 1].steps.append(step)
            } else {
                byDay.append((day, [step]))
            }
        }
        // Today counts however little of it is left; a later day only when most of it is covered,
        // so a last day of one or two steps does not pass for a whole one.
        let days = byDay.enumerated()
            .filter { index, entry in index == 0 || entry.steps.count >= 6 }
            .map { _, entry in Self.day(from: entry.steps, calendar: calendar) }
        return Forecast(timeZone: zone, current: current, hourly: steps, daily: days, alerts: [], source: .freePlan)
    }

    private static func day(from steps: [HourlyForecast], calendar: Calendar) -> DailyForecast {
        func hour(_ step: HourlyForecast) -> Int { calendar.component(.hour, from: step.time) }
        func average(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        func temperature(in hours: Range<Int>) -> Double? { average(steps.filter { hours.contains(hour($0)) }.map(\.temperature)) }
        let temperatures = steps.map(\.temperature)
        let minimum = temperatures.min() ?? 0
        let maximum = temperatures.max() ?? 0
        // The condition of the step nearest midday speaks for the day.
        let noon = steps.min { abs(hour($0) - 13) < abs(hour($1) - 13) } ?? steps[0]
        let windiest = steps.max { $0.windSpeed < $1.windSpeed } ?? steps[0]
        return DailyForecast(
            time: noon.time,
            dayTemperature: temperature(in: 12..<18) ?? maximum,
            nightTemperature: temperature(in: 0..<6) ?? minimum,
            morningTemperature: temperature(in: 6..<12) ?? minimum,
            eveningTemperature: temperature(in: 18..<24) ?? maximum,
            minimumTemperature: minimum,
            maximumTemperature: maximum,
            clouds: Int((average(steps.map { Double($0.clouds) }) ?? 0).rounded()),
            humidity: Int((average(steps.map { Double($0.humidity) }) ?? 0).rounded()),
            pressure: average(steps.map(\.pressure)) ?? 0,
            windSpeed: windiest.windSpeed,
            windDegrees: windiest.windDegrees,
            precipitationChance: steps.map(\.precipitationChance).max() ?? 0,
            precipitation: steps.map(\.precipitation).reduce(0, +),
            condition: noon.condition)
    }
}
