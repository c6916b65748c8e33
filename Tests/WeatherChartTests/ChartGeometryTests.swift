import Foundation
import OpenWeather
import Testing
import WeatherChart

/// Forecast steps for the charts' tests: temperatures from a function of the step's index, night
/// where `night` says.
func hours(
    from start: String, count: Int, stepHours: Int = 1, temperature: (Int) -> Double = { Double($0 % 24) - 5 },
    precipitation: (Int) -> Double = { _ in 0 }, night: (Int) -> Bool = { _ in false }
) -> [HourlyForecast] {
    let first = ISO8601DateFormatter().date(from: start)!
    return (0..<count).map { index in
        HourlyForecast(
            time: first.addingTimeInterval(Double(index * stepHours * 3600)), temperature: temperature(index), clouds: 50, humidity: 80,
            pressure: 1013, windSpeed: 3, windDegrees: 180, precipitationChance: precipitation(index) > 0 ? 0.8 : 0.1,
            precipitation: precipitation(index), condition: Condition(description: "облачно", icon: night(index) ? "04n" : "04d"),
            feelsLike: temperature(index) - 3)
    }
}

func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

@Suite struct ChartGeometryTests {
    static let plot = ChartRect(x: 100, y: 100, width: 960, height: 500)

    @Test func fortyEightHourlyStepsSpanThePlotEvenly() {
        let geometry = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 60), stepHours: 1, timeZone: TimeZone(identifier: "UTC")!, plot: Self.plot)
        #expect(geometry.steps.count == 48)
        #expect(geometry.steps.first?.x == 100)
        #expect(geometry.steps.last?.endX == 1060)
        // 20 px an hour.
        #expect(geometry.steps[6].x == 220)
        #expect(geometry.x(utc("2026-11-24T12:00:00Z")) == 100 + 36 * 20)
        #expect(geometry.dayBoundaries.map(\.x) == [100, 580])
        #expect(geometry.hourTicks.count == 16)
        #expect(geometry.hourTicks.prefix(3).map(\.hour) == [0, 3, 6])
    }

    @Test func theTemperatureScaleCoversTheValuesWithRoundTicksAndNamesTheExtremes() {
        let geometry = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 48, temperature: { Double($0 % 24) - 7.5 }), stepHours: 1,
            timeZone: TimeZone(identifier: "UTC")!, plot: Self.plot)
        let scale = geometry.temperature
        // −7.5…15.5 and feels-like 3° lower: −10.5…15.5.
        #expect(scale.lower <= -10.5 && scale.upper >= 15.5)
        #expect(scale.lower.truncatingRemainder(dividingBy: scale.tick) == 0)
        #expect(scale.position(scale.upper) < scale.position(scale.lower))
        #expect(geometry.warmest.map { geometry.steps[$0].temperature } == 15.5)
        #expect(geometry.coldest.map { geometry.steps[$0].temperature } == -7.5)
        #expect(geometry.coldest == 0)
    }

    /// Berlin leaves summer time on 25 October 2026 at 03:00: that local day has 25 hours, and
    /// its labels fall where its hours really are.
    @Test func aDayOfTwentyFiveHoursIsWiderAndItsHoursLandWhereTheyAre() throws {
        let geometry = HourlyChartGeometry(
            hours: hours(from: "2026-10-24T12:00:00Z", count: 48), stepHours: 1, timeZone: TimeZone(identifier: "Europe/Berlin")!,
            plot: Self.plot)
        // Midnights: 25 Oct 00:00 CEST = 24 Oct 22:00Z; 26 Oct 00:00 CET = 25 Oct 23:00Z.
        #expect(geometry.dayBoundaries.map(\.date) == [utc("2026-10-24T22:00:00Z"), utc("2026-10-25T23:00:00Z")])
        let days = geometry.dayBoundaries.map(\.x)
        #expect(abs((days[1] - days[0]) - 25 * 20) < 0.001)
        // 00, 03 of the 25th are four hours apart: 02:00–03:00 comes twice.
        let ticks = geometry.hourTicks.filter { $0.date >= utc("2026-10-24T22:00:00Z") && $0.date < utc("2026-10-25T23:00:00Z") }
        #expect(ticks.map(\.hour) == [0, 3, 6, 9, 12, 15, 18, 21])
        #expect(abs((ticks[1].x - ticks[0].x) - 4 * 20) < 0.001)
        #expect(abs((ticks[2].x - ticks[1].x) - 3 * 20) < 0.001)
    }

    /// Kathmandu keeps +5:45: OpenWeather's steps are on UTC hours, so local hours fall a quarter
    /// of a step after them.
    @Test func aZoneOffTheHourPutsLocalHoursBetweenTheSteps() {
        let geometry = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 48), stepHours: 1, timeZone: TimeZone(identifier: "Asia/Kathmandu")!,
            plot: Self.plot)
        // Local midnight of the 24th is 18:15Z on the 23rd.
        let midnight = geometry.dayBoundaries.first
        #expect(midnight?.date == utc("2026-11-23T18:15:00Z"))
        #expect(midnight.map { abs($0.x - (100 + 18.25 * 20)) < 0.001 } == true)
        #expect(geometry.hourTicks.allSatisfy { $0.hour % 3 == 0 })
        // The first label is 06:00 local (00:15Z).
        #expect(geometry.hourTicks.first?.hour == 6)
        #expect(geometry.hourTicks.first.map { abs($0.x - (100 + 0.25 * 20)) < 0.001 } == true)
    }

    @Test func nightIsShadedFromTheStepsIconsAndJoinedAcrossSteps() {
        // Night from 16:00 to 08:00 UTC each day.
        let geometry = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 48, night: { $0 % 24 >= 16 || $0 % 24 < 8 }), stepHours: 1,
            timeZone: TimeZone(identifier: "UTC")!, plot: Self.plot)
        #expect(geometry.nights == [100...260, 420...740, 900...1060])
    }

    @Test func onTheFreePlanEachStepIsThreeHoursWide() {
        let geometry = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 40, stepHours: 3), stepHours: 3, timeZone: TimeZone(identifier: "UTC")!,
            plot: Self.plot)
        #expect(geometry.steps.count == 16)
        #expect(geometry.steps.allSatisfy { abs(($0.endX - $0.x) - 60) < 0.001 })
        #expect(geometry.steps.last?.endX == 1060)
    }

    @Test func rainScaleStartsAtZeroAndADryDayStillHasOne() {
        let wet = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 48, precipitation: { $0 == 10 ? 3.4 : 0 }), stepHours: 1,
            timeZone: TimeZone(identifier: "UTC")!, plot: Self.plot)
        #expect(wet.precipitation.lower == 0 && wet.precipitation.upper >= 3.4)
        #expect(wet.precipitation.position(0) == Self.plot.maxY)
        let dry = HourlyChartGeometry(
            hours: hours(from: "2026-11-23T00:00:00Z", count: 48), stepHours: 1, timeZone: TimeZone(identifier: "UTC")!, plot: Self.plot)
        #expect(dry.precipitation.upper == 2)
    }

    @Test func theWeekHasAColumnPerDayWithItsLocalWeekday() {
        let first = utc("2026-11-23T09:00:00Z")
        let days = (0..<8).map { (index: Int) -> DailyForecast in
            let day = Double(index)
            let rain: Double = index == 2 ? 4 : 0
            return DailyForecast(
                time: first.addingTimeInterval(day * 86_400), dayTemperature: day, nightTemperature: day - 6, morningTemperature: 0,
                eveningTemperature: 0, minimumTemperature: -7, maximumTemperature: 8, clouds: 50, humidity: 80, pressure: 1013, windSpeed: 3,
                windDegrees: 0, precipitationChance: 0.5, precipitation: rain, condition: Condition(description: "x", icon: "04d"))
        }
        // 09:00Z is 22:00 in Auckland (+13), still Monday the 23rd there; in Honolulu (−10) 23:00 of Sunday the 22nd.
        let auckland = DailyChartGeometry(days: days, timeZone: TimeZone(identifier: "Pacific/Auckland")!, plot: Self.plot)
        // One Call's eight days make the seven of «На 7 дней».
        #expect(auckland.columns.count == 7)
        #expect(auckland.columns.map(\.weekday) == [2, 3, 4, 5, 6, 7, 1])
        #expect(auckland.columns.first?.dayOfMonth == 23)
        let width = 960.0 / 7
        let centres: [Double] = (0..<7).map { (index: Int) -> Double in 100 + width * (Double(index) + 0.5) }
        #expect(zip(auckland.columns.map(\.x), centres).allSatisfy { abs($0 - $1) < 1e-9 })
        let honolulu = DailyChartGeometry(days: days, timeZone: TimeZone(identifier: "Pacific/Honolulu")!, plot: Self.plot)
        #expect(honolulu.columns.first?.weekday == 1)
        #expect(honolulu.columns.first?.dayOfMonth == 22)
        // The scale covers the seven days shown (day temperatures 0…6, nights −6…0), not the eighth.
        #expect(auckland.temperature.lower <= -6 && auckland.temperature.upper >= 6)
    }
}
