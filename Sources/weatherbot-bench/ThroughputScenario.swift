import Foundation
import WeatherBotPostgres
import WeatherBotTesting

/// Updates from many chats through the weatherbot executable, end to end: from the fake Telegram
/// handing them out in getUpdates (or starting to post them to the worker's webhook) to the
/// replies' HTTP 200, with Telegram's rate limits lifted. Throughput takes every update at once;
/// latency releases them at 500 a second.
struct ThroughputScenario {
    var quick: Bool
    var executable: String
    /// A PostgreSQL server to run on instead of SQLite (a database is created for each run).
    var postgres: String? = nil
    /// How the worker takes updates. In webhook mode its HTTP server is on, and so are its metrics.
    var intake: Intake = .polling

    /// «throughput (polling)», «throughput (postgres, webhook)».
    private func name(_ scenario: String) -> String {
        "\(scenario) (\(((postgres == nil ? [] : ["postgres"]) + [intake.rawValue]).joined(separator: ", ")))"
    }

    /// One chat's updates in order, and the Bot API calls that answer each: a shared location («🔎
    /// Определяем город…», then the question), /help, «✅ Да» (the answer to the button, the
    /// question edited, the weather card), then /weather, /fav and a search by name. The answer
    /// comes two rounds after the location, so the question has long been asked.
    enum Step: Equatable {
        case location, confirm, text(String)

        /// - Parameter hasCity: the chat had a city before «✅ Да».
        func replies(hasCity: Bool = false) -> Int {
            switch self {
            case .location: 2
            // The answer to the button, the question's buttons taken off, «Ваш город» (which takes
            // the reply keyboard away: it is the chat's first city) and the card; with a city
            // already, the question is edited into «Ваш город» and the card follows.
            case .confirm: hasCity ? 3 : 4
            case .text: 1
            }
        }
    }

    static let mix: [Step] = [
        .location, .text("/help"), .confirm, .text("/weather"), .text("/fav"), .text("Казань"), .text("/weather"),
        .text("/fav"), .text("/help"), .text("/weather"),
    ]

    /// `chats` chats' updates, chats interleaved: update k of chat c has id firstID + k·chats + c − 1.
    static func updates(chats: Int, firstID: Int) throws -> [PreparedUpdate] {
        var queued: [PreparedUpdate] = []
        queued.reserveCapacity(chats * mix.count)
        for (round, step) in mix.enumerated() {
            for chat in 1...chats {
                queued.append(try update(step, chat: Int64(chat), id: firstID + round * chats + chat - 1))
            }
        }
        return queued
    }

    /// Update `id` from `chat`, of the kind `step`. A button press's query id is "<chat>:<id>";
    /// «✅ Да» presses question number 1, a fresh chat's first.
    static func update(_ step: Step, chat: Int64, id: Int, hasCity: Bool = false) throws -> PreparedUpdate {
        let user: [String: Any] = ["id": Int(chat), "is_bot": false, "first_name": "B", "language_code": "ru"]
        var message: [String: Any] = ["message_id": id, "date": 1_795_000_000, "chat": ["id": Int(chat), "type": "private"], "from": user]
        let update: [String: Any]
        var queryID: String?
        switch step {
        case .location:
            message["location"] = ["latitude": 55.75 + Double(chat % 50) * 0.1, "longitude": 37.62]
            update = ["update_id": id, "message": message]
        case .confirm:
            message["text"] = "Это ваш город?"
            queryID = "\(chat):\(id)"
            update = ["update_id": id, "callback_query": ["id": queryID!, "from": user, "chat_instance": "b", "data": "cy:1", "message": message]]
        case .text(let text):
            message["text"] = text
            update = ["update_id": id, "message": message]
        }
        return PreparedUpdate(data: try JSONSerialization.data(withJSONObject: update), chat: chat, replies: step.replies(hasCity: hasCity), callbackQueryID: queryID)
    }

    func run() async throws -> [Result] {
        try await throughput() + latency()
    }

    /// Every update available at once, Telegram's limits lifted.
    private func throughput() async throws -> [Result] {
        let chats = quick ? 1_000 : 10_000
        let updates = try Self.updates(chats: chats, firstID: 1_000_001)
        let run = try await Run(
            executable: executable, updates: updates, firstID: 1_000_001, releaseInterval: nil, deadline: quick ? 120 : 900, postgres: postgres,
            intake: intake)
        let seconds = max((run.last ?? Date()).timeIntervalSince(run.first ?? Date()), 0.001)
        let rate = Double(updates.count) / seconds
        let cpuPerUpdate = run.cpu * 1000 / Double(updates.count)
        let label = "\(updates.count / 1000)k updates, \(chats / 1000)k chats"
        let scenario = name("throughput")
        // PostgreSQL's targets are the replicas' (#18): a network engine, not the embedded file.
        let target = postgres == nil ? 2000.0 : 1000
        var results = [
            Result(scenario: scenario, figure: "replies received", value: "\(run.replies) of \(run.expected)", target: "all", passed: run.finished),
            Result(
                scenario: scenario, figure: "updates/s (\(label))", value: String(format: "%.0f", rate), target: "≥ \(Int(target))",
                passed: run.finished && rate >= target),
            Result(
                scenario: scenario, figure: "CPU per update (worker)", value: String(format: "%.2f ms", cpuPerUpdate),
                target: postgres == nil ? "≤ 0.2 ms" : "", passed: postgres == nil ? cpuPerUpdate <= 0.2 : nil),
            Result(scenario: scenario, figure: "peak RSS (worker)", value: String(format: "%.1f MB", run.peakRSS), target: "", passed: nil),
        ]
        results += run.webhookFigures(scenario: scenario)
        if let serverCPU = run.serverCPU {
            results.append(
                Result(
                    scenario: scenario, figure: "CPU per update (PostgreSQL)", value: String(format: "%.2f ms", serverCPU * 1000 / Double(updates.count)),
                    target: "", passed: nil))
        }
        return results
    }

