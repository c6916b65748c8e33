import Foundation
import Synchronization
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// Notices through the weatherbot executable while a broadcast runs and chats talk: whether rain
/// notices come once, before their rain, soon after the check that saw it, and what they cost.
///
/// 100,000 chats with notices on (rain and warnings) live in 2,000 place cells, 50 to a cell; each
/// also has a daily forecast due when the worker starts, so a 100,000-forecast broadcast is under
/// way throughout. A tenth of each cell's chats keep quiet hours that cover the run. The fake
/// OpenWeather starts rain in a tenth of the cells, one after another over the second interval:
/// from then on a cell's forecast shows its rain 15 to 45 minutes ahead (staggered by cell). It
/// lists a warning, in Russian and in English, in a twentieth of the cells from the start. The fake
/// Telegram holds the bot to 30 messages a second (one a second per chat, bursts of three); 1,000
/// other chats send 5 updates a second for 120 s, as in broadcast-chat.
///
/// Checks run every 600 s (`ALERTS_CHECK_INTERVAL`), the default, on the real clock: the run lasts
/// three intervals and a minute, so the last round shows whether anything is told twice. No clock
/// is scaled: the rain is 15–45 minutes ahead, as in life, and every notice must be delivered
/// before it. A quick run: 5,000 chats in 100 cells, checks every 60 s, rain 3 to 9 minutes ahead,
/// 20 s of chat.
///
/// The check that saw the rain is the first fetch of the cell's weather that showed it, whoever
/// made it: a card viewed or a daily forecast counts as the check.
///
/// Measured: OpenWeather's One Call requests in each interval (against the cells); for each rain
/// notice, when it was accepted against when its rain starts, and against the first One Call answer
/// that showed the rain for its cell (the check that saw it); notices twice to one chat; rain
/// notices to chats in quiet hours; warnings once per chat and in the chat's language; the chats'
/// answers' p99; 429s.
struct NoticesScenario {
    var quick: Bool
    var executable: String

    static let firstChat: Int64 = 10_000_001

    /// When a cell's forecast first shows rain ahead, if it rains there: the tenth of the cells
    /// that rain begin to, one after another, over the second check interval, once the checks
    /// keep their own pace (in the first, every cell's weather is the broadcast's, fetched at once
    /// when the worker starts).
    static func rainAppears(cell: Int, cells: Int, origin: Date, interval: Double) -> Date? {
        guard cell % 10 == 3 else { return nil }
        let raining = max(1, cells / 10)
        return origin.addingTimeInterval(interval + interval * Double((cell / 10 * 37) % raining) / Double(raining))
    }

    /// When a cell's rain starts: 15 to 45 minutes after its forecast first shows it, spread by
    /// cell (3 to 9 in a quick run).
    static func rainStart(cell: Int, cells: Int, origin: Date, interval: Double, quick: Bool) -> Date? {
        guard let appears = rainAppears(cell: cell, cells: cells, origin: origin, interval: interval) else { return nil }
        let minutes = 15 + Double((cell * 7) % 31)
        return appears.addingTimeInterval((quick ? minutes / 5 : minutes) * 60)
    }

    static func hasWarning(cell: Int) -> Bool { cell % 20 == 7 }

    /// The cell of a point of ``Seed/cellPlace(_:)``.
    static func cell(latitude: Double, longitude: Double) -> Int {
        Int(((latitude - 40) / 0.5).rounded()) * 25 + Int(((longitude - 20) / 0.5).rounded())
    }

    /// What the fake Telegram accepted, by kind, for the subscribers.
    final class NoticeLedger: FakeTelegramObserver {
        struct Notice {
            var chat: Int64
            var at: Date
            var silent: Bool
            var text: String
        }
        let rain = Mutex<[Notice]>([])
        let warnings = Mutex<[Notice]>([])
        let updates = Mutex<[Notice]>([])
        /// When each message to anyone was accepted.
        let messages = Mutex<[Date]>([])
        let replies: ReplyLedger
        let subscribers: Int64

