import CCairo
public import Foundation
public import OpenWeather

/// The words a chart shows, in the reader's language.
public struct ChartLabels: Sendable, Hashable {
    /// The place's name, first in the title.
    public var place: String
    /// The rest of the title, such as «48 часов · данные на 14:05».
    public var subtitle: String
    /// The hourly chart's legend name for the temperature line, «Температура»; the unit is added to it.
    public var temperature: String
    /// The hourly chart's legend name for the dashed feels-like line.
    public var feelsLike: String
    /// The legend's name for the precipitation bars, «Осадки»; the week's adds «мм» to it.
    public var precipitation: String
    /// The legend's name for the dotted chance line (hourly) or the percentages (week).
    public var precipitationChance: String
    /// The week's band: «Днём и ночью».
    public var dayAndNight: String
    /// The unit of precipitation drawn: «мм», «mm», or «in».
    public var millimetres: String
    /// How many millimetres make one of ``millimetres``: 1, or 25.4 for inches. The forecast's
    /// millimetres are drawn divided by it.
    public var millimetresPerUnit: Double
    /// «ч» or «h», in «мм/ч».
    public var hour: String
    /// Short weekday names, Sunday first (Calendar's weekday 1…7).
    public var weekdays: [String]
    /// «,» or «.» before a number's tenths.
    public var decimalMark: String
    /// «°C» or «°F», the unit of the temperatures drawn (the forecast given is in it already).
    public var temperatureUnit: String
    /// The hours axis on the 12-hour clock: «12 AM», «6 AM» … «6 PM», every six hours.
    public var twelveHourClock: Bool
    /// Each hour of the day as the axis names it, midnight first, in the bot's own style («15»,
    /// «3 PM»); empty: two digits, or the 12-hour style of ``twelveHourClock``.
    public var hours: [String]

    /// The labels; a decimal point, °C and the 24-hour clock unless told otherwise.
    public init(
        place: String, subtitle: String, temperature: String, feelsLike: String, precipitation: String, precipitationChance: String,
        dayAndNight: String, millimetres: String, hour: String, weekdays: [String], decimalMark: String = ".", temperatureUnit: String = "°C",
        twelveHourClock: Bool = false, hours: [String] = [], millimetresPerUnit: Double = 1
    ) {
        self.temperatureUnit = temperatureUnit
        self.twelveHourClock = twelveHourClock
        self.hours = hours
        self.millimetresPerUnit = millimetresPerUnit
        self.place = place
        self.subtitle = subtitle
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.precipitation = precipitation
        self.precipitationChance = precipitationChance
        self.dayAndNight = dayAndNight
        self.millimetres = millimetres
        self.hour = hour
        self.weekdays = weekdays
        self.decimalMark = decimalMark
    }

    /// «1,5» or «1.5»; whole numbers without tenths; hundredths for inches («0.05»).
    func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "–" }
        let format = millimetresPerUnit > 1 ? "%.2f" : "%.1f"
        return value == value.rounded() ? String(Int(value)) : String(format: format, value).replacingOccurrences(of: ".", with: decimalMark)
    }

    /// An hour tick: «15», or «3 PM» on the 12-hour clock, as ``hours`` names it when given.
    func hourTick(_ hour: Int) -> String {
        if hours.indices.contains(hour) { return hours[hour] }
        guard twelveHourClock else { return String(format: "%02d", hour) }
        return "\(hour % 12 == 0 ? 12 : hour % 12) \(hour < 12 ? "AM" : "PM")"
    }

    /// Whether the axis names this tick: every one of three hours, every six on the 12-hour
    /// clock, whose longer names would touch.
    func labelsTick(_ hour: Int) -> Bool {
        !twelveHourClock || hour % 6 == 0
    }

    /// The forecast with its precipitation in the unit drawn.
    func inUnit(_ forecast: Forecast) -> Forecast {
        guard millimetresPerUnit != 1, millimetresPerUnit > 0 else { return forecast }
        var forecast = forecast
        for index in forecast.hourly.indices { forecast.hourly[index].precipitation /= millimetresPerUnit }
        for index in forecast.daily.indices { forecast.daily[index].precipitation /= millimetresPerUnit }
        return forecast
    }

    func weekday(_ number: Int) -> String {
        weekdays.indices.contains(number - 1) ? weekdays[number - 1] : ""
    }
}