    /// Updates released at 500 a second: each one's time from release to its last answer's 200.
    private func latency() async throws -> [Result] {
        let chats = quick ? 200 : 1_000
        let updates = try Self.updates(chats: chats, firstID: 2_000_001)
        let run = try await Run(
            executable: executable, updates: updates, firstID: 2_000_001, releaseInterval: 1.0 / 500, deadline: quick ? 60 : 300, postgres: postgres,
            intake: intake)
        let sorted = run.latencies.sorted()
        func percentile(_ p: Double) -> Double? {
            sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] * 1000
        }
        let p50 = percentile(0.5), p99 = percentile(0.99)
        let label = "\(updates.count / 1000)k updates at 500/s"
        let scenario = name("latency")
        let bound = postgres == nil ? 50.0 : 100
        return [
            Result(scenario: scenario, figure: "replies received", value: "\(run.replies) of \(run.expected)", target: "all", passed: run.finished)
        ] + run.webhookFigures(scenario: scenario) + [
            Result(scenario: scenario, figure: "p50 (\(label))", value: p50.map { String(format: "%.1f ms", $0) } ?? "?", target: "", passed: nil),
            Result(
                scenario: scenario, figure: "p99 (\(label))", value: p99.map { String(format: "%.1f ms", $0) } ?? "?", target: "≤ \(Int(bound)) ms",
                passed: run.finished && (p99 ?? .infinity) <= bound),
            // At a steady rate, as a bot lives, a poll brings an update or two: each mode pays a
            // request per update or so.
            Result(
                scenario: scenario, figure: "CPU per update (worker)", value: String(format: "%.2f ms", run.cpu * 1000 / Double(updates.count)),
                target: "", passed: nil),
        ]
    }

    /// The weatherbot executable on a fresh database, answering `updates` until all are answered.
    struct Run {
        var finished = false
        var replies = 0
        var expected = 0
        var first: Date?
        var last: Date?
        var cpu = 0.0
        var peakRSS = 0.0
        var latencies: [Double] = []
        /// Photos uploaded and sent by `file_id`.
        var photos = (uploads: 0, byFileID: 0)
        /// On PostgreSQL: the server's CPU seconds during the run.
        var serverCPU: Double?
        /// In webhook mode: posts answered 2xx, and those answered otherwise or not at all.
        var webhookPosts: (delivered: Int, failed: Int)?
        /// What the worker spent from the first release to the last answer, idle work included.
        var fromFirstRelease: Spent?
        /// Requests that reached the fake OpenWeather.
        var openWeatherRequests = 0

        /// The worker's CPU, context switches and (when `perf` can count them) syscalls between
        /// two moments.
        struct Spent {
            var cpu: Double
            var contextSwitches: Int
            /// fsync and fdatasync calls; nil without `perf`.
            var syncs: Int?
            /// write, pwrite64, writev, sendto and sendmsg calls: to files and to sockets.
            var writes: Int?
            /// futex calls: a thread waking another, or waiting to be woken.
            var futexes: Int?
            /// fcntl calls: SQLite's POSIX locks on the database file, taken and let go.
            var locks: Int?
        }

        /// In webhook mode, what became of the posts: every update posted once when none failed.
        func webhookFigures(scenario: String) -> [Result] {
            guard let webhookPosts else { return [] }
            return [
                Result(
                    scenario: scenario, figure: "webhook posts answered 200", value: "\(webhookPosts.delivered)", target: "", passed: nil),
                Result(
                    scenario: scenario, figure: "webhook posts failed (posted again)", value: "\(webhookPosts.failed)", target: "", passed: nil),
            ]
        }

        /// Starts a bot other than the weatherbot executable against the fakes: the peer, or a
        /// floor of the stack (its Telegram's URL, and a database path it may use).
        typealias Launch = (_ telegram: URL, _ databasePath: String) throws -> Process

        /// - Parameters:
        ///   - launch: the bot to start instead of `executable`, which is then unused.
        ///   - measuredFrom: seconds after the first poll from which CPU and syscalls are counted
        ///     (the first release, when the schedule starts that late).
        init(
            executable: String, updates: [PreparedUpdate], firstID: Int, releaseInterval: Double?, deadline: TimeInterval, postgres: String? = nil,
            intake: Intake = .polling, launch: Launch? = nil, measuredFrom lead: Double = 0
        ) async throws {
            var database: ScratchDatabase?
            if let postgres { database = try await ScratchDatabase.create(on: postgres, prefix: "weatherbot_bench") }
            // WEATHERBOT_BENCH_KEEP_DATABASE keeps it, to look into after the run.
            let keep = ProcessInfo.processInfo.environment["WEATHERBOT_BENCH_KEEP_DATABASE"] != nil

            let serverCPUBefore = database.map { _ in Memory.cpuSeconds(ofProcessesNamed: "postgres") }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            expected = updates.map(\.replies).reduce(0, +)
            let ledger = ReplyLedger(updates: updates, firstID: firstID)
            let telegram = try await FakeTelegram.bench(
                ledger, release: releaseInterval.map { FakeTelegram.Release(interval: $0) }, polling: intake == .polling)
            let weather = try await FakeOpenWeather(recording: false)
            var environment = ["TELEGRAM_MESSAGES_PER_SECOND": "10000", "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": "1000"]
            if let database { environment["DATABASE_URL"] = database.url }
            if intake == .webhook {
                // The worker's HTTP server on a free loopback port, Telegram's posts coming to it
                // over as many connections as the bot asks for by default.
                let listen = "127.0.0.1:\(try await LoopbackServer.freePort())"
                environment["HTTP_LISTEN"] = listen
                environment["TELEGRAM_WEBHOOK_URL"] = "http://\(listen)/telegram/updates"
                environment["TELEGRAM_WEBHOOK_MAX_CONNECTIONS"] = "40"
            }
            let databasePath = folder.appendingPathComponent("bot.sqlite").path
            let process =
                try launch?(telegram.url, databasePath)
                ?? Worker.start(executable, telegram: telegram.url, weather: weather.url, databasePath: databasePath, environment: environment)
            let started = Date()
            let end = started.addingTimeInterval(deadline)
            // Sampled when the fake sees the first poll (or the webhook set), where releases begin.
            var atFirstRelease: (cpu: Double, switches: Int, counting: SyscallCount?)?
            while Date() < end {
                if atFirstRelease == nil, let firstPoll = telegram.state.withLock({ $0.firstPoll }) {
                    if Date() < firstPoll.addingTimeInterval(lead) {
                        try await Task.sleep(for: .milliseconds(2))
                        continue
                    }
                    let pid = process.processIdentifier
                    atFirstRelease = (Memory.cpuSeconds(pid: pid) ?? 0, Memory.contextSwitches(pid: pid), SyscallCount(pid: pid))
                }
                if ledger.replies >= expected { finished = true; break }
                if !process.isRunning {
                    FileHandle.standardError.write(Data("the worker exited before every update was answered\n".utf8))
                    break
                }
                if intake == .webhook && !telegram.state.withLock({ $0.webhookEverSet }) && Date().timeIntervalSince(started) > 30 {
                    FileHandle.standardError.write(Data("the worker set no webhook within 30 s: it does not take updates by webhook\n".utf8))
                    break
                }
                peakRSS = max(peakRSS, Memory.peakMegabytes(pid: process.processIdentifier) ?? 0)
                try await Task.sleep(for: .milliseconds(50))
            }
            peakRSS = max(peakRSS, Memory.peakMegabytes(pid: process.processIdentifier) ?? 0)
            cpu = Memory.cpuSeconds(pid: process.processIdentifier) ?? 0
            if let atFirstRelease {
                let syscalls = await atFirstRelease.counting?.stop()
                fromFirstRelease = Spent(
                    cpu: cpu - atFirstRelease.cpu, contextSwitches: Memory.contextSwitches(pid: process.processIdentifier) - atFirstRelease.switches,
                    syncs: syscalls.map { $0.syncs }, writes: syscalls.map { $0.writes }, futexes: syscalls.map { $0.futexes },
                    locks: syscalls.map { $0.locks })
            }
            openWeatherRequests = weather.requests
            serverCPU = serverCPUBefore.map { Memory.cpuSeconds(ofProcessesNamed: "postgres") - $0 }
            (first, last) = ledger.window
            // More replies than the mix sends means the mix's count is out of date and the run
            // stopped early: a failure, not a pass.
            try await Task.sleep(for: .milliseconds(300))
            replies = ledger.replies
            if replies != expected {
                finished = false
                if keep {
                    let short = ledger.unanswered
                    FileHandle.standardError.write(Data("unanswered chats (\(short.count)) on \(database?.url ?? "SQLite"): \(short.prefix(20))\n".utf8))
                }
            }
            latencies = ledger.latencies
            photos = ledger.photos
            await telegram.stopPosting()
            if intake == .webhook { webhookPosts = telegram.state.withLock { $0.webhookPosts } }
            // The peer does not stop on SIGTERM while a long poll is open: it is killed after a few seconds.
            await Worker.stop(process, timeout: launch == nil ? 20 : 3)
            try await Task.sleep(for: .milliseconds(1200))
            await telegram.shutdown()
            await weather.shutdown()
            if let database, !keep { await database.drop() }
        }
    }
}
