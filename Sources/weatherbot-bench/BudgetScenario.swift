import Foundation
import OpenWeather
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// OpenWeather's call budget (#33) on a busy morning, through the weatherbot executable with a
/// budget of 60 calls a minute and 10 a minute per chat, against an OpenWeather that answers 429
/// beyond 60 requests in any 60 seconds. All at once, on the real clock:
/// - 1,000 chats with a daily forecast due at the same minute (20 minutes after the start), in
///   500 places two chats each, one Russian and one English: at the 30 calls a minute work due
///   soon is sure of while people ask (48 when they do not), the places take up to 17 minutes
///   to fetch, so a bot that fetches them ahead can send every forecast on its minute;
/// - 200 chats talking over the whole run, each one step a minute, their first steps spread over
///   four minutes: a shared location and «✅ Да» on the question it brings, then /weather, /fav and
///   searches from four repeated names, so that once warmed most answers need no new fetch; each
///   step waits for the answer to the one before, as a person does;
/// - one chat sending 2,000 distinct made-up names in 20 s, 30 s after the talking began.
///
/// Every figure comes from what the fakes recorded: OpenWeather's requests with their times and
/// queries (429s, 60-second windows, calls per endpoint, the flooding chat's geocoding), and the
/// fake Telegram's transcript with each reply's time (forecasts, answers and their texts). A
/// talking chat's step needed no new fetch when no request for its place (its reverse geocoding,
/// its name, its weather) reached OpenWeather between the update handed out and its answer.
///
/// A second part asks the same places in both languages: 50 places whose city is one Russian and
/// one English chat's, each asking /weather in turn, slowly enough that even a call per language
/// would stay within the minute's budget; the weather calls at those places are counted.
///
/// A third part spends a day's budget: with 150 calls a UTC day, one chat types a made-up name
/// every two seconds for the whole run (eight minutes), 30 other chats each search a place of
/// their own over the run, and 20 daily forecasts (10 places) fall due halfway. The flooder's
/// calls are held to its share of the day (a twentieth, at least 10), so every other chat gets its
/// card and every forecast comes; without the share the flood alone would spend people's part.
///
/// A quick run: 100 places and 200 forecasts due in 4 minutes, 40 talking chats, a flood of 400
/// names, 20 places in the second part, a day's part of four minutes.
struct BudgetScenario {
    var quick: Bool
    var executable: String
    /// Minutes from the start until the daily forecasts are due (to the whole minute); nil: the
    /// load's own.
    var dueIn: Double? = nil

    /// The bot's budget, and OpenWeather's own limit.
    static let perMinute = 60
    static let perChat = 10
    /// The share of every minute daily forecasts may use (four fifths of it).
    static let dailyPerMinute = 48.0
    static let flooder: Int64 = 20_000_001
    static let firstMixChat: Int64 = 30_000_001
    /// The names the talking chats search: three cities of one place each and one of two.
    static let names = ["Казань", "Уфа", "Саранск", "Париж"]
    /// How long a talking chat waits for an answer before it moves on.
    static let patience: Double = 30

    /// The sizes of a run.
    struct Load {
        var cells: Int
        var dueIn: Double
        var talkers: Int
        /// Seconds between a talking chat's steps, and over which their first steps are spread.
        var period: Double
        var ramp: Double
        var floodNames: Int
        var floodSeconds: Double
        var floodAfter: Double
        var mixPlaces: Int
        /// Minutes the day's part lasts.
        var dayMinutes: Double

        static let full = Load(
            cells: 500, dueIn: 20, talkers: 200, period: 60, ramp: 240, floodNames: 2_000, floodSeconds: 20, floodAfter: 30, mixPlaces: 50,
            dayMinutes: 8)
        static let quick = Load(
            cells: 100, dueIn: 4, talkers: 40, period: 30, ramp: 60, floodNames: 400, floodSeconds: 20, floodAfter: 20, mixPlaces: 20,
            dayMinutes: 4)
    }

    static var environment: [String: String] {
        ["OPEN_WEATHER_CALLS_PER_MINUTE": String(perMinute), "OPEN_WEATHER_CALLS_PER_CHAT_PER_MINUTE": String(perChat)]
    }

