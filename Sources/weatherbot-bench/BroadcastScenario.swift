import Foundation
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// Daily forecasts for every subscriber due in the same minute, through the weatherbot
/// executable, with the fake Telegram enforcing Telegram's limits: how long until the last one
/// is accepted, against the bound N / rate; 429s; weather calls; CPU.
///
/// (a) is Telegram's free limit, 30 messages a second and one a second per chat. At that rate
/// 100,000 messages take 55 minutes, so the run uses a clock `scale` times faster: the worker is
/// configured with, and the fake enforces, `scale` times the rates (any one-second window holds at
/// most 30·scale messages), and the times are reported in Telegram's seconds (multiplied back).
/// (b) is the paid broadcast limit, 1,000 messages a second, on the real clock.
struct BroadcastScenario {
    var quick: Bool
    var executable: String

    struct Case {
        var label: String
        var rate: Double
        var scale: Double
    }

    func run() async throws -> [Result] {
        let cases = [
            Case(label: "(a) 30/s, 1/s per chat", rate: 30, scale: 20),
            Case(label: "(b) 1000/s", rate: 1000, scale: 1),
        ]
        var results: [Result] = []
        for limits in cases {
            results += try await run(limits)
        }
        return results
    }

    private func run(_ limits: Case) async throws -> [Result] {
        let subscribers = quick ? 5_000 : 100_000
        let cells = quick ? 25 : 500
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        try await Seed.dailyForecastsDue(chats: 1...Int64(subscribers), cells: cells, in: BotDatabase.open(path: path))

        let rate = limits.rate * limits.scale
        let ledger = ReplyLedger(updates: [], firstID: 1)
        let telegram = try await FakeTelegram.bench(ledger, limits: SendingLimits(perWindow: Int(rate), perChatPerWindow: limits.scale))
        let weather = try await FakeOpenWeather(recording: false)
        // Every forecast is due from the moment the worker starts.
        let started = Date()
        let process = try Worker.start(
            executable, telegram: telegram.url, weather: weather.url, databasePath: path,
            environment: [
                "TELEGRAM_MESSAGES_PER_SECOND": String(rate), "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": String(limits.scale),
            ])
        let bound = Double(subscribers) / rate
        let end = started.addingTimeInterval(bound * 1.5 + 30)
        var finished = false
        while Date() < end {
            if ledger.replies >= subscribers { finished = true; break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let cpu = Memory.cpuSeconds(pid: process.processIdentifier) ?? 0
        let last = ledger.window.1
        let rateLimited = telegram.state.withLock { $0.rateLimited }
        process.terminate()
        process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()
        await weather.shutdown()

        let took = (last ?? Date()).timeIntervalSince(started)
        let scaled = { (seconds: Double) in String(format: "%.1f s", seconds * limits.scale) }
        let label = "\(limits.label), \(subscribers / 1000)k in \(cells) cells"
        return [
            Result(
                scenario: "broadcast", figure: "\(label): delivered", value: "\(ledger.replies) of \(subscribers)", target: "all",
                passed: finished),
            // A quick run lasts a few seconds, of which the worker's start-up and the first cell's
            // weather call are a few per cent on their own: its time is shown, and judged only in
            // the full run.
            Result(
                scenario: "broadcast", figure: "  time, bound N / rate \(scaled(bound))", value: scaled(took),
                target: quick ? "full run" : "≤ " + scaled(bound * 1.05), passed: quick ? nil : finished && took <= bound * 1.05),
            Result(scenario: "broadcast", figure: "  429s received", value: "\(rateLimited)", target: "0", passed: rateLimited == 0),
            Result(
                scenario: "broadcast", figure: "  weather calls", value: "\(weather.forecastCalls)", target: "= \(cells)",
                passed: weather.forecastCalls == cells),
            Result(
                scenario: "broadcast", figure: "  CPU (worker)", value: String(format: "%.1f s, %.2f ms per message", cpu, cpu * 1000 / Double(subscribers)),
                target: "", passed: nil),
        ]
    }
}
