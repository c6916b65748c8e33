import Foundation
import Logging
import OpenWeather
import Synchronization
import TelegramBotAPI
import Testing
import WeatherBot
import WeatherBotStore
import WeatherChart
@testable import WeatherBotService

/// The charts' photos without HTTP: what is drawn and uploaded, and what goes by `file_id`.
@Suite struct ChartPhotosTests {
    /// A day and a half in Moscow, one point an hour, fetched at 14:05 local time.
    final class Weather: WeatherSource {
        static let fetchedAt = Date(timeIntervalSince1970: 1_795_777_500)  // 2026-11-27 11:05 UTC
        /// How many coming calls fail.
        let failures = Mutex(0)
        /// Who paid for each call: the chat and the priority.
        let paid = Mutex<[Paid]>([])

        struct Paid: Hashable {
            var chat: Int64?
            var priority: CallPriority
        }

        func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport {
            paid.withLock { $0.append(Paid(chat: context.chatID, priority: context.priority)) }
            let fails = failures.withLock { failures in
                defer { failures = max(failures - 1, 0) }
                return failures > 0
            }
            if fails { throw OpenWeatherError(code: .server(502), endpoint: "/data/3.0/onecall", message: "") }
            return WeatherReport(forecast: Self.forecast, fetchedAt: Self.fetchedAt)
        }

        func lastKnown(at place: Place, language: Language) async -> WeatherReport? { nil }

        static let condition = Condition(description: "облачно", icon: "04d")
        static let start = fetchedAt.timeIntervalSince1970 - 3900

        static func hour(_ index: Int) -> HourlyForecast {
            let temperature = Double(index % 12) - 4
            return HourlyForecast(
                time: Date(timeIntervalSince1970: start + Double(index) * 3600), temperature: temperature, clouds: 50, humidity: 80,
                pressure: 1013, windSpeed: 3, windDegrees: 180, precipitationChance: 0.4, precipitation: index % 7 == 0 ? 1.2 : 0,
                condition: condition, feelsLike: temperature - 3)
        }

        static func day(_ index: Int) -> DailyForecast {
            DailyForecast(
                time: Date(timeIntervalSince1970: start + Double(index) * 86_400), dayTemperature: 3, nightTemperature: -2,
                morningTemperature: 0, eveningTemperature: 1, minimumTemperature: -3, maximumTemperature: 4, clouds: 50, humidity: 80,
                pressure: 1013, windSpeed: 3, windDegrees: 180, precipitationChance: 0.5, precipitation: 2, condition: condition)
        }

        static let current = CurrentWeather(
            time: fetchedAt, temperature: 1, feelsLike: -2, clouds: 50, humidity: 80, pressure: 1013, windSpeed: 3, windDegrees: 180,
            condition: condition)

        static let forecast = Forecast(
            timeZone: .identifier("Europe/Moscow"), current: current, hourly: (0..<48).map(hour), daily: (0..<7).map(day))
    }

    static let moscow = Place(name: "Moscow", localNames: ["ru": "Москва", "en": "Moscow"], country: "RU", latitude: 55.75, longitude: 37.62)

    static func chart(_ view: ChartRequest.View = .hours, _ language: Language = .ru) -> ChartRequest {
        ChartRequest(view: view, place: moscow, language: language, forecastTime: Weather.fetchedAt)
    }

    /// Telegram as far as the photos go: a new `file_id` per upload, every call counted.
    final class Calls: Sendable {
        let uploads = Mutex<[Data]>([])
        let byFileID = Mutex<[String]>([])

        func call(_ photo: InputPhoto) async throws(TelegramError) -> SentPhoto {
            // Slow enough that the other requests arrive while the upload is under way.
            try? await Task.sleep(for: .milliseconds(50))
            switch photo {
            case .upload(let data, _):
                let count = uploads.withLock { uploads in
                    uploads.append(data)
                    return uploads.count
                }
                return SentPhoto(messageID: 1, fileID: "file-\(count)")
            case .fileID(let id):
                byFileID.withLock { $0.append(id) }
                return SentPhoto(messageID: 2, fileID: id)
            }
        }
    }

