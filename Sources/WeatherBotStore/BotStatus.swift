public import Foundation
import GRDB

/// How the worker is doing, read from its database by another process (`weatherbot status`).
public struct BotStatus: Sendable, Hashable {
    /// One lane of the outbox: how many replies wait, and since when the oldest.
    public struct Lane: Sendable, Hashable {
        public var backlog: Int
        /// When the oldest waiting reply was committed; nil when none waits.
        public var oldest: Date?

        public init(backlog: Int = 0, oldest: Date? = nil) {
            self.backlog = backlog
            self.oldest = oldest
        }
    }

    public var lastSuccessfulPoll: Date?
    public var inboxBacklog: Int
    /// Inbox items given up after failing again and again, kept in `inboxFailure`.
    public var inboxSetAside: Int
    public var lanes: [OutboxLane: Lane]
    public var subscriptions: Int
    public var activeSubscriptions: Int
    public var chats: Int
    /// SQLite's quick check: nil when the file is sound, else its first complaint.
    public var damage: String?

    public var outboxBacklog: Int { lanes.values.map(\.backlog).reduce(0, +) }

    public func lane(_ lane: OutboxLane) -> Lane { lanes[lane] ?? Lane() }

    /// Reads the status without writing anything: the database is opened read-only and not migrated.
    public static func read(path: String) throws -> BotStatus {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            let poll = try String.fetchOne(db, sql: "SELECT value FROM workerFact WHERE key = 'lastSuccessfulPollAt'")
            return BotStatus(
                lastSuccessfulPoll: poll.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)),
                inboxBacklog: try count("SELECT COUNT(*) FROM inbox"),
                inboxSetAside: try db.tableExists("inboxFailure") ? count("SELECT COUNT(*) FROM inboxFailure") : 0,
                lanes: try lanes(db),
                subscriptions: try count("SELECT COUNT(*) FROM subscription"),
                activeSubscriptions: try count("SELECT COUNT(*) FROM subscription WHERE isActive = 1"),
                chats: try count("SELECT COUNT(*) FROM chat"),
                damage: BotDatabase.quickCheck(db))
        }
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
