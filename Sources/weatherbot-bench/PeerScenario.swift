import Foundation
import WeatherBotTesting

/// The bot beside the one a user would pick instead: the aiogram bot in `shared/peer/`, given the
/// same work in the same run. 500 chats send `/help`, each answered by one message, at 20 and at
/// 200 updates a second and as a backlog all released at once; Telegram's limits lifted. Each
/// contestant runs twice per phase, in mirrored order (ours, aiogram, the floors, the floors,
/// aiogram, ours), so a drift of the machine falls on both; a figure is the mean of its two runs.
///
/// Beside them, the floor under the bot (``FloorBot``): the same parts with none of the bot's way,
/// the transport alone and the transport with one commit per batch, which tells what share of
/// the bot's CPU is the stack and what is its own.
///
/// CPU per update is the process's user and system time from the first release to the last
/// reply, idle work included, divided by the updates; the ratio is aiogram's over ours. Futexes
/// and fcntl calls per update (from `perf`'s tracepoints) say how many times a thread woke another
/// and how many file locks SQLite took.
struct PeerScenario {
    var quick: Bool
    var executable: String
    var postgres: String?
    var intakes: [Intake]
    /// The aiogram bot's script and the Python that runs it.
    var peerScript: String
    var peerPython: String
    /// Only the contestants and phases of these names, when given: to look at one closely.
    var only: Set<String> = []

    /// The phases: updates released `perSecond` a second (nil: all at once), and the least ratio
    /// of aiogram's CPU per update to ours that is the target.
    struct Phase {
        var name: String
        var perSecond: Int?
        var updates: Int
        var target: Double
    }

    var phases: [Phase] {
        let all = [
            Phase(name: "20/s", perSecond: 20, updates: quick ? 200 : 800, target: 2),
            Phase(name: "200/s", perSecond: 200, updates: quick ? 1_000 : 4_000, target: 3),
            Phase(name: "backlog", perSecond: nil, updates: quick ? 1_000 : 3_000, target: 4),
        ]
        let chosen = all.filter { only.contains($0.name) }
        return chosen.isEmpty ? all : chosen
    }

    static let chats = 500
    /// Seconds from the first poll to the first release: every contestant has started and asks
    /// for updates when counting begins.
    static let lead = 1.0
    /// The most futexes and fcntl calls per update the bot may make at 20 a second.
    static let futexTarget = 8.0
    static let lockTarget = 2.0

    /// Who runs: the bot (on an engine, with an intake), the peer, or a floor.
    enum Contestant: Equatable {
        case bot(postgres: Bool, intake: Intake)
        case aiogram
        case floor(FloorBot.Mode)

        /// Whether it is the build measured, rather than a program beside it.
        var isThisBuild: Bool {
            if case .bot = self { true } else { false }
        }

        /// The name `--peer-only` knows it by.
        var key: String {
            switch self {
            case .bot(let postgres, let intake): postgres ? "postgres-\(intake.rawValue)" : intake.rawValue
            case .aiogram: "aiogram"
            case .floor(let mode): mode.rawValue
            }
        }

        var name: String {
            switch self {
            case .bot(let postgres, let intake): "weatherbot (\(postgres ? "PostgreSQL" : "SQLite"), \(intake.rawValue))"
            case .aiogram: "aiogram 3"
            case .floor(.transport): "floor: transport only"
            case .floor(.commit): "floor: transport + a commit"
            }
        }
    }

    var contestants: [Contestant] {
        let modes = intakes.isEmpty ? [Intake.polling] : intakes
        var bots = modes.map { Contestant.bot(postgres: false, intake: $0) }
        if postgres != nil { bots += modes.map { .bot(postgres: true, intake: $0) } }
        let all = bots + [.aiogram] + FloorBot.Mode.allCases.map(Contestant.floor)
        let chosen = all.filter { only.contains($0.key) }
        return chosen.isEmpty ? all : chosen
    }

    func run() async throws -> [Result] {
        guard FileManager.default.isReadableFile(atPath: peerScript) else {
            throw FloorBot.ValidationFailed("the peer's script is not at \(peerScript) (give --peer PATH)")
        }
        var results: [Result] = []
        for (index, phase) in phases.enumerated() {
            let firstID = 7_000_001 + index * 100_000
            let updates = try Self.updates(phase, firstID: firstID)
            let order = contestants + contestants.reversed()
            var spent: [Int: [ThroughputScenario.Run]] = [:]
            for contestant in order {
                let run = try await run(contestant, phase: phase, updates: updates, firstID: firstID)
                spent[contestants.firstIndex(of: contestant)!, default: []].append(run)
            }
            results += figures(phase, updates: updates.count, runs: spent)
        }
        return results
    }

    /// `/help` from the chats in turn, released `phase.perSecond` a second from ``lead`` after
    /// the first poll, or all at that moment.
    static func updates(_ phase: Phase, firstID: Int) throws -> [PreparedUpdate] {
        try (0..<phase.updates).map { index in
            var update = try ThroughputScenario.update(.text("/help"), chat: Int64(index % chats + 1), id: firstID + index)
            update.releaseAfter = lead + (phase.perSecond.map { Double(index) / Double($0) } ?? 0)
            return update
        }
    }

