public import Foundation
public import OpenWeather

/// A rectangle in the picture's pixels, y growing downwards.
public struct ChartRect: Sendable, Hashable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width, rightwards from `x`.
    public var width: Double
    /// The height, downwards from `y`.
    public var height: Double

    /// A rectangle whose top left corner is at `x`, `y`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
}

/// A linear scale from values to pixels, its ends rounded out to whole ticks.
public struct ChartScale: Sendable, Hashable {
    /// The value at `from`: the smallest value rounded down to a whole tick; on a scale started at
    /// zero, zero (or the smallest value as it is, when that is negative).
    public var lower: Double
    /// The value at `to`: the largest value rounded up to a whole tick.
    public var upper: Double
    /// The step between labelled values, in the values' unit: 1, 2 or 5 times a power of ten.
    public var tick: Double
    /// The pixel of `lower`.
    public var from: Double
    /// The pixel of `upper`; less than `from` for a scale that grows upwards, as all the bot's do.
    public var to: Double

    /// A scale covering `values`, at least `minimumSpan` wide, with ticks of 1, 2, 5 or 10 times a
    /// power of ten so that about `ticks` of them fit.
    public init(covering values: [Double], minimumSpan: Double, ticks: Int, from: Double, to: Double, startAtZero: Bool = false) {
        var low = values.min() ?? 0
        var high = values.max() ?? 0
        if startAtZero { low = min(low, 0) }
        if high - low < minimumSpan {
            let middle = (high + low) / 2
            (low, high) = startAtZero ? (low, low + minimumSpan) : (middle - minimumSpan / 2, middle + minimumSpan / 2)
        }
        let raw = (high - low) / Double(max(ticks, 1))
        let power = pow(10, floor(log10(raw)))
        let tick = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
        self.tick = tick
        self.lower = startAtZero ? low : floor(low / tick) * tick
        self.upper = ceil(high / tick) * tick
        self.from = from
        self.to = to
    }

    /// The pixel of `value`, by straight proportion between `from` and `to`; values outside the
    /// scale land outside it. A scale with no span puts everything at `from`.
    public func position(_ value: Double) -> Double {
        guard upper > lower else { return from }
        return from + (value - lower) / (upper - lower) * (to - from)
    }

    /// The tick values from `lower` to `upper`.
    public var ticks: [Double] {
        stride(from: lower, through: upper + tick / 2, by: tick).map { ($0 / tick).rounded() * tick }
    }
}

/// Where everything of the 48-hour chart goes, computed from the forecast alone: the time axis
/// in the place's local time, the two scales, night, and the extremes. Drawing reads it; tests
/// check it without pixels.
public struct HourlyChartGeometry: Sendable {
    /// One forecast step as drawn: its span on the time axis and its values.
    public struct Step: Sendable, Hashable {
        /// When the forecast step starts.
        public var time: Date
        /// The pixel column of `time`, where the step's temperature is drawn and its bar starts.
        public var x: Double
        /// The end of the step's span (the next step's start).
        public var endX: Double
        /// The forecast temperature, in the forecast's unit (°C or °F).
        public var temperature: Double
        /// How warm it feels, in the same unit; nil when OpenWeather gave none, and the step is then left
        /// out of that line.
        public var feelsLike: Double?
        /// Millimetres of rain and snow over the step.
        public var precipitation: Double
        /// The chance of any precipitation, 0…1.
        public var precipitationChance: Double
        /// Whether OpenWeather's icon for the step is a night one (`…n`), which shades it.
        public var isNight: Bool
    }

    /// A labelled tick on the time axis.
    public struct Tick: Sendable, Hashable {
        /// The pixel column of the tick.
        public var x: Double
        /// The moment of the tick; at a midnight, the day named beside it.
        public var date: Date
        /// The local hour (0…23) or, for a day boundary, the local day's start.
        public var hour: Int
    }

