import Foundation

/// Each figure of this build beside the baseline's, as a ratio, for `--compare`: a CPU or latency
/// figure over 10 % above the baseline's is a regression, and fails the run.
struct Comparison {
    struct Row {
        var scenario: String
        var figure: String
        var value: String
        var baseline: String
        var ratio: Double?
        var judged: Bool
        var regressed: Bool
    }

    static let allowed = 1.10
    var rows: [Row] = []

    init(_ results: [Result]) {
        var baselines: [String: String] = [:]
        for result in results where result.scenario.hasSuffix(" (baseline)") {
            baselines[String(result.scenario.dropLast(" (baseline)".count)) + "\u{1}" + result.figure] = result.value
        }
        for result in results where !result.scenario.hasSuffix(" (baseline)") {
            guard let baseline = baselines[result.scenario + "\u{1}" + result.figure] else { continue }
            let ratio = Self.number(result.value).flatMap { value in Self.number(baseline).flatMap { $0 > 0 ? value / $0 : nil } }
            let judged = result.isOwn && Self.isCost(result.figure)
            rows.append(
                Row(
                    scenario: result.scenario, figure: result.figure, value: result.value, baseline: baseline, ratio: ratio, judged: judged,
                    regressed: judged && (ratio ?? 0) > Self.allowed))
        }
    }

    var regressed: Bool { rows.contains(where: \.regressed) }

    /// Figures where more is worse and counts against a change: CPU and latency.
    static func isCost(_ figure: String) -> Bool {
        figure.hasPrefix("CPU") || figure.hasPrefix("p50") || figure.hasPrefix("p99")
    }

    /// The leading number of a figure such as «0.88 ms» or «1478»; nil for «?» or «140000 of 140000».
    static func number(_ value: String) -> Double? {
        let parts = value.split(separator: " ")
        guard let first = parts.first, let number = Double(first), parts.count <= 2 else { return nil }
        return number
    }

    var table: String {
        let results = rows.map { row in
            Result(
                scenario: row.scenario, figure: row.figure + " vs baseline",
                value: (row.ratio.map { String(format: "%.2f× ", $0) } ?? "") + "(\(row.baseline) → \(row.value))",
                target: row.judged ? String(format: "≤ %.2f×", Self.allowed) : "",
                passed: row.judged && row.ratio != nil ? !row.regressed : nil)
        }
        return Result.table(results)
    }
}
