import Foundation
import Logging
import PostgresNIO
import WeatherBotPostgres
import WeatherBotTesting

/// Two replicas of the weatherbot executable on one PostgreSQL database while chats write at a
/// steady pace; the active one is killed with SIGKILL and started again as a standby, as a
/// supervisor would. Measured: the time from each kill to the first answer the standby sends, and
/// whether every update was answered.
struct FailoverScenario {
    var quick: Bool
    var executable: String
    var postgres: String

    func run() async throws -> [Result] {
        let chats = quick ? 50 : 100
        let updates = try ThroughputScenario.updates(chats: chats, firstID: 3_000_001)
        let database = try await ScratchDatabase.create(on: postgres, prefix: "weatherbot_bench_failover")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // At 40 updates a second the run lasts long enough for the kills to fall while chats write.
        let ledger = ReplyLedger(updates: updates, firstID: 3_000_001)
        let telegram = try await FakeTelegram.bench(ledger, release: .init(interval: 1.0 / 40))
        let weather = try await FakeOpenWeather(recording: false)
        let expected = updates.map(\.replies).reduce(0, +)
        func start() throws -> Process {
            try Worker.start(
                executable, telegram: telegram.url, weather: weather.url,
                databasePath: folder.appendingPathComponent("unused.sqlite").path, environment: ["DATABASE_URL": database.url])
        }

        var replicas = [try start()]
        try await Task.sleep(for: .seconds(1))
        replicas.append(try start())
        var takeovers: [Double] = []
        var finished = false
        let client = PostgresClient(configuration: try PostgresLocation(url: database.url).configuration, backgroundLogger: Self.logger)
        try await withRunning([client]) {
            for _ in 0..<(quick ? 1 : 2) {
                try await Task.sleep(for: .seconds(5))
                guard let pid = try await LeaderLease(client: client, logger: Self.logger).activeProcessID(), let killed = replicas.first(where: { $0.processIdentifier == pid }) else {
                    throw FailoverScenarioError.noActiveReplica
                }
                kill(pid, SIGKILL)
                let at = Date()
                killed.waitUntilExit()
                replicas.removeAll { $0 === killed }
                replicas.append(try start())
                // What the killed replica had in flight is counted by now.
                try await Task.sleep(for: .milliseconds(100))
                let before = ledger.replies
                while ledger.replies == before && Date().timeIntervalSince(at) < 30 {
                    try await Task.sleep(for: .milliseconds(10))
                }
                takeovers.append(Date().timeIntervalSince(at))
            }
            let end = Date().addingTimeInterval(120)
            while Date() < end {
                if ledger.unanswered.isEmpty { finished = true; break }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let replies = ledger.replies
        for replica in replicas { await Worker.stop(replica) }
        await telegram.shutdown()
        await weather.shutdown()
        await database.drop()

        let scenario = "failover (postgres)"
        let shown = takeovers.map { String(format: "%.1f s", $0) }.joined(separator: ", ")
        return [
            Result(
                scenario: scenario, figure: "takeover: SIGKILL to the standby's first answer", value: shown, target: "≤ 10 s",
                passed: !takeovers.isEmpty && takeovers.allSatisfy { $0 <= 10 }),
            Result(
                scenario: scenario, figure: "updates answered (\(updates.count) from \(chats) chats)", value: finished ? "all" : "not all",
                target: "all", passed: finished),
            // A reply in flight when its replica died may go again: at least once, never lost.
            Result(scenario: scenario, figure: "replies sent again", value: "\(max(0, replies - expected)) of \(expected)", target: "", passed: nil),
        ]
    }

    static let logger: Logger = {
        var logger = Logger(label: "weatherbot.bench.failover")
        logger.logLevel = .critical
        return logger
    }()
}

enum FailoverScenarioError: Error {
    case noActiveReplica
}
