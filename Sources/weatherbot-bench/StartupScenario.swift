import Foundation
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// The weatherbot executable started on a database of 100,000 chats: time until its first
/// getUpdates reaches Telegram, then its resident memory and CPU while idle.
struct StartupScenario {
    var quick: Bool
    var executable: String

    func run() async throws -> [Result] {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            return [Result(scenario: "start-up", figure: "weatherbot executable", value: "not found at \(executable)", target: "", passed: false)]
        }
        let chats = quick ? 10_000 : 100_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        try await seed(path: path, chats: chats)

        let telegram = try await FakeTelegram(recording: false)
        let started = Date()
        let process = try Worker.start(
            executable, telegram: telegram.url, weather: URL(string: "http://127.0.0.1:9")!, databasePath: path)
        var startup: TimeInterval?
        while Date().timeIntervalSince(started) < 30 {
            if let first = telegram.state.withLock({ $0.firstPoll }) { startup = first.timeIntervalSince(started); break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let idle: TimeInterval = quick ? 3 : 10
        let cpuBefore = Memory.cpuSeconds(pid: process.processIdentifier) ?? 0
        try await Task.sleep(for: .seconds(idle))
        let cpuIdle = (Memory.cpuSeconds(pid: process.processIdentifier) ?? 0) - cpuBefore
        let rss = Memory.residentMegabytes(pid: process.processIdentifier)
        process.terminate()
        process.waitUntilExit()
        // Let the last long poll's answer go out before the fake's event loop closes.
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()

        let label = "\(chats / 1000)k chats"
        return [
            Result(
                scenario: "start-up", figure: "to first getUpdates (\(label))", value: startup.map { String(format: "%.0f ms", $0 * 1000) } ?? "none in 30 s",
                target: "≤ 1 s", passed: (startup ?? .infinity) <= 1),
            Result(
                scenario: "start-up", figure: "idle RSS (\(label))", value: rss.map { String(format: "%.1f MB", $0) } ?? "?",
                target: "≤ 60 MB", passed: (rss ?? .infinity) <= 60),
            Result(
                scenario: "start-up", figure: "idle CPU", value: String(format: "%.1f %% of a core", cpuIdle / idle * 100), target: "", passed: nil),
            Result(scenario: "start-up", figure: "SIGTERM exit code", value: "\(process.terminationStatus)", target: "0", passed: process.terminationStatus == 0),
        ]
    }

    /// A database as a busy bot would have it: chats with a city each.
    private func seed(path: String, chats: Int) async throws {
        let database = try BotDatabase.open(path: path)
        let place = Place(name: "Moscow", localNames: ["ru": "Москва"], country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
        try await database.insert(chats: (1...Int64(chats)).map { ChatRecord(id: $0, language: .ru, state: .idle, currentPlace: place) })
    }
}
