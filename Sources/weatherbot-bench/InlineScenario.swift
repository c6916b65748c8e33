import BotClock
import Foundation
import Synchronization
import WeatherBotTesting

/// Inline mode through the weatherbot executable, OpenWeather answering in 150 ms (geocoding in
/// 100 ms), as it does from afar:
/// - **uncached**: 20 users each type a name no one asked for yet, whole; the answer waits the
///   settle time (for a keystroke more), then geocodes and fetches;
/// - **cached**: 200 users type those names again, 20 a second;
/// - **typing**: one user types «Казань» letter by letter, a letter each 250 ms, and 20 users type
///   a new place each, at the same pace, at once: the calls each user's typing cost.
struct InlineScenario {
    var quick: Bool
    var executable: String

    /// Answers to inline queries as the fake Telegram accepted them, by query id.
    final class Ledger: FakeTelegramObserver {
        let answered = Mutex<[String: Date]>([:])
        func handedOut(_ update: HandedOut) {}
        func accepted(_ reply: AcceptedReply) {
            guard reply.method == "answerInlineQuery", let id = reply.inlineQueryID else { return }
            answered.withLock { $0[id] = reply.at }
        }
    }

    static let pace: Duration = .milliseconds(250)

    func run() async throws -> [Result] {
        let ledger = Ledger()
        let telegram = try await FakeTelegram(recording: false, observer: ledger)
        let weather = try await FakeOpenWeather(forecastDelay: .milliseconds(150), geocodeDelay: .milliseconds(100), recording: false, logging: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-inline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let worker = try Worker.start(executable, telegram: telegram.url, weather: weather.url, databasePath: folder.appendingPathComponent("bot.sqlite").path)
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        // The worker is up once it polls.
        let started = ContinuousClock.now
        while telegram.state.withLock({ $0.firstPoll == nil }) && ContinuousClock.now - started < .seconds(30) { try await Task.sleep(for: .milliseconds(50)) }

        var sent: [String: ContinuousClock.Instant] = [:]
        let origin = (clock: ContinuousClock.now, date: Date())
        func latency(_ id: String) -> Double? {
            guard let at = ledger.answered.withLock({ $0[id] }), let asked = sent[id] else { return nil }
            return at.timeIntervalSince(origin.date) - (asked - origin.clock).timeInterval
        }
        func waitForAnswers(_ ids: [String], within seconds: Double) async throws {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline, ledger.answered.withLock({ answered in ids.contains { answered[$0] == nil } }) {
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        // Uncached: a new name each, 4 a second.
        let names = quick ? 10 : 20
        var uncached: [String] = []
        for index in 1...names {
            let id = telegram.sendInlineQuery("Place \(index)", from: Int64(1_000 + index))
            sent[id] = .now
            uncached.append(id)
            try await Task.sleep(for: .milliseconds(250))
        }
        try await waitForAnswers(uncached, within: 10)

        // Cached: the same names again, 20 a second.
        let cpuBefore = Memory.cpuSeconds(pid: worker.processIdentifier) ?? 0
        let repeats = quick ? 50 : 200
        var cached: [String] = []
        for index in 0..<repeats {
            let id = telegram.sendInlineQuery("Place \(index % names + 1)", from: Int64(2_000 + index))
            sent[id] = .now
            cached.append(id)
            try await Task.sleep(for: .milliseconds(50))
        }
        try await waitForAnswers(cached, within: 10)
        let cpuCached = (Memory.cpuSeconds(pid: worker.processIdentifier) ?? 0) - cpuBefore

        // Typing: «Казань», and 20 new places, letter by letter, all at once.
        let typists = quick ? 5 : 20
        let callsBefore = weather.log.count
        // The fake's «Place N» lie at latitude 40 + N: 21 to 40 are new.
        let words = ["Казань"] + (1...typists).map { "Place \(20 + $0)" }
        var last: [String] = []
        var typed = 0
        for length in 1...words.map(\.count).max()! {
            for (user, word) in words.enumerated() where length <= word.count {
                let id = telegram.sendInlineQuery(String(word.prefix(length)), from: Int64(3_000 + user))
                sent[id] = .now
                typed += 1
                if length == word.count { last.append(id) }
            }
            try await Task.sleep(for: Self.pace)
        }
        try await waitForAnswers(last, within: 10)
        try await Task.sleep(for: .seconds(1))
        let typingCalls = weather.log[callsBefore...]
        // Each word's calls: its geocoding (by the name typed) and the forecast of its point.
        func calls(of word: String) -> Int {
            let place = FakeOpenWeather.places(named: word).first
            let latitude = (place?["lat"] as? Double) ?? (place?["lat"] as? Int).map(Double.init)
            return typingCalls.filter { call in
                if let name = call.query["q"] { return word.hasPrefix(name) }
                guard call.path.hasSuffix("onecall"), let latitude, let asked = call.query["lat"].flatMap(Double.init) else { return false }
                return abs(asked - latitude) < 0.01
            }.count
        }
        let kazanCalls = calls(of: "Казань")
        let mostCalls = words.map(calls(of:)).max() ?? 0
        let answeredTyping = ledger.answered.withLock { answered in sent.keys.filter { id in answered[id] != nil }.count }
            - uncached.count - cached.count

        await Worker.stop(worker)
        await telegram.shutdown()
        await weather.shutdown()

        func p(_ q: Double, _ ids: [String]) -> Double? { BroadcastChatScenario.percentile(q, of: ids.map(latency)) }
        let uncachedP99 = p(0.99, uncached), cachedP99 = p(0.99, cached)
        return [
            Result(scenario: "inline", figure: "uncached (\(names) new names): p50", value: BroadcastChatScenario.describe(p(0.5, uncached)), target: "", passed: nil),
            Result(
                scenario: "inline", figure: "uncached: p99", value: BroadcastChatScenario.describe(uncachedP99), target: "≤ 1.5 s",
                passed: uncachedP99.map { $0 <= 1.5 } ?? false),
            Result(scenario: "inline", figure: "cached (\(repeats) at 20/s): p50", value: BroadcastChatScenario.describe(p(0.5, cached)), target: "", passed: nil),
            Result(
                scenario: "inline", figure: "cached: p99", value: BroadcastChatScenario.describe(cachedP99), target: "≤ 300 ms",
                passed: cachedP99.map { $0 <= 0.3 } ?? false),
            Result(
                scenario: "inline", figure: "CPU per cached answer (worker)", value: String(format: "%.2f ms", cpuCached / Double(repeats) * 1000),
                target: "", passed: nil),
            Result(
                scenario: "inline", figure: "«Казань» letter by letter: OpenWeather calls", value: "\(kazanCalls)", target: "≤ 2", passed: kazanCalls <= 2),
            Result(
                scenario: "inline", figure: "\(words.count) users typing at once: most calls of one", value: "\(mostCalls) (\(typingCalls.count) in all)",
                target: "≤ 2", passed: mostCalls <= 2),
            Result(
                scenario: "inline", figure: "typing: queries answered", value: "\(answeredTyping) of \(typed) (the rest superseded or one letter)",
                target: "", passed: nil),
        ]
    }
}
