import Foundation
import OpenWeather

/// What an answer lacked for the weather now: it cannot be shown without inventing it.
struct ForecastGap: Error {
    var message: String
}

extension ForecastBody {
    /// The answer for the point asked about as OpenWeather's model: the weather now; the hours
    /// from the current one on; the days, their parts (night 00–06, morning 06–12, day 12–18,
    /// evening 18–24) and their clouds, humidity and pressure from that day's hours in the
    /// place's zone; and the next hour by the minute from the quarter hours where Open-Meteo has
    /// them of its own. Open-Meteo has no warnings.
    ///
    /// Nothing is invented where the answer has `null` or leaves a variable out: an hour lacking
    /// one the model needs is left out, a day is made of the hours kept, and the weather now
    /// takes what it lacks from the same hour or is no weather at all (``ForecastGap``).
    func forecast(latitude: Double, longitude: Double) throws(ForecastGap) -> Forecast {
        let offset = self.offset
        let zone: PlaceTimeZone =
            if let timezone, TimeZone(identifier: timezone) != nil { .identifier(timezone) } else { .offset(seconds: offset) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.timeZone
        let days = daySpans(offset: offset)
        guard let now = current.time.date(offset: offset) else { throw ForecastGap(message: "no time now") }
        let allHours = hours(offset: offset, days: days)
        let thisHour = calendar.dateInterval(of: .hour, for: now)?.start ?? now
        return Forecast(
            timeZone: zone, current: try weatherNow(at: now, hour: thisHour, offset: offset, days: days),
            minutely: Self.hasOwnQuarterHours(latitude: latitude, longitude: longitude) ? minutes(from: now, offset: offset) : [],
            hourly: allHours.filter { $0.time >= thisHour }, daily: dailyForecasts(days: days, hours: allHours, calendar: calendar),
            alerts: [], source: .openMeteo)
    }

    /// Whether Open-Meteo's quarter hours at a point come from a model that has them. Its
    /// documentation of `minutely_15`: "Only available in Central Europe and North America.
    /// Other regions use interpolated hourly data" (open-meteo.com/en/docs), and it names the
    /// models: "NOAA HRRR model for North America and DWD ICON-D2 and Météo-France AROME model for
    /// Central Europe". Elsewhere a quarter hour is an hour's sum spread out, no finer than the
    /// hour: the bot then tells rain from the hours rather than pretend to know the minute.
    ///
    /// The boxes enclose the models' domains as their providers publish them:
    /// ICON-D2's regular grid spans 43.18–58.08° N and 3.94° W–20.34° E (DWD); AROME France's
    /// 0.025° grid 37.5–55.4° N and 12° W–16° E (Météo-France); HRRR's CONUS grid (NOAA) has its
    /// corners near 21.1° N 122.7° W, 47.8° N 134.1° W, 47.8° N 60.9° W and 21.1° N 72.3° W and
    /// bulges to about 52.6° N at the middle of its northern edge. A box holds a little more than
    /// its model (the corners of a projected grid): near an edge the minutes may be the hour's.
    static func hasOwnQuarterHours(latitude: Double, longitude: Double) -> Bool {
        let boxes: [(latitude: ClosedRange<Double>, longitude: ClosedRange<Double>)] = [
            (43.18...58.08, -3.94...20.34),  // ICON-D2
            (37.5...55.4, -12...16),  // AROME France
            (21.14...52.62, -134.1 ... -60.92),  // HRRR CONUS
        ]
        return boxes.contains { $0.latitude.contains(latitude) && $0.longitude.contains(longitude) }
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

    /// The index of the hour that starts at `date` in `hourly`, if the answer has it.
    private func hourIndex(of date: Date, offset: Int) -> Int? {
        hourly?.time.firstIndex { $0.date(offset: offset) == date }
    }

    private func weatherNow(at now: Date, hour: Date, offset: Int, days: [DaySpan]) throws(ForecastGap) -> CurrentWeather {
        // What the current block lacks is taken from the same hour's step: the model's own value
        // for that hour, not a stand-in.
        let index = hourIndex(of: hour, offset: offset)
        func value(_ now: Double?, _ column: [Double?]?, _ name: String) throws(ForecastGap) -> Double {
            guard let value = now ?? index.flatMap({ column[at: $0] }) else { throw ForecastGap(message: "no \(name) now") }
            return value
        }
        let temperature = try value(current.temperature, hourly?.temperature, "temperature")
        let feelsLike = try value(current.apparentTemperature, hourly?.apparentTemperature, "apparent temperature")
        let clouds = percent(try value(current.cloudCover, hourly?.cloudCover, "cloud cover"))
        let humidity = percent(try value(current.humidity, hourly?.humidity, "humidity"))
        let pressure = try value(current.pressure, hourly?.pressure, "pressure")
        let windSpeed = try value(current.windSpeed, hourly?.windSpeed, "wind speed")
        let windDirection = try value(current.windDirection, hourly?.windDirection, "wind direction")
        let code = WeatherCode.code(current.weatherCode) ?? index.flatMap { WeatherCode.code(hourly?.weatherCode[at: $0]) }
        let today = day(of: now, in: days)
        // The sums come over the block's `interval` (900 s, a quarter hour); the card shows them
        // as a rate, mm an hour. Rain and showers are millimetres; snowfall is centimetres of
        // snow, which Open-Meteo's documentation turns into water: "For the water equivalent in
        // millimeter, divide by 7. E.g. 7 cm snow = 10 mm precipitation water equivalent".
        let perHour = current.interval.flatMap { $0.isFinite && $0 > 0 ? 3600 / $0 : nil }
        let liquid = [current.rain, current.showers].compactMap { $0 }
        return CurrentWeather(
            time: now, temperature: temperature, feelsLike: feelsLike, clouds: clouds, humidity: humidity, pressure: pressure,
            windSpeed: windSpeed, windGust: current.windGusts, windDegrees: windDirection,
            condition: WeatherCode.condition(code: code, isDay: isDay(current.isDay, at: now, days: days), clouds: clouds),
            sunrise: today?.sunrise, sunset: today?.sunset,
            rain: liquid.isEmpty ? nil : perHour.map { liquid.reduce(0, +) * $0 },
            snow: current.snowfall.flatMap { snowfall in perHour.map { snowfall * 10 / 7 * $0 } }, uvIndex: current.uvIndex)
    }

    /// Every hour of the answer that has all a step is made of; an hour lacking any (`null`, or
    /// the variable left out) is no step to show.
    ///
    /// Open-Meteo's `precipitation` and `precipitation_probability` are of the hour before the
    /// time they are given at: its documentation, open-meteo.com/en/docs, calls precipitation a
    /// "Preceding hour sum" ("Total precipitation (rain, showers, snow) sum of the preceding
    /// hour") and the probability that "of precipitation with more than 0.1 mm of the preceding
    /// hour". A step is what comes from its start, so the step at T takes the values given at
    /// T + 1 h; the last hour of the answer, with nothing after it, is left out.
    private func hours(offset: Int, days: [DaySpan]) -> [HourlyForecast] {
        guard let hourly else { return [] }
        let dates = hourly.time.map { $0.date(offset: offset) }
        var indexOf: [Date: Int] = [:]
        for (index, date) in dates.enumerated() { if let date { indexOf[date] = index } }
        return dates.enumerated().compactMap { index, date in
            guard let date, let next = indexOf[date.addingTimeInterval(3600)],
                let temperature = hourly.temperature[at: index], let humidity = hourly.humidity[at: index],
                let pressure = hourly.pressure[at: index], let cloudCover = hourly.cloudCover[at: index],
                let windSpeed = hourly.windSpeed[at: index], let windDirection = hourly.windDirection[at: index],
                let weatherCode = hourly.weatherCode[at: index], let precipitation = hourly.precipitation[at: next],
                let chance = hourly.precipitationProbability[at: next]
            else { return nil }
            let clouds = percent(cloudCover)
            return HourlyForecast(
                time: date, temperature: temperature, clouds: clouds, humidity: percent(humidity), pressure: pressure,
                windSpeed: windSpeed, windDegrees: windDirection, precipitationChance: chance / 100, precipitation: precipitation,
                condition: WeatherCode.condition(
                    code: WeatherCode.code(weatherCode), isDay: isDay(hourly.isDay[at: index], at: date, days: days), clouds: clouds),
                feelsLike: hourly.apparentTemperature[at: index])
        }
    }

    /// The days with both their highest and lowest temperature and at least one hour kept, each
    /// at its local noon. What the day is made of comes from its kept hours only: the parts'
    /// temperatures (a part without any: the day's highest for the day and evening, its lowest
    /// for the night and morning), the clouds, humidity and pressure; and the wind, the chance and
    /// the sum where `daily` has none.
    private func dailyForecasts(days: [DaySpan], hours: [HourlyForecast], calendar: Calendar) -> [DailyForecast] {
        guard let daily else { return [] }
        return days.compactMap { span in
            let index = span.index
            let steps = hours.filter { calendar.isDate($0.time, inSameDayAs: span.start) }
            guard let maximum = daily.maximum[at: index], let minimum = daily.minimum[at: index], !steps.isEmpty else { return nil }
            func hour(_ step: HourlyForecast) -> Int { calendar.component(.hour, from: step.time) }
            func average(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
            func temperature(in range: Range<Int>) -> Double? {
                let part = steps.filter { range.contains(hour($0)) }.map(\.temperature)
                return part.isEmpty ? nil : average(part)
            }
            let clouds = Int(average(steps.map { Double($0.clouds) }).rounded())
            let windiest = steps.max { $0.windSpeed < $1.windSpeed }
            let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: span.start) ?? span.start
            return DailyForecast(
                time: noon, dayTemperature: temperature(in: 12..<18) ?? maximum, nightTemperature: temperature(in: 0..<6) ?? minimum,
                morningTemperature: temperature(in: 6..<12) ?? minimum, eveningTemperature: temperature(in: 18..<24) ?? maximum,
                minimumTemperature: minimum, maximumTemperature: maximum, clouds: clouds,
                humidity: Int(average(steps.map { Double($0.humidity) }).rounded()), pressure: average(steps.map(\.pressure)),
                windSpeed: daily.windSpeedMax[at: index] ?? windiest?.windSpeed ?? 0,
                windDegrees: daily.windDirectionDominant[at: index] ?? windiest?.windDegrees ?? 0,
                precipitationChance: daily.precipitationProbabilityMax[at: index].map { $0 / 100 }
                    ?? steps.map(\.precipitationChance).max() ?? 0,
                precipitation: daily.precipitationSum[at: index] ?? steps.map(\.precipitation).reduce(0, +),
                condition: WeatherCode.condition(code: WeatherCode.code(daily.weatherCode[at: index]), isDay: true, clouds: clouds),
                uvIndex: daily.uvIndexMax[at: index])
        }
    }

    /// The hour from `now`'s quarter hour by the minute: each quarter hour's millimetres as
    /// fifteen minutes at four times the rate (mm an hour). A `minutely_15` value is the sum of
    /// the quarter hour before its time, as the hourly one is of the hour before ("Precipitation
    /// in preceding 15 minutes"): the quarter hour from T takes the value given at T + 15 min.
    /// The minutes stop at a quarter hour without a value; none without `minutely_15`.
    private func minutes(from now: Date, offset: Int) -> [MinutePrecipitation] {
        guard let minutely15 else { return [] }
        var amounts: [Double: Double?] = [:]
        for (index, time) in minutely15.time.enumerated() {
            if let seconds = time.date(offset: offset)?.timeIntervalSince1970 { amounts[seconds] = minutely15.precipitation[at: index] }
        }
        let start = (now.timeIntervalSince1970 / 900).rounded(.down) * 900
        var minutes: [MinutePrecipitation] = []
        for slot in stride(from: start, to: start + 3600, by: 900) {
            guard let amount = amounts[slot + 900] ?? nil else { break }
            for minute in 0..<15 {
                minutes.append(MinutePrecipitation(time: Date(timeIntervalSince1970: slot + Double(minute * 60)), precipitation: amount * 4))
            }
        }
        return minutes
    }
}

/// A percentage as OpenWeather's models keep it: an Int from 0 to 100.
func percent(_ value: Double) -> Int {
    Int(min(max(value, 0), 100).rounded())
}