/// A chart as a PNG, drawn with Cairo.
public struct RenderedChart: Sendable, Hashable {
    /// The picture's PNG bytes, ready to upload as a photo.
    public var png: Data
    /// The width in pixels: ``ChartRenderer/width``.
    public var width: Int
    /// The height in pixels: ``ChartRenderer/height``.
    public var height: Int
}

/// Why a chart could not be drawn.
public struct ChartError: Error, Sendable, CustomStringConvertible {
    /// Cairo's own words for what failed, or which of its objects could not be made; no chart data.
    public var description: String
}

/// Draws the bot's charts: 1280×720, readable on a phone, where a chat shows the picture about a
/// third of its size: no text smaller than 20 pixels. Pure CPU work on the calling thread; the
/// caller keeps it off the threads that serve chats.
public enum ChartRenderer {
    /// The picture's width in pixels.
    public static let width = 1280
    /// The picture's height in pixels: 16:9 with ``width``.
    public static let height = 720
    /// The area inside the axes, below the title, the subtitle and the legend.
    public static let plot = ChartRect(x: 100, y: 150, width: 1060, height: 520)
    static let font = "DejaVu Sans"

    enum Palette {
        static let background = (1.0, 1.0, 1.0)
        static let night = (0.90, 0.92, 0.96)
        static let grid = (0.85, 0.85, 0.85)
        static let text = (0.15, 0.15, 0.18)
        static let muted = (0.45, 0.45, 0.50)
        static let temperature = (0.87, 0.33, 0.13)
        static let feelsLike = (0.55, 0.35, 0.75)
        static let precipitation = (0.22, 0.50, 0.85)
        static let chance = (0.10, 0.25, 0.50)
        static let day = (0.96, 0.64, 0.20)
    }

    /// The next 48 hours: temperature and feels-like as lines, precipitation as bars, its chance as
    /// a dotted line, night shaded, the hours in the place's local time.
    public static func hourly(_ forecast: Forecast, labels: ChartLabels) throws(ChartError) -> RenderedChart {
        let forecast = labels.inUnit(forecast)
        let geometry = HourlyChartGeometry(
            hours: upcoming(forecast), stepHours: forecast.hourlyStep, timeZone: forecast.timeZone.timeZone, plot: plot,
            millimetresPerUnit: labels.millimetresPerUnit)
        return try render { canvas in draw(geometry, labels: labels, on: &canvas) }
    }

    /// The forecast's steps from the first that starts at or after its measured now: the hour
    /// under way would draw a forecast beside the card's "now", as the hourly list does not. By
    /// the data's time, not the clock's, so one forecast is one drawing.
    static func upcoming(_ forecast: Forecast) -> [HourlyForecast] {
        let now = forecast.current.time
        let upcoming = forecast.hourly.filter { $0.time >= now }
        return upcoming.isEmpty ? forecast.hourly : upcoming
    }

    /// The week: a band per day from the night's to the day's temperature, precipitation bars, and
    /// the weekdays in the reader's language.
    public static func weekly(_ forecast: Forecast, labels: ChartLabels) throws(ChartError) -> RenderedChart {
        let forecast = labels.inUnit(forecast)
        let geometry = DailyChartGeometry(days: forecast.daily, timeZone: forecast.timeZone.timeZone, plot: plot, millimetresPerUnit: labels.millimetresPerUnit)
        return try render { canvas in draw(geometry, labels: labels, on: &canvas) }
    }

    // MARK: Drawing

