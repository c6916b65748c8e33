import ArgumentParser
import Foundation
import OpenWeather
import WeatherBotStore
import WeatherBotTesting

/// Measures the bot against its performance budget and prints each figure beside its target.
@main
struct Benchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weatherbot-bench",
        abstract: "Measure the weather bot against its performance budget.",
        discussion: """
            Runs against in-process loopback fakes; nothing leaves 127.0.0.1. Build in release mode:
              swift run -c release weatherbot-bench
            The start-up scenario runs the weatherbot executable built beside this one.
            """)

    @Flag(help: "Smaller figures, for a smoke test that finishes in well under a minute.")
    var quick = false

    @Option(help: ArgumentHelp("The weatherbot executable to start (default: the one beside this benchmark).", valueName: "path"))
    var executable: String?

    @Option(help: ArgumentHelp(
        "Another weatherbot executable to run the same scenarios with, each right after this one, for a before/after in one run.",
        valueName: "path"))
    var baseline: String?

    @Option(help: ArgumentHelp(
        "As --baseline, then each figure's ratio to the baseline's; fails when CPU or latency is over 10 % worse. Each build runs twice (this, baseline, baseline, this); a figure is the mean of its two runs, a latency percentile the lower. Run it before a change on the hot path lands.",
        valueName: "path"))
    var compare: String?

    @Option(help: ArgumentHelp(
        "A PostgreSQL server (postgres://user@host:port/db) to run throughput and latency on as well, and failover; a database is created for each run.",
        valueName: "url"))
    var postgres: String?

    enum Scenario: String, CaseIterable, ExpressibleByArgument {
        case cache, startup, throughput
        /// The ordinary day: the mix at 20 and at 200 updates a second.
        case steady
        case broadcast
        case broadcastChat = "broadcast-chat"
        case charts
        /// One chat flooding (2,000 names at once; 10,500 button presses) while five others talk.
        case flood
        /// Two replicas on PostgreSQL (with --postgres), the active one killed.
        case failover
        /// OpenWeather's call budget: 1,000 daily forecasts due at one minute, 200 chats talking
        /// and one flooding, against 60 calls a minute.
        case budget
        /// Rain notices and warnings for 100,000 chats in 2,000 cells while a broadcast runs and chats talk.
        case notices
        /// Inline queries: new names, known ones, and users typing letter by letter.
        case inline
        /// `/help` from 500 chats through this build and through the aiogram bot in the same
        /// run, at 20 and 200 a second and as a backlog, beside the floor of the stack.
        case peer
        /// The Mini App: its page's weight, and its screens from 50 users at 20 a second, quiet
        /// and while a broadcast goes out.
        case app
        /// The two weather sources: cards while OpenWeather answers, while it is down, once it is
        /// back, and with no key at all; the calls each source got.
        case sources
    }

    @Option(help: ArgumentHelp("The aiogram bot the peer scenario runs beside this one.", valueName: "path"))
    var peer = "../shared/peer/aiogram_bot.py"

    @Option(
        name: .customLong("peer-python"),
        help: ArgumentHelp("The Python with aiogram 3.31 installed (the peer's README: python3 -m venv /tmp/peer-venv).", valueName: "path"))
    var peerPython = "/tmp/peer-venv/bin/python"

    @Option(
        name: .customLong("peer-only"),
        help: ArgumentHelp(
            "In the peer scenario, only these contestants (polling, webhook, postgres-polling, postgres-webhook, aiogram, transport, commit) and phases (20/s, 200/s, backlog).",
            valueName: "name"))
    var peerOnly: [String] = []

    @Option(help: .hidden)
    var floor: String?

    @Option(
        name: .customLong("intake"),
        help: ArgumentHelp(
            "How the worker takes updates in throughput and latency: polling (getUpdates) or webhook (the fake Bot API posts them); give both, --intake polling --intake webhook, to compare them in one run (default: polling).",
            valueName: "mode"))
    var intakes: [Intake] = []

    @Option(
        name: .customLong("only"),
        help: "Run only these scenarios (cache, startup, throughput with latency, steady, broadcast, broadcast-chat, charts, flood, failover, budget, notices, inline, peer, app).")
    var scenarios: [Scenario] = []

    @Option(
        name: .customLong("budget-due-in"),
        help: ArgumentHelp(
            "Minutes from the budget scenario's start until its daily forecasts are due (default: 20; 4 with --quick).", valueName: "minutes"))
    var budgetDueIn: Double?

    func run() async throws {
        // Started by the peer scenario as a floor bot of its own.
        if let floor {
            guard let mode = FloorBot.Mode(rawValue: floor) else { throw FloorBot.ValidationFailed("no floor \(floor)") }
            return try await FloorBot(mode: mode).run()
        }
        var results: [Result] = []
        var chosen = Set(scenarios.isEmpty ? Scenario.allCases : scenarios)
        // A whole run measures the peer beside this build when it is installed.
        if scenarios.isEmpty && !FileManager.default.isExecutableFile(atPath: peerPython) {
            FileHandle.standardError.write(Data("the peer scenario is skipped: no \(peerPython) (see ../shared/peer/README.md)\n".utf8))
            chosen.remove(.peer)
        }
        let binary = executable ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("weatherbot").path
        if chosen.contains(.cache) { results += try await CacheScenario(quick: quick).run() }
        // Throughput and latency with each intake asked for, in the order given, on SQLite and then
        // on PostgreSQL.
        var modes: [Intake] = []
        for intake in intakes.isEmpty ? [.polling] : intakes where !modes.contains(intake) { modes.append(intake) }
        let throughput: [(Scenario, (String) async throws -> [Result])] =
            modes.map { intake in (.throughput, { try await ThroughputScenario(quick: quick, executable: $0, intake: intake).run() }) }
            + modes.map { intake in
                (.throughput, { executable in
                    guard let postgres else { return [] }
                    return try await ThroughputScenario(quick: quick, executable: executable, postgres: postgres, intake: intake).run()
                })
            }
            + modes.map { intake in (.steady, { try await SteadyScenario(quick: quick, executable: $0, intake: intake).run() }) }
            + modes.map { intake in
                (.steady, { executable in
                    guard let postgres else { return [] }
                    return try await SteadyScenario(quick: quick, executable: executable, postgres: postgres, intake: intake).run()
                })
            }
        // The scenarios that start the executable; with a baseline, each runs for both in turn, so
        // that both see the machine in the same state.
        var runs: [(Scenario, (String) async throws -> [Result])] = [
            (.startup, { try await StartupScenario(quick: quick, executable: $0).run() }),
        ] + throughput + [
            (.broadcast, { try await BroadcastScenario(quick: quick, executable: $0).run() }),
            (.broadcastChat, { try await BroadcastChatScenario(quick: quick, executable: $0).run() }),
            (.charts, { try await ChartScenario(quick: quick, executable: $0).run() }),
        ] + FloodScenario.Flood.allCases.map { flood in
            (.flood, { try await FloodScenario(quick: quick, executable: $0, flood: flood).run() })
        } + [
            (.failover, { executable in
                guard let postgres else { return [] }
                return try await FailoverScenario(quick: quick, executable: executable, postgres: postgres).run()
            }),
            (.budget, { try await BudgetScenario(quick: quick, executable: $0, dueIn: budgetDueIn).run() }),
            (.notices, { try await NoticesScenario(quick: quick, executable: $0).run() }),
            (.inline, { try await InlineScenario(quick: quick, executable: $0).run() }),
            (.app, { try await AppScenario(quick: quick, executable: $0).run() }),
            (.sources, { try await SourcesScenario(quick: quick, executable: $0).run() }),
        ]
        let peerScenario: (String) async throws -> [Result] = { [quick, postgres, peer, peerPython, peerOnly] executable in
            try await PeerScenario(
                quick: quick, executable: executable, postgres: postgres, intakes: modes, peerScript: peer, peerPython: peerPython, only: Set(peerOnly)
            ).run()
        }
        runs.append((.peer, peerScenario))
        runs.removeAll { !chosen.contains($0.0) }
        let baseline = compare ?? baseline
        for (_, run) in runs {
            guard let baseline else {
                results += try await run(binary)
                continue
            }
            // Figures of the baseline are for comparison only: the targets are this build's.
            func asBaseline(_ results: [Result]) -> [Result] {
                results.map { Result(scenario: $0.scenario + " (baseline)", figure: $0.figure, value: $0.value, target: "", passed: nil) }
            }
            if compare == nil {
                results += try await run(binary)
                results += asBaseline(try await run(baseline))
            } else {
                // Each build twice, in the order this, baseline, baseline, this, each figure from
                // its two runs (``Result/mean(_:_:)``): the one that ran first in a pair was often
                // measured slower at the 99th percentile, and a drift of the machine cancels.
                let first = try await run(binary)
                let baselineFirst = try await run(baseline)
                let baselineSecond = try await run(baseline)
                let second = try await run(binary)
                results += Result.mean(first, second)
                results += asBaseline(Result.mean(baselineFirst, baselineSecond))
            }
        }
        print(Result.table(results))
        var failed = results.contains { $0.passed == false }
        if compare != nil {
            let comparison = Comparison(results)
            print("\n" + comparison.table)
            failed = failed || comparison.regressed
        }
        if failed { throw ExitCode(1) }
    }
}

