import DequeModule
public import OpenWeather
import WeatherBotStore
import Dispatch
import Foundation
public import Logging
public import TelegramBotAPI
public import WeatherBot
import WeatherChart

/// Gives the outbox sender the photo a request names (``BotRequest/photo``).
public protocol PhotoSource: Sendable {
    /// Makes `call` with the photo `name` names: by the `file_id` Telegram gave the same photo
    /// before, or else made now and uploaded; any OpenWeather call making it needs is paid as
    /// `calls` says (the chat it answers, or scheduled work).
    func send(_ name: String, for calls: CallContext, with call: @Sendable (InputPhoto) async throws(TelegramError) -> SentPhoto) async throws -> SentPhoto
}

/// Why a photo could not be made.
public struct PhotoUnavailable: Error, CustomStringConvertible {
    /// Trying again will not help (the name does not read, the forecast cannot be drawn).
    public var isPermanent: Bool
    /// What went wrong, in one line for the log.
    public var description: String
}

/// The charts as photos. Each chart (a ``ChartRequest``: place, view, language, forecast time) is
/// drawn and uploaded once; Telegram's `file_id` for it is kept, and every other chat asking for
/// the same chart gets it by `file_id`, with no drawing and no upload. Requests for a chart whose
/// upload is under way wait for that upload instead of making their own. When it fails for a
/// reason of its own chat (the message gone, the bot blocked), one of them uploads instead; when
/// it fails for everyone (a 429, Telegram or OpenWeather down), they fail with it and go back to
/// the sender's backoff, rather than trying one after another.
///
/// Drawing reads the forecast from the shared weather cache, so a chart is what the cards show,
/// and runs on a queue of its own: Cairo's work never holds a thread the chats run on.
public actor ChartPhotos: PhotoSource {
    private let weather: any WeatherSource
    private let logger: Logger
    private let capacity: Int
    private static let drawing = DispatchQueue(label: "weatherbot.charts", qos: .userInitiated)

    private var fileIDs: [String: String] = [:]
    /// Names by age, to forget the oldest beyond `capacity`.
    private var order = Deque<String>()
    /// Charts being drawn and uploaded, with the requests waiting for them: resumed with the error
    /// they fail with, or nil to look again.
    private var uploading: [String: [CheckedContinuation<(any Error)?, Never>]] = [:]
    /// Charts drawn whose upload failed (a 429, a network error), kept for the next try so that a
    /// chart is drawn once however often its upload is tried; the oldest go beyond a few.
    private var drawnNotSent: [String: Data] = [:]
    private var drawnOrder = Deque<String>()
    private static let drawnNotSentLimit = 32
    /// Charts drawn, and uploads made, since start.
    public private(set) var renders = 0
    /// Photos uploaded since start; every other sending went by `file_id`.
    public private(set) var uploads = 0

    /// - Parameter capacity: the most `file_id`s kept; a chart is asked for while its forecast is
    ///   the cache's, so the oldest are the first no longer needed.
    public init(weather: any WeatherSource, logger: Logger, capacity: Int = 10_000) {
        self.weather = weather
        self.logger = logger
        self.capacity = capacity
    }

    /// Throws ``PhotoUnavailable`` when the name does not read or the chart cannot be drawn, or the call's error.
    public func send(_ name: String, for calls: CallContext, with call: @Sendable (InputPhoto) async throws(TelegramError) -> SentPhoto) async throws -> SentPhoto {
        while true {
            try Task.checkCancellation()
            if let fileID = fileIDs[name] {
                switch await Self.result(of: call, .fileID(fileID)) {
                case .success(let sent):
                    return sent
                case .failure(let error) where error.isFileRejected:
                    logger.notice("Telegram no longer knows a chart's file_id; uploading it again")
                    if fileIDs[name] == fileID { forget(name) }
                    continue
                case .failure(let error):
                    throw error
                }
            }
            if uploading[name] != nil {
                if let failure = await withCheckedContinuation({ uploading[name, default: []].append($0) }) { throw failure }
                continue
            }
            return try await upload(name, calls, with: call)
        }
    }

    private static func result(
        of call: @Sendable (InputPhoto) async throws(TelegramError) -> SentPhoto, _ photo: InputPhoto
    ) async -> Result<SentPhoto, TelegramError> {
        do {
            return .success(try await call(photo))
        } catch {
            return .failure(error)
        }
    }

    /// Draws and uploads a chart, while other requests for it wait; remembers its `file_id`.
    private func upload(_ name: String, _ calls: CallContext, with call: @Sendable (InputPhoto) async throws(TelegramError) -> SentPhoto) async throws -> SentPhoto {
        uploading[name] = []
        var failure: (any Error)?
        defer {
            let shared = failure.flatMap(Self.sharedFailure)
            for waiting in uploading.removeValue(forKey: name) ?? [] { waiting.resume(returning: shared) }
        }
        let png: Data
        if let drawn = drawnNotSent[name] {
            png = drawn
        } else {
            do {
                png = try await draw(name, calls)
            } catch {
                failure = error
                throw error
            }
        }
        uploads += 1
        switch await Self.result(of: call, .upload(png, filename: "chart.png")) {
        case .success(let sent):
            if drawnNotSent.removeValue(forKey: name) != nil { drawnOrder.removeAll { $0 == name } }
            if let fileID = sent.fileID { remember(fileID, for: name) }
            return sent
        case .failure(let error):
            failure = error
            if drawnNotSent.updateValue(png, forKey: name) == nil { drawnOrder.append(name) }
            while drawnOrder.count > Self.drawnNotSentLimit, let oldest = drawnOrder.popFirst() { drawnNotSent[oldest] = nil }
            throw error
        }
    }

    /// What the requests waiting for a failed upload fail with: a 429 as it is (the sender pauses
    /// for it), a failure of Telegram or the drawing as a photo not made yet; nil for a failure of
    /// the uploading chat's own (its message gone, the bot blocked there), after which one of them
    /// uploads instead.
    static func sharedFailure(_ error: any Error) -> (any Error)? {
        guard let error = error as? TelegramError else { return error }
        if error.isRateLimited { return error }
        if error.isTransient { return PhotoUnavailable(isPermanent: false, description: "the chart's upload failed: \(error)") }
        return nil
    }

    private func forget(_ name: String) {
        fileIDs[name] = nil
        order.removeAll { $0 == name }
    }

    private func remember(_ fileID: String, for name: String) {
        if fileIDs.updateValue(fileID, forKey: name) == nil { order.append(name) }
        while order.count > capacity, let oldest = order.popFirst() { fileIDs[oldest] = nil }
    }

    /// The chart a name stands for, as a PNG; its forecast, when the cache no longer keeps it,
    /// fetched as `calls` says.
    private func draw(_ name: String, _ calls: CallContext) async throws -> Data {
        guard let chart = ChartRequest(encoded: name) else {
            throw PhotoUnavailable(isPermanent: true, description: "not a chart: \(name.prefix(80))")
        }
        let report: WeatherReport
        do {
            report = try await weather.weather(at: chart.place, language: chart.language, refresh: false, for: calls)
        } catch {
            throw PhotoUnavailable(isPermanent: false, description: "no forecast to draw: \(error)")
        }
        renders += 1
        let labels = ChartLabels(chart, report: report)
        let forecast = chart.temperature == .fahrenheit ? report.forecast.inFahrenheit : report.forecast
        let result: Result<RenderedChart, ChartError> = await withCheckedContinuation { continuation in
            Self.drawing.async {
                continuation.resume(
                    returning: Result { () throws(ChartError) in
                        switch chart.view {
                        case .hours: try ChartRenderer.hourly(forecast, labels: labels)
                        case .week: try ChartRenderer.weekly(forecast, labels: labels)
                        }
                    })
            }
        }
        switch result {
        case .success(let rendered): return rendered.png
        case .failure(let error): throw PhotoUnavailable(isPermanent: true, description: "the chart could not be drawn: \(error)")
        }
    }
}