        init(replies: ReplyLedger, subscribers: Int64) {
            self.replies = replies
            self.subscribers = subscribers
        }

        func handedOut(_ update: HandedOut) { replies.handedOut(update) }

        func accepted(_ reply: AcceptedReply) {
            replies.accepted(reply)
            if !reply.isAnswerToPress { messages.withLock { $0.append(reply.at) } }
            guard reply.chat <= subscribers, let text = reply.text else { return }
            let notice = Notice(chat: reply.chat, at: reply.at, silent: reply.silent, text: text)
            if text.hasPrefix("☔") || text.hasPrefix("🌨") {
                rain.withLock { $0.append(notice) }
            } else if text.hasPrefix("⚠️ <b>") {
                warnings.withLock { $0.append(notice) }
            } else if text.hasPrefix("⚠️ ") {
                updates.withLock { $0.append(notice) }
            }
        }
    }

    func run() async throws -> [Result] {
        let subscribers = quick ? 5_000 : 100_000
        let cells = quick ? 100 : 2_000
        let interval: Double = quick ? 60 : 600
        let chatSeconds: Double = quick ? 20 : 120
        let runFor = 3 * interval + 60
        let updates = try BroadcastChatScenario.updates(count: Int(chatSeconds * 5), chats: 1_000)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.sqlite").path
        // The places' weather is Moscow's (the fake's zone for every point): quiet hours from an
        // hour before now there to three hours after.
        var moscow = Calendar(identifier: .gregorian)
        moscow.timeZone = TimeZone(identifier: "Europe/Moscow")!
        let hour = moscow.component(.hour, from: Date())
        let quiet = QuietHours(start: ((hour + 23) % 24) * 60, end: ((hour + 3) % 24) * 60)!
        // A tenth of each cell's chats (every chat's place in its cell is id / cells).
        let quietChats = Set((1...Int64(subscribers)).filter { ($0 / Int64(cells)) % 10 == 0 })
        do {
            let database = try BotDatabase.open(path: path)
            let now = Date()
            let minute = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: now)
            let ids = Array(1...Int64(subscribers))
            let chats = ids.map { id in
                ChatRecord(
                    id: id, language: .ru, state: .idle, currentPlace: Seed.cellPlace(Int(id % Int64(cells))),
                    notices: NoticeSettings(rain: true, warnings: true, quiet: quietChats.contains(id) ? .hours(quiet) : .off))
            }
            try await database.insert(
                chats: chats,
                subscriptions: chats.map { chat in
                    Subscription(
                        chatID: chat.id, place: chat.currentPlace!, timeZone: "UTC", hour: minute.hour ?? 0, minute: minute.minute ?? 0,
                        nextSendAt: now.addingTimeInterval(-1))
                })
            try await Seed.askedAboutTheirCity(chats: Self.firstChat...Self.firstChat + 999, in: database)
        }