    func run() async throws -> [Result] {
        var load = quick ? Load.quick : Load.full
        if let dueIn { load.dueIn = dueIn }
        return try await morning(load) + languageMix(places: load.mixPlaces) + day(minutes: load.dayMinutes)
    }

    // MARK: The morning

    private func morning(_ load: Load) async throws -> [Result] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        let started = Date()
        let due = Date(timeIntervalSince1970: ((started.timeIntervalSince1970 + load.dueIn * 60) / 60).rounded() * 60)
        let forecastChats = 1...Int64(2 * load.cells)
        do {
            let database = try BotDatabase.open(path: path)
            try await Seed.dailyForecasts(chats: forecastChats, due: due, in: database)
            let moscow = Place(name: "Moscow", localNames: ["ru": "Москва"], country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
            try await Seed.chats([(Self.flooder, .ru, moscow)], in: database)
        }

        let ledger = BudgetLedger()
        let telegram = try await FakeTelegram(recording: true, observer: ledger)
        let weather = try await FakeOpenWeather(recording: false, perMinute: Self.perMinute, logging: true)
        let process = try Worker.start(executable, telegram: telegram.url, weather: weather.url, databasePath: path, environment: Self.environment)

        var origin: Date?
        while origin == nil && Date().timeIntervalSince(started) < 60 {
            try await Task.sleep(for: .milliseconds(50))
            origin = telegram.state.withLock { $0.firstPoll }
        }
        guard let origin else {
            await Worker.stop(process)
            await telegram.shutdown()
            await weather.shutdown()
            return [Result(scenario: "budget", figure: "first poll", value: "none in 60 s", target: "", passed: false)]
        }
        var talk = Talk(load: load, origin: origin, forecastChats: forecastChats)
        // Long enough for a bot that fetches only at the minute, at the forecasts' share of it.
        let deadline = due.addingTimeInterval((Double(load.cells) / Self.dailyPerMinute + 3) * 60)
        while process.isRunning {
            let now = Date()
            talk.collect(ledger, telegram)
            if now >= deadline || (talk.forecasts.count == forecastChats.count && now >= due.addingTimeInterval(60)) { break }
            talk.act(at: now, telegram)
            try await Task.sleep(for: .milliseconds(100))
        }
        let ended = Date()
        // The last steps' answers.
        while Date().timeIntervalSince(ended) < 10 && talk.waiting {
            try await Task.sleep(for: .milliseconds(100))
            talk.collect(ledger, telegram)
        }
        await Worker.stop(process)
        talk.collect(ledger, telegram)
        for index in talk.steps.indices { talk.steps[index].handedOut = ledger.handedOut(id: talk.steps[index].updateID) }
        let log = weather.log
        let refused = weather.tooManyRequests
        // WEATHERBOT_BENCH_LOG=folder keeps every step and every OpenWeather request, in seconds
        // from the first poll, for a tail that needs explaining.
        if let folder = ProcessInfo.processInfo.environment["WEATHERBOT_BENCH_LOG"] {
            Self.keep(talk.steps, log: log, origin: origin, due: due, in: folder)
        }
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()
        await weather.shutdown()

        let minutes = ended.timeIntervalSince(started) / 60
        return [Result(scenario: "budget", figure: "run", value: String(format: "%.1f min, forecasts due %.1f min in", minutes, due.timeIntervalSince(started) / 60), target: "", passed: nil)]
            + budgetFigures(log, refused: refused)
            + forecastFigures(talk.forecasts, count: forecastChats.count, due: due)
            + talkFigures(talk.steps, log: log, load: load)
            + floodFigures(talk, log: log, load: load)
            + endpointFigures(log, load: load)
    }

    /// 429s, and the 60-second windows that held more requests than the minute's budget.
    private func budgetFigures(_ log: [FakeOpenWeather.Call], refused: Int) -> [Result] {
        let windows = Self.windows(log.map(\.at), over: Self.perMinute)
        return [
            Result(scenario: "budget", figure: "OpenWeather requests answered 429", value: "\(refused)", target: "0", passed: refused == 0),
            Result(
                scenario: "budget", figure: "minutes over budget (60 s windows with > \(Self.perMinute) requests)",
                value: "\(windows.over) (most in any 60 s: \(windows.most))", target: "0", passed: windows.over == 0),
        ]
    }

