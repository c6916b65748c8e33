import Foundation
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// Chats talking to the bot while a broadcast is under way, through the weatherbot executable:
/// how long their answers wait behind the daily forecasts, and how much of Telegram's rate the
/// forecasts still get.
///
/// 100,000 daily forecasts in 500 place cells are due when the worker starts, and the fake
/// Telegram holds the bot to 30 messages a second overall and one a second per chat on average,
/// with the short burst of three Telegram tolerates (429 with `retry_after` beyond them; answers
/// to buttons are not limited), on the real clock. From the
/// moment the first forecast is accepted, other chats (ids apart from the subscribers', so a
/// forecast is never taken for an answer) send 5 updates a second for 120 s.
///
/// The stream has the usual mix's composition: update i is of the kind `ThroughputScenario.mix[i
/// % 10]`. 600 updates cannot walk a thousand chats through the whole mix, so each update comes
/// from a chat of its own that can take it alone: 1,000 chats are seeded with Moscow as their city,
/// just asked «Это ваш город?» about Kazan, question number 1 still open, and update i comes from
/// the i-th. From that state each kind is answered by (counted by running it with Telegram's
/// limits lifted):
/// - a shared location: «🔎 Определяем город…», then that message edited into a new question: 2 calls;
/// - «✅ Да» on question 1: the answer to the button, the question edited into «📍 Ваш город:
///   Казань», Kazan's weather card: 3 calls;
/// - /help, /weather (Moscow's card), /fav (the list), «Казань» (a search by name: one place
///   found, its weather shown): 1 message each.
/// The first two kinds, a fifth of the stream, send two messages to the same chat at once: with
/// a strict second between a chat's messages no sender could answer them within a second.
///
/// Measured over the 120 s, the last updates given 10 s more to be answered: each update's time
/// from its release to the HTTP 200 of the last call answering it (one not answered by the end
/// counts as slower than any), p50 and p99, and per kind; for button presses, from release to the
/// 200 of answerCallbackQuery; the forecasts accepted in the 120 s against what the rate left
/// them, (30 − the chats' messages a second) × 120; 429s until the end. A quick run: 5,000
/// forecasts in 25 cells, 20 s of chat (100 updates, 10 presses).
struct BroadcastChatScenario {
    var quick: Bool
    var executable: String

    /// Telegram's free limits, which the worker is configured with and the fake enforces.
    static let messagesPerSecond = 30.0
    static let messagesPerSecondPerChat = 1.0
    static let burstPerChat = 3
    /// The chatting chats' ids start here, far above the subscribers' (1…100,000).
    static let firstChat: Int64 = 10_000_001
    static let firstUpdateID = 1

