import CCairo
public import Foundation
public import OpenWeather

/// The words a chart shows, in the reader's language.
public struct ChartLabels: Sendable, Hashable {
    /// The place's name, first in the title.
    public var place: String
    /// The rest of the title, such as «48 часов · данные на 14:05».
    public var subtitle: String
    public var temperature: String
    public var feelsLike: String
    public var precipitation: String
    public var precipitationChance: String
    /// «мм» or «mm».
    public var millimetres: String
    /// Short weekday names, Sunday first (Calendar's weekday 1…7).
    public var weekdays: [String]
    /// «,» or «.» before a number's tenths.
    public var decimalMark: String

    public init(
        place: String, subtitle: String, temperature: String, feelsLike: String, precipitation: String, precipitationChance: String,
        millimetres: String, weekdays: [String], decimalMark: String = "."
    ) {
        self.place = place
        self.subtitle = subtitle
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.precipitation = precipitation
        self.precipitationChance = precipitationChance
        self.millimetres = millimetres
        self.weekdays = weekdays
        self.decimalMark = decimalMark
    }

    /// «1,5» or «1.5»; whole numbers without tenths.
    func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "–" }
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value).replacingOccurrences(of: ".", with: decimalMark)
    }

    func weekday(_ number: Int) -> String {
        weekdays.indices.contains(number - 1) ? weekdays[number - 1] : ""
    }
}

/// A chart as a PNG, drawn with Cairo.
public struct RenderedChart: Sendable, Hashable {
    public var png: Data
    public var width: Int
    public var height: Int
}

