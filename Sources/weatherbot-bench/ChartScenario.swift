import BotClock
import Foundation
import HTTPTransport
import OpenWeather
import Synchronization
import WeatherBotTesting
import WeatherChart

/// What charts cost. In process: the time to draw each chart and the size of its PNG, from the
/// forecast the fake OpenWeather serves, decoded by the bot's own client. Through the weatherbot
/// executable: 1,000 chats each looking up one of 10 places, asking for its chart and switching
/// it to the week; the charts drawn and uploaded must be the distinct ones (10 per view), every
/// other photo going by `file_id`.
struct ChartScenario {
    var quick: Bool
    var executable: String

    static let places = 10

    func run() async throws -> [Result] {
        try await rendering() + charts()
    }

    // MARK: Drawing

    /// The fake OpenWeather's forecast for Kazan, decoded by the bot's own client.
    static func forecast() async throws -> Forecast {
        let server = try await FakeOpenWeather(recording: false)
        let client = OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: server.url, transport: NIOHTTPTransport(), requestTimeout: .seconds(10))
        let forecast = try await client.forecast(latitude: 55.79, longitude: 49.12, language: "ru", for: .background)
        await server.shutdown()
        return forecast
    }

    /// The median time, in milliseconds, of `rounds` drawings by `draw` (after one to warm fonts
    /// and caches), and the last PNG's size.
    static func timed(rounds: Int, _ draw: () throws -> RenderedChart) throws -> (median: Double, size: Int) {
        _ = try draw()
        var times: [Double] = []
        var size = 0
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            size = try draw().png.count
            times.append((ContinuousClock.now - start).timeInterval * 1000)
        }
        return (times.sorted()[times.count / 2], size)
    }

    static let labels = ChartLabels(
            place: "Казань", subtitle: "48 часов · данные на 14:05", temperature: "Температура", feelsLike: "Ощущается",
            precipitation: "Осадки", precipitationChance: "Вероятность осадков", dayAndNight: "Днём и ночью", millimetres: "мм", hour: "ч",
            weekdays: ["Вс", "Пн", "Вт", "Ср", "Чт", "Пт", "Сб"], decimalMark: ",")

    private func rendering() async throws -> [Result] {
        let forecast = try await Self.forecast()
        let rounds = quick ? 10 : 50
        var results: [Result] = []
        for (name, draw) in [
            ("48 hours", { try ChartRenderer.hourly(forecast, labels: Self.labels) }),
            ("week", { try ChartRenderer.weekly(forecast, labels: Self.labels) }),
        ] as [(String, () throws -> RenderedChart)] {
            let (median, size) = try Self.timed(rounds: rounds, draw)
            results += [
                Result(scenario: "charts", figure: "draw \(name) (median of \(rounds))", value: String(format: "%.1f ms", median), target: "≤ 100 ms", passed: median <= 100),
                Result(scenario: "charts", figure: "PNG \(name), 1280×720", value: String(format: "%.0f KB", Double(size) / 1024), target: "≤ 200 KB", passed: size <= 200 * 1024),
            ]
        }
        return results
    }

    // MARK: 1,000 chats, 10 places

    /// Chat c looks up place c mod 10 (/search answers with its card), presses «📈 График» under
    /// the card (the answer to the button and the photo), then «Неделя» under the photo (the
    /// answer and the photo replaced).
    static func updates(chats: Int, firstID: Int) throws -> [PreparedUpdate] {
        var updates: [PreparedUpdate] = []
        for (round, step) in ["search", "chart", "week"].enumerated() {
            for chat in 1...chats {
                let id = firstID + round * chats + chat - 1
                let user: [String: Any] = ["id": chat, "is_bot": false, "first_name": "B", "language_code": "ru"]
                var message: [String: Any] = ["message_id": id, "date": 1_795_000_000, "chat": ["id": chat, "type": "private"], "from": user]
                let update: [String: Any]
                var queryID: String?
                switch step {
                case "search":
                    message["text"] = "/search Place \(chat % places)"
                    update = ["update_id": id, "message": message]
                default:
                    // The search result is the chat's first recent place (s1).
                    message["text"] = "…"
                    queryID = "\(chat):\(id)"
                    let data = step == "chart" ? "ch:h:s1" : "cv:w:s1"
                    update = ["update_id": id, "callback_query": ["id": queryID!, "from": user, "chat_instance": "b", "data": data, "message": message]]
                }
                updates.append(PreparedUpdate(
                    data: try JSONSerialization.data(withJSONObject: update), chat: Int64(chat), replies: step == "search" ? 1 : 2, callbackQueryID: queryID))
            }
        }
        return updates
    }

    private func charts() async throws -> [Result] {
        let chats = 1_000
        let updates = try Self.updates(chats: chats, firstID: 3_000_001)
        let run = try await ThroughputScenario.Run(
            executable: executable, updates: updates, firstID: 3_000_001, releaseInterval: nil, deadline: quick ? 120 : 300)
        let photos = run.photos
        let distinct = Self.places * 2
        let seconds = max((run.last ?? Date()).timeIntervalSince(run.first ?? Date()), 0.001)
        return [
            Result(scenario: "charts", figure: "replies received (\(chats) chats × 10 places)", value: "\(run.replies) of \(run.expected)", target: "all", passed: run.finished),
            Result(
                scenario: "charts", figure: "photos drawn and uploaded", value: "\(photos.uploads)", target: "= \(distinct) (10 per view)",
                passed: photos.uploads == distinct),
            Result(
                scenario: "charts", figure: "photos by file_id", value: "\(photos.byFileID)", target: "= \(2 * chats - distinct)",
                passed: photos.byFileID == 2 * chats - distinct),
            Result(scenario: "charts", figure: "all answered in", value: String(format: "%.1f s", seconds), target: "", passed: nil),
            Result(scenario: "charts", figure: "CPU (worker)", value: String(format: "%.1f s", run.cpu), target: "", passed: nil),
            Result(scenario: "charts", figure: "peak RSS (worker)", value: String(format: "%.1f MB", run.peakRSS), target: "", passed: nil),
        ]
    }
}