    func run() async throws -> [Result] {
        let subscribers = quick ? 5_000 : 100_000
        let cells = quick ? 25 : 500
        let chats = 1_000
        let seconds: Double = quick ? 20 : 120
        let updatesPerSecond = 5.0
        let grace: Double = quick ? 5 : 10
        let updates = try Self.updates(count: Int(seconds * updatesPerSecond), chats: chats)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        do {
            let database = try BotDatabase.open(path: path)
            try await Seed.dailyForecastsDue(chats: 1...Int64(subscribers), cells: cells, in: database)
            try await Seed.askedAboutTheirCity(chats: Self.firstChat...Self.firstChat + Int64(chats) - 1, in: database)
        }

        let interval = 1 / updatesPerSecond
        let ledger = ReplyLedger(updates: updates, firstID: Self.firstUpdateID)
        let telegram = try await FakeTelegram.bench(
            ledger, release: .init(interval: interval, start: .firstMessage),
            limits: SendingLimits(
                perWindow: Int(Self.messagesPerSecond), perChatPerWindow: Self.messagesPerSecondPerChat, perChatBurst: Self.burstPerChat))
        let weather = try await FakeOpenWeather(recording: false)
        let process = try Worker.start(
            executable, telegram: telegram.url, weather: weather.url, databasePath: path,
            environment: [
                "TELEGRAM_MESSAGES_PER_SECOND": String(Self.messagesPerSecond),
                "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": String(Self.messagesPerSecondPerChat),
            ])

        // The chats start once the first forecast is accepted, which takes a moment after start-up
        // (a minute at most, or the run ends there); then 120 s and the grace, less when every
        // update is answered early.
        let origin = try await telegram.runRelease(for: seconds, grace: grace) { !ledger.answeredAt.contains(nil) }
        let answered = ledger.answeredAt
        let callbacksAnswered = ledger.callbackAnsweredAt
        let rateLimited = telegram.state.withLock { $0.rateLimited }
        let accepted = origin.map { ledger.messagesAccepted(from: $0, to: $0.addingTimeInterval(seconds)) }
        await Worker.stop(process)
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()
        await weather.shutdown()

        guard let origin, let accepted else {
            return [Result(scenario: "broadcast-chat", figure: "first forecast accepted", value: "none in 60 s", target: "", passed: false)]
        }
        // Update i is released i intervals after the first forecast is accepted.
        let latencies = answered.enumerated().map { index, at in at.map { $0.timeIntervalSince(origin) - Double(index) * interval } }
        let presses = updates.indices.filter { updates[$0].callbackQueryID != nil }
        let callbackLatencies = presses.map { index in callbacksAnswered[index].map { $0.timeIntervalSince(origin) - Double(index) * interval } }
        let interactivePerSecond = Double(accepted.updatingChats) / seconds
        let bulkCapacity = (Self.messagesPerSecond - interactivePerSecond) * seconds
        let p99 = Self.percentile(0.99, of: latencies)
        let callbackP99 = Self.percentile(0.99, of: callbackLatencies)
        // A quick run's percentiles rest on 100 updates and 10 presses (its p99 is the second
        // slowest update and the slowest press): shown, and judged in the full run only.
        let judged = !quick

        var results = [
            Result(
                scenario: "broadcast-chat", figure: "\(subscribers / 1000)k forecasts due, \(updates.count) chat updates at \(Int(updatesPerSecond))/s: answered",
                value: "\(latencies.compactMap { $0 }.count) of \(updates.count)", target: "", passed: nil),
            Result(scenario: "broadcast-chat", figure: "  replies p50", value: Self.describe(Self.percentile(0.5, of: latencies)), target: "", passed: nil),
            Result(
                scenario: "broadcast-chat", figure: "  replies p99", value: Self.describe(p99), target: judged ? "≤ 1 s" : "full run",
                passed: judged ? (p99 ?? .infinity) <= 1 : nil),
            Result(
                scenario: "broadcast-chat", figure: "  button answers p99 (\(presses.count) presses)", value: Self.describe(callbackP99),
                target: judged ? "≤ 1 s" : "full run", passed: judged ? (callbackP99 ?? .infinity) <= 1 : nil),
            Result(
                scenario: "broadcast-chat", figure: "  interactive messages/s", value: String(format: "%.2f", interactivePerSecond),
                target: "", passed: nil),
            Result(
                scenario: "broadcast-chat", figure: "  forecasts in \(Int(seconds)) s, of (30 − interactive) × \(Int(seconds)) = \(Int(bulkCapacity))",
                value: "\(accepted.otherChats)", target: "≥ \(Int((bulkCapacity * 0.95).rounded(.up)))",
                passed: Double(accepted.otherChats) >= bulkCapacity * 0.95),
            Result(scenario: "broadcast-chat", figure: "  429s received", value: "\(rateLimited)", target: "0", passed: rateLimited == 0),
        ]
        // Each kind on its own, in the mix's order: which answers wait, and how long.
        let mix = ThroughputScenario.mix
        for (position, step) in mix.enumerated() where !mix[..<position].contains(step) {
            let ofKind = latencies.indices.filter { mix[$0 % mix.count] == step }.map { latencies[$0] }
            let answeredCount = ofKind.compactMap { $0 }.count
            let value =
                switch answeredCount {
                case 0: "none answered"
                case ofKind.count: "p50 \(Self.describe(Self.percentile(0.5, of: ofKind))), max \(Self.describe(ofKind.compactMap { $0 }.max()))"
                default: "p50 \(Self.describe(Self.percentile(0.5, of: ofKind))), \(answeredCount) answered, in \(Self.describe(ofKind.compactMap { $0 }.max())) at most"
                }
            results.append(
                Result(
                    scenario: "broadcast-chat", figure: "  by kind: \(Self.name(of: step)), \(step.replies(hasCity: true)) \(step.replies(hasCity: true) == 1 ? "call" : "calls") ×\(ofKind.count)",
                    value: value, target: "", passed: nil))
        }
        return results
    }

    /// `count` updates of the usual mix's kinds in turn, each from a chat of its own (`count` must
    /// not exceed `chats`): update i is of kind mix[i % 10], from chat firstChat + i.
    static func updates(count: Int, chats: Int) throws -> [PreparedUpdate] {
        precondition(count <= chats, "each chat takes one update from the state it was seeded in")
        return try (0..<count).map { index in
            try ThroughputScenario.update(
                ThroughputScenario.mix[index % ThroughputScenario.mix.count], chat: firstChat + Int64(index), id: firstUpdateID + index,
                hasCity: true)
        }
    }

    /// The `p` quantile of `values` (seconds), nil standing for an update never answered, slower
    /// than any; nil when it falls on one of those.
    static func percentile(_ p: Double, of values: [Double?]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted { ($0 ?? .infinity) < ($1 ?? .infinity) }
        return sorted[min(sorted.count - 1, max(Int((Double(sorted.count) * p).rounded(.up)) - 1, 0))]
    }

    static func describe(_ seconds: Double?) -> String {
        guard let seconds else { return "not answered" }
        if seconds < 1 { return String(format: "%.0f ms", seconds * 1000) }
        return String(format: seconds < 10 ? "%.2f s" : "%.1f s", seconds)
    }

    static func name(of step: ThroughputScenario.Step) -> String {
        switch step {
        case .location: "location"
        case .confirm: "«✅ Да» (cy:1)"
        case .text(let text): text
        }
    }
}
