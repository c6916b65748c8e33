import Foundation
import LoopbackHTTP
import Synchronization

/// Updates from many chats through the weatherbot executable, end to end: from the fake Telegram
/// handing them out in getUpdates to the replies' HTTP 200, with Telegram's rate limits lifted.
/// The mix: /weather and /help, /fav, a search by name, and shared locations (a message and its edit).
struct ThroughputScenario {
    var quick: Bool
    var executable: String

    /// One update of the mix and the Bot API calls that answer it.
    static let mix: [(text: String?, location: Bool, replies: Int)] = [
        ("/weather", false, 1), ("/weather", false, 1), ("/weather", false, 1), ("/weather", false, 1),
        ("/help", false, 1), ("/help", false, 1), ("/fav", false, 1), ("/fav", false, 1),
        ("Казань", false, 1), (nil, true, 2),
    ]

    func run() async throws -> [Result] {
        let chats = quick ? 1_000 : 10_000
        let perChat = 10
        let updates = chats * perChat
        let expectedReplies = chats * Self.mix.map(\.replies).reduce(0, +)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Update k of chat c has id c·10 + k: each chat's updates in order, chats interleaved.
        var queued: [Data] = []
        queued.reserveCapacity(updates)
        for round in 0..<perChat {
            for chat in 1...chats {
                let id = 1_000_000 + round * chats + chat
                let entry = Self.mix[round]
                var message: [String: Any] = [
                    "message_id": id, "date": 1_795_000_000, "chat": ["id": chat, "type": "private"],
                    "from": ["id": chat, "is_bot": false, "first_name": "B", "language_code": "ru"],
                ]
                if entry.location {
                    message["location"] = ["latitude": 55.75 + Double(chat % 50) * 0.1, "longitude": 37.62]
                } else {
                    message["text"] = entry.text
                }
                queued.append(try JSONSerialization.data(withJSONObject: ["update_id": id, "message": message]))
            }
        }
        let telegram = FakeBotAPI(updates: queued, firstID: 1_000_001)
        let telegramServer = try await LoopbackServer(threads: 1, recording: false) { await telegram.answer($0) }
        let weatherServer = try await LoopbackServer(threads: 1, recording: false) { FakeWeatherAPI.answer($0) }

        let process = try Worker.start(
            executable, telegram: telegramServer.url, weather: weatherServer.url,
            databasePath: folder.appendingPathComponent("bot.sqlite").path,
            environment: ["TELEGRAM_MESSAGES_PER_SECOND": "10000", "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": "1000"])
        var finished = false
        let deadline = Date().addingTimeInterval(quick ? 120 : 900)
        var peakRSS = 0.0
        while Date() < deadline {
            if telegram.replies >= expectedReplies { finished = true; break }
            peakRSS = max(peakRSS, Memory.peakMegabytes(pid: process.processIdentifier) ?? 0)
            try await Task.sleep(for: .milliseconds(50))
        }
        peakRSS = max(peakRSS, Memory.peakMegabytes(pid: process.processIdentifier) ?? 0)
        let cpu = Memory.cpuSeconds(pid: process.processIdentifier) ?? 0
        let (first, last) = telegram.window
        process.terminate()
        process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(1200))
        await telegramServer.shutdown()
        await weatherServer.shutdown()

        let seconds = max((last ?? Date()).timeIntervalSince(first ?? Date()), 0.001)
        let rate = Double(updates) / seconds
        let cpuPerUpdate = cpu * 1000 / Double(updates)
        let label = "\(updates / 1000)k updates, \(chats / 1000)k chats"
        return [
            Result(scenario: "throughput", figure: "replies received", value: "\(telegram.replies) of \(expectedReplies)", target: "all", passed: finished),
            Result(scenario: "throughput", figure: "updates/s (\(label))", value: String(format: "%.0f", rate), target: "≥ 2000", passed: finished && rate >= 2000),
            Result(scenario: "throughput", figure: "CPU per update (worker)", value: String(format: "%.2f ms", cpuPerUpdate), target: "≤ 0.5 ms", passed: cpuPerUpdate <= 0.5),
            Result(scenario: "throughput", figure: "peak RSS (worker)", value: String(format: "%.1f MB", peakRSS), target: "", passed: nil),
        ]
    }
}

