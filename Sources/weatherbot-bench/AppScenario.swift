import BotClock
import Foundation
import HTTPTransport
import WeatherBot
import WeatherBotHTTP
import WeatherBotSQLite
import WeatherBotStore
import WeatherBotTesting

/// The Mini App through the weatherbot executable, served by its own HTTP server (`MINI_APP_URL`
/// and `HTTP_LISTEN` on loopback), on the real clock:
/// - **page**: `/app`, `app/app.js` and `app/app.css` as served, asked with `Accept-Encoding:
///   gzip`: their bytes (under 100 KB in all), and whether they came compressed;
/// - **quiet**: 50 chats, each with a city and two favorites (30 place cells of their own), read
///   their weather and favorites screens with initData signed for each, every screen twice to
///   warm the caches; then 20 screens a second for 20 s (5 s in a quick run), the two screens in
///   turn: p50 and p99 of each, answers that are not 200 or are a failure screen (0), the
///   OpenWeather requests for the app's places (0: the app is answered from the caches), and the
///   worker's CPU per answer, its idle work included;
/// - **during a broadcast**: the same while 25,000 daily forecasts (10,000 quick) in places of
///   their own, due at once, go out at 1,000 a second: the app is not stuck behind the outbox.
struct AppScenario {
    var quick: Bool
    var executable: String

    /// App users; chat ids far from the broadcast's.
    static let users = 50
    static let firstUser: Int64 = 10_000_001
    /// Screens a second, the two in turn.
    static let rate = 20.0
    /// The broadcast's pace, Telegram's paid limit.
    static let broadcastRate = 1_000.0
    /// The page's weight allowed, in bytes (the issue's «under 100 KB»).
    static let pageLimit = 100_000

    /// The app's places: the users' cities in cells 1000…1009, their favorites in 1010…1029 (from
    /// 60° N, clear of the broadcast's cells, which lie below 45° N).
    static func city(of user: Int) -> Place { Seed.cellPlace(1_000 + user % 10) }
    static func favorites(of user: Int) -> [Place] { [Seed.cellPlace(1_010 + user % 10), Seed.cellPlace(1_020 + user % 10)] }

    /// One screen read: which, its latency, and whether it was the screen.
    struct Answer {
        var screen: String
        var seconds: Double
        var good: Bool
    }