extension ChartLabels {
    /// A chart's words in its language; the time of its data in the place's zone.
    init(_ chart: ChartRequest, report: WeatherReport) {
        let texts = Texts.for(chart.language, settings: chart.settings)
        let dataTime = texts.time(report.fetchedAt, in: report.forecast.timeZone.timeZone)
        self.init(
            place: chart.title, subtitle: texts.chartSubtitle(chart.view, dataTime: dataTime), temperature: texts.chartTemperature,
            feelsLike: texts.chartFeelsLike, precipitation: texts.chartPrecipitation, precipitationChance: texts.chartPrecipitationChance,
            dayAndNight: texts.chartDayAndNight, millimetres: texts.chartMillimetres, hour: texts.chartHour, weekdays: texts.chartWeekdays,
            decimalMark: texts.chartDecimalMark, temperatureUnit: texts.temperatureUnit, twelveHourClock: chart.clock == .twelveHour,
            hours: texts.chartHours, millimetresPerUnit: texts.chartMillimetresPerUnit)
    }
}

extension Forecast {
    /// The same forecast with every temperature in degrees Fahrenheit, as a chart in °F draws it.
    var inFahrenheit: Forecast {
        func f(_ celsius: Double) -> Double { celsius * 9 / 5 + 32 }
        var forecast = self
        forecast.current.temperature = f(current.temperature)
        forecast.current.feelsLike = f(current.feelsLike)
        for index in forecast.hourly.indices {
            forecast.hourly[index].temperature = f(hourly[index].temperature)
            forecast.hourly[index].feelsLike = hourly[index].feelsLike.map(f)
        }
        for index in forecast.daily.indices {
            forecast.daily[index].dayTemperature = f(daily[index].dayTemperature)
            forecast.daily[index].nightTemperature = f(daily[index].nightTemperature)
            forecast.daily[index].morningTemperature = f(daily[index].morningTemperature)
            forecast.daily[index].eveningTemperature = f(daily[index].eveningTemperature)
            forecast.daily[index].minimumTemperature = f(daily[index].minimumTemperature)
            forecast.daily[index].maximumTemperature = f(daily[index].maximumTemperature)
        }
        return forecast
    }
}
