import BotClock
import Foundation
import GRDB
public import WeatherBotStore

extension BotStatus {
    /// Reads the status without writing anything: the database is opened read-only and not migrated.
    public static func read(path: String) throws -> BotStatus {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
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
                damage: BotDatabase.quickCheck(db),
                openWeatherCallsToday: try BotDatabase.openWeatherCalls(onDay: CivilDate.utcDay(of: Date()), db),
                openWeatherLastMinute: WorkerFact.openWeatherMinute(try fact(.openWeatherLastMinute)),
                noticeChats: try noticeChats(db),
                noticeRound: NoticeRound(stored: try fact(.noticeRound)))
        }
    }

    /// The chats the notice checker looks at; none in a database the worker has not yet
    /// migrated to notices.
    private static func noticeChats(_ db: Database) throws -> Int {
        guard try db.columns(in: "chat").contains(where: { $0.name == "noticeRain" }) else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chat WHERE \(BotDatabase.noticeChatCondition)") ?? 0
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
    public func isDamage(_ error: any Error) -> Bool { Self.isDamage(error) }
    public func isRejection(_ error: any Error) -> Bool { Self.isRejection(error) }
}
