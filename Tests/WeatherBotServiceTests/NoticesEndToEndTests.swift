import Foundation
import Prometheus
import Testing
import WeatherBotHTTP
import WeatherBotPostgres
import WeatherBotService
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Notices through the real worker, checker and outbox over loopback HTTP: a chat turns them
    /// on, OpenWeather's minutes show rain in 20 minutes and the feed a warning in two languages.
    @Suite(.serialized) struct NoticesEndToEndTests {
        let chatID: Int64 = 515

        /// «🌨 Снег через 24 минуты, около 16:36, …» or «☔ Дождь через 20 минут, …».
        static func isRainNotice(_ text: String) -> Bool {
            (text.hasPrefix("🌨") || text.hasPrefix("☔")) && text.contains(", около ")
        }

        /// The minute that begins `minutes` from now.
        static func minute(after minutes: Int) -> Date {
            Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + Double(minutes * 60))
        }

        /// The first whole hour at least `minutes` from now: where Open-Meteo's quarter hours are
        /// not its model's own (Saransk), the bot tells rain from the hours, so rain that begins
        /// on an hour is told as beginning then.
        static func hour(atLeast minutes: Int) -> Date {
            Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 + Double(minutes * 60)) / 3600).rounded(.up) * 3600)
        }

        /// A rain notice told from the hours («☔ Около 15:00 ожидается: …»), saying it begins at
        /// `start` on Moscow's clock (the fake Open-Meteo's place keeps it).
        static func isRainNoticeFromTheHours(_ text: String, beginningAt start: Date) -> Bool {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Moscow")!
            let parts = calendar.dateComponents([.hour, .minute], from: start)
            let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            return (text.hasPrefix("🌨") || text.hasPrefix("☔")) && text.contains("Около \(time) ожидается")
        }

        /// «Дождь» and "Rain": one warning, listed in Russian and in English.
        static func rainWarning(start: Date, end: Date) -> [FakeOpenWeather.Warning] {
            [
                .init(sender: "Гидрометцентр России", event: "Дождь", start: start, end: end, description: "Ожидается сильный дождь.", tags: ["Rain"]),
                .init(sender: "Гидрометцентр России", event: "Rain", start: start, end: end, description: "Heavy rain expected.", tags: ["Rain"]),
            ]
        }

        /// A chat with Saransk as its city and notices on.
        func subscribe(_ telegram: FakeTelegram) async throws {
            telegram.sendLocation(latitude: 54.18, longitude: 45.17, from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            try telegram.press("Да, всё верно", on: try #require(telegram.screen(chatID).last).messageID, in: chatID)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.text.contains("Ощущается как") } }
            telegram.sendText("/alerts on", from: chatID)
            try await telegram.waitUntil("notices on") { state in state.sent.contains { $0.text.contains("Уведомления включены") } }
        }

        @Test(arguments: StoreEngine.available) func rainInTwentyMinutesAndATwoLanguageWarningArriveOnceEach(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let start = Self.minute(after: 20)
            let warnings = Self.rainWarning(start: Date().addingTimeInterval(-3600), end: Date().addingTimeInterval(6 * 3600))
            loopback.weather.setSky { _, _ in FakeOpenWeather.Sky(rainStarts: start, rainMinutes: 30, rate: 3, warnings: warnings) }
            let registry = PrometheusCollectorRegistry()
            let bot = try await loopback.startBot(metrics: BotMetrics(factory: OperatorEndpoints.metricsFactory(registry)))
            try await subscribe(telegram)

            // «/alerts on» itself brings them: the chat joins its cell's watch, which is checked at
            // once from the weather its card fetched, with no round (the worker's are an hour apart).
            try await telegram.waitUntil("the rain notice and the warning") { state in
                state.sent.contains { Self.isRainNotice($0.text) } && state.sent.contains { $0.text.hasPrefix("⚠️ <b>Дождь</b>") }
            }
            // The next checks see the same rain and the same warning: nothing new to tell.
            await bot.notices.round()
            await bot.notices.round()
            try await Task.sleep(for: .seconds(1))
            let sent = telegram.state.withLock { $0.sent.filter { $0.chatID == chatID } }
            let rain = sent.filter { Self.isRainNotice($0.text) }
            let warning = sent.filter { $0.text.hasPrefix("⚠️ <b>Дождь</b>") }
            #expect(rain.count == 1)
            #expect(warning.count == 1)
            let notice = try #require(rain.first)
            #expect(notice.text.contains(" через 20 минут, около ") || notice.text.contains(" через 19 минут, около "), "\(notice.text)")
            #expect(notice.text.contains("Саранск"))
            #expect(!(warning.first?.text.contains("Heavy rain") ?? true))
            #expect(!(notice.silent))
            let counted = prometheusSamples(registry.emitToString())
            #expect(counted[#"weatherbot_notices_total{kind="rain",outcome="queued"}"#] == 1, "\(counted)")
            #expect(counted[#"weatherbot_notices_total{kind="warning",outcome="queued"}"#] == 1, "\(counted)")
            #expect((counted["weatherbot_warnings_deduplicated_total"] ?? 0) >= 1, "\(counted)")
            #expect(counted["weatherbot_notice_chats"] == 1, "\(counted)")
            #expect(counted[#"weatherbot_notices_total{kind="any",outcome="sent"}"#] == 2, "\(counted)")
            // Kept for `weatherbot status`: the last round found nothing new.
            let kept = try #require(try await bot.database.noticeRound())
            #expect(kept.chats == 1 && kept.cells == 1 && kept.checked == 1 && kept.queued == 0 && kept.deduplicated == 2, "\(kept)")

            // /alerts shows the switches on; turning rain off is a press.
            telegram.sendText("/alerts", from: chatID)
            try await telegram.waitUntil("the notices' message") { state in state.sent.last?.text.contains("Уведомления</b>") ?? false }
            let message = try #require(telegram.screen(chatID).last)
            #expect(message.text.contains("✅ ☔ Дождь или снег в ближайший час"))
            try telegram.press("Дождь или снег", on: message.messageID, in: chatID)
            try await telegram.waitUntil("the switch off") { state in
                state.edits.contains { $0.messageID == message.messageID && $0.text.contains("☐ ☔ Дождь или снег в ближайший час") }
            }
            try await bot.stop()
            await loopback.shutdown()
        }

        /// The real executable commits a rain notice while Telegram fails every message, and is
        /// killed with SIGKILL before it could send it: started again, it sends the notice once, and
        /// its checks, which see the same rain, add none.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashRecoveryTests.executable.path)), arguments: StoreEngine.available)
        func aNoticeCommittedBeforeAKillIsSentOnceAfterTheRestart(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let database = loopback.postgres.map { ["DATABASE_URL": $0.url] } ?? ["DATABASE_PATH": loopback.folder.databasePath]
            let settings = ["ALERTS_CHECK_INTERVAL": "10", "ALERTS_QUIET_HOURS": "off"]
            let first = try CrashRecoveryTests.start(loopback, database: database, settings: settings)
            if let postgres = loopback.postgres { try await CrashRecoveryTests.waitUntilActive(first, on: postgres) }
            try await subscribe(telegram)
            telegram.state.withLock {
                $0.failures["sendMessage"] = Array(repeating: .json(["ok": false, "error_code": 502, "description": "Bad Gateway"], status: 502), count: 10_000)
            }
            // Dry until now; the next round's fetch shows rain and commits the notice; Telegram
            // refuses it, again and again. The running bot holds its SQLite file, so the notice's
            // commit shows as its first refused attempt: nothing is sent before it is stored.
            loopback.weather.setSky { _, _ in FakeOpenWeather.Sky(rainStarts: Self.minute(after: 25)) }
            try await telegram.waitUntil(timeout: .seconds(30), "a notice committed and refused") { state in
                (state.failures["sendMessage"]?.count ?? 0) < 10_000
            }
            kill(first.processIdentifier, SIGKILL)
            first.waitUntilExit()
            telegram.state.withLock { $0.failures["sendMessage"] = nil }

            let second = try CrashRecoveryTests.start(loopback, database: database, settings: settings)
            if let postgres = loopback.postgres { try await CrashRecoveryTests.waitUntilActive(second, on: postgres) }
            try await telegram.waitUntil(timeout: .seconds(60), "the notice") { state in state.sent.contains { Self.isRainNotice($0.text) } }
            // Two more rounds see the same rain.
            try await Task.sleep(for: .seconds(22))
            second.terminate()
            second.waitUntilExit()
            let notices = telegram.state.withLock { $0.sent.filter { $0.chatID == chatID && Self.isRainNotice($0.text) } }
            #expect(notices.count == 1)
            #expect(try await loopback.withStore { try await $0.outboxBacklog(lane: .notice) } == 0)
            await loopback.shutdown()
        }

        /// In quiet hours rain is not told, a warning starting before they end comes silently, and
        /// one starting after them waits for their end.
        @Test func quietHoursDropRainAndSilenceOrHoldWarnings() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            // Quiet from an hour ago to an hour from now, in Saransk's (Moscow's) time.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Moscow")!
            let hour = calendar.component(.hour, from: Date())
            let quiet = try #require(QuietHours(start: ((hour + 23) % 24) * 60, end: ((hour + 2) % 24) * 60))
            let soon = Self.rainWarning(start: Date().addingTimeInterval(1800), end: Date().addingTimeInterval(4 * 3600))
            var later = Self.rainWarning(start: Date().addingTimeInterval(4 * 3600), end: Date().addingTimeInterval(8 * 3600))
            for index in later.indices { later[index].event = index == 0 ? "Ветер" : "Wind"; later[index].tags = ["Wind"] }
            let warnings = soon + later
            loopback.weather.setSky { _, _ in FakeOpenWeather.Sky(rainStarts: Self.minute(after: 20), warnings: warnings) }
            let bot = try await loopback.startBot(quietHours: quiet)
            try await subscribe(telegram)

            await bot.notices.round()
            try await telegram.waitUntil("the warning starting soon") { state in state.sent.contains { $0.text.hasPrefix("⚠️ <b>Дождь</b>") } }
            await bot.notices.round()
            try await Task.sleep(for: .seconds(1))
            let sent = telegram.state.withLock { $0.sent.filter { $0.chatID == chatID } }
            #expect(sent.filter { Self.isRainNotice($0.text) }.isEmpty)
            #expect(sent.filter { $0.text.hasPrefix("⚠️ <b>Ветер</b>") }.isEmpty)
            let warning = try #require(sent.first { $0.text.hasPrefix("⚠️ <b>Дождь</b>") })
            #expect(warning.silent)
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