    /// A chart's forecast (read again from the cache, fetched again when it left it) is paid by
    /// whom the photo is sent for: the chat a chart answers, counted in its share; scheduled work
    /// for a daily forecast's chart, sent unasked. Never someone waiting that no chat pays for.
    @Test func aChartsForecastIsPaidByWhomItIsSentFor() async throws {
        let weather = Weather()
        let photos = ChartPhotos(weather: weather, logger: Logger(label: "test"))
        let calls = Calls()
        func queued(_ chart: ChartRequest, lane: OutboxLane) -> QueuedReply {
            QueuedReply(id: 1, chatID: 7, lane: lane, request: Reply.chart(chart, caption: "", keyboard: nil).request(chatID: 7))
        }
        let answer = queued(Self.chart(), lane: .interactive)
        let daily = queued(Self.chart(.week), lane: .bulk)
        _ = try await photos.send(try #require(answer.request.photo), for: OutboxSender.calls(for: answer), with: calls.call)
        _ = try await photos.send(try #require(daily.request.photo), for: OutboxSender.calls(for: daily), with: calls.call)
        #expect(weather.paid.withLock { $0 } == [Weather.Paid(chat: 7, priority: .interactive), Weather.Paid(chat: nil, priority: .soon)])
    }

    @Test func manyChatsAskingAtOnceCostOneDrawingAndOneUpload() async throws {
        let photos = ChartPhotos(weather: Weather(), logger: Logger(label: "test"))
        let calls = Calls()
        let name = Self.chart().encoded
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try? await photos.send(name, for: .chat(7), with: calls.call) }
            }
        }
        #expect(await photos.renders == 1)
        #expect(await photos.uploads == 1)
        #expect(calls.uploads.withLock(\.count) == 1)
        #expect(calls.byFileID.withLock { $0 } == Array(repeating: "file-1", count: 19))
        // The week, or the same chart in English, is another picture.
        _ = try await photos.send(Self.chart(.week).encoded, for: .chat(7), with: calls.call)
        _ = try await photos.send(Self.chart(.hours, .en).encoded, for: .chat(7), with: calls.call)
        #expect(await photos.uploads == 3)
    }

    /// Telegram as far as the photos go, failing the first upload with `error`.
    final class FailingOnce: Sendable {
        let error: TelegramError
        let calls = Mutex(0)

        init(_ error: TelegramError) { self.error = error }

        func call(_ photo: InputPhoto) async throws(TelegramError) -> SentPhoto {
            try? await Task.sleep(for: .milliseconds(50))
            let count = calls.withLock { calls in
                calls += 1
                return calls
            }
            if count == 1 { throw error }
            if case .fileID(let id) = photo { return SentPhoto(messageID: 2, fileID: id) }
            return SentPhoto(messageID: 1, fileID: "file-\(count)")
        }
    }

    /// Sends one chart from 20 chats at once; what each ended with.
    func sendTogether(_ photos: ChartPhotos, _ telegram: FailingOnce) async -> [Result<SentPhoto, any Error>] {
        let name = Self.chart().encoded
        return await withTaskGroup(of: Result<SentPhoto, any Error>.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do { return .success(try await photos.send(name, for: .chat(7), with: telegram.call)) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Telegram failing the upload fails the chats waiting for it too, at once, for the sender's
    /// backoff: they do not each upload in turn.
    @Test func anUploadFailingForEveryoneFailsItsWaitersWithIt() async throws {
        for (error, shared) in [
            (TelegramError(code: .api(502), method: "sendPhoto", description: "Bad Gateway"), "photo"),
            (TelegramError(code: .transport, method: "sendPhoto", description: "timed out"), "photo"),
            (TelegramError(code: .api(429), method: "sendPhoto", description: "Too Many Requests", retryAfter: 3), "429"),
        ] {
            let telegram = FailingOnce(error)
            let results = await sendTogether(ChartPhotos(weather: Weather(), logger: Logger(label: "test")), telegram)
            #expect(telegram.calls.withLock { $0 } == 1, "\(error)")
            for case .failure(let failure) in results {
                switch shared {
                case "429": #expect((failure as? TelegramError)?.retryAfter == 3)
                default: #expect((failure as? PhotoUnavailable)?.isPermanent == false || (failure as? TelegramError) == error)
                }
            }
            #expect(results.filter { if case .failure = $0 { true } else { false } }.count == 20)
        }
    }

    /// An upload that fails for its own chat (the bot blocked there) is taken over by one of the
    /// chats waiting: the others get its file_id.
    @Test func anUploadFailingForItsOwnChatIsTakenOverByAWaiter() async throws {
        let telegram = FailingOnce(TelegramError(code: .api(403), method: "sendPhoto", description: "Forbidden: bot was blocked by the user"))
        let photos = ChartPhotos(weather: Weather(), logger: Logger(label: "test"))
        let results = await sendTogether(photos, telegram)
        #expect(results.filter { if case .success = $0 { true } else { false } }.count == 19)
        #expect(telegram.calls.withLock { $0 } == 20)
        #expect(await photos.uploads == 2)
        #expect(await photos.renders == 1)
    }

    /// The oldest file_ids are forgotten beyond the capacity; such a chart is uploaded again.
    @Test func theOldestFileIDsAreForgottenBeyondTheCapacity() async throws {
        let photos = ChartPhotos(weather: Weather(), logger: Logger(label: "test"), capacity: 2)
        let calls = Calls()
        let names = [Self.chart(.hours, .ru), Self.chart(.week, .ru), Self.chart(.hours, .en)].map(\.encoded)
        for name in names { _ = try await photos.send(name, for: .chat(7), with: calls.call) }
        _ = try await photos.send(names[2], for: .chat(7), with: calls.call)
        _ = try await photos.send(names[1], for: .chat(7), with: calls.call)
        #expect(calls.uploads.withLock(\.count) == 3)
        _ = try await photos.send(names[0], for: .chat(7), with: calls.call)
        #expect(calls.uploads.withLock(\.count) == 4)
    }

    /// An upload that fails (Telegram asks to slow down) is tried again with the picture already
    /// drawn: a chart is drawn once however often its upload is tried.
    @Test func aFailedUploadIsTriedAgainWithoutDrawingAgain() async throws {
        let photos = ChartPhotos(weather: Weather(), logger: Logger(label: "test"))
        let failing: @Sendable (InputPhoto) async throws(TelegramError) -> SentPhoto = { (_: InputPhoto) async throws(TelegramError) -> SentPhoto in
            throw TelegramError(code: .api(429), method: "sendPhoto", description: "Too Many Requests: retry after 1")
        }
        let name = Self.chart().encoded
        for _ in 0..<3 { await #expect(throws: TelegramError.self) { try await photos.send(name, for: .chat(7), with: failing) } }
        let calls = Calls()
        _ = try await photos.send(name, for: .chat(7), with: calls.call)
        #expect(await photos.renders == 1)
        #expect(await photos.uploads == 4)
        #expect(calls.uploads.withLock(\.count) == 1)
    }

    /// A chart that cannot be drawn yet (no forecast) fails for the sender to retry, and the next
    /// request draws it; one that never can is said to be so.
    @Test func aChartWithoutItsForecastFailsAndIsDrawnWhenTheForecastComes() async throws {
        let weather = Weather()
        weather.failures.withLock { $0 = 1 }
        let photos = ChartPhotos(weather: weather, logger: Logger(label: "test"))
        let calls = Calls()
        await #expect(throws: PhotoUnavailable.self) { try await photos.send(Self.chart().encoded, for: .chat(7), with: calls.call) }
        #expect(calls.uploads.withLock(\.count) == 0)
        _ = try await photos.send(Self.chart().encoded, for: .chat(7), with: calls.call)
        #expect(calls.uploads.withLock(\.count) == 1)
        do {
            _ = try await photos.send("not a chart", for: .chat(7), with: calls.call)
            Issue.record("a name that is not a chart was sent")
        } catch let error as PhotoUnavailable {
            #expect(error.isPermanent)
        }
    }

    @Test func theChartsWordsAreInItsLanguage() {
        let report = WeatherReport(forecast: Weather.forecast, fetchedAt: Weather.fetchedAt)
        let russian = ChartLabels(Self.chart(.hours, .ru), report: report)
        #expect(russian.place == "Москва")
        #expect(russian.subtitle == "48 часов · данные на 14:05")
        #expect([russian.temperature, russian.feelsLike, russian.precipitation, russian.precipitationChance, russian.millimetres]
            == ["Температура", "Ощущается", "Осадки", "Вероятность осадков", "мм"])
        #expect(russian.dayAndNight == "Днём и ночью" && russian.hour == "ч")
        #expect(russian.weekdays.first == "Вс")
        #expect(russian.decimalMark == ",")
        let english = ChartLabels(Self.chart(.week, .en), report: report)
        #expect(english.place == "Moscow")
        #expect(english.subtitle == "Week · data as of 14:05")
        #expect([english.temperature, english.feelsLike, english.precipitation, english.precipitationChance, english.millimetres]
            == ["Temperature", "Feels like", "Precipitation", "Chance of precipitation", "mm"])
        #expect(english.dayAndNight == "Day and night" && english.hour == "h")
        #expect(english.weekdays.first == "Sun")
        #expect(english.decimalMark == ".")
    }

    /// A chart in °F on the 12-hour clock draws inches and names its hours as the texts do.
    @Test func aChartInImperialUnitsDrawsInchesAndTheTextsHours() {
        let report = WeatherReport(forecast: Weather.forecast, fetchedAt: Weather.fetchedAt)
        let chart = ChartRequest(
            view: .hours, place: Self.moscow, language: .en, forecastTime: Weather.fetchedAt,
            settings: ChatSettings(temperature: .fahrenheit, clock: .twelveHour))
        let labels = ChartLabels(chart, report: report)
        #expect(labels.millimetres == "in" && labels.millimetresPerUnit == 25.4)
        #expect(labels.hours.count == 24 && labels.hours[0] == "12 AM" && labels.hours[15] == "3 PM")
        let metric = ChartLabels(Self.chart(.hours, .ru), report: report)
        #expect(metric.millimetresPerUnit == 1 && metric.hours[15] == "15")
    }
}