    private func run(_ contestant: Contestant, phase: Phase, updates: [PreparedUpdate], firstID: Int) async throws -> ThroughputScenario.Run {
        let seconds = Double(updates.count) / Double(phase.perSecond ?? 1_000)
        let deadline = Self.lead + seconds + 120
        let run: ThroughputScenario.Run
        switch contestant {
        case .bot(let onPostgres, let intake):
            run = try await ThroughputScenario.Run(
                executable: executable, updates: updates, firstID: firstID, releaseInterval: 0.001, deadline: deadline,
                postgres: onPostgres ? postgres : nil, intake: intake, measuredFrom: Self.lead)
        case .aiogram:
            run = try await ThroughputScenario.Run(
                executable: executable, updates: updates, firstID: firstID, releaseInterval: 0.001, deadline: deadline,
                launch: { telegram, _ in try peer(telegram) }, measuredFrom: Self.lead)
        case .floor(let mode):
            run = try await ThroughputScenario.Run(
                executable: executable, updates: updates, firstID: firstID, releaseInterval: 0.001, deadline: deadline,
                launch: { telegram, database in try floor(mode, telegram, database) }, measuredFrom: Self.lead)
        }
        if !run.finished {
            FileHandle.standardError.write(Data("peer \(phase.name): \(contestant.name) answered \(run.replies) of \(run.expected)\n".utf8))
        }
        return run
    }

    /// The aiogram bot, long-polling the fake Telegram.
    private func peer(_ telegram: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: peerPython)
        process.arguments = [peerScript, "run"]
        process.environment = [
            "TELEGRAM_API_URL": telegram.absoluteString, "TELEGRAM_BOT_TOKEN": FakeTelegram.token,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Worker.errorLog(named: "aiogram") ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// This benchmark's own executable as a floor bot.
    private func floor(_ mode: FloorBot.Mode, _ telegram: URL, _ database: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--floor", mode.rawValue]
        process.environment = [
            "TELEGRAM_API_URL": telegram.absoluteString, "TELEGRAM_BOT_TOKEN": FakeTelegram.token, "DATABASE_PATH": database,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Worker.errorLog(named: "floor") ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    private func figures(_ phase: Phase, updates: Int, runs: [Int: [ThroughputScenario.Run]]) -> [Result] {
        let count = Double(updates)
        /// The mean of a figure over a contestant's runs, nil when a run lacks it.
        func mean(_ index: Int, _ value: (ThroughputScenario.Run) -> Double?) -> Double? {
            let values = (runs[index] ?? []).map(value)
            guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
            return values.compactMap { $0 }.reduce(0, +) / Double(values.count)
        }
        func cpu(_ index: Int) -> Double? { mean(index) { $0.fromFirstRelease.map { $0.cpu * 1000 / count } } }
        let scenario = "peer \(phase.name)"
        let aiogram = contestants.firstIndex(of: .aiogram).flatMap(cpu)
        var results: [Result] = []
        for (index, contestant) in contestants.enumerated() {
            let finished = (runs[index] ?? []).allSatisfy(\.finished)
            let own = cpu(index)
            results.append(
                Result(
                    scenario: scenario, figure: "CPU per update, \(contestant.name)", value: own.map { String(format: "%.3f ms", $0) } ?? "?",
                    target: "", passed: finished ? nil : false, isOwn: contestant.isThisBuild))
            guard case .bot(let onPostgres, let intake) = contestant else { continue }
            // The targets are the embedded engine's with long polling; the others are shown.
            let judged = !onPostgres && intake == .polling
            let ratio = aiogram.flatMap { peer in own.map { peer / $0 } }
            results.append(
                Result(
                    scenario: scenario, figure: "aiogram / \(contestant.name)", value: ratio.map { String(format: "%.2f×", $0) } ?? "?",
                    target: judged ? String(format: "≥ %.0f×", phase.target) : "", passed: judged ? (ratio ?? 0) >= phase.target : nil))
            let futexes = mean(index) { $0.fromFirstRelease?.futexes.map { Double($0) / count } }
            let locks = mean(index) { $0.fromFirstRelease?.locks.map { Double($0) / count } }
            let atTwenty = judged && phase.perSecond == 20
            results.append(
                Result(
                    scenario: scenario, figure: "futexes per update, \(contestant.name)", value: futexes.map { String(format: "%.1f", $0) } ?? "?",
                    target: atTwenty ? String(format: "≤ %.0f", Self.futexTarget) : "", passed: atTwenty ? (futexes ?? .infinity) <= Self.futexTarget : nil))
            results.append(
                Result(
                    scenario: scenario, figure: "fcntl per update, \(contestant.name)", value: locks.map { String(format: "%.1f", $0) } ?? "?",
                    target: atTwenty ? String(format: "≤ %.0f", Self.lockTarget) : "", passed: atTwenty ? (locks ?? .infinity) <= Self.lockTarget : nil))
            let syncs = mean(index) { $0.fromFirstRelease?.syncs.map { Double($0) / count } }
            results.append(
                Result(scenario: scenario, figure: "fsyncs per update, \(contestant.name)", value: syncs.map { String(format: "%.2f", $0) } ?? "?", target: "", passed: nil))
        }
        for (index, contestant) in contestants.enumerated() {
            let latencies = (runs[index] ?? []).map { $0.latencies.sorted() }
            func percentile(_ p: Double) -> String {
                // The lower of the two runs', as --compare reads latency.
                let values = latencies.compactMap { sorted in
                    sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] * 1000
                }
                return values.min().map { String(format: "%.1f ms", $0) } ?? "?"
            }
            for (name, p) in [("p50", 0.5), ("p99", 0.99)] {
                results.append(
                    Result(scenario: scenario, figure: "\(name), \(contestant.name)", value: percentile(p), target: "", passed: nil, isOwn: contestant.isThisBuild))
            }
        }
        return results
    }
}
