import BotClock
import ArgumentParser
import Foundation
import Logging
import OpenWeather
import WeatherBotPostgres
import WeatherBotStore
import WeatherBotSQLite

@main
struct WeatherBotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weatherbot",
        abstract: "A Telegram weather bot: long-polls the Bot API (or takes its webhook posts) and answers with OpenWeather forecasts.",
        discussion: """
            Configuration comes from a JSON file (--config) and the environment, the environment winning:
            \(BotConfiguration.help)
            See config.example.json for every key: telegram.botToken in the file is TELEGRAM_BOT_TOKEN.

            To move from the SQLite file to PostgreSQL, stop the bot and run
              weatherbot migrate-store --to postgres://user:password@host:5432/name
            then start the replicas with DATABASE_URL set to the same URL.
            """,
        subcommands: [Run.self, CheckConfig.self, Status.self, MigrateStore.self],
        defaultSubcommand: Run.self
    )
}

/// Options every command takes.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON configuration file; environment variables override it.", valueName: "path"))
    var config: String?

    /// Loads the configuration, or prints what is wrong in one line each and exits with code 2.
    func load() async throws -> BotConfiguration {
        try await exitingOnInvalid { try await BotConfiguration.load(configPath: config) }
    }

    /// Only the database section: commands that read the database need no secrets.
    func database() async throws -> BotConfiguration.Database {
        try await exitingOnInvalid { try await BotConfiguration.database(configPath: config) }
    }

    /// Only OpenWeather's budget, read as the worker reads it.
    func openWeatherBudget() async throws -> CallBudget.Limits {
        try await exitingOnInvalid { try await BotConfiguration.openWeatherBudget(configPath: config) }
    }

    private func exitingOnInvalid<Value>(_ read: () async throws -> Value) async throws -> Value {
        do {
            return try await read()
        } catch let invalid as BotConfiguration.Invalid {
            FileHandle.standardError.write(Data((invalid.description + "\n").utf8))
            throw ExitCode(2)
        }
    }
}

extension WeatherBotCommand {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start the bot: take updates from Telegram (polling or webhook), answer chats, send replies (the default command).")

        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let configuration = try await options.load()
            do {
                try await BotApplication(configuration: configuration).run()
            } catch let failure as BotApplication.StartFailure {
                FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the worker's health from its database; exit 1 when polling has failed for too long.",
            discussion: "Made for a container HEALTHCHECK: it needs only the database path, not the secrets.")

        @OptionGroup var options: ConfigOptions

        @Option(help: ArgumentHelp("Seconds without a successful poll after which the worker counts as unhealthy.", valueName: "seconds"))
        var maxPollAge: Int = 300