    /// The area inside the axes the chart was laid out in.
    public let plot: ChartRect
    /// The place's time zone, which the hour ticks, midnights and day names follow.
    public let timeZone: TimeZone
    /// Hours between steps: 1 with One Call, 3 on the free plan.
    public let stepHours: Int
    /// The first step's start, at the left edge of the plot.
    public let start: Date
    /// The last step's end, at the right edge of the plot.
    public let end: Date
    /// The steps drawn, in time order: those within the span from the first, 48 hours unless told
    /// otherwise.
    public let steps: [Step]
    /// Degrees upwards from a little above the precipitation bars to near the top of the plot,
    /// covering the temperature and feels-like values with at least 6 degrees of span.
    public let temperature: ChartScale
    /// Millimetres per step, from the bottom of the plot up to `precipitationTop`.
    public let precipitation: ChartScale
    /// Local hours every three hours.
    public let hourTicks: [Tick]
    /// Local midnights.
    public let dayBoundaries: [Tick]
    /// Night as spans of the time axis, joined where steps follow each other.
    public let nights: [ClosedRange<Double>]
    /// The index in `steps` of the lowest temperature, labelled below its point; nil when there are
    /// no steps.
    public let coldest: Int?
    /// The index in `steps` of the highest temperature, labelled above its point; nil when there are
    /// no steps.
    public let warmest: Int?

    /// - Parameters:
    ///   - hours: the forecast's steps; those in the 48 hours from the first are drawn.
    ///   - plot: the area inside the axes.
    ///   - millimetresPerUnit: 25.4 when the hours' precipitation is in inches: the bars' least
    ///     span is the same rain in either unit.
    public init(
        hours: [HourlyForecast], stepHours: Int, timeZone: TimeZone, plot: ChartRect, span: TimeInterval = 48 * 3600, millimetresPerUnit: Double = 1
    ) {
        self.plot = plot
        self.timeZone = timeZone
        self.stepHours = max(stepHours, 1)
        let step = TimeInterval(self.stepHours * 3600)
        let first = hours.first?.time ?? Date(timeIntervalSince1970: 0)
        let shown = hours.filter { $0.time >= first && $0.time < first.addingTimeInterval(span) }
        let last = (shown.last?.time ?? first).addingTimeInterval(step)
        start = first
        end = last
        let length = max(last.timeIntervalSince(first), 1)
        func x(_ date: Date) -> Double { plot.x + date.timeIntervalSince(first) / length * plot.width }

        let values = shown.flatMap { [$0.temperature] + ($0.feelsLike.map { [$0] } ?? []) }
        temperature = ChartScale(covering: values, minimumSpan: 6, ticks: 6, from: plot.maxY - plot.height * 0.36, to: plot.y + 48)
        precipitation = ChartScale(
            covering: shown.map(\.precipitation), minimumSpan: (self.stepHours == 1 ? 2 : 5) / max(millimetresPerUnit, 1), ticks: 4, from: plot.maxY,
            to: plot.maxY - plot.height * 0.25, startAtZero: true)
        let steps = shown.map { hour in
            Step(
                time: hour.time, x: x(hour.time), endX: x(hour.time.addingTimeInterval(step)), temperature: hour.temperature,
                feelsLike: hour.feelsLike, precipitation: hour.precipitation, precipitationChance: hour.precipitationChance,
                isNight: hour.condition.icon.hasSuffix("n"))
        }
        self.steps = steps

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var hourTicks: [Tick] = []
        var dayBoundaries: [Tick] = []
        // Every local round hour in the range, found by the calendar so that a day of 23 or 25
        // hours and a zone off the hour (+5:45) put each label where that hour really is.
        calendar.enumerateDates(
            startingAfter: first.addingTimeInterval(-1), matching: DateComponents(minute: 0, second: 0), matchingPolicy: .nextTime
        ) { date, _, stop in
            guard let date, date < last else {
                stop = true
                return
            }
            let hour = calendar.component(.hour, from: date)
            if hour == 0 { dayBoundaries.append(Tick(x: x(date), date: date, hour: 0)) }
            if hour % 3 == 0 { hourTicks.append(Tick(x: x(date), date: date, hour: hour)) }
        }
        self.hourTicks = hourTicks
        self.dayBoundaries = dayBoundaries

        var nights: [ClosedRange<Double>] = []
        for step in steps where step.isNight {
            if let last = nights.last, abs(last.upperBound - step.x) < 0.5 {
                nights[nights.count - 1] = last.lowerBound...step.endX
            } else {
                nights.append(step.x...step.endX)
            }
        }
        self.nights = nights
        coldest = steps.indices.min { steps[$0].temperature < steps[$1].temperature }
        warmest = steps.indices.max { steps[$0].temperature < steps[$1].temperature }
    }