/// How the worker takes updates: it long-polls getUpdates, or Telegram posts them to its webhook
/// (on the worker's HTTP server).
enum Intake: String, CaseIterable, Sendable, ExpressibleByArgument {
    case polling, webhook
}

/// One measured figure and its target.
struct Result {
    var scenario: String
    var figure: String
    var value: String
    var target: String
    /// nil when the figure has no target of its own.
    var passed: Bool?
    /// False for a figure of another program run beside this build (the peer, a floor): it is
    /// shown against the baseline's run, never judged as this build's regression.
    var isOwn = true

    /// Two runs of the same scenario, figure by figure, for figures whose values are numbers with
    /// the same unit («5.08 ms», «46.7»): the mean, but the lower of a latency percentile (a stall
    /// of the machine lifts one run's p99 several times over, a slower build lifts both); else
    /// both values. Passed when both passed.
    static func mean(_ first: [Result], _ second: [Result]) -> [Result] {
        var seconds: [String: Result] = [:]
        for result in second { seconds[result.scenario + "\u{1}" + result.figure] = result }
        return first.map { result in
            guard let other = seconds[result.scenario + "\u{1}" + result.figure] else { return result }
            var mean = result
            mean.passed = result.passed.map { $0 && other.passed != false }
            if let value = Comparison.number(result.value), let otherValue = Comparison.number(other.value),
                result.value.split(separator: " ").dropFirst() == other.value.split(separator: " ").dropFirst()
            {
                let unit = result.value.split(separator: " ").dropFirst().joined(separator: " ")
                let decimals = result.value.split(separator: " ")[0].split(separator: ".").dropFirst().first?.count ?? 0
                let isLatency = result.figure.hasPrefix("p50") || result.figure.hasPrefix("p99")
                let combined = isLatency ? min(value, otherValue) : (value + otherValue) / 2
                mean.value = String(format: "%.\(decimals)f", combined) + (unit.isEmpty ? "" : " " + unit)
            } else if result.value != other.value {
                mean.value = result.value + " / " + other.value
            }
            return mean
        }
    }

