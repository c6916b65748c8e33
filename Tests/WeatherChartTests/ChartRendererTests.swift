import CCairo
import Foundation
import OpenWeather
import Testing
@testable import WeatherChart

/// A PNG read back with Cairo, for looking at its pixels.
final class DecodedPNG {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    init(_ png: Data) throws {
        final class Source {
            var data: Data
            var offset = 0
            init(_ data: Data) { self.data = data }
        }
        let source = Source(png)
        let read = cairo_image_surface_create_from_png_stream(
            { closure, buffer, length in
                let source = Unmanaged<Source>.fromOpaque(closure!).takeUnretainedValue()
                let count = Int(length)
                guard let buffer, source.offset + count <= source.data.count else { return CAIRO_STATUS_READ_ERROR }
                source.data.copyBytes(to: buffer, from: source.offset..<source.offset + count)
                source.offset += count
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(source).toOpaque())
        let surface = try #require(read)
        #expect(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The pixel's red, green and blue, 0…255.
    func pixel(_ x: Double, _ y: Double) -> (Int, Int, Int) {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let offset = Int(y) * stride + Int(x) * 4
        // 32 bits per pixel, native byte order: B, G, R, A on this machine.
        return (Int(data[offset + 2]), Int(data[offset + 1]), Int(data[offset]))
    }

    func isWhite(_ x: Double, _ y: Double) -> Bool { pixel(x, y) == (255, 255, 255) }
}

@Suite struct ChartRendererTests {
    static let russian = ChartLabels(
        place: "Москва", subtitle: "48 часов · данные на 14:05", temperature: "Температура", feelsLike: "Ощущается как",
        precipitation: "Осадки", precipitationChance: "Вероятность осадков", dayAndNight: "Днём и ночью", millimetres: "мм", hour: "ч",
        weekdays: ["вс", "пн", "вт", "ср", "чт", "пт", "сб"], decimalMark: ",")
    static let english = ChartLabels(
        place: "London", subtitle: "48 hours · data of 14:05", temperature: "Temperature", feelsLike: "Feels like",
        precipitation: "Precipitation", precipitationChance: "Chance of precipitation", dayAndNight: "Day and night", millimetres: "mm",
        hour: "h", weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])

    static func forecast(stepHours: Int = 1) -> Forecast {
        let count = stepHours == 1 ? 48 : 16
        return Forecast(
            timeZone: .identifier("UTC"),
            current: CurrentWeather(
                time: utc("2026-11-23T00:00:00Z"), temperature: 1, feelsLike: -2, clouds: 50, humidity: 80, pressure: 1013, windSpeed: 3,
                windDegrees: 180, condition: Condition(description: "облачно", icon: "04n")),
            hourly: hours(
                from: "2026-11-23T00:00:00Z", count: count, stepHours: stepHours,
                temperature: { Double(($0 * stepHours) % 24) - 5 }, precipitation: { ($0 * stepHours) % 24 == 12 ? 2 : 0 },
                night: { ($0 * stepHours) % 24 >= 16 || ($0 * stepHours) % 24 < 8 }),
            source: stepHours == 1 ? .oneCall : .freePlan)
    }

    @Test func amountsAreWrittenWithTheLanguagesDecimalMark() {
        #expect(Self.russian.number(1.5) == "1,5")
        #expect(Self.english.number(1.5) == "1.5")
        #expect(Self.russian.number(2) == "2")
    }

    /// The axis names hours as the bot's texts write times: «3 PM», as «10:17 PM», never «3pm».
    @Test func theTwelveHourAxisWritesHoursAsTheTextsDo() {
        var labels = Self.english
        labels.twelveHourClock = true
        #expect(labels.hourTick(0) == "12 AM" && labels.hourTick(15) == "3 PM" && labels.hourTick(12) == "12 PM")
        #expect(labels.labelsTick(18) && !labels.labelsTick(15))
        labels.hours = (0..<24).map { "h\($0)" }
        #expect(labels.hourTick(15) == "h15")
        #expect(Self.english.hourTick(15) == "15" && Self.english.labelsTick(15))
    }

    /// Under imperial units the bars and their numbers are inches: 25.4 mm is 1 in.
    @Test func precipitationIsDrawnInTheUnitOfTheLabels() {
        var labels = Self.english
        labels.millimetres = "in"
        labels.millimetresPerUnit = 25.4
        let forecast = labels.inUnit(Self.forecast())
        #expect(forecast.hourly.map(\.precipitation).max().map { abs($0 - 2 / 25.4) < 1e-9 } == true)
        #expect(labels.number(2 / 25.4) == "0.08" && Self.english.number(2 / 25.4) == "0.1")
        let geometry = HourlyChartGeometry(
            hours: forecast.hourly, stepHours: 1, timeZone: .gmt, plot: ChartRenderer.plot, millimetresPerUnit: labels.millimetresPerUnit)
        #expect((geometry.precipitation.ticks.last ?? 0) < 1, "\(geometry.precipitation.ticks)")
    }

