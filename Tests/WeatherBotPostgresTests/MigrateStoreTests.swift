import Foundation
import Logging
import PostgresNIO
import TelegramBotAPI
import Testing
import WeatherBotPostgres
import WeatherBotStore
import WeatherBotTesting
import WeatherBotSQLite

/// Moving house: a bot's SQLite file, filled through the store's own API, copied into an empty
/// PostgreSQL database (`TEST_DATABASE_URL`), and read back through ``BotStore``.
@Suite struct MigrateStoreTests {
    static let serverURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let moscow = Place(name: "Москва", localNames: ["en": "Moscow"], country: "RU", latitude: 55.75, longitude: 37.62, timeZone: "Europe/Moscow")
    static let kazan = Place(name: "Казань", latitude: 55.79, longitude: 49.12, timeZone: "Europe/Moscow")
    static let sochi = Place(name: "Сочи", latitude: 43.6, longitude: 39.73, timeZone: "Europe/Moscow")
    /// The chats the filled database holds: one with everything, one whose item was set aside,
    /// one whose update waits, one that blocked the bot.
    static let chatIDs: [Int64] = [100, 200, 300, 400]

    static let logger: Logger = {
        var logger = Logger(label: "weatherbot.tests.migrate-store")
        logger.logLevel = .critical
        return logger
    }()

    // MARK: Reading the file

    @Test func aMissingFileOrOneThatIsNotABotDatabaseIsRefusedInOneLine() async throws {
        try await Self.withFolder { folder in
            let missing = folder.appendingPathComponent("missing.sqlite").path
            #expect(Self.unreadable(missing) == "there is no database at \(missing)")
            #expect(!FileManager.default.fileExists(atPath: missing), "reading creates nothing")

            let text = folder.appendingPathComponent("notes.txt").path
            try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
            #expect(Self.unreadable(text) == "\(text) is not a weatherbot database")

            let empty = folder.appendingPathComponent("empty.sqlite").path
            #expect(FileManager.default.createFile(atPath: empty, contents: nil))
            #expect(Self.unreadable(empty) == "\(empty) is not a weatherbot database")
        }
    }

    @Test func theFileIsReadWholeWithItsCountsAndAnUncleanStopIsWarnedAbout() async throws {
        try await Self.withFilledDatabase { database, path in
            let contents = try StoreContents(readingFileAt: path)
            #expect(contents.chats.map(\.id) == Self.chatIDs)
            #expect(contents.rowCounts == [
                "chat": 4, "favorite": 3, "subscription": 2, "inbox": 2, "inboxFailure": 1, "outbox": 4, "messageTag": 1, "noticeMark": 0,
                "workerFact": 3,
            ])
            #expect(contents.lastUpdateID == 9)
            #expect(contents.stoppedCleanly == false)
            // The blocked chat's reply, the last queued, was dropped: the file's counter is past every id left.
            #expect(try #require(contents.lastIDs["outbox"]) > contents.outbox.compactMap(\.id).max() ?? 0)
            let warnings = StoreMigration.warnings(about: contents, now: Self.now.addingTimeInterval(42))
            #expect(warnings.count == 1 && warnings[0].contains("did not stop cleanly or is still running (its last poll was 42 s ago)"))