    private func forecastFigures(_ arrived: [Int64: Date], count: Int, due: Date) -> [Result] {
        let lateness = arrived.values.map { $0.timeIntervalSince(due) }.sorted()
        let last = lateness.last
        let all = arrived.count == count
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.0f s", $0) } ?? "none" }
        return [
            Result(scenario: "budget", figure: "daily forecasts delivered", value: "\(arrived.count) of \(count)", target: "all", passed: all),
            Result(
                scenario: "budget", figure: "  the last one after its minute", value: all ? seconds(last) : "\(seconds(last)) (not all came)",
                target: "≤ 60 s", passed: all && (last ?? .infinity) <= 60),
            Result(
                scenario: "budget", figure: "  p50 after its minute", value: seconds(BroadcastChatScenario.percentile(0.5, of: lateness)), target: "",
                passed: nil),
        ]
    }

    private func talkFigures(_ steps: [Talk.Step], log: [FakeOpenWeather.Call], load: Load) -> [Result] {
        let answered = steps.filter { $0.outcome == .answered }
        let counts = Dictionary(grouping: steps, by: \.outcome).mapValues(\.count)
        let (warm, fetching) = answered.reduce(into: ([Double?](), [Double?]())) { split, step in
            if step.neededFetch(log) { split.1.append(step.latency) } else { split.0.append(step.latency) }
        }
        let p99 = BroadcastChatScenario.percentile(0.99, of: warm)
        let wrongOrMissing = (counts[.wrong] ?? 0) + (counts[.missing] ?? 0)
        let describe = BroadcastChatScenario.describe
        return [
            Result(
                scenario: "budget", figure: "\(load.talkers) chats talking, a step each \(Int(load.period)) s: steps",
                value: "\(steps.count), \(answered.count) answered as asked", target: "", passed: nil),
            Result(
                scenario: "budget", figure: "  deferred (the bot's refusals: busy, too many)", value: "\(counts[.deferred] ?? 0)", target: "",
                passed: nil),
            Result(
                scenario: "budget", figure: "  wrong / missing", value: "\(counts[.wrong] ?? 0) / \(counts[.missing] ?? 0)", target: "0",
                passed: wrongOrMissing == 0),
            Result(
                scenario: "budget", figure: "  p99 of answers needing no new fetch (\(warm.count))", value: describe(p99), target: "≤ 1 s",
                passed: !warm.isEmpty && (p99 ?? .infinity) <= 1),
            Result(
                scenario: "budget", figure: "  p50 of those", value: describe(BroadcastChatScenario.percentile(0.5, of: warm)), target: "",
                passed: nil),
            Result(
                scenario: "budget", figure: "  answered with older weather, its age shown (no slot for a fresh fetch)",
                value: "\(answered.filter { $0.answer?.text.contains("⏱") == true }.count)", target: "", passed: nil),
            Result(
                scenario: "budget", figure: "  p50 / p99 of answers that waited for a fetch (\(fetching.count))",
                value: "\(describe(BroadcastChatScenario.percentile(0.5, of: fetching))) / \(describe(BroadcastChatScenario.percentile(0.99, of: fetching)))",
                target: "", passed: nil),
        ]
    }

    private func floodFigures(_ talk: Talk, log: [FakeOpenWeather.Call], load: Load) -> [Result] {
        let names = Set((0..<load.floodNames).map(Self.floodName))
        let calls = log.filter { $0.path == Self.geocode && names.contains($0.query["q"] ?? "") }.map(\.at)
        let most = Self.windows(calls, over: Self.perChat).most
        let notices = talk.toFlooder.filter { BotTexts.says($0.text, BotTexts.slowDown) }.count
        return [
            Result(
                scenario: "budget", figure: "one chat, \(load.floodNames) names in \(Int(load.floodSeconds)) s: its calls in any 60 s",
                value: "\(most) (\(calls.count) in all)", target: "≤ \(Self.perChat)", passed: most <= Self.perChat),
            Result(
                scenario: "budget", figure: "  messages it was sent", value: "\(talk.toFlooder.count), \(notices) of them to slow down", target: "",
                passed: nil),
        ]
    }