    static func table(_ results: [Result]) -> String {
        let header = ["scenario", "figure", "value", "target", ""]
        let rows = results.map { [$0.scenario, $0.figure, $0.value, $0.target, $0.passed.map { $0 ? "PASS" : "FAIL" } ?? ""] }
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
    }
}

/// A process's memory and CPU, from /proc.
enum Memory {
    /// Resident memory now.
    static func residentMegabytes(pid: Int32) -> Double? { statusMegabytes("VmRSS:", pid: pid) }

    /// The most resident memory the process has used.
    static func peakMegabytes(pid: Int32) -> Double? { statusMegabytes("VmHWM:", pid: pid) }

    private static func statusMegabytes(_ field: String, pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    /// The CPU seconds of every process of this name (the database server's).
    static func cpuSeconds(ofProcessesNamed name: String) -> Double {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).reduce(0) { total, pid in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            return comm == name ? total + (cpuSeconds(pid: pid) ?? 0) : total
        }
    }

    /// User and system CPU seconds a process has used.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// The weatherbot executable, started against the loopback fakes with its output discarded.
enum Worker {
    static func start(
        _ executable: String, telegram: URL, weather: URL, databasePath: String, environment extra: [String: String] = [:]
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run"]
        process.environment = [
            "TELEGRAM_BOT_TOKEN": FakeTelegram.token, "OPEN_WEATHER_API_KEY": FakeOpenWeather.apiKey, "TELEGRAM_API_URL": telegram.absoluteString,
            "OPEN_WEATHER_API_URL": weather.absoluteString, "DATABASE_PATH": databasePath, "TELEGRAM_POLL_TIMEOUT": "1",
            // The scenarios measure the bot's own work: no budget of the bot's stands in their way.
            "OPEN_WEATHER_CALLS_PER_MINUTE": "0", "OPEN_WEATHER_CALLS_PER_CHAT_PER_MINUTE": "0",
            // OpenWeather alone unless a scenario says otherwise: the second source is the
            // sources scenario's to measure, and no scenario reaches out of the machine.
            "OPEN_METEO_FALLBACK": "false",
            "LOG_LEVEL": "error",
        ].merging(extra) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // WEATHERBOT_BENCH_HTTP_LISTEN=host:port turns the worker's HTTP endpoints, and so its
        // metrics, on: to measure what counting costs. A worker in webhook mode has them on
        // already, where its webhook URL says.
        if extra["HTTP_LISTEN"] == nil, let listen = ProcessInfo.processInfo.environment["WEATHERBOT_BENCH_HTTP_LISTEN"] {
            process.environment?["HTTP_LISTEN"] = listen
        }
        // WEATHERBOT_BENCH_LOG=folder keeps each worker's errors in a file there, for a figure that
        // needs explaining.
        if let log = errorLog(named: "worker") {
            process.environment?["LOG_LEVEL"] = "warning"
            process.standardError = log
        }
        try process.run()
        return process
    }