            try await database.endRun()
            #expect(StoreMigration.warnings(about: try StoreContents(readingFileAt: path)).isEmpty)
        }
    }

    // MARK: The copy

    @Test(.enabled(if: serverURL != nil, "TEST_DATABASE_URL names no server"))
    func everythingComesBackThroughTheStoreAndNewRowsGetNewIDs() async throws {
        try await Self.withFilledDatabase { database, path in
            let contents = try StoreContents(readingFileAt: path)
            try await Self.withEmptyDatabase { url in
                try await Self.withStore(url) { postgres in
                    let report = try await StoreMigration.copy(contents, into: postgres, logger: Self.logger)
                    #expect(report.matches)
                    #expect(report.counts.map(\.table) == [
                        "chat", "favorite", "subscription", "inbox", "inbox_failure", "outbox", "message_tag", "notice_mark", "worker_fact",
                    ])
                    #expect(report.counts.map(\.postgres) == [4, 3, 2, 2, 1, 4, 1, 0, 3])

                    let sqlite: any BotStore = database
                    for id in Self.chatIDs {
                        #expect(try await postgres.chat(id) == sqlite.chat(id))
                        #expect(try await postgres.favorites(chatID: id) == sqlite.favorites(chatID: id))
                        #expect(try await postgres.subscriptions(chatID: id) == sqlite.subscriptions(chatID: id))
                    }
                    let chat = try #require(try await postgres.chat(100))
                    #expect(chat.currentPlace == Self.moscow && chat.recentPlaces.map(\.place) == [Self.kazan, Self.sochi])
                    #expect(chat.state == .confirmingCity(Self.kazan) && chat.questionSeq == 7 && chat.placeSeq == 2 && chat.lastMessageID == 77)
                    #expect(try await postgres.chat(400)?.isActive == false)
                    #expect(try await postgres.favorites(chatID: 100).map(\.place.name) == ["Казань", "Москва"], "moved, with their ids")
                    let forecasts = try await postgres.subscriptions(chatID: 100)
                    #expect(forecasts.map(\.withChart) == [true] && forecasts.first?.lastSentDay == "2026-11-18")
                    #expect(try await postgres.subscriptions(chatID: 400).map(\.isActive) == [false])

                    for lane in OutboxLane.allCases {
                        let copied = try await postgres.outboxItems(lane: lane, chatID: nil, from: .min, limit: 100)
                        #expect(copied == (try await sqlite.outboxItems(lane: lane, chatID: nil, from: .min, limit: 100)), "\(lane)")
                        // The file holds no notices (``noticeSettingsMarksAndDeadlinesComeAlong()`` copies some).
                        #expect((!copied.isEmpty || lane == .notice) && copied.compactMap(\.id) == copied.compactMap(\.id).sorted(), "\(lane)")
                    }
                    #expect(try await postgres.outboxItems(lane: .bulk, chatID: nil, from: .min, limit: 10).map(\.request?.method) == [.sendMessage, .sendPhoto])
                    #expect(try await postgres.outboxItems(lane: .interactive, chatID: nil, from: .min, limit: 10).first?.attempts == 1)
                    #expect(try await postgres.messageID(chatID: 100, tag: "card-2") == 502)
                    #expect(try await postgres.lastUpdateID() == 9)
                    #expect(try await postgres.pendingInbox() == sqlite.pendingInbox())
                    #expect(try await postgres.pendingInbox().map(\.attempts) == [1, 1], "the cut-off run's attempts go along")
                    let setAside = try await postgres.client.query("SELECT seq, chat_id, error FROM inbox_failure", logger: Self.logger)
                        .collect().map { try $0.decode((Int64, Int64, String).self) }
                    #expect(setAside.count == 1 && setAside.first?.1 == 200 && setAside.first?.2 == "boom")

                    // The bot goes on: new rows get ids above every id the file gave out.
                    let item = try #require(
                        try await postgres.receive([(10, 300, Data("{}".utf8))], lastUpdateID: 10, rebasing: false, at: Self.now).first)
                    #expect(try #require(item.seq) > contents.lastIDs["inbox"] ?? .max)
                    let step = try await postgres.commitStep(
                        chat: try #require(try await postgres.chat(300)), handled: try #require(item.seq),
                        changes: [.addFavorite(Self.sochi, limit: 20), .subscribe(Self.forecast(for: 300, at: Self.sochi), limit: 5)],
                        replies: [.sendMessage(chatID: 300, text: "⭐")], followUps: [], at: Self.now)
                    #expect(try #require(step.replyIDs.first) > contents.lastIDs["outbox"] ?? .max)
                    #expect(try #require(try await postgres.favorites(chatID: 300).first?.id) > contents.lastIDs["favorite"] ?? .max)
                    #expect(try #require(try await postgres.subscriptions(chatID: 300).first?.id) > contents.lastIDs["subscription"] ?? .max)

                    // A second run finds bot data and copies nothing.
                    await #expect(throws: StoreMigration.Refusal.self) {
                        try await StoreMigration.copy(contents, into: postgres, logger: Self.logger)
                    }
                    #expect(try await postgres.outboxBacklog() == 5)
                }
            }
        }
    }

    @Test(.enabled(if: serverURL != nil, "TEST_DATABASE_URL names no server"))
    func aTargetWithBotDataOrAnActiveReplicaIsRefusedAndKeptAsItWas() async throws {
        try await Self.withFilledDatabase { _, path in
            let contents = try StoreContents(readingFileAt: path)
            try await Self.withEmptyDatabase { url in
                try await Self.withStore(url) { postgres in
                    try await postgres.migrate()
                    let lease = LeaderLease(client: postgres.client, duration: .seconds(30), logger: Self.logger)
                    let held = try #require(try await lease.acquire(as: "replica-a"))
                    let active = await #expect(throws: StoreMigration.Refusal.self) {
                        try await StoreMigration.copy(contents, into: postgres, logger: Self.logger)
                    }
                    #expect(active?.description.contains("a replica (replica-a) is running on the target database") == true)
                    try await lease.release(held)

                    _ = try await postgres.receive([(1, 5, Data("{}".utf8))], lastUpdateID: 1, rebasing: false, at: Self.now)
                    let used = await #expect(throws: StoreMigration.Refusal.self) {
                        try await StoreMigration.copy(contents, into: postgres, logger: Self.logger)
                    }
                    #expect(used?.description == "the target database already holds bot data (rows in inbox); copy into an empty database")
                    #expect(try await postgres.pendingInbox().count == 1)
                    #expect(try await postgres.lastUpdateID() == 1, "the facts too are as they were")
                }
            }
        }
    }

    /// What a chat asked to be told, what it was told and the notices waiting to be sent come
    /// along: after the move no chat's setting is lost and no notice goes twice.
    @Test(.enabled(if: serverURL != nil, "TEST_DATABASE_URL names no server"))
    func noticeSettingsMarksAndDeadlinesComeAlong() async throws {
        try await Self.withFolder { folder in
            let path = folder.appendingPathComponent("bot.sqlite").path
            let database = try BotDatabase.open(path: path)
            let night = try #require(QuietHours(stored: "23:00-07:00"))
            let settings: [Int64: NoticeSettings] = [
                100: NoticeSettings(rain: true, warnings: true, quiet: .hours(night), setBy: 42),
                200: NoticeSettings(rain: false, warnings: true, quiet: .off),
                300: .off,
            ]
            for (id, notices) in settings.sorted(by: { $0.key < $1.key }) {
                let item = try #require(try await database.receive([(id, id, Data("{}".utf8))], lastUpdateID: id, at: Self.now).first)
                var record = Self.chat(id)
                record.currentPlace = Self.moscow
                record.notices = notices
                try await database.commitStep(chat: record, handled: try #require(item.seq), replies: [], followUps: [], at: Self.now)
            }
            let deadline = Self.now.addingTimeInterval(1_200)
            func rain(_ chat: Int64, _ value: String, expiresIn: TimeInterval = 3_600) -> NoticeDelivery {
                NoticeDelivery(
                    chatID: chat, mark: NoticeMark(key: "rain", value: value, expiresAt: Self.now.addingTimeInterval(expiresIn)),
                    requests: [.sendMessage(chatID: chat, text: "☔")], deadline: deadline)
            }
            let storm = NoticeDelivery(
                chatID: 200, mark: NoticeMark(key: "warning:storm", value: "v1", expiresAt: Self.now.addingTimeInterval(7_200)),
                requests: [.sendMessage(chatID: 200, text: "⚠️"), .sendMessage(chatID: 200, text: "🗺")], deadline: deadline)
            let queued = try await database.commitNotices([rain(100, "e1"), storm], at: Self.now)
            #expect(queued.map(\.count) == [1, 2])

            let contents = try StoreContents(readingFileAt: path)
            #expect(contents.noticeMarks.map(\.chatID) == [100, 200] && contents.rowCounts["noticeMark"] == 2)
            try await Self.withEmptyDatabase { url in
                try await Self.withStore(url) { postgres in
                    let report = try await StoreMigration.copy(contents, into: postgres, logger: Self.logger)
                    #expect(report.matches)
                    #expect(report.counts.first { $0.table == "notice_mark" }?.postgres == 2)
                    for (id, notices) in settings {
                        #expect(try await postgres.chat(id)?.notices == notices)
                    }
                    let sqlite: any BotStore = database
                    #expect(try await postgres.noticeChats(at: Self.now) == sqlite.noticeChats(at: Self.now))
                    #expect(try await postgres.noticeChats(at: Self.now).map(\.marks) == [["rain": "e1"], ["warning:storm": "v1"]])
                    let waiting = try await postgres.outboxItems(lane: .notice, chatID: nil, from: .min, limit: 10)
                    #expect(waiting == (try await sqlite.outboxItems(lane: .notice, chatID: nil, from: .min, limit: 10)))
                    #expect(waiting.map(\.id) == queued.flatMap { $0 } && waiting.allSatisfy { $0.deadline == deadline })
                    #expect(try await postgres.noticeChatCount() == 2)

                    // The marks copied keep their notices to one; a new episode still goes.
                    #expect(try await postgres.commitNotices([rain(100, "e1"), storm, rain(200, "e1")], at: Self.now).map(\.count) == [0, 0, 1])
                }
            }
        }
    }

    // MARK: The command

    /// The weatherbot executable beside the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("weatherbot")
    }

    @Test(.enabled(if: serverURL != nil && FileManager.default.isExecutableFile(atPath: executable.path)))
    func theCommandCopiesPrintsTheCountsAndNeverThePassword() async throws {
        try await Self.withFilledDatabase { _, path in
            try await Self.withEmptyDatabase { url in
                let password = "pa55-w0rd-never-shown"
                var components = try #require(URLComponents(string: url))
                components.password = password
                let target = try #require(components.string)

                let copied = try await Self.runCommand(["migrate-store", "--to", target], databasePath: path)
                #expect(copied.status == 0, "\(copied.output)")
                #expect(copied.output.contains("copying \(path) into postgres://"))
                #expect(copied.output.contains("did not stop cleanly or is still running"))
                let table = copied.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
                #expect(table.contains(["table", "SQLite", "PostgreSQL"]))
                #expect(table.contains(["outbox", "4", "4"]) && table.contains(["inbox_failure", "1", "1"]))
                #expect(copied.output.contains("done: start the replicas with DATABASE_URL"))

                let again = try await Self.runCommand(["migrate-store", "--to", target], databasePath: path)
                #expect(again.status == 1)
                #expect(again.output.contains("error: the target database already holds bot data (rows in chat, favorite, subscription, inbox, inbox_failure, outbox, message_tag)"))

                let missing = path + ".missing"
                let noFile = try await Self.runCommand(["migrate-store", "--to", target], databasePath: missing)
                #expect(noFile.status == 1 && noFile.output == "error: there is no database at \(missing)\n")

                let invalid = try await Self.runCommand(["migrate-store", "--to", "mysql://bot:\(password)@db/bot"], databasePath: path)
                #expect(invalid.status == 2 && invalid.output == "error: --to must be postgres://user:password@host:port/name: not a postgres:// URL\n")

                var unknownHost = try #require(URLComponents(string: target))
                unknownHost.port = 1
                let unreachable = try await Self.runCommand(["migrate-store", "--to", try #require(unknownHost.string)], databasePath: path)
                #expect(unreachable.status == 1)
                #expect(unreachable.output.contains("error: cannot connect to postgres://"))
                #expect(unreachable.output.split(separator: "\n").count == 3, "\(unreachable.output)")

                for run in [copied, again, noFile, invalid, unreachable] {
                    #expect(!run.output.contains(password), "\(run.output)")
                    #expect(!run.output.contains("Fatal error") && !run.output.contains("PSQLError"), "\(run.output)")
                }
            }
        }
    }

    /// A replica whose database cannot be used (no such database) says why in one line and exits;
    /// so does `status`, also for a database out of reach. A replica whose database is out of
    /// reach waits for it, saying so with each pause, as it does for Telegram, until it is stopped.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
    func aReplicaThatCannotUseItsDatabaseSaysWhyAndOneThatCannotReachItWaits() async throws {
        let password = "never-shown-either"
        let unreachable = "postgres://bot:\(password)@127.0.0.1:1/bot?sslmode=disable"
        var cases = [(["status"], unreachable, "cannot connect to the database at postgres://bot:***@127.0.0.1:1/bot")]
        if let server = Self.serverURL, var missing = URLComponents(string: server) {
            missing.path = "/weatherbot_no_such_database"
            missing.password = password
            let reason = #"PostgreSQL: database "weatherbot_no_such_database" does not exist"#
            cases += [(["run"], try #require(missing.string), reason), (["status"], try #require(missing.string), reason)]
        }
        for (command, url, reason) in cases {
            let secrets = ["TELEGRAM_BOT_TOKEN": "1:token", "OPEN_WEATHER_API_KEY": "key", "DATABASE_URL": url, "LOG_LEVEL": "error"]
            let started = Date()
            let run = try await Self.runCommand(command, databasePath: "/nonexistent/bot.sqlite", environment: secrets)
            #expect(run.status != 0, "\(command): \(run.output)")
            #expect(run.output.contains(reason), "\(command): \(run.output)")
            #expect(!run.output.contains(password) && !run.output.contains("PSQLError"), "\(command): \(run.output)")
            #expect(Date().timeIntervalSince(started) < 20, "\(command) waited instead of saying why")
        }

        // Out of reach: it waits, says so, and a stop ends the wait.
        let secrets = ["TELEGRAM_BOT_TOKEN": "1:token", "OPEN_WEATHER_API_KEY": "key", "DATABASE_URL": unreachable, "LOG_LEVEL": "warning"]
        let waiting = try await Self.runCommand(["run"], databasePath: "/nonexistent/bot.sqlite", environment: secrets, stopAfter: .seconds(4))
        #expect(waiting.output.contains("the database is not reachable yet; retrying"), "\(waiting.output)")
        #expect(waiting.output.contains("postgres://bot:***@127.0.0.1:1/bot"), "\(waiting.output)")
        #expect(!waiting.output.contains(password) && !waiting.output.contains("PSQLError"), "\(waiting.output)")
        #expect(waiting.status == 0, "stopped while waiting: \(waiting.output)")
    }

    /// Runs the executable with `DATABASE_PATH`, waiting at most a minute; its exit status and
    /// its standard output and error together.
    /// `stopAfter`: sends SIGTERM that long after the start.
    /// Waited for off the shared pool: a command may run for seconds, and a pool thread blocked
    /// that long stalls every other test.
    static func runCommand(
        _ arguments: [String], databasePath: String, environment: [String: String] = [:], stopAfter: DispatchTimeInterval? = nil
    ) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runCommandBlocking(arguments, databasePath: databasePath, environment: environment, stopAfter: stopAfter) })
            }
        }
    }

    private static func runCommandBlocking(
        _ arguments: [String], databasePath: String, environment: [String: String], stopAfter: DispatchTimeInterval?
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["DATABASE_PATH": databasePath, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"].merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let deadline = DispatchTime.now() + .seconds(60)
        DispatchQueue.global().asyncAfter(deadline: deadline) { if process.isRunning { process.terminate() } }
        if let stopAfter { DispatchQueue.global().asyncAfter(deadline: .now() + stopAfter) { if process.isRunning { process.terminate() } } }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    // MARK: Fixtures

    static func forecast(for chat: Int64, at place: Place, withChart: Bool = false) -> Subscription {
        Subscription(
            chatID: chat, place: place, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: now.addingTimeInterval(-60), createdAt: now,
            withChart: withChart)
    }

    static func chat(_ id: Int64) -> ChatRecord {
        ChatRecord(id: id, language: .ru, state: .idle, createdAt: now, updatedAt: now)
    }

    /// The reason ``BotDatabase/Contents`` gives for not reading `path`.
    static func unreadable(_ path: String) -> String? {
        do {
            _ = try StoreContents(readingFileAt: path)
            return nil
        } catch {
            return error.description
        }
    }

    static func withFolder<T>(_ body: (URL) async throws -> T) async rethrows -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-migrate-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// A bot's database in a temporary folder, filled through the store's API as the bot fills it:
    /// - chat 100 with a place, recent places, a state, two favorites (moved), a forecast with
    ///   its chart sent today (two messages in the bulk lane), two replies delivered (one under a
    ///   tag) and one waiting, tried once;
    /// - chat 200 with an update set aside (its apology waits);
    /// - chat 300 with an update waiting;
    /// - chat 400 that blocked the bot, its forecast paused and a follow-up waiting;
    /// - a run that was cut off, so each chat's first waiting item counts an attempt.
    static func withFilledDatabase<T>(_ body: (BotDatabase, String) async throws -> T) async throws -> T {
        try await withFolder { folder in
            let path = folder.appendingPathComponent("bot.sqlite").path
            let database = try BotDatabase.open(path: path)
            let updates: [(updateID: Int64, chatID: Int64?, payload: Data)] = [
                (1, 100, Data(#"{"update_id":1}"#.utf8)), (2, 100, Data(#"{"update_id":2}"#.utf8)), (3, 200, Data(#"{"update_id":3}"#.utf8)),
                (4, 400, Data(#"{"update_id":4}"#.utf8)), (5, 300, Data(#"{"update_id":5}"#.utf8)), (7, 200, Data(#"{"update_id":7}"#.utf8)),
                (9, nil, Data()),
            ]
            let items = try await database.receive(updates, lastUpdateID: 9, at: now)
            func seq(_ update: Int64) throws -> Int64 { try #require(items.first { $0.updateID == update }?.seq) }

            var first = chat(100)
            first.state = .confirmingCity(kazan)
            first.currentPlace = moscow
            _ = first.remember(kazan)
            _ = first.remember(sochi)
            first.questionSeq = 7
            first.lastMessageID = 77
            let step = try await database.commitStep(
                chat: first, handled: try seq(1),
                changes: [.addFavorite(moscow, limit: 20), .addFavorite(kazan, limit: 20), .subscribe(forecast(for: 100, at: moscow, withChart: true), limit: 5)],
                replies: [
                    .sendMessage(chatID: 100, text: "Москва?", tag: "card-1"), .sendMessage(chatID: 100, text: "🌤", tag: "card-2"),
                    .sendPhoto(chatID: 100, photo: "chart:moscow", caption: "📈"),
                ],
                followUps: [], at: now)
            try await database.retryOutbox(id: step.replyIDs[0], chatID: 100, notBefore: now.addingTimeInterval(30))
            try await database.completeOutbox(id: step.replyIDs[2], chatID: 100, at: now)
            try await database.completeOutbox(id: step.replyIDs[1], chatID: 100, tag: "card-2", messageID: 502, at: now)
            let kazanID = try #require(try database.favorites(chatID: 100).last?.id)
            try await database.commitStep(
                chat: first, handled: try seq(2), changes: [.moveFavorite(id: kazanID, to: 1)], replies: [], followUps: [], at: now)
            let subscription = try #require(try database.subscriptions(chatID: 100).first?.id)
            _ = try await database.commitDeliveries(
                [
                    DailyDelivery(
                        subscriptionID: subscription, chatID: 100, day: "2026-11-18",
                        requests: [.sendMessage(chatID: 100, text: "🗓"), .sendPhoto(chatID: 100, photo: "chart:moscow", caption: nil)],
                        nextSendAt: now.addingTimeInterval(86_400))
                ], at: now)

            let failing = try #require(items.first { $0.updateID == 3 })
            try await database.commitStep(chat: chat(200), handled: try seq(7), changes: [], replies: [], followUps: [], at: now)
            _ = try await database.setAside(failing, attempts: 5, error: "boom", apology: .sendMessage(chatID: 200, text: "Не удалось"), at: now)

            try await database.commitStep(
                chat: chat(400), handled: try seq(4), changes: [.addFavorite(sochi, limit: 20), .subscribe(forecast(for: 400, at: sochi), limit: 5)],
                replies: [.sendMessage(chatID: 400, text: "…")], followUps: [Data("later".utf8)], at: now)
            try await database.deactivateChat(400)
            try await database.commitStep(chat: chat(300), handled: try seq(5), changes: [], replies: [], followUps: [], at: now)
            _ = try await database.receive([(6, 300, Data(#"{"update_id":6}"#.utf8))], lastUpdateID: 9, rebasing: true, at: now)

            // A run that was cut off: the next counts an attempt against each chat's first item.
            try await database.beginRun()
            try await database.beginRun()
            return try await body(database, path)
        }
    }

    /// An empty database on the test server for one test, dropped after; its URL.
    static func withEmptyDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        let database = try await ScratchDatabase.create(on: try #require(serverURL), prefix: "weatherbot_migrate")
        do {
            let result = try await body(database.url)
            await database.drop()
            return result
        } catch {
            await database.drop()
            throw error
        }
    }

    /// Runs `body` with a store on `url` while its client runs.
    static func withStore<T>(_ url: String, _ body: (PostgresStore) async throws -> T) async throws -> T {
        let store = PostgresStore(try PostgresLocation(url: url), logger: logger)
        return try await withRunning([store.client]) { try await body(store) }
    }
}