    private func endpointFigures(_ log: [FakeOpenWeather.Call], load: Load) -> [Result] {
        let cells = (0..<load.cells).map(Seed.cellPlace)
        let weather = log.filter { Self.weatherPaths.contains($0.path) }
        let atCells = weather.filter { call in cells.contains { Self.near(call, $0.latitude, $0.longitude) } }.count
        let geocode = log.filter { $0.path == Self.geocode }.count
        let reverse = log.filter { $0.path == Self.reverse }.count
        return [
            Result(
                scenario: "budget", figure: "OpenWeather requests: geocode, reverse, onecall/forecast",
                value: "\(geocode), \(reverse), \(weather.count) (\(atCells) at the forecasts' \(load.cells) places)", target: "", passed: nil)
        ]
    }

    /// Writes `budget-steps.tsv` (a talking chat's step a line: when sent, handed out and
    /// answered, whether it needed a fetch, its answer's first words) and `budget-openweather.tsv`
    /// (a request a line) into `folder`, times in seconds from `origin`.
    private static func keep(_ steps: [Talk.Step], log: [FakeOpenWeather.Call], origin: Date, due: Date, in folder: String) {
        func at(_ date: Date?) -> String { date.map { String(format: "%.3f", $0.timeIntervalSince(origin)) } ?? "-" }
        var lines = ["# due at \(at(due))", "chat\tkind\tsent\thanded\tanswered\tlatency\tfetch\toutcome\tanswer"]
        for step in steps {
            let answer = step.answer.map { String($0.text.prefix(40)).replacingOccurrences(of: "\n", with: " ") } ?? "-"
            lines.append(
                [
                    "\(step.chat)", "\(step.kind)", at(step.sentAt), at(step.handedOut), at(step.answer?.at),
                    step.latency.map { String(format: "%.3f", $0) } ?? "-", step.neededFetch(log) ? "yes" : "no", "\(step.outcome)", answer,
                ].joined(separator: "\t"))
        }
        try? lines.joined(separator: "\n").write(toFile: "\(folder)/budget-steps.tsv", atomically: true, encoding: .utf8)
        let calls = log.map { call in
            [at(call.at), call.path, "\(call.status)", call.query.filter { $0.key != "appid" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")]
                .joined(separator: "\t")
        }
        try? calls.joined(separator: "\n").write(toFile: "\(folder)/budget-openweather.tsv", atomically: true, encoding: .utf8)
    }

    // MARK: The same places in both languages

    private func languageMix(places count: Int) async throws -> [Result] {
        let places = (0..<count).map { Seed.cellPlace(1_000 + $0) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        let chats = places.enumerated().flatMap { index, place in
            [
                (id: Self.firstMixChat + Int64(2 * index), language: Language.ru, city: place),
                (id: Self.firstMixChat + Int64(2 * index + 1), language: Language.en, city: place),
            ]
        }
        try await Seed.chats(chats, in: BotDatabase.open(path: path))

        // A place's Russian chat asks, then its English one; one call a second and a quarter at
        // most, within the minute's budget even with a call per language.
        let interval = 1.25
        let updates = try chats.enumerated().map { index, chat in
            var update = PreparedUpdate(
                data: try Self.update(["text": "/weather"], chat: chat.id, language: chat.language.rawValue, id: 1 + index), chat: chat.id, replies: 1)
            update.releaseAfter = Double(index) * interval
            return update
        }
        let ledger = ReplyLedger(updates: updates, firstID: 1)
        let telegram = try await FakeTelegram.bench(ledger, release: .init(interval: interval, start: .firstPoll))
        let weather = try await FakeOpenWeather(recording: false, perMinute: Self.perMinute, logging: true)
        let process = try Worker.start(executable, telegram: telegram.url, weather: weather.url, databasePath: path, environment: Self.environment)
        _ = try await telegram.runRelease(for: Double(updates.count) * interval, grace: 15) { !ledger.answeredAt.contains(nil) }
        let answered = ledger.answeredAt.compactMap { $0 }.count
        await Worker.stop(process)
        let calls = weather.log.filter { call in Self.weatherPaths.contains(call.path) && places.contains { Self.near(call, $0.latitude, $0.longitude) } }
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()
        await weather.shutdown()

        return [
            Result(
                scenario: "budget", figure: "calls per language mix: \(count) places, /weather from a ru and an en chat each: answered",
                value: "\(answered) of \(updates.count)", target: "all", passed: answered == updates.count),
            Result(
                scenario: "budget", figure: "  weather calls (one per place: \(count), per language: \(2 * count))", value: "\(calls.count)",
                target: "≤ \(count)", passed: calls.count <= count),
        ]
    }

    // MARK: A day's budget

    /// The day's budget of the third part, the other chats searching, and the forecasts due.
    static let perDay = 150
    static let dayOthers = 30
    static let dayForecasts = 20

    private func day(minutes: Double) async throws -> [Result] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        let started = Date()
        let due = Date(timeIntervalSince1970: ((started.timeIntervalSince1970 + minutes * 30) / 60).rounded(.up) * 60)
        let forecastChats = 1...Int64(Self.dayForecasts)
        do {
            let database = try BotDatabase.open(path: path)
            try await Seed.dailyForecasts(chats: forecastChats, due: due, in: database)
            let moscow = Place(name: "Moscow", localNames: ["ru": "Москва"], country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
            try await Seed.chats([(Self.flooder, .ru, moscow)], in: database)
        }
        let telegram = try await FakeTelegram(recording: true)
        let weather = try await FakeOpenWeather(recording: false, perMinute: Self.perMinute, logging: true)
        var environment = Self.environment
        environment["OPEN_WEATHER_CALLS_PER_DAY"] = String(Self.perDay)
        let process = try Worker.start(executable, telegram: telegram.url, weather: weather.url, databasePath: path, environment: environment)

        // The others' searches spread over the first four fifths of the run; the flood all along.
        let others = (0..<Self.dayOthers).map { Self.firstMixChat + 10_000 + Int64($0) }
        let end = started.addingTimeInterval(minutes * 60)
        var floodNames: Set<String> = []
        var asked = 0
        while process.isRunning && Date() < end {
            let now = Date()
            let name = Self.floodName(floodNames.count)
            if Double(floodNames.count) * 2 <= now.timeIntervalSince(started) {
                telegram.sendText(name, from: Self.flooder)
                floodNames.insert(name)
            }
            while asked < others.count && Double(asked) * minutes * 48 / Double(others.count) <= now.timeIntervalSince(started) {
                // «Place N» of the fake's geocoder: a place of its own for each.
                telegram.sendText("/search Place \(asked + 1)", from: others[asked], language: asked.isMultiple(of: 2) ? "ru" : "en")
                asked += 1
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .seconds(15))
        await Worker.stop(process)
        let sent = telegram.state.withLock { $0.sent }
        let log = weather.log
        try await Task.sleep(for: .milliseconds(1200))
        await telegram.shutdown()
        await weather.shutdown()

        let share = CallBudget.Limits(perDay: Self.perDay).perChatDay
        let flooderCalls = log.filter { $0.path == Self.geocode && floodNames.contains($0.query["q"] ?? "") }.count
        let told = sent.filter { $0.chatID == Self.flooder && BotTexts.says($0.text, BotTexts.chatDaySpent) }.count
        let answered = others.filter { chat in sent.contains { $0.chatID == chat && BotTexts.says($0.text, BotTexts.card) } }.count
        let refused = others.filter { chat in sent.contains { $0.chatID == chat && BotTexts.says($0.text, BotTexts.refusals) } }.count
        let forecasts = Set(sent.filter { forecastChats.contains($0.chatID) && BotTexts.says($0.text, BotTexts.dailyForecast) }.map(\.chatID)).count
        return [
            Result(
                scenario: "budget", figure: "a day of \(Self.perDay) calls, one chat typing a name every 2 s for \(Int(minutes)) min: its calls",
                value: "\(flooderCalls) of \(floodNames.count) names", target: "≤ \(share) (its share)", passed: flooderCalls <= share),
            Result(scenario: "budget", figure: "  told its share is spent", value: "\(told) time(s)", target: "1", passed: told == 1),
            Result(
                scenario: "budget", figure: "  \(others.count) other chats searching a place each: cards", value: "\(answered), \(refused) refused",
                target: "all", passed: answered == others.count),
            Result(
                scenario: "budget", figure: "  daily forecasts delivered", value: "\(forecasts) of \(forecastChats.count)", target: "all",
                passed: forecasts == forecastChats.count),
            Result(scenario: "budget", figure: "  OpenWeather calls in all", value: "\(log.count)", target: "≤ \(Self.perDay)", passed: log.count <= Self.perDay),
        ]
    }

    // MARK: Reading OpenWeather's log

    static let geocode = "/geo/1.0/direct"
    static let reverse = "/geo/1.0/reverse"
    static let weatherPaths: Set<String> = ["/data/3.0/onecall", "/data/2.5/forecast", "/data/2.5/weather"]

    /// Whether a request was for the point (latitude, longitude), to the weather cache's cell.
    static func near(_ call: FakeOpenWeather.Call, _ latitude: Double, _ longitude: Double) -> Bool {
        guard let lat = call.query["lat"].flatMap(Double.init), let lon = call.query["lon"].flatMap(Double.init) else { return false }
        return PlaceCell(latitude: lat, longitude: lon) == PlaceCell(latitude: latitude, longitude: longitude)
    }

    /// Over times in any order: the 60-second windows holding more than `limit` of them, counted
    /// apart (a window from each time; one found over, the next looked for from its end), and the
    /// most any 60 seconds held.
    static func windows(_ times: [Date], over limit: Int) -> (over: Int, most: Int) {
        let sorted = times.sorted()
        var over = 0, most = 0, end = 0
        var clearUntil = Date.distantPast
        for (start, time) in sorted.enumerated() {
            while end < sorted.count && sorted[end].timeIntervalSince(time) < 60 { end += 1 }
            most = max(most, end - start)
            if end - start > limit && time >= clearUntil {
                over += 1
                clearUntil = time.addingTimeInterval(60)
            }
        }
        return (over, most)
    }

    /// Name number `n` of the flood: made up of three syllables and an ending, each one distinct.
    static func floodName(_ n: Int) -> String {
        let syllables = ["ба", "ве", "го", "ду", "жи", "зо", "ки", "лу", "ма", "не", "по", "ру", "со", "ти", "фа", "хе"]
        let endings = ["ск", "бург", "во", "град"]
        let stem = syllables[n / 256 % 16] + syllables[n / 16 % 16] + syllables[n % 16]
        return stem.prefix(1).uppercased() + stem.dropFirst() + endings[n % 4]
    }

    /// An update of a private chat's user writing `content` (a text, a location).
    static func update(_ content: [String: Any], chat: Int64, language: String, id: Int) throws -> Data {
        let user: [String: Any] = ["id": Int(chat), "is_bot": false, "first_name": "B", "language_code": language]
        let message: [String: Any] = ["message_id": Int.random(in: 1...1_000_000), "date": 1_795_000_000, "chat": ["id": Int(chat), "type": "private"], "from": user]
        return try JSONSerialization.data(withJSONObject: ["update_id": id, "message": message.merging(content) { $1 }])
    }

    /// A press of the button with `data` on message `messageID`.
    static func press(_ data: String, on messageID: Int, chat: Int64, language: String, id: Int) throws -> Data {
        let user: [String: Any] = ["id": Int(chat), "is_bot": false, "first_name": "B", "language_code": language]
        let message: [String: Any] = ["message_id": messageID, "date": 1_795_000_000, "chat": ["id": Int(chat), "type": "private"], "text": "…"]
        let query: [String: Any] = ["id": "\(chat):\(id)", "from": user, "chat_instance": "b", "data": data, "message": message]
        return try JSONSerialization.data(withJSONObject: ["update_id": id, "callback_query": query])
    }
}

extension BudgetScenario {
    /// The talking chats, the flood and what came back to everyone, while the run lasts.
    struct Talk {
        /// One update of a talking chat, and what answered it.
        struct Step {
            enum Kind: Equatable {
                case location(latitude: Double, longitude: Double)
                case confirm, weather, favorites
                case name(String)
            }

            enum Outcome { case answered, deferred, wrong, missing }

            var chat: Int64
            var kind: Kind
            var updateID: Int
            var sentAt: Date
            var handedOut: Date?
            /// The reply that answered it: what was asked, or a refusal.
            var answer: SeenReply?
            var deferred = false
            /// Messages to its chat while it was the chat's latest step.
            var messages = 0

            var outcome: Outcome {
                if answer != nil { return deferred ? .deferred : .answered }
                return messages > 0 ? .wrong : .missing
            }

            /// From the update handed out to its answer.
            var latency: Double? { answer.map { $0.at.timeIntervalSince(handedOut ?? sentAt) } }

            /// Whether OpenWeather got a request for what it asks between the update handed out and
            /// its answer (or the end).
            func neededFetch(_ log: [FakeOpenWeather.Call]) -> Bool {
                let from = handedOut ?? sentAt
                let to = answer?.at ?? .distantFuture
                return log.contains { call in call.at >= from && call.at <= to && concerns(call) }
            }

            private func concerns(_ call: FakeOpenWeather.Call) -> Bool {
                switch kind {
                case .location(let latitude, let longitude):
                    return call.path == BudgetScenario.reverse && BudgetScenario.near(call, latitude, longitude)
                case .confirm, .weather, .favorites:
                    // The chat's city: the point it shared, named Saransk by the fake's reverse
                    // geocoding (the bot keeps the point; the town's centre is matched as well).
                    let point = Talk.point(of: chat)
                    return BudgetScenario.weatherPaths.contains(call.path)
                        && (BudgetScenario.near(call, point.latitude, point.longitude) || Self.isAt(call, FakeOpenWeather.saransk))
                case .name(let name):
                    if call.path == BudgetScenario.geocode { return call.query["q"] == name }
                    return BudgetScenario.weatherPaths.contains(call.path) && FakeOpenWeather.places(named: name).contains { Self.isAt(call, $0) }
                }
            }

            private static func isAt(_ call: FakeOpenWeather.Call, _ place: [String: Any]) -> Bool {
                guard let latitude = place["lat"] as? Double, let longitude = place["lon"] as? Double else { return false }
                return BudgetScenario.near(call, latitude, longitude)
            }

            /// Whether a reply is what the step asked for.
            func isAnswer(_ reply: SeenReply) -> Bool {
                switch kind {
                case .location: BotTexts.says(reply.text, BotTexts.question) && reply.markup?.contains("✅") == true
                case .confirm, .weather: BotTexts.says(reply.text, BotTexts.card)
                case .favorites: BotTexts.says(reply.text, BotTexts.favorites)
                case .name(let name):
                    FakeOpenWeather.places(named: name).count > 1
                        ? BotTexts.says(reply.text, BotTexts.severalPlaces) : BotTexts.says(reply.text, BotTexts.card)
                }
            }
        }

        struct Chatter {
            var id: Int64
            var language: String
            var next: Date
            var hasCity = false
            /// The «✅ Да» button of the question its location brought: the message and its data.
            var question: (messageID: Int, data: String)?
            var latest: Int?
            var round = 0
        }

        let load: Load
        let forecastChats: ClosedRange<Int64>
        let floodStart: Date
        var chatters: [Chatter]
        var index: [Int64: Int] = [:]
        var steps: [Step] = []
        var transcript = Transcript()
        /// When each forecast chat's forecast came.
        var forecasts: [Int64: Date] = [:]
        var toFlooder: [SeenReply] = []
        var flooded = 0
        var nextUpdateID = 0

        init(load: Load, origin: Date, forecastChats: ClosedRange<Int64>) {
            self.load = load
            self.forecastChats = forecastChats
            floodStart = origin.addingTimeInterval(load.floodAfter)
            chatters = (0..<load.talkers).map { number in
                Chatter(
                    id: 10_000_001 + Int64(number), language: number.isMultiple(of: 2) ? "ru" : "en",
                    next: origin.addingTimeInterval(Double(number) * load.ramp / Double(load.talkers)))
            }
            for (position, chatter) in chatters.enumerated() { index[chatter.id] = position }
        }

        /// Whether a talking chat still waits for an answer.
        var waiting: Bool { chatters.contains { $0.latest.map { steps[$0].answer == nil } ?? false } }

        mutating func collect(_ ledger: BudgetLedger, _ telegram: FakeTelegram) {
            for reply in transcript.advance(ledger, telegram) { take(reply) }
        }

        private mutating func take(_ reply: SeenReply) {
            guard reply.isMessage else { return }
            if forecastChats.contains(reply.chat) {
                if forecasts[reply.chat] == nil && BotTexts.says(reply.text, BotTexts.dailyForecast) { forecasts[reply.chat] = reply.at }
                return
            }
            if reply.chat == BudgetScenario.flooder { return toFlooder.append(reply) }
            guard let chatter = index[reply.chat], let latest = chatters[chatter].latest else { return }
            steps[latest].messages += 1
            if steps[latest].kind == .confirm && BotTexts.says(reply.text, BotTexts.citySaved) { chatters[chatter].hasCity = true }
            guard steps[latest].answer == nil else { return }
            if BotTexts.says(reply.text, BotTexts.refusals) {
                steps[latest].answer = reply
                steps[latest].deferred = true
            } else if steps[latest].isAnswer(reply) {
                steps[latest].answer = reply
                if steps[latest].kind == .confirm { chatters[chatter].hasCity = true }
                if case .location = steps[latest].kind, let messageID = reply.messageID, let markup = reply.markup,
                    let data = FakeTelegram.callbackData("✅", in: markup)
                {
                    // The question is answered a moment after it is read.
                    chatters[chatter].question = (messageID, data)
                    chatters[chatter].next = reply.at.addingTimeInterval(2)
                }
            }
        }

        /// Sends what is due by `now`: each talking chat's next step, once the one before was
        /// answered (or waited for too long), and the flood's names.
        mutating func act(at now: Date, _ telegram: FakeTelegram) {
            for position in chatters.indices where chatters[position].next <= now {
                if let latest = chatters[position].latest, steps[latest].answer == nil, now.timeIntervalSince(steps[latest].sentAt) < BudgetScenario.patience {
                    continue
                }
                send(position, at: now, telegram)
            }
            let due = now < floodStart ? 0 : min(load.floodNames, Int(now.timeIntervalSince(floodStart) / load.floodSeconds * Double(load.floodNames)) + 1)
            while flooded < due {
                telegram.sendText(BudgetScenario.floodName(flooded), from: BudgetScenario.flooder)
                flooded += 1
            }
        }

        private mutating func send(_ position: Int, at now: Date, _ telegram: FakeTelegram) {
            var chatter = chatters[position]
            let kind = nextKind(&chatter)
            var id = 0
            telegram.enqueueRaw { given in
                id = given
                let data: Data?
                if kind == .confirm, let question = chatter.question {
                    data = try? BudgetScenario.press(question.data, on: question.messageID, chat: chatter.id, language: chatter.language, id: given)
                } else {
                    data = try? BudgetScenario.update(Self.content(kind), chat: chatter.id, language: chatter.language, id: given)
                }
                return String(decoding: data ?? Data(), as: UTF8.self)
            }
            if kind == .confirm { chatter.question = nil }
            steps.append(Step(chat: chatter.id, kind: kind, updateID: id, sentAt: now))
            chatter.latest = steps.count - 1
            chatter.next = now.addingTimeInterval(load.period)
            chatters[position] = chatter
        }

        /// A location until a question came of it, «✅ Да» on that question, and once the chat
        /// has its city: /weather, /fav, a name, /weather, a name, over again.
        private func nextKind(_ chatter: inout Chatter) -> Step.Kind {
            guard chatter.hasCity else {
                if chatter.question != nil { return .confirm }
                let point = Self.point(of: chatter.id)
                return .location(latitude: point.latitude, longitude: point.longitude)
            }
            defer { chatter.round += 1 }
            let name = BudgetScenario.names[(Int(chatter.id % 1_000) + chatter.round) % BudgetScenario.names.count]
            return [Step.Kind.weather, .favorites, .name(name), .weather, .name(name)][chatter.round % 5]
        }

        /// The point a talking chat shares, its own, 0.01° (a weather cache cell) from the others'.
        static func point(of chat: Int64) -> (latitude: Double, longitude: Double) {
            let number = Int(chat % 1_000)
            return (55 + Double(number / 25) * 0.01, 37 + Double(number % 25) * 0.01)
        }

        private static func content(_ kind: Step.Kind) -> [String: Any] {
            switch kind {
            case .location(let latitude, let longitude): ["location": ["latitude": latitude, "longitude": longitude]]
            case .confirm: ["text": "✅"]
            case .weather: ["text": "/weather"]
            case .favorites: ["text": "/fav"]
            case .name(let name): ["text": name]
            }
        }
    }
}