    func run() async throws -> [Result] {
        let window = quick ? 5.0 : 20.0
        let subscribers = Int(Self.broadcastRate * (window + 5))
        let cells = quick ? 25 : 100
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path

        // The app's chats, and a broadcast due once the quiet window is over: the scheduler looks
        // every 20 s, and the broadcast is timed from its first message.
        let database = try BotDatabase.open(path: path)
        let chats = (0..<Self.users).map { user in
            ChatRecord(id: Self.firstUser + Int64(user), language: .ru, state: .idle, currentPlace: Self.city(of: user))
        }
        try await database.insert(chats: chats)
        try await Seed.favorites(chats.enumerated().map { ($1, Self.favorites(of: $0)) }, in: database)
        try await Seed.dailyForecastsDue(
            chats: 1...Int64(subscribers), cells: cells, at: Date().addingTimeInterval(window + 10), in: database)
        try database.close()

        let ledger = ReplyLedger(updates: [], firstID: 1)
        let telegram = try await FakeTelegram.bench(ledger, limits: SendingLimits(perWindow: Int(Self.broadcastRate), perChatPerWindow: 1))
        let weather = try await FakeOpenWeather(recording: false, logging: true)
        let port = try await LoopbackServer.freePort()
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let worker = try Worker.start(
            executable, telegram: telegram.url, weather: weather.url, databasePath: path,
            environment: [
                "HTTP_LISTEN": "127.0.0.1:\(port)", "MINI_APP_URL": server.appendingPathComponent("app").absoluteString,
                "TELEGRAM_MESSAGES_PER_SECOND": String(Self.broadcastRate), "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": "1",
            ])
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        let transport = NIOHTTPTransport()
        // The server listens once the bot has started.
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(30) {
            if let page = try? await transport.send(TransportRequest(url: server.appendingPathComponent("app"))), page.status == 200 { break }
            try await Task.sleep(for: .milliseconds(50))
        }

        // The page as Telegram's browser loads it.
        var weights: [(name: String, bytes: Int, encoding: String?)] = []
        for asset in ["app", "app/app.js", "app/app.css"] {
            let answer = try await transport.send(TransportRequest(url: server.appendingPathComponent(asset), headers: ["Accept-Encoding": "gzip"]))
            let encoding = answer.headers.first { $0.key.lowercased() == "content-encoding" }?.value
            weights.append((asset, answer.status == 200 ? answer.body.count : 0, encoding))
        }

        // Each user's screens read twice: every report and air reading is in the caches.
        let initData = (0..<Self.users).map { user in
            MiniAppAuthenticator.sign(user: (Self.firstUser + Int64(user), "Анна", "ru"), authDate: Date(), botToken: FakeTelegram.token)
        }
        for _ in 1...2 {
            _ = await read(server, transport: transport, count: Self.users * 2, interval: 0.005, initData: initData)
        }
        try await Task.sleep(for: .seconds(1))

        // Quiet: nothing else to do.
        var callsBefore = weather.log.count
        let warmingCalls = appCalls(weather.log[...])
        let quietSent = ledger.replies
        let cpuBefore = Memory.cpuSeconds(pid: worker.processIdentifier) ?? 0
        let quiet = await read(server, transport: transport, count: Int(window * Self.rate), interval: 1 / Self.rate, initData: initData)
        let cpuQuiet = (Memory.cpuSeconds(pid: worker.processIdentifier) ?? 0) - cpuBefore
        let quietCalls = appCalls(weather.log[callsBefore...])
        let sentInQuiet = ledger.replies - quietSent

        // During the broadcast: from its first message, once it is under way.
        let waited = ContinuousClock.now
        while ledger.replies == 0 && ContinuousClock.now - waited < .seconds(60) { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .seconds(1))
        callsBefore = weather.log.count
        let broadcastBefore = ledger.replies
        let busy = await read(server, transport: transport, count: Int(window * Self.rate), interval: 1 / Self.rate, initData: initData)
        let broadcastAfter = ledger.replies
        let busyCalls = appCalls(weather.log[callsBefore...])

        try? await transport.shutdown()
        await Worker.stop(worker, timeout: 5)
        await telegram.shutdown()
        await weather.shutdown()

        let total = weights.reduce(0) { $0 + $1.bytes }
        func kilobytes(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1000) }
        let encodings = Set(weights.map { $0.encoding ?? "none" }).sorted().joined(separator: ", ")
        var results = weights.map { asset in
            Result(scenario: "app (page)", figure: "/\(asset.name) as served", value: kilobytes(asset.bytes), target: "", passed: nil)
        }
        results += [
            Result(
                scenario: "app (page)", figure: "in all (Content-Encoding: \(encodings))", value: kilobytes(total),
                target: "< \(kilobytes(Self.pageLimit))", passed: total > 0 && total < Self.pageLimit),
        ]
        results += figures("app (quiet)", quiet, calls: quietCalls, window: window)
        results += [
            // The caches were cold before: the count of requests above is of the right places.
            Result(
                scenario: "app (quiet)", figure: "OpenWeather requests for them while warming", value: "\(warmingCalls)", target: "",
                passed: nil),
            Result(
                scenario: "app (quiet)", figure: "CPU per answer (worker)", value: String(format: "%.2f ms", cpuQuiet / Double(quiet.count) * 1000),
                target: "", passed: nil),
            Result(scenario: "app (quiet)", figure: "forecasts sent meanwhile", value: "\(sentInQuiet)", target: "0", passed: sentInQuiet == 0),
        ]
        results += figures("app (broadcast)", busy, calls: busyCalls, window: window)
        // The broadcast ran through the window: begun before it, not all sent by its end.
        let throughout = broadcastBefore > 0 && broadcastAfter < subscribers
        results.append(
            Result(
                scenario: "app (broadcast)",
                figure: "forecasts sent in the window (\(subscribers / 1000)k due at once, \(Int(Self.broadcastRate))/s)",
                value: "\(broadcastAfter - broadcastBefore), \(broadcastAfter) of \(subscribers) by its end", target: "throughout",
                passed: throughout))
        return results
    }

    /// `count` screens read, one each `interval` seconds whatever the answers before it, the
    /// weather and favorites screens in turn, user after user.
    private func read(_ server: URL, transport: NIOHTTPTransport, count: Int, interval: Double, initData: [String]) async -> [Answer] {
        let screens = ["weather", "favorites"]
        let start = ContinuousClock.now
        return await withTaskGroup(of: Answer.self) { group in
            for index in 0..<count {
                let screen = screens[index % 2]
                let user = (index / 2) % initData.count
                let request = TransportRequest(
                    url: server.appendingPathComponent("app/api/screen/\(screen)"), headers: ["Authorization": "tma \(initData[user])"])
                try? await Task.sleep(until: start + .seconds(interval * Double(index)))
                group.addTask {
                    let sent = ContinuousClock.now
                    let answer = try? await transport.send(request)
                    let good = answer.map { $0.status == 200 && !String(decoding: $0.body, as: UTF8.self).contains("class=\"failure\"") } ?? false
                    return Answer(screen: screen, seconds: (ContinuousClock.now - sent).timeInterval, good: good)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The requests OpenWeather got for the app's places, of any endpoint.
    private func appCalls(_ calls: ArraySlice<FakeOpenWeather.Call>) -> Int {
        let places = (0..<Self.users).flatMap { [Self.city(of: $0)] + Self.favorites(of: $0) }
        return calls.filter { call in
            guard let latitude = call.query["lat"].flatMap(Double.init), let longitude = call.query["lon"].flatMap(Double.init) else { return false }
            return places.contains { abs($0.latitude - latitude) < 0.01 && abs($0.longitude - longitude) < 0.01 }
        }.count
    }

    private func figures(_ scenario: String, _ answers: [Answer], calls: Int, window: Double) -> [Result] {
        // In milliseconds always, for --compare's ratios.
        func p(_ q: Double, _ screen: String) -> String {
            let seconds = BroadcastChatScenario.percentile(q, of: answers.filter { $0.screen == screen }.map(\.seconds))
            return seconds.map { String(format: "%.2f ms", $0 * 1000) } ?? "?"
        }
        let failed = answers.filter { !$0.good }.count
        return [
            Result(scenario: scenario, figure: "p50 weather screen", value: p(0.5, "weather"), target: "", passed: nil),
            Result(scenario: scenario, figure: "p99 weather screen", value: p(0.99, "weather"), target: "", passed: nil),
            Result(scenario: scenario, figure: "p50 favorites screen", value: p(0.5, "favorites"), target: "", passed: nil),
            Result(scenario: scenario, figure: "p99 favorites screen", value: p(0.99, "favorites"), target: "", passed: nil),
            Result(
                scenario: scenario, figure: "answers not 200 or a failure screen",
                value: "\(failed) of \(answers.count) (\(Int(Self.rate))/s for \(Int(window)) s)", target: "0", passed: failed == 0),
            Result(scenario: scenario, figure: "OpenWeather requests for the app's places", value: "\(calls)", target: "0", passed: calls == 0),
        ]
    }
}