    @Test func theHourlyChartIsAPNGOfTheSizeAPhoneReads() throws {
        let chart = try ChartRenderer.hourly(Self.forecast(), labels: Self.russian)
        #expect(chart.png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let image = try DecodedPNG(chart.png)
        #expect((image.width, image.height) == (1280, 720))
        #expect(chart.png.count < 200_000)
    }

    /// The pixels fall where the geometry says: night shaded and day white at the plot's top,
    /// the temperature line at its warmest point, a rain bar at noon.
    @Test func nightRainAndTheTemperatureLineAreWhereTheGeometryPutsThem() throws {
        let forecast = Self.forecast()
        let chart = try ChartRenderer.hourly(forecast, labels: Self.english)
        let image = try DecodedPNG(chart.png)
        let geometry = HourlyChartGeometry(hours: forecast.hourly, stepHours: 1, timeZone: TimeZone(identifier: "UTC")!, plot: ChartRenderer.plot)
        let top = ChartRenderer.plot.y + 4
        let night = try #require(geometry.nights.first)
        #expect(image.pixel((night.lowerBound + night.upperBound) / 2 + 40, top) == (230, 235, 245))
        let noon = geometry.steps[12]
        #expect(image.isWhite(noon.x + 2, top))
        // The rain bar at noon, just above the axis.
        let (red, green, blue) = image.pixel((noon.x + noon.endX) / 2, ChartRenderer.plot.maxY - 3)
        #expect(blue > 180 && red < 120 && green < 160, "\((red, green, blue))")
        // The warmest point (+18° at 23:00) is drawn in the temperature's colour.
        let warmest = try #require(geometry.warmest)
        let step = geometry.steps[warmest]
        let (r, g, b) = image.pixel(step.x, geometry.temperature.position(step.temperature))
        #expect(r > 180 && g < 140 && b < 100, "\((r, g, b))")
    }

    /// Where the drawing puts things, read from its pixels alone: the day lines (the only marks in
    /// the row just below the axis that reach it) and the temperature line's peak.
    struct Measured {
        var dayLines: [Double]
        var peak: Double
    }

    func measure(_ image: DecodedPNG, peakAt y: Double) -> Measured {
        let plot = ChartRenderer.plot
        func columns(_ row: Double, where matches: ((Int, Int, Int)) -> Bool) -> [[Int]] {
            var runs: [[Int]] = []
            for x in Int(plot.x)...Int(plot.maxX) where matches(image.pixel(Double(x), row)) {
                if let last = runs.last?.last, last == x - 1 { runs[runs.count - 1].append(x) } else { runs.append([x]) }
            }
            return runs
        }
        let centre = { (run: [Int]) in Double(run.first! + run.last!) / 2 + 0.5 }
        let dayLines = columns(plot.maxY + 7) { $0 != (255, 255, 255) }.map(centre)
        // The warmest point's dot, in the temperature's colour, on the row of its value.
        let red = columns(y) { r, g, b in r > 180 && g < 140 && b < 100 }
        let peak = red.max { $0.count < $1.count }.map(centre) ?? .nan
        return Measured(dayLines: dayLines, peak: peak)
    }

    /// Ufa's 16:00 maximum was drawn at 16:30, Honolulu's 14:00 at 15:30: a value forecast for an
    /// hour is drawn at that hour, measured from the day lines of the rendered PNG.
    @Test(arguments: [1, 3])
    func aForecastHoursValueIsDrawnAtThatHour(stepHours: Int) throws {
        // From 05:00 UTC, midnights fall 19 and 43 hours in; the warmest hour is 14:00 of the
        // second day, 33 hours in, a step on either plan.
        let peak = 33
        let forecast = Forecast(
            timeZone: .identifier("UTC"),
            current: Self.forecast().current,
            hourly: hours(
                from: "2026-11-23T05:00:00Z", count: 48 / stepHours, stepHours: stepHours,
                temperature: { 20 - Double(abs($0 * stepHours - peak)) / 2 }),
            source: stepHours == 1 ? .oneCall : .freePlan)
        let image = try DecodedPNG(try ChartRenderer.hourly(forecast, labels: Self.russian).png)
        let geometry = HourlyChartGeometry(
            hours: forecast.hourly, stepHours: stepHours, timeZone: TimeZone(identifier: "UTC")!, plot: ChartRenderer.plot)
        let measured = measure(image, peakAt: geometry.temperature.position(20))
        try #require(measured.dayLines.count == 2, "day lines at \(measured.dayLines)")
        let pixelsPerHour = (measured.dayLines[1] - measured.dayLines[0]) / 24
        let hoursAfterMidnight = (measured.peak - measured.dayLines[0]) / pixelsPerHour
        // 14:00 is 14 hours after the first midnight; a pixel either way is 2 minutes.
        #expect(abs(hoursAfterMidnight - 14) < 0.1, "the 14:00 maximum drawn at \(hoursAfterMidnight) h after midnight")
    }

