import ArgumentParser
import Foundation
import Logging
import WeatherBotPostgres
import WeatherBotStore
import WeatherBotSQLite

extension WeatherBotCommand {
    struct MigrateStore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate-store",
            abstract: "Copy the SQLite database into an empty PostgreSQL one, to run replicas on it.",
            discussion: """
                Stop the bot first. The SQLite file is the one the configuration names (--config, DATABASE_PATH); \
                it is only read. The target must hold no bot data: its schema is brought up to date, everything is \
                copied in one transaction, and each table's rows are counted on both sides. Exit code 0 when the \
                counts match, 1 when the copy was refused or failed or a count differs, 2 for an invalid URL or \
                configuration. Then start the replicas with DATABASE_URL set to the same URL.
                """)

        @OptionGroup var options: ConfigOptions

        @Option(
            name: .customLong("to"),
            help: ArgumentHelp("The PostgreSQL database to copy into: postgres://user:password@host:5432/name[?sslmode=…].", valueName: "url"))
        var target: String

        func run() async throws {
            let secret = Secret(url: target)
            let location: PostgresLocation
            do {
                location = try PostgresLocation(url: target)
            } catch {
                throw secret.fail("error: --to must be postgres://user:password@host:port/name: \(error)", code: 2)
            }
            let path = try await options.database().path
            let contents: StoreContents
            do {
                contents = try StoreContents(readingFileAt: path)
            } catch {
                throw secret.fail("error: \(error)")
            }
            secret.print("copying \(path) into \(location)")
            for warning in StoreMigration.warnings(about: contents) { secret.print(warning, to: .standardError) }

            var logger = Logger(label: "weatherbot.migrate-store")
            logger.logLevel = .critical
            do {
                try await location.checkConnection(logger: logger)
            } catch {
                throw secret.fail("error: cannot connect to \(location): \(PostgresStore.describe(error))")
            }
            let store = PostgresStore(location, logger: logger)
            let report = try await withRunning([store.client]) {
                do {
                    return try await StoreMigration.copy(contents, into: store, logger: logger)
                } catch let refusal as StoreMigration.Refusal {
                    throw secret.fail("error: \(refusal)")
                } catch {
                    throw secret.fail("error: cannot copy into \(location): \(PostgresStore.describe(error))")
                }
            }

            let width = max(report.counts.map(\.table.count).max() ?? 0, "table".count)
            func line(_ table: String, _ sqlite: String, _ postgres: String) -> String {
                table.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(repeating: " ", count: max(0, 6 - sqlite.count)) + sqlite
                    + "  " + String(repeating: " ", count: max(0, 10 - postgres.count)) + postgres
            }
            secret.print(line("table", "SQLite", "PostgreSQL"))
            for count in report.counts {
                secret.print(line(count.table, "\(count.sqlite)", "\(count.postgres)") + (count.matches ? "" : "  differs"))
            }
            guard report.matches else {
                throw secret.fail("error: the copy was committed, but some counts differ (above): do not start the replicas on it")
            }
            secret.print("done: start the replicas with DATABASE_URL set to this database; keep \(path) until they run well")
        }
    }
}

/// The password of the `--to` URL, kept out of everything the command prints, whatever printed it.
private struct Secret {
    let hidden: [String]

    init(url: String) {
        let components = URLComponents(string: url)
        hidden = [components?.percentEncodedPassword, components?.password].compactMap { $0 }.filter { !$0.isEmpty }
    }

    func redacted(_ text: String) -> String {
        hidden.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    enum Stream { case standardOutput, standardError }

    func print(_ line: String, to stream: Stream = .standardOutput) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data((redacted(line) + "\n").utf8))
    }

    /// Prints `line` on standard error and returns the exit code to throw.
    func fail(_ line: String, code: Int32 = 1) -> ExitCode {
        print(line, to: .standardError)
        return ExitCode(code)
    }
}
