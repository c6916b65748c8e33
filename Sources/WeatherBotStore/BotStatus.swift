import Foundation
import GRDB

/// How the worker is doing, read from its database by another process (`weatherbot status`).
public struct BotStatus: Sendable, Hashable {
    public var lastSuccessfulPoll: Date?
    public var inboxBacklog: Int
    public var outboxBacklog: Int
    public var subscriptions: Int
    public var activeSubscriptions: Int
    public var chats: Int

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
                outboxBacklog: try count("SELECT COUNT(*) FROM outbox"),
                subscriptions: try count("SELECT COUNT(*) FROM subscription"),
                activeSubscriptions: try count("SELECT COUNT(*) FROM subscription WHERE isActive = 1"),
                chats: try count("SELECT COUNT(*) FROM chat"))
        }
    }
}