    /// The hour under way is not drawn beside the card's now: the chart starts where the hourly list does.
    @Test func theChartStartsAtTheFirstHourAfterTheDataWasMeasured() {
        var forecast = Self.forecast()
        forecast.current.time = utc("2026-11-23T00:27:00Z")
        #expect(ChartRenderer.upcoming(forecast).first?.time == utc("2026-11-23T01:00:00Z"))
        #expect(ChartRenderer.upcoming(forecast).count == 47)
        forecast.current.time = utc("2026-11-23T00:00:00Z")
        #expect(ChartRenderer.upcoming(forecast).count == 48)
    }

    @Test func theFreePlansThreeHourStepsAreDrawnAsSuch() throws {
        let chart = try ChartRenderer.hourly(Self.forecast(stepHours: 3), labels: Self.russian)
        let image = try DecodedPNG(chart.png)
        let forecast = Self.forecast(stepHours: 3)
        let geometry = HourlyChartGeometry(hours: forecast.hourly, stepHours: 3, timeZone: TimeZone(identifier: "UTC")!, plot: ChartRenderer.plot)
        // A 60 px wide rain bar at 12:00–15:00.
        let noon = geometry.steps[4]
        #expect(abs((noon.endX - noon.x) - 3 * ChartRenderer.plot.width / 48) < 0.001)
        let (red, _, blue) = image.pixel(noon.x + 8, ChartRenderer.plot.maxY - 3)
        #expect(blue > 180 && red < 120)
    }

    @Test func bothLanguagesDrawTheirTitles() throws {
        for labels in [Self.russian, Self.english] {
            let image = try DecodedPNG(try ChartRenderer.hourly(Self.forecast(), labels: labels).png)
            // The title's first letter sits at the plot's left edge, 32 px high above y = 48.
            let inked = (90..<130).flatMap { x in (20..<50).map { y in (x, y) } }.filter { !image.isWhite(Double($0.0), Double($0.1)) }
            #expect(inked.count > 40, "\(labels.place)")
        }
    }

    @Test func theWeekChartHasADayBandPerColumn() throws {
        var forecast = Self.forecast()
        let first = utc("2026-11-23T09:00:00Z")
        forecast.daily = (0..<8).map { (index: Int) -> DailyForecast in
            let day = Double(index * 2)
            let rain: Double = index == 3 ? 6 : 0
            return DailyForecast(
                time: first.addingTimeInterval(Double(index) * 86_400), dayTemperature: day, nightTemperature: day - 8,
                morningTemperature: 0, eveningTemperature: 0, minimumTemperature: -8, maximumTemperature: 14, clouds: 50, humidity: 80,
                pressure: 1013, windSpeed: 3, windDegrees: 0, precipitationChance: 0.5, precipitation: rain,
                condition: Condition(description: "x", icon: "04d"))
        }
        let chart = try ChartRenderer.weekly(forecast, labels: Self.russian)
        let image = try DecodedPNG(chart.png)
        #expect((image.width, image.height) == (1280, 720))
        let geometry = DailyChartGeometry(days: forecast.daily, timeZone: TimeZone(identifier: "UTC")!, plot: ChartRenderer.plot)
        for column in geometry.columns {
            let day: Double = geometry.temperature.position(column.dayTemperature)
            let night: Double = geometry.temperature.position(column.nightTemperature)
            let (r, g, b) = image.pixel(column.x, (day + night) / 2)
            let isBand = r > 220 && g > 130 && g < 190 && b < 80
            #expect(isBand, "\(column.weekday): \((r, g, b))")
        }
        #expect(Self.russian.weekday(geometry.columns[0].weekday) == "пн")
        #expect(Self.english.weekday(geometry.columns[6].weekday) == "Sun")
    }
}