/// A Bot API that hands out prepared updates honouring `offset`, answers every sending method at
/// once, and counts the answers: the times of the first getUpdates, of the first one with updates,
/// and of the last reply.
final class FakeBotAPI: Sendable {
    private struct State {
        var firstPoll: Date?
        var replies = 0
        var first: Date?
        var last: Date?
    }

    private let updates: [Data]
    private let firstID: Int
    private let state = Mutex(State())

    init(updates: [Data], firstID: Int) {
        self.updates = updates
        self.firstID = firstID
    }

    var replies: Int { state.withLock { $0.replies } }
    var window: (Date?, Date?) { state.withLock { ($0.first, $0.last) } }
    /// When the first getUpdates arrived, updates or not: the worker is up.
    var firstPoll: Date? { state.withLock { $0.firstPoll } }

    func answer(_ request: LoopbackRequest) async -> LoopbackResponse {
        let method = request.path.split(separator: "/").last.map(String.init) ?? ""
        switch method {
        case "getMe":
            return .json(["ok": true, "result": ["id": 1, "is_bot": true, "first_name": "Bench", "username": "bench_bot"]])
        case "getUpdates":
            let offset = request.json?["offset"] as? Int ?? firstID
            let batch: ArraySlice<Data> = state.withLock { state in
                if state.firstPoll == nil { state.firstPoll = Date() }
                let start = max(offset - firstID, 0)
                let end = min(start + 100, updates.count)
                if start < end, state.first == nil { state.first = Date() }
                return start < end ? updates[start..<end] : []
            }
            if batch.isEmpty {
                // Held for a second, as Telegram holds a long poll that finds nothing.
                try? await Task.sleep(for: .seconds(1))
                return .json(["ok": true, "result": [Any]()])
            }
            var body = Data(#"{"ok":true,"result":["#.utf8)
            for (index, update) in batch.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body.append(update)
            }
            body.append(contentsOf: Data("]}".utf8))
            return LoopbackResponse(body: body)
        case "sendMessage", "editMessageText", "editMessageReplyMarkup", "answerCallbackQuery":
            let messageID = state.withLock { state in
                state.replies += 1
                state.last = Date()
                return state.replies
            }
            if method == "sendMessage" {
                let chat = (request.json?["chat_id"] as? Int) ?? 0
                return .json(["ok": true, "result": ["message_id": messageID, "date": 1_795_000_000, "chat": ["id": chat, "type": "private"]]])
            }
            return .json(["ok": true, "result": true])
        default:
            return .json(["ok": true, "result": true])
        }
    }
}

/// OpenWeather answering every call at once with small, well-formed data.
enum FakeWeatherAPI {
    static let geocoded = Data(#"[{"name":"Kazan","local_names":{"ru":"Казань"},"lat":55.79,"lon":49.12,"country":"RU","state":"Tatarstan"}]"#.utf8)
    static let oneCall = Data(#"""
        {"lat":55.75,"lon":37.62,"timezone":"Europe/Moscow","timezone_offset":10800,
         "current":{"dt":1795000000,"sunrise":1794970000,"sunset":1795000000,"temp":-2.5,"feels_like":-6,"pressure":1015,"humidity":80,
                    "clouds":75,"wind_speed":4,"wind_deg":200,"weather":[{"id":803,"main":"Clouds","description":"облачно","icon":"04d"}]},
         "hourly":[],"daily":[]}
        """#.utf8)

    static func answer(_ request: LoopbackRequest) -> LoopbackResponse {
        switch request.path {
        case "/geo/1.0/direct", "/geo/1.0/reverse": LoopbackResponse(body: geocoded)
        default: LoopbackResponse(body: oneCall)
        }
    }
}