        let origin = Date()
        let seen = Mutex<[Int: Date]>([:])
        let weather = try await FakeOpenWeather(recording: false, logging: true)
        weather.setSky { latitude, longitude in
            let cell = Self.cell(latitude: latitude, longitude: longitude)
            let appears = Self.rainAppears(cell: cell, cells: cells, origin: origin, interval: interval)
            let rain = appears.flatMap { $0 <= Date() ? Self.rainStart(cell: cell, cells: cells, origin: origin, interval: interval, quick: quick) : nil }
            let warned = Self.hasWarning(cell: cell)
            guard rain != nil || warned else { return nil }
            if let rain, rain.timeIntervalSinceNow < 3600 { seen.withLock { if $0[cell] == nil { $0[cell] = Date() } } }
            let warnings: [FakeOpenWeather.Warning] =
                warned
                ? [
                    .init(
                        sender: "Гидрометцентр России", event: "Сильный ветер", start: origin.addingTimeInterval(-3600),
                        end: origin.addingTimeInterval(6 * 3600), description: "Порывы до 25 м/с.", tags: ["Wind"]),
                    .init(
                        sender: "Гидрометцентр России", event: "Strong wind", start: origin.addingTimeInterval(-3600),
                        end: origin.addingTimeInterval(6 * 3600), description: "Gusts up to 25 m/s.", tags: ["Wind"]),
                ] : []
            return FakeOpenWeather.Sky(rainStarts: rain, rainMinutes: 40, rate: 2, warnings: warnings)
        }
        let replies = ReplyLedger(updates: updates, firstID: BroadcastChatScenario.firstUpdateID)
        let ledger = NoticeLedger(replies: replies, subscribers: Int64(subscribers))
        let telegram = try await FakeTelegram(
            recording: false, release: .init(interval: 0.2, start: .firstMessage),
            limits: SendingLimits(
                perWindow: Int(BroadcastChatScenario.messagesPerSecond), perChatPerWindow: BroadcastChatScenario.messagesPerSecondPerChat,
                perChatBurst: BroadcastChatScenario.burstPerChat),
            observer: ledger)
        telegram.schedule(replies.scheduled)
        let process = try Worker.start(
            executable, telegram: telegram.url, weather: weather.url, databasePath: path,
            environment: [
                "TELEGRAM_MESSAGES_PER_SECOND": String(BroadcastChatScenario.messagesPerSecond),
                "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": String(BroadcastChatScenario.messagesPerSecondPerChat),
                "ALERTS_CHECK_INTERVAL": String(Int(interval)), "ALERTS_QUIET_HOURS": "off",
            ])
        try await Task.sleep(for: .seconds(runFor))
        await Worker.stop(process)
        try await Task.sleep(for: .milliseconds(1200))
        let rateLimited = telegram.state.withLock { $0.rateLimited }
        // The checks' calls: those for the subscribers' cells (the talking chats' cards are others').
        let calls = weather.log.filter { call in
            guard call.path == "/data/3.0/onecall", call.status == 200, let latitude = Double(call.query["lat"] ?? ""),
                let longitude = Double(call.query["lon"] ?? "")
            else { return false }
            let cell = Self.cell(latitude: latitude, longitude: longitude)
            let place = Seed.cellPlace(cell)
            return cell >= 0 && cell < cells && abs(place.latitude - latitude) < 0.005 && abs(place.longitude - longitude) < 0.005
        }.map(\.at)
        await telegram.shutdown()
        await weather.shutdown()

