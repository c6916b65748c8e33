import BotClock
import Foundation
import GRDB
public import WeatherBotStore
import WeatherBotStoreSQL

extension BotStatus {
    /// Reads the status of the database at `path` without writing anything: opened read-only
    /// and not migrated. While a worker runs on it, the worker holds the file (its one connection
    /// locks it), and the status is the report it keeps beside it (``reportPath(for:)``), with
    /// ``reportedAt`` saying when it wrote it.
    public static func read(path: String) throws -> BotStatus {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(0.5)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try read(db, checkingFile: true) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            guard let report = try? Data(contentsOf: URL(fileURLWithPath: reportPath(for: path))),
                let status = try? JSONDecoder().decode(BotStatus.self, from: report)
            else { throw HeldWithoutReport(path: path) }
            return status
        }
    }

    /// The file beside the database where the worker that holds it writes its status.
    public static func reportPath(for path: String) -> String { path + "-status.json" }

    /// The database is held by a process that keeps no report: a worker of a version before
    /// reports, or another program.
    public struct HeldWithoutReport: Error, CustomStringConvertible {
        /// The database's path, as given to ``read(path:)``.
        public var path: String
        /// One line for `weatherbot status`, naming the report it looked for.
        public var description: String {
            "the database at \(path) is held by a running process, and no report of its status is beside it (\(BotStatus.reportPath(for: path)))"
        }
    }

    /// The status as a connection to the database reads it; `checkingFile` runs SQLite's quick
    /// check too, which reads the whole file.
    static func read(_ db: Database, checkingFile: Bool) throws -> BotStatus {
        func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
        func fact(_ key: WorkerFact.Key) throws -> String? {
            try String.fetchOne(db, sql: "SELECT value FROM workerFact WHERE key = ?", arguments: [key.rawValue])
        }
        let poll = try fact(.lastSuccessfulPoll)
        return BotStatus(
            lastSuccessfulPoll: WorkerFact.time(poll),
            inboxBacklog: try count("SELECT COUNT(*) FROM inbox"),
            inboxSetAside: try db.tableExists("inboxFailure") ? count("SELECT COUNT(*) FROM inboxFailure") : 0,
            lanes: try lanes(db),
            subscriptions: try count("SELECT COUNT(*) FROM subscription"),
            activeSubscriptions: try count("SELECT COUNT(*) FROM subscription WHERE isActive = 1"),
            chats: try count("SELECT COUNT(*) FROM chat"),
            dailyForecastsSkipped: try fact(.dailyForecastsSkipped).flatMap(Int.init) ?? 0,
            damage: checkingFile ? BotDatabase.quickCheck(db) : nil,
            openWeatherCallsToday: try BotDatabase.openWeatherCalls(onDay: CivilDate.utcDay(of: Date()), db),
            openWeatherLastMinute: WorkerFact.openWeatherMinute(try fact(.openWeatherLastMinute)),
            noticeChats: try noticeChats(db),
            noticeRound: NoticeRound(stored: try fact(.noticeRound)))
    }

    /// The chats the notice checker looks at; none in a database the worker has not yet
    /// migrated to every kind of notice (pollen came last), whose count reads them all.
    private static func noticeChats(_ db: Database) throws -> Int {
        guard try db.columns(in: "chat").contains(where: { $0.name == "noticePollen" }) else { return 0 }
        return try BotDatabase.fetchOne(BotDatabase.sql.noticeChatCount(), db) ?? 0
    }

    /// Each lane's backlog and oldest reply. A database the worker has not yet migrated to lanes
    /// holds only replies to chats.
    private static func lanes(_ db: Database) throws -> [OutboxLane: Lane] {
        let hasLanes = try db.columns(in: "outbox").contains { $0.name == "lane" }
        let sql =
            hasLanes
            ? "SELECT lane, COUNT(*), MIN(createdAt) FROM outbox GROUP BY lane"
            : "SELECT \(OutboxLane.interactive.rawValue), COUNT(*), MIN(createdAt) FROM outbox"
        var lanes: [OutboxLane: Lane] = [:]
        for row in try Row.fetchAll(db, sql: sql) {
            guard let lane = OutboxLane(rawValue: row[0]), let backlog: Int = row[1], backlog > 0 else { continue }
            lanes[lane] = Lane(backlog: backlog, oldest: row[2])
        }
        return lanes
    }
}

/// SQLite on GRDB, the embedded engine.
extension BotDatabase: BotStore, ReceivesSteps {
    /// SQLITE_CORRUPT or SQLITE_NOTADB, as `BotDatabase.isDamage(_:)` tells.
    public func isDamage(_ error: any Error) -> Bool { Self.isDamage(error) }
    /// A constraint, a value too big or of the wrong type, as `BotDatabase.isRejection(_:)` tells.
    public func isRejection(_ error: any Error) -> Bool { Self.isRejection(error) }
}