    static func draw(_ geometry: HourlyChartGeometry, labels: ChartLabels, on canvas: inout Canvas) {
        let plot = geometry.plot
        canvas.title(labels)
        for night in geometry.nights {
            canvas.fill(ChartRect(x: night.lowerBound, y: plot.y, width: night.upperBound - night.lowerBound, height: plot.height), Palette.night)
        }
        let chanceTop = geometry.precipitation.to
        let chanceY = { (percent: Double) in plot.maxY - percent / 100 * (plot.maxY - chanceTop) }
        // Temperature ticks clear of the chance's scale, which shares the left margin.
        canvas.temperatureGrid(geometry.temperature, plot: plot, avoiding: [chanceY(100), chanceY(50)])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = geometry.timeZone
        let dayLabel = { (date: Date) in "\(labels.weekday(calendar.component(.weekday, from: date))) \(calendar.component(.day, from: date))" }
        // Each day named where it starts, the first at the left edge, when its part has room.
        if let first = geometry.steps.first, (geometry.dayBoundaries.first?.x ?? plot.maxX) - plot.x > 100 {
            canvas.text(dayLabel(first.time), at: (plot.x + 8, plot.y + 28), size: 24, Palette.text, bold: true)
        }
        for day in geometry.dayBoundaries {
            canvas.line(from: (day.x, plot.y), to: (day.x, plot.maxY + 8), Palette.muted, width: 2)
            if plot.maxX - day.x > 100 {
                canvas.text(dayLabel(day.date), at: (day.x + 8, plot.y + 28), size: 24, Palette.text, bold: true)
            }
        }
        for tick in geometry.hourTicks {
            canvas.line(from: (tick.x, plot.maxY), to: (tick.x, plot.maxY + 6), Palette.muted, width: 1)
            guard labels.labelsTick(tick.hour) else { continue }
            canvas.text(labels.hourTick(tick.hour), at: (tick.x, plot.maxY + 30), size: 22, Palette.muted, align: .center)
        }
        // Precipitation: bars of millimetres per step, and the chance as a dotted line over them.
        for step in geometry.steps where step.precipitation > 0 {
            let top = geometry.precipitation.position(step.precipitation)
            let gap = min((step.endX - step.x) * 0.15, 3)
            canvas.fill(ChartRect(x: step.x + gap, y: top, width: step.endX - step.x - 2 * gap, height: plot.maxY - top), Palette.precipitation)
        }
        let chance = geometry.steps.map { ($0.x + ($0.endX - $0.x) / 2, chanceY($0.precipitationChance * 100)) }
        canvas.polyline(chance, Palette.chance, width: 3, dash: [3, 6])
        for percent in [50.0, 100] {
            canvas.text("\(Int(percent))%", at: (plot.x - 10, chanceY(percent) + 7), size: 20, Palette.chance, align: .right)
        }
        let perStep = geometry.stepHours == 1 ? labels.hour : "\(geometry.stepHours) \(labels.hour)"
        let amounts = geometry.precipitation.ticks.dropFirst()
        for tick in amounts {
            let unit = tick == amounts.last ? " \(labels.millimetres)/\(perStep)" : ""
            canvas.text(labels.number(tick) + unit, at: (plot.maxX + 8, geometry.precipitation.position(tick) + 7), size: 20, Palette.precipitation)
        }
        // Temperature and feels-like are forecast for a moment, the step's own hour, and drawn at
        // it (not at the middle of the period a bar covers); on the free plan each 3-hour point is marked.
        let feels = geometry.steps.compactMap { step in step.feelsLike.map { (step.x, geometry.temperature.position($0)) } }
        canvas.polyline(feels, Palette.feelsLike, width: 3, dash: [12, 7])
        let line = geometry.steps.map { ($0.x, geometry.temperature.position($0.temperature)) }
        canvas.polyline(line, Palette.temperature, width: 5)
        if geometry.stepHours > 1 {
            for point in line { canvas.dot(at: point, radius: 6, Palette.temperature) }
        }
        for (index, above) in [(geometry.warmest, true), (geometry.coldest, false)] {
            guard let index else { continue }
            let point = line[index]
            canvas.dot(at: point, radius: 7, Palette.temperature)
            let label = Self.degrees(geometry.steps[index].temperature)
            // Kept inside the plot, clear of the temperature axis.
            let x = min(max(point.0, plot.x + 36), plot.maxX - 36)
            canvas.text(label, at: (x, point.1 + (above ? -16 : 36)), size: 28, Palette.temperature, bold: true, align: .center)
        }
        canvas.legend([
            (labels.temperature + ", " + labels.temperatureUnit, Palette.temperature, .line([])), (labels.feelsLike, Palette.feelsLike, .line([12, 7])),
            (labels.precipitation, Palette.precipitation, .block), (labels.precipitationChance, Palette.chance, .line([3, 6])),
        ])
    }