    /// The x of a moment on the time axis.
    public func x(_ date: Date) -> Double {
        plot.x + date.timeIntervalSince(start) / max(end.timeIntervalSince(start), 1) * plot.width
    }
}

/// Where everything of the week chart goes: a column per day, each with its band from the night's
/// to the day's temperature and its precipitation.
public struct DailyChartGeometry: Sendable {
    /// One day of the week chart.
    public struct Column: Sendable, Hashable {
        /// The day, as OpenWeather dates it (One Call: local noon).
        public var date: Date
        /// The pixel column of the column's centre.
        public var x: Double
        /// The column's width in pixels: the plot's width shared evenly among the days.
        public var width: Double
        /// The day's temperature, the top of the band, in the forecast's unit.
        public var dayTemperature: Double
        /// The night's temperature, the bottom of the band.
        public var nightTemperature: Double
        /// Millimetres of rain and snow over the day.
        public var precipitation: Double
        /// The chance of any precipitation during the day, 0…1.
        public var precipitationChance: Double
        /// 1 = Sunday … 7 = Saturday, in the place's time zone.
        public var weekday: Int
        /// The day of the month, 1…31, in the place's time zone.
        public var dayOfMonth: Int
    }

    /// The area inside the axes the chart was laid out in.
    public let plot: ChartRect
    /// The days, left to right: the first seven of the forecast, fewer when it has fewer.
    public let columns: [Column]
    /// Degrees, covering every day's and night's temperature with at least 6 degrees of span.
    public let temperature: ChartScale
    /// Millimetres per day, from zero at the bottom of the plot upwards, at least 5 mm of span.
    public let precipitation: ChartScale

    /// Lays out `days` (seven at most) in `plot`, weekdays and dates in `timeZone`; their
    /// precipitation in inches when `millimetresPerUnit` is 25.4.
    public init(days: [DailyForecast], timeZone: TimeZone, plot: ChartRect, millimetresPerUnit: Double = 1) {
        self.plot = plot
        // The seven days of «На 7 дней»: One Call gives eight.
        let shown = Array(days.prefix(7))
        let width = plot.width / Double(max(shown.count, 1))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        columns = shown.enumerated().map { index, day in
            Column(
                date: day.time, x: plot.x + width * (Double(index) + 0.5), width: width, dayTemperature: day.dayTemperature,
                nightTemperature: day.nightTemperature, precipitation: day.precipitation, precipitationChance: day.precipitationChance,
                weekday: calendar.component(.weekday, from: day.time), dayOfMonth: calendar.component(.day, from: day.time))
        }
        temperature = ChartScale(
            covering: shown.flatMap { [$0.dayTemperature, $0.nightTemperature] }, minimumSpan: 6, ticks: 6,
            from: plot.maxY - plot.height * 0.36, to: plot.y + 48)
        precipitation = ChartScale(
            covering: shown.map(\.precipitation), minimumSpan: 5 / max(millimetresPerUnit, 1), ticks: 4, from: plot.maxY, to: plot.maxY - plot.height * 0.22,
            startAtZero: true)
    }
}
