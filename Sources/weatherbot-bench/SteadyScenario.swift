import Foundation
import WeatherChart

/// The ordinary day: the usual mix (``ThroughputScenario/mix``) released at 20 and at 200 updates
/// a second for a minute each (15 s in a quick run), as a bot lives, where every update costs its
/// own poll answer, its own commits and its own sends. What the worker spends from the first
/// release to the last answer, idle work included, per update: CPU, context switches (every
/// thread's), fsyncs and write syscalls (counted by `perf` from the kernel's tracepoints); and
/// each update's latency, and the requests OpenWeather got.
struct SteadyScenario {
    var quick: Bool
    var executable: String
    var postgres: String? = nil
    var intake: Intake = .polling

    /// The rates, and the targets of CPU per update at each on SQLite.
    static let rates: [(perSecond: Int, cpuTarget: Double)] = [(20, 0.8), (200, 0.30)]
    /// Context switches per update allowed at 20 a second.
    static let switchesTarget = 6.0

    /// The 48-hour chart's median drawing time on the day the targets were set (BENCHMARKS.md,
    /// "Charts"): a yardstick of the machine's speed, which on a shared machine varies by several
    /// times from day to day.
    static let referenceDrawing = 19.8

    func run() async throws -> [Result] {
        var results = [try await machineSpeed()]
        for (index, rate) in Self.rates.enumerated() {
            let seconds = quick ? 15 : 60
            let chats = max(1, rate.perSecond * seconds / ThroughputScenario.mix.count)
            let firstID = 3_000_001 + index * 1_000_000
            let updates = try ThroughputScenario.updates(chats: chats, firstID: firstID)
            let run = try await ThroughputScenario.Run(
                executable: executable, updates: updates, firstID: firstID, releaseInterval: 1.0 / Double(rate.perSecond),
                deadline: Double(seconds) + 120, postgres: postgres, intake: intake)
            results += figures(run, updates: updates.count, rate: rate, isFirst: index == 0)
        }
        return results
    }

    /// The same pure computation timed in this run and on the day the targets were set: when the
    /// machine is slower, every figure here is dearer by about as much.
    private func machineSpeed() async throws -> Result {
        let forecast = try await ChartScenario.forecast()
        let (median, _) = try ChartScenario.timed(rounds: 10) { try ChartRenderer.hourly(forecast, labels: ChartScenario.labels) }
        return Result(
            scenario: "steady (the machine)",
            figure: String(format: "a 48-hour chart drawn (%.1f ms when the targets were set)", Self.referenceDrawing),
            value: String(format: "%.1f ms, %.1f× slower", median, median / Self.referenceDrawing), target: "", passed: nil)
    }

    private func figures(_ run: ThroughputScenario.Run, updates: Int, rate: (perSecond: Int, cpuTarget: Double), isFirst: Bool) -> [Result] {
        let scenario = "steady \(rate.perSecond)/s (\(((postgres == nil ? [] : ["postgres"]) + [intake.rawValue]).joined(separator: ", ")))"
        let count = Double(updates)
        func perUpdate(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0 / count) } ?? "?" }
        let spent = run.fromFirstRelease
        let cpu = spent.map { $0.cpu * 1000 / count }
        let switches = spent.map { Double($0.contextSwitches) / count }
        let sorted = run.latencies.sorted()
        func percentile(_ p: Double) -> String {
            sorted.isEmpty ? "?" : String(format: "%.1f ms", sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] * 1000)
        }
        let judged = postgres == nil
        var results = [
            Result(scenario: scenario, figure: "replies received", value: "\(run.replies) of \(run.expected)", target: "all", passed: run.finished),
            Result(
                scenario: scenario, figure: "CPU per update (worker)", value: cpu.map { String(format: "%.2f ms", $0) } ?? "?",
                target: judged ? String(format: "≤ %.2f ms", rate.cpuTarget) : "", passed: judged ? (cpu ?? .infinity) <= rate.cpuTarget : nil),
            Result(
                scenario: scenario, figure: "context switches per update", value: switches.map { String(format: "%.1f", $0) } ?? "?",
                target: isFirst ? "≤ \(Int(Self.switchesTarget))" : "", passed: isFirst ? (switches ?? .infinity) <= Self.switchesTarget : nil),
            Result(scenario: scenario, figure: "fsyncs per update", value: perUpdate(spent?.syncs.map(Double.init), "%.2f"), target: "", passed: nil),
            Result(scenario: scenario, figure: "write syscalls per update", value: perUpdate(spent?.writes.map(Double.init), "%.1f"), target: "", passed: nil),
            Result(scenario: scenario, figure: "p50", value: percentile(0.5), target: "", passed: nil),
            Result(scenario: scenario, figure: "p99", value: percentile(0.99), target: "", passed: nil),
            Result(scenario: scenario, figure: "OpenWeather requests", value: "\(run.openWeatherRequests)", target: "", passed: nil),
        ]
        results += run.webhookFigures(scenario: scenario)
        return results
    }
}