        // What was due: a rain notice to each chat of a raining cell outside quiet hours, a
        // warning to each chat of a warned cell.
        let chatsOf = { (cell: Int) in stride(from: Int64(cell == 0 ? cells : cell), through: Int64(subscribers), by: cells).map { $0 } }
        let rainCells = (0..<cells).filter { Self.rainAppears(cell: $0, cells: cells, origin: origin, interval: interval) != nil }
        let dueRain = rainCells.flatMap(chatsOf).filter { !quietChats.contains($0) }.count
        let dueWarnings = (0..<cells).filter(Self.hasWarning).flatMap(chatsOf).count
        let rain = ledger.rain.withLock { $0 }
        let warnings = ledger.warnings.withLock { $0 }
        let changed = ledger.updates.withLock { $0 }
        let seenAt = seen.withLock { $0 }
        let rainTwice = Dictionary(grouping: rain, by: \.chat).values.filter { $0.count > 1 }.count
        let warnedTwice = Dictionary(grouping: warnings, by: \.chat).values.filter { $0.count > 1 }.count
        let inQuiet = rain.filter { quietChats.contains($0.chat) }.count
        var beforeRain = 0
        var afterCheck: [Double?] = []
        for notice in rain {
            let cell = Int(notice.chat % Int64(cells))
            guard let start = Self.rainStart(cell: cell, cells: cells, origin: origin, interval: interval, quick: quick) else { continue }
            if notice.at < start { beforeRain += 1 }
            afterCheck.append(seenAt[cell].map { notice.at.timeIntervalSince($0) })
        }
        let p99 = BroadcastChatScenario.percentile(0.99, of: afterCheck)
        // The send rate while notices were going out: all messages, and the notices among them.
        let noticeTimes = (rain + warnings).map(\.at).sorted()
        let busy = noticeTimes.first.flatMap { first in noticeTimes.last.map { (first, $0) } }
        let busySeconds = busy.map { max(1, $0.1.timeIntervalSince($0.0)) } ?? 1
        let sentMeanwhile = busy.map { span in ledger.messages.withLock { $0.filter { $0 >= span.0 && $0 <= span.1 }.count } } ?? 0
        let englishWarnings = warnings.filter { $0.text.contains("Strong wind") }.count
        let perInterval = (0..<3).map { index in
            calls.filter { Int($0.timeIntervalSince(origin) / interval) == index }.count
        }
        let latencies = replies.latencies
        let chatP99 = BroadcastChatScenario.percentile(0.99, of: latencies.map { Optional($0) } + Array(repeating: nil, count: max(0, updates.count - latencies.count)))
        let judged = !quick
        let name = "notices"
        return [
            Result(
                scenario: name, figure: "\(subscribers / 1000)k chats with notices in \(cells) cells, a \(subscribers / 1000)k broadcast, checks every \(Int(interval)) s",
                value: "", target: "", passed: nil),
            Result(
                scenario: name, figure: "  One Call requests for the cells in the 1st, 2nd and 3rd interval",
                value: perInterval.map(String.init).joined(separator: ", "), target: "≤ \(cells) each", passed: perInterval.allSatisfy { $0 <= cells }),
            Result(
                scenario: name, figure: "  rain notices delivered, of those due", value: "\(rain.count) of \(dueRain)", target: "\(dueRain)",
                passed: rain.count - rainTwice == dueRain),
            Result(
                scenario: name, figure: "  delivered before their rain starts", value: "\(beforeRain) of \(rain.count)", target: "all",
                passed: beforeRain == rain.count),
            Result(
                scenario: name, figure: "  after the check that saw the rain, p50", value: BroadcastChatScenario.describe(BroadcastChatScenario.percentile(0.5, of: afterCheck)),
                target: "", passed: nil),
            Result(
                scenario: name, figure: "  after the check that saw the rain, p99", value: BroadcastChatScenario.describe(p99), target: "≤ 60 s",
                passed: (p99 ?? .infinity) <= 60),
            Result(
                scenario: name, figure: "  messages a second while notices went out (all, notices)",
                value: String(format: "%.1f, %.1f over %.0f s", Double(sentMeanwhile) / busySeconds, Double(noticeTimes.count) / busySeconds, busySeconds),
                target: "", passed: nil),
            Result(scenario: name, figure: "  chats told of one rain twice", value: "\(rainTwice)", target: "0", passed: rainTwice == 0),
            Result(scenario: name, figure: "  rain notices in quiet hours", value: "\(inQuiet)", target: "0", passed: inQuiet == 0),
            Result(
                scenario: name, figure: "  warnings delivered (two languages in the feed), of those due", value: "\(warnings.count) of \(dueWarnings)",
                target: "\(dueWarnings)", passed: warnings.count == dueWarnings),
            Result(
                scenario: name, figure: "  warnings twice, in English, as updates", value: "\(warnedTwice), \(englishWarnings), \(changed.count)",
                target: "0, 0, 0", passed: warnedTwice == 0 && englishWarnings == 0 && changed.isEmpty),
            Result(
                scenario: name, figure: "  chats' answers p99 (\(updates.count) updates at 5/s)", value: BroadcastChatScenario.describe(chatP99),
                target: judged ? "≤ 1 s" : "full run", passed: judged ? (chatP99 ?? .infinity) <= 1 : nil),
            Result(scenario: name, figure: "  429s received", value: "\(rateLimited)", target: "0", passed: rateLimited == 0),
        ]
    }
}