        func run() async throws {
            let database = try await options.database()
            if let location = database.url {
                return try await replicaStatus(location)
            }
            let path = database.path
            guard FileManager.default.fileExists(atPath: path) else {
                FileHandle.standardError.write(Data("unhealthy: no database at \(path)\n".utf8))
                throw ExitCode(1)
            }
            let status: BotStatus
            do {
                status = try BotStatus.read(path: path)
            } catch {
                FileHandle.standardError.write(Data("unhealthy: cannot read the database at \(path): \(error)\n".utf8))
                throw ExitCode(1)
            }
            if let damage = status.damage {
                print("unhealthy: \(DatabaseDamaged(detail: damage))")
                throw ExitCode(1)
            }
            let formatter = ISO8601DateFormatter()
            if let reportedAt = status.reportedAt {
                // The worker holds the file: what it reported, every ten seconds while it runs.
                let reportAge = Int(max(Date().timeIntervalSince(reportedAt), 0))
                print("the running bot holds the database; its report of \(formatter.string(from: reportedAt)) (\(reportAge) s ago):")
                guard reportAge <= Self.reportAgeAllowed else {
                    print("unhealthy: the bot holding the database has not reported for \(reportAge) s")
                    throw ExitCode(1)
                }
            }
            let age = status.lastSuccessfulPoll.map { Date().timeIntervalSince($0) }
            print("last contact with Telegram (a poll, or the webhook): \(status.lastSuccessfulPoll.map { "\(formatter.string(from: $0)) (\(Int(age ?? 0)) s ago)" } ?? "never")")
            print("inbox backlog: \(status.inboxBacklog)")
            if status.inboxSetAside > 0 {
                print("inbox items set aside: \(status.inboxSetAside) (they failed again and again; see the table inboxFailure)")
            }
            for lane in OutboxLane.allCases {
                let waiting = status.lane(lane)
                let oldest = waiting.oldest.map { ", oldest waiting \(Int(max(Date().timeIntervalSince($0), 0))) s" } ?? ""
                print("outbox \(lane): \(waiting.backlog)\(oldest)")
            }
            print("chats: \(status.chats)")
            print("subscriptions: \(status.subscriptions) (\(status.activeSubscriptions) active)")
            print(Self.skipped(status.dailyForecastsSkipped))
            let budget = try await options.openWeatherBudget()
            let (openWeather, others) = Self.bySource(status.openWeatherCallsToday)
            print(Self.openWeatherCalls(openWeather, perDay: budget.perDay))
            if let openMeteo = others["open-meteo"] { print(Self.openWeatherCalls(openMeteo, perDay: nil, source: "Open-Meteo")) }
            print(Self.openWeatherMinute(status.openWeatherLastMinute, budget: budget))
            for line in Self.notices(chats: status.noticeChats, round: status.noticeRound) { print(line) }
            guard let age, age <= Double(maxPollAge) else {
                print("unhealthy: no successful poll in the last \(maxPollAge) s")
                throw ExitCode(1)
            }
            print("healthy")
        }

        /// How old the running worker's report may be: it writes one every ten seconds.
        static let reportAgeAllowed = 60