    /// A new file for a process's errors in the folder WEATHERBOT_BENCH_LOG names; nil without it.
    static func errorLog(named name: String) -> FileHandle? {
        guard let folder = ProcessInfo.processInfo.environment["WEATHERBOT_BENCH_LOG"] else { return nil }
        let path = "\(folder)/\(name)-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }

    /// Asks the worker to stop (SIGTERM) and waits for it to exit: it may keep sending for its
    /// drain timeout first. After `timeout` seconds it is killed.
    static func stop(_ process: Process, timeout: Double = 20) async {
        process.terminate()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

extension Memory {
    /// Context switches of every thread of a process so far, voluntary or not.
    static func contextSwitches(pid: Int32) -> Int {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return threads.reduce(0) { total, thread in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8) else { return total }
            return total + status.split(separator: "\n").reduce(0) { sum, line in
                guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else { return sum }
                return sum + (line.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0)
            }
        }
    }
}

/// Syscalls of a process counted by the kernel's tracepoints through `perf stat`, which does not
/// stop the process (as `strace` would, adding context switches of its own). Nil when `perf` is
/// not installed or may not count.
///
/// `perf` is spawned here with no signal blocked: a child inherits its parent's mask, and this
/// process's threads block SIGINT, which is how `perf stat` is told to print its counts and end.
final class SyscallCount {
    static let syncs = ["fsync", "fdatasync"]
    static let writes = ["write", "pwrite64", "writev", "sendto", "sendmsg"]
    static let futexes = ["futex"]
    static let locks = ["fcntl"]
    static let perf = "/usr/bin/perf"

    private let pid: pid_t
    private let output: String

    init?(pid target: Int32) {
        guard FileManager.default.isExecutableFile(atPath: Self.perf) else { return nil }
        output = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-perf-\(UUID().uuidString).csv").path
        let events = (Self.syncs + Self.writes + Self.futexes + Self.locks).map { "syscalls:sys_enter_\($0)" }.joined(separator: ",")
        let arguments = [Self.perf, "stat", "-x", ",", "-o", output, "-e", events, "-p", "\(target)"]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var spawned = pid_t()
        guard posix_spawn(&spawned, Self.perf, &files, &attributes, &cArguments, environ) == 0 else { return nil }
        pid = spawned
    }

    /// Stops counting: the syncs, writes, futexes and file locks since the start, nil when `perf`
    /// could not count.
    func stop() async -> (syncs: Int, writes: Int, futexes: Int, locks: Int)? {
        kill(pid, SIGINT)
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 2, let count = Int(fields[0]) else { continue }
            counts[String(fields[2]).replacingOccurrences(of: "syscalls:sys_enter_", with: "")] = count
        }
        guard !counts.isEmpty else { return nil }
        func total(_ names: [String]) -> Int { names.reduce(0) { $0 + (counts[$1] ?? 0) } }
        return (total(Self.syncs), total(Self.writes), total(Self.futexes), total(Self.locks))
    }
}