    static func draw(_ geometry: DailyChartGeometry, labels: ChartLabels, on canvas: inout Canvas) {
        let plot = geometry.plot
        canvas.title(labels)
        canvas.temperatureGrid(geometry.temperature, plot: plot)
        for column in geometry.columns {
            let day = geometry.temperature.position(column.dayTemperature)
            let night = geometry.temperature.position(column.nightTemperature)
            let band = column.width * 0.36
            let top = min(day, night)
            canvas.fill(ChartRect(x: column.x - band / 2, y: top, width: band, height: max(abs(night - day), 3)), Palette.day, radius: band / 2)
            // The day's temperature bold, the night's muted, each at its end of the band.
            let dayAbove = column.dayTemperature >= column.nightTemperature
            let upper = (dayAbove ? column.dayTemperature : column.nightTemperature, dayAbove)
            let lower = (dayAbove ? column.nightTemperature : column.dayTemperature, !dayAbove)
            canvas.text(
                Self.degrees(upper.0), at: (column.x, top - 12), size: upper.1 ? 28 : 24, upper.1 ? Palette.temperature : Palette.muted,
                bold: upper.1, align: .center)
            canvas.text(
                Self.degrees(lower.0), at: (column.x, max(day, night) + 32), size: lower.1 ? 28 : 24, lower.1 ? Palette.temperature : Palette.muted,
                bold: lower.1, align: .center)
            var labelY = plot.maxY - 8
            if column.precipitation > 0 {
                let barTop = geometry.precipitation.position(column.precipitation)
                canvas.fill(ChartRect(x: column.x - band / 2, y: barTop, width: band, height: plot.maxY - barTop), Palette.precipitation)
                canvas.text(
                    "\(labels.number(column.precipitation)) \(labels.millimetres)", at: (column.x, barTop - 8), size: 20, Palette.precipitation,
                    align: .center)
                labelY = barTop - 34
            }
            let chance = Int((column.precipitationChance * 100).rounded())
            if chance > 0 {
                canvas.text("\(chance)%", at: (column.x, labelY), size: 20, Palette.chance, align: .center)
            }
            canvas.text(
                "\(labels.weekday(column.weekday)) \(column.dayOfMonth)", at: (column.x, plot.maxY + 32), size: 24, Palette.text, bold: true,
                align: .center)
        }
        canvas.legend([
            (labels.dayAndNight + ", " + labels.temperatureUnit, Palette.day, .block), (labels.precipitation + ", " + labels.millimetres, Palette.precipitation, .block),
            (labels.precipitationChance + ", %", Palette.chance, .text),
        ])
    }

