import Foundation
import WeatherBotSQLite
import WeatherBotTesting

/// One chat flooding the bot while five others talk to it, through the weatherbot executable:
/// how long the others' answers wait.
///
/// Six chats are seeded with Moscow as their city. The fake Telegram holds the bot to 30
/// messages a second overall and one a second per chat, with a burst of three (429 beyond; answers
/// to buttons are not limited), on the real clock. From the first poll, five chats each send
/// /help once a second (one answer each) for 60 s, staggered by a fifth of a second, while the
/// sixth floods:
/// - **names**: 2,000 «погода в Флудбург N» at once, each a search at OpenWeather, which takes
///   50 ms;
/// - **presses**: 10,500 presses of its weather card's «По часам» and «На 7 дней» in 10 s, each
///   an edit of the card and an answer to the button.
///
/// The figure is the five chats' answers: each from its release to the HTTP 200 of its message
/// (one not answered within 10 s of the end counts as slower than any), p50, p99 and max. A quick
/// run: 20 s of the five chats, and a tenth of each flood.
struct FloodScenario {
    enum Flood: String, CaseIterable {
        case names, presses
    }

    var quick: Bool
    var executable: String
    var flood: Flood

    static let flooder: Int64 = 20_000_001
    static let others: [Int64] = (1...5).map { 20_000_001 + Int64($0) }
    static let firstUpdateID = 1

    func run() async throws -> [Result] {
        let seconds = quick ? 20 : 60
        let updates = try Self.updates(flood, seconds: seconds, quick: quick)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        do {
            let database = try BotDatabase.open(path: path)
            try await Seed.askedAboutTheirCity(chats: Self.flooder...Self.others.last!, in: database)
        }

        let ledger = ReplyLedger(updates: updates, firstID: Self.firstUpdateID)
        // Every update is released at its own time (`releaseAfter`); the interval only orders them.
        let telegram = try await FakeTelegram.bench(
            ledger, release: .init(interval: 0.001, start: .firstPoll),
            limits: SendingLimits(
                perWindow: Int(BroadcastChatScenario.messagesPerSecond), perChatPerWindow: BroadcastChatScenario.messagesPerSecondPerChat,
                perChatBurst: BroadcastChatScenario.burstPerChat))
        // A search by name takes what it takes from afar, so the names come faster than they are looked up.
        let weather = try await FakeOpenWeather(geocodeDelay: .milliseconds(50), recording: false)
        let process = try Worker.start(
            executable, telegram: telegram.url, weather: weather.url, databasePath: path,
            environment: [
                "TELEGRAM_MESSAGES_PER_SECOND": String(BroadcastChatScenario.messagesPerSecond),
                "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": String(BroadcastChatScenario.messagesPerSecondPerChat),
            ])

        // The five chats' updates, and when each is released from the start.
        let watched = updates.indices.filter { Self.others.contains(updates[$0].chat) }
        let origin = try await telegram.runRelease(for: Double(seconds), grace: 10) { watched.allSatisfy { ledger.answeredAt[$0] != nil } }
        let answered = ledger.answeredAt
        await Worker.stop(process)
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()
        await weather.shutdown()

        let scenario = "flood (\(flood.rawValue))"
        guard let origin else {
            return [Result(scenario: scenario, figure: "first poll", value: "none in 60 s", target: "", passed: false)]
        }
        let latencies = watched.map { index in answered[index].map { $0.timeIntervalSince(origin) - (updates[index].releaseAfter ?? 0) } }
        let p99 = BroadcastChatScenario.percentile(0.99, of: latencies)
        let floodCount = updates.count - watched.count
        let what = flood == .names ? "\(floodCount) names at once" : "\(floodCount) presses in \(quick ? 1 : 10) s"
        return [
            Result(
                scenario: scenario, figure: "one chat: \(what); 5 others, /help 1/s each for \(seconds) s: answered",
                value: "\(latencies.compactMap { $0 }.count) of \(latencies.count)", target: "all", passed: !latencies.contains(nil)),
            Result(scenario: scenario, figure: "  the others' replies p50", value: BroadcastChatScenario.describe(BroadcastChatScenario.percentile(0.5, of: latencies)), target: "", passed: nil),
            Result(scenario: scenario, figure: "  the others' replies p99", value: BroadcastChatScenario.describe(p99), target: "≤ 1 s", passed: (p99 ?? .infinity) <= 1),
            Result(
                scenario: scenario, figure: "  the others' replies max",
                value: latencies.contains(nil) ? "not answered" : BroadcastChatScenario.describe(latencies.compactMap { $0 }.max()), target: "", passed: nil),
        ]
    }

    /// The flood and the five chats' /help, ordered by release. The flooder's updates expect no
    /// reply of the ledger (they may be dropped as a flood, and edits of one card collapse), so
    /// its presses come out when released, not once earlier replies arrived.
    static func updates(_ flood: Flood, seconds: Int, quick: Bool) throws -> [PreparedUpdate] {
        var timed: [(at: Double, update: PreparedUpdate)] = []
        var id = firstUpdateID
        func next() -> Int {
            defer { id += 1 }
            return id
        }
        for second in 0..<seconds {
            for (position, chat) in others.enumerated() {
                timed.append((Double(second) + Double(position) * 0.2, try ThroughputScenario.update(.text("/help"), chat: chat, id: 0, hasCity: true)))
            }
        }
        switch flood {
        case .names:
            for number in 1...(quick ? 200 : 2_000) {
                var update = try ThroughputScenario.update(.text("погода в Флудбург\(number)"), chat: flooder, id: 0, hasCity: true)
                update.replies = 0
                timed.append((0, update))
            }
        case .presses:
            let presses = quick ? 1_050 : 10_500
            for press in 0..<presses {
                var update = try pressUpdate(view: press.isMultiple(of: 2) ? "h0" : "d", query: "\(flooder):p\(press)")
                update.replies = 0
                timed.append((Double(press) / 1_050, update))
            }
        }
        // In order of release, ids given in that order.
        return try timed.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map { _, entry in
            var update = entry.update
            update.releaseAfter = entry.at
            update.data = try renumbered(update.data, id: next())
            return update
        }
    }

    /// A press of the view button `view` (v:<view>:c, the chat's current place) on the card, message 1.
    static func pressUpdate(view: String, query: String) throws -> PreparedUpdate {
        let user: [String: Any] = ["id": Int(flooder), "is_bot": false, "first_name": "F", "language_code": "ru"]
        let message: [String: Any] = ["message_id": 1, "date": 1_795_000_000, "chat": ["id": Int(flooder), "type": "private"], "text": "Москва"]
        let update: [String: Any] = [
            "update_id": 0, "callback_query": ["id": query, "from": user, "chat_instance": "f", "data": "v:\(view):c", "message": message],
        ]
        return PreparedUpdate(data: try JSONSerialization.data(withJSONObject: update), chat: flooder, replies: 2, callbackQueryID: query)
    }

    /// The update's JSON with its `update_id` set.
    static func renumbered(_ data: Data, id: Int) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        object["update_id"] = id
        return try JSONSerialization.data(withJSONObject: object)
    }
}