        /// The line about OpenWeather's calls today, what the key's day is counted by: the total
        /// against the daily cap, then by endpoint, most first.
        static func openWeatherCalls(_ calls: [String: Int], perDay: Int?, source: String = "OpenWeather") -> String {
            let total = calls.values.reduce(0, +)
            let byEndpoint = calls.filter { $0.value > 0 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
            return "\(source) calls today (UTC): \(total)\(perDay.map { Self.of($0, "a day") } ?? "")"
                + (byEndpoint.isEmpty ? "" : " (" + byEndpoint.joined(separator: ", ") + ")")
        }

        /// The day's stored calls, OpenWeather's (named by endpoint alone) apart from the other
        /// sources' (`open-meteo.forecast`), which are by source.
        static func bySource(_ calls: [String: Int]) -> (openWeather: [String: Int], others: [String: [String: Int]]) {
            var openWeather: [String: Int] = [:]
            var others: [String: [String: Int]] = [:]
            for (key, count) in calls {
                let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
                if parts.count == 2 { others[parts[0], default: [:]][parts[1]] = count } else { openWeather[key] = count }
            }
            return (openWeather, others)
        }

        /// The line about OpenWeather's calls in the 60 seconds before `now`, as the worker last
        /// kept them (every ten seconds while it calls), against the minute's budget and a chat's.
        static func openWeatherMinute(_ kept: [Int: Int], budget: CallBudget.Limits, now: Date = Date()) -> String {
            let calls = kept.filter { Double($0.key) > now.timeIntervalSince1970 - 60 }.values.reduce(0, +)
            return "OpenWeather calls in the last minute: \(calls)\(Self.of(budget.perMinute, "a minute"))"
                + (budget.perChat > 0 ? ", \(budget.perChat) a minute for one chat" : "")
        }

        /// The lines about notices: the chats with them on, and what the checker's last round did.
        static func notices(chats: Int, round: NoticeRound?, now: Date = Date()) -> [String] {
            var lines = ["chats with notices on: \(chats)"]
            guard let round else { return lines + ["notice checks: none yet"] }
            let ago = Int(max(now.timeIntervalSince(round.at), 0))
            lines.append(
                "notice checks: the last round \(ago) s ago checked \(round.checked) of \(round.cells) places in \(Int(round.seconds.rounded())) s, "
                    + "\(Int(round.interval.rounded())) s after the one before"
                    + (round.uncovered > 0 ? "; OpenWeather's budget cannot check \(round.uncovered) places each interval (those with fewest chats wait)" : ""))
            lines.append(
                "notices in the last round: \(round.queued) queued, \(round.late) too late to send, \(round.quiet) dropped in quiet hours, "
                    + "\(round.held) held for the end of quiet hours, \(round.deduplicated) warnings' entries not told again")
            return lines
        }

        /// « of 60 a minute» against a cap, «, no cap a day» without one.
        private static func of(_ cap: Int, _ per: String) -> String { cap > 0 ? " of \(cap) \(per)" : ", no cap \(per)" }

        /// The line about daily forecasts that were never sent.
        static func skipped(_ count: Int) -> String {
            "daily forecasts skipped: \(count)" + (count > 0 ? " (missed for longer than the grace period: the bot was down, or OpenWeather was and no earlier weather of the place was known)" : "")
        }

        /// On PostgreSQL: which replica is active and since when, and the queues.
        private func replicaStatus(_ location: PostgresLocation) async throws {
            var logger = Logger(label: "weatherbot.status")
            logger.logLevel = .critical
            let store = PostgresStore(location, logger: logger)
            let formatter = ISO8601DateFormatter()
            do {
                try await location.checkConnection(logger: logger)
            } catch {
                FileHandle.standardError.write(Data("unhealthy: cannot connect to the database at \(location): \(PostgresStore.describe(error))\n".utf8))
                throw ExitCode(1)
            }
            try await withRunning([store.client]) {
                let standing: LeaderLease.Standing?
                let backlog: [(OutboxLane, Int)]
                do {
                    standing = try await LeaderLease(client: store.client, logger: logger).standing()
                    var lanes: [(OutboxLane, Int)] = []
                    for lane in OutboxLane.allCases { lanes.append((lane, try await store.outboxBacklog(lane: lane))) }
                    backlog = lanes
                    print("inbox backlog: \(try await store.pendingInbox().count)")
                    print(Self.skipped(try await store.dailyForecastsSkipped()))
                    let budget = try await options.openWeatherBudget()
                    print(Self.openWeatherCalls(try await store.openWeatherCalls(onDay: CivilDate.utcDay(of: Date())), perDay: budget.perDay))
                    print(Self.openWeatherMinute(try await store.openWeatherMinute(), budget: budget))
                    for line in Self.notices(chats: try await store.noticeChatCount(), round: try await store.noticeRound()) { print(line) }
                } catch {
                    FileHandle.standardError.write(Data("unhealthy: cannot read the database at \(location): \(PostgresStore.describe(error))\n".utf8))
                    throw ExitCode(1)
                }
                for (lane, count) in backlog { print("outbox \(lane): \(count)") }
                guard let standing, standing.isCurrent else {
                    print("active replica: none\(standing.map { " (the last, \($0.holder), let its lease run out at \(formatter.string(from: $0.expiresAt)))" } ?? "")")
                    print("unhealthy: no replica is active")
                    throw ExitCode(1)
                }
                print("active replica: \(standing.holder) (epoch \(standing.epoch)) since \(formatter.string(from: standing.acquiredAt))")
                print("healthy")
            }
        }
    }

    struct CheckConfig: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Validate the configuration and print it, secrets redacted.",
            discussion: """
                Every key, by its environment variable (in the --config file, TELEGRAM_BOT_TOKEN is telegram.botToken):
                \(BotConfiguration.help)
                """)

        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let configuration = try await options.load()
            for warning in configuration.warnings {
                FileHandle.standardError.write(Data((warning + "\n").utf8))
            }
            print(configuration.description)
            print("\nweather sources: \(configuration.sources)")
        }
    }
}