    static func degrees(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "–" }
        let rounded = Int(value.rounded())
        return rounded > 0 ? "+\(rounded)°" : rounded < 0 ? "−\(-rounded)°" : "0°"
    }

    // MARK: Cairo

    /// Draws on a fresh image surface and encodes it as PNG.
    static func render(_ draw: (inout Canvas) -> Void) throws(ChartError) -> RenderedChart {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else {
            throw ChartError(description: "no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard let context = cairo_create(surface) else { throw ChartError(description: "no drawing context") }
        var canvas = Canvas(context: context)
        canvas.fill(ChartRect(x: 0, y: 0, width: Double(width), height: Double(height)), Palette.background)
        draw(&canvas)
        let status = cairo_status(context)
        cairo_destroy(context)
        guard status == CAIRO_STATUS_SUCCESS else { throw ChartError(description: String(cString: cairo_status_to_string(status))) }
        cairo_surface_flush(surface)
        let sink = PNGSink()
        let written = cairo_surface_write_to_png_stream(
            surface,
            { closure, bytes, length in
                guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        guard written == CAIRO_STATUS_SUCCESS else { throw ChartError(description: String(cString: cairo_status_to_string(written))) }
        return RenderedChart(png: sink.data, width: width, height: height)
    }

    /// Where Cairo's PNG writer puts its bytes; used by one render on one thread.
    private final class PNGSink {
        var data = Data()
    }
}

/// A Cairo context with the few strokes the charts are made of.
struct Canvas {
    let context: OpaquePointer

    enum Alignment { case left, center, right }

    func color(_ rgb: (Double, Double, Double)) { cairo_set_source_rgb(context, rgb.0, rgb.1, rgb.2) }

    func fill(_ rect: ChartRect, _ rgb: (Double, Double, Double), radius: Double = 0) {
        color(rgb)
        if radius > 0 {
            // A band shorter than it is wide is rounded as far as its height allows.
            let r = min(radius, rect.width / 2, rect.height / 2)
            cairo_new_sub_path(context)
            cairo_arc(context, rect.x + r, rect.y + r, r, .pi, 1.5 * .pi)
            cairo_arc(context, rect.maxX - r, rect.y + r, r, 1.5 * .pi, 2 * .pi)
            cairo_arc(context, rect.maxX - r, rect.maxY - r, r, 0, 0.5 * .pi)
            cairo_arc(context, rect.x + r, rect.maxY - r, r, 0.5 * .pi, .pi)
            cairo_close_path(context)
        } else {
            cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        }
        cairo_fill(context)
    }

    func line(from start: (Double, Double), to end: (Double, Double), _ rgb: (Double, Double, Double), width: Double) {
        polyline([start, end], rgb, width: width)
    }

    func polyline(_ points: [(Double, Double)], _ rgb: (Double, Double, Double), width: Double, dash: [Double] = []) {
        guard let first = points.first else { return }
        color(rgb)
        cairo_set_line_width(context, width)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(context, dash.isEmpty ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        dash.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), 0) }
        cairo_move_to(context, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(context, point.0, point.1) }
        cairo_stroke(context)
        cairo_set_dash(context, nil, 0, 0)
    }

    func dot(at point: (Double, Double), radius: Double, _ rgb: (Double, Double, Double)) {
        color(rgb)
        cairo_arc(context, point.0, point.1, radius, 0, 2 * .pi)
        cairo_fill(context)
    }

    func text(_ string: String, at point: (Double, Double), size: Double, _ rgb: (Double, Double, Double), bold: Bool = false, align: Alignment = .left) {
        color(rgb)
        cairo_select_font_face(context, ChartRenderer.font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, string, &extents)
        let x = switch align {
        case .left: point.0
        case .center: point.0 - extents.x_advance / 2
        case .right: point.0 - extents.x_advance
        }
        cairo_move_to(context, x, point.1)
        cairo_show_text(context, string)
    }

    func title(_ labels: ChartLabels) {
        text(labels.place, at: (ChartRenderer.plot.x, 46), size: 40, ChartRenderer.Palette.text, bold: true)
        text(labels.subtitle, at: (ChartRenderer.plot.x, 84), size: 26, ChartRenderer.Palette.muted)
    }

    /// The temperature's grid lines and ticks; a tick label within a line's height of one of
    /// `avoiding` (another scale's labels in the same margin) is left out.
    func temperatureGrid(_ scale: ChartScale, plot: ChartRect, avoiding: [Double] = []) {
        for tick in scale.ticks {
            let y = scale.position(tick)
            line(from: (plot.x, y), to: (plot.maxX, y), ChartRenderer.Palette.grid, width: 1)
            guard !avoiding.contains(where: { abs($0 - y) < 26 }) else { continue }
            text(ChartRenderer.degrees(tick), at: (plot.x - 10, y + 8), size: 22, ChartRenderer.Palette.muted, align: .right)
        }
    }

    /// How a legend entry shows what it names.
    enum Mark {
        case line([Double])
        case block
        /// A sample of the text the chart writes in that colour.
        case text
    }

    /// The legend, in a row under the subtitle from the plot's left edge.
    func legend(_ entries: [(String, (Double, Double, Double), Mark)]) {
        var x = ChartRenderer.plot.x
        let y = 126.0
        for (label, rgb, mark) in entries {
            switch mark {
            case .line(let dash): polyline([(x, y - 8), (x + 34, y - 8)], rgb, width: 5, dash: dash)
            case .block: fill(ChartRect(x: x, y: y - 18, width: 34, height: 20), rgb)
            case .text: text("%", at: (x + 17, y), size: 22, rgb, bold: true, align: .center)
            }
            x += 44
            text(label, at: (x, y), size: 22, ChartRenderer.Palette.text)
            x += advance(of: label, size: 22) + 30
        }
    }

    func advance(of string: String, size: Double) -> Double {
        cairo_select_font_face(context, ChartRenderer.font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, string, &extents)
        return extents.x_advance
    }
}