/// Why a chart could not be drawn.
public struct ChartError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Draws the bot's charts: 1280×720, readable on a phone. Pure CPU work on the calling thread;
/// the caller keeps it off the threads that serve chats.
public enum ChartRenderer {
    public static let width = 1280
    public static let height = 720
    /// The area inside the axes.
    public static let plot = ChartRect(x: 90, y: 110, width: 1100, height: 560)
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
        static let day = (0.96, 0.64, 0.20)
    }

    /// The next 48 hours: temperature and feels-like as lines, precipitation as bars, its chance as
    /// a dotted line, night shaded, the hours in the place's local time.
    public static func hourly(_ forecast: Forecast, labels: ChartLabels) throws(ChartError) -> RenderedChart {
        let geometry = HourlyChartGeometry(
            hours: forecast.hourly, stepHours: forecast.hourlyStep, timeZone: forecast.timeZone.timeZone, plot: plot)
        return try render { canvas in draw(geometry, labels: labels, on: &canvas) }
    }

    /// The week: a band per day from the night's to the day's temperature, precipitation bars, and
    /// the weekdays in the reader's language.
    public static func weekly(_ forecast: Forecast, labels: ChartLabels) throws(ChartError) -> RenderedChart {
        let geometry = DailyChartGeometry(days: forecast.daily, timeZone: forecast.timeZone.timeZone, plot: plot)
        return try render { canvas in draw(geometry, labels: labels, on: &canvas) }
    }

    // MARK: Drawing

    static func draw(_ geometry: HourlyChartGeometry, labels: ChartLabels, on canvas: inout Canvas) {
        let plot = geometry.plot
        canvas.title(labels)
        for night in geometry.nights {
            canvas.fill(ChartRect(x: night.lowerBound, y: plot.y, width: night.upperBound - night.lowerBound, height: plot.height), Palette.night)
        }
        canvas.temperatureGrid(geometry.temperature, plot: plot)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = geometry.timeZone
        let dayLabel = { (date: Date) in "\(labels.weekday(calendar.component(.weekday, from: date))) \(calendar.component(.day, from: date))" }
        // The first day is named at the left edge, when its part leaves room for the name.
        if let first = geometry.steps.first, (geometry.dayBoundaries.first?.x ?? plot.maxX) - plot.x > 90 {
            canvas.text(dayLabel(first.time), at: (plot.x + 6, plot.y + 22), size: 18, Palette.text, bold: true)
        }
        for day in geometry.dayBoundaries {
            canvas.line(from: (day.x, plot.y), to: (day.x, plot.maxY + 8), Palette.muted, width: 1.5)
            canvas.text(dayLabel(day.date), at: (day.x + 6, plot.y + 22), size: 18, Palette.text, bold: true)
        }
        for tick in geometry.hourTicks {
            canvas.line(from: (tick.x, plot.maxY), to: (tick.x, plot.maxY + 6), Palette.muted, width: 1)
            canvas.text(String(format: "%02d", tick.hour), at: (tick.x, plot.maxY + 26), size: 16, Palette.muted, align: .center)
        }
        // Precipitation: bars of millimetres per step, and the chance as a dotted line over them.
        for step in geometry.steps where step.precipitation > 0 {
            let top = geometry.precipitation.position(step.precipitation)
            let gap = min((step.endX - step.x) * 0.15, 3)
            canvas.fill(ChartRect(x: step.x + gap, y: top, width: step.endX - step.x - 2 * gap, height: plot.maxY - top), Palette.precipitation)
        }
        let chanceTop = geometry.precipitation.to
        let chance = geometry.steps.map { ($0.x + ($0.endX - $0.x) / 2, plot.maxY - $0.precipitationChance * (plot.maxY - chanceTop)) }
        canvas.polyline(chance, Palette.precipitation, width: 2, dash: [2, 5])
        // The chance's scale in the left margin, where the temperature's is above it.
        for percent in [50, 100] {
            let y = plot.maxY - Double(percent) / 100 * (plot.maxY - chanceTop)
            canvas.text("\(percent)%", at: (plot.x - 10, y + 5), size: 15, Palette.precipitation, align: .right)
        }
        for tick in geometry.precipitation.ticks.dropFirst() {
            let y = geometry.precipitation.position(tick)
            canvas.text("\(labels.number(tick)) \(labels.millimetres)", at: (plot.maxX + 8, y + 6), size: 15, Palette.precipitation)
        }
        // Temperature and feels-like, at each step's middle; on the free plan each 3-hour point is marked.
        let middle = { (step: HourlyChartGeometry.Step) in step.x + (step.endX - step.x) / 2 }
        let feels = geometry.steps.compactMap { step in step.feelsLike.map { (middle(step), geometry.temperature.position($0)) } }
        canvas.polyline(feels, Palette.feelsLike, width: 2.5, dash: [10, 6])
        let line = geometry.steps.map { (middle($0), geometry.temperature.position($0.temperature)) }
        canvas.polyline(line, Palette.temperature, width: 4)
        if geometry.stepHours > 1 {
            for point in line { canvas.dot(at: point, radius: 5, Palette.temperature) }
        }
        for (index, above) in [(geometry.warmest, true), (geometry.coldest, false)] {
            guard let index else { continue }
            let point = line[index]
            canvas.dot(at: point, radius: 6, Palette.temperature)
            let label = Self.degrees(geometry.steps[index].temperature)
            // Kept inside the plot, clear of the temperature axis.
            let x = min(max(point.0, plot.x + 30), plot.maxX - 30)
            canvas.text(label, at: (x, point.1 + (above ? -14 : 30)), size: 22, Palette.temperature, bold: true, align: .center)
        }
        canvas.legend(
            [(labels.temperature, Palette.temperature, []), (labels.feelsLike, Palette.feelsLike, [10, 6]),
             (labels.precipitation, Palette.precipitation, []), (labels.precipitationChance, Palette.precipitation, [2, 5])],
            right: plot.maxX, y: 84)
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
            canvas.text(Self.degrees(column.dayTemperature), at: (column.x, top - 10), size: 22, Palette.temperature, bold: true, align: .center)
            canvas.text(
                Self.degrees(column.nightTemperature), at: (column.x, max(day, night) + 28), size: 20, Palette.muted, align: .center)
            if column.precipitation > 0 {
                let barTop = geometry.precipitation.position(column.precipitation)
                canvas.fill(ChartRect(x: column.x - band / 2, y: barTop, width: band, height: plot.maxY - barTop), Palette.precipitation)
                canvas.text(
                    "\(labels.number(column.precipitation)) \(labels.millimetres)", at: (column.x, barTop - 6), size: 15, Palette.precipitation,
                    align: .center)
            }
            canvas.text(
                "\(labels.weekday(column.weekday)) \(column.dayOfMonth)", at: (column.x, plot.maxY + 28), size: 19, Palette.text, bold: true,
                align: .center)
        }
        canvas.legend([(labels.temperature, Palette.day, []), (labels.precipitation, Palette.precipitation, [])], right: plot.maxX, y: 84)
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
        if radius > 0, rect.height > 2 * radius {
            let r = min(radius, rect.width / 2)
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
        text(labels.place, at: (ChartRenderer.plot.x, 48), size: 32, ChartRenderer.Palette.text, bold: true)
        text(labels.subtitle, at: (ChartRenderer.plot.x, 82), size: 20, ChartRenderer.Palette.muted)
    }

    func temperatureGrid(_ scale: ChartScale, plot: ChartRect) {
        for tick in scale.ticks {
            let y = scale.position(tick)
            line(from: (plot.x, y), to: (plot.maxX, y), ChartRenderer.Palette.grid, width: 1)
            text(ChartRenderer.degrees(tick), at: (plot.x - 10, y + 6), size: 16, ChartRenderer.Palette.muted, align: .right)
        }
    }

    /// Legend entries from the right edge leftwards.
    func legend(_ entries: [(String, (Double, Double, Double), [Double])], right: Double, y: Double) {
        var x = right
        for (label, rgb, dash) in entries.reversed() {
            cairo_select_font_face(context, ChartRenderer.font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(context, 17)
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, label, &extents)
            x -= extents.x_advance
            text(label, at: (x, y), size: 17, ChartRenderer.Palette.text)
            x -= 34
            polyline([(x, y - 6), (x + 26, y - 6)], rgb, width: 4, dash: dash)
            x -= 24
        }
    }
}
