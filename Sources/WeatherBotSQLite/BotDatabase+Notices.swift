public import Foundation
import GRDB
public import WeatherBotStore
import WeatherBotStoreSQL

/// Notices (`/alerts`): the chats the checker looks at, and the marks that keep each notice to one.
extension BotDatabase: NoticeStore {
    /// Two statements in one read, whatever the number of chats: the chats, then all their marks
    /// not expired.
    public func noticeChats(at now: Date) async throws -> [NoticeChat] {
        try reading { db in StoreSQL.noticeChats(try Self.fetch(Self.sql.noticeChats(), db), marks: try Self.fetch(Self.sql.noticeMarks(at: now), db)) }
    }

    /// One transaction, shared with the chats' steps and the sender as the daily forecasts' is:
    /// the expired marks go, then each delivery in order sets its mark, when its chat is active
    /// with a notice on and the mark held another value or none, and only then queues its
    /// requests in the notice lane with its deadline.
    @discardableResult
    public func commitNotices(_ deliveries: [NoticeDelivery], at now: Date) async throws -> [[Int64]] {
        try await group.submit { db in try Self.write(deliveries, now: now, db) }
    }

    private static func write(_ deliveries: [NoticeDelivery], now: Date, _ db: Database) throws -> [[Int64]] {
        _ = try run(sql.forgetExpiredMarks(at: now), db)
        return try run(sql.commitNotices(deliveries, at: now), db)
    }

    /// One row of `workerFact`, replaced in a transaction on the caller's thread.
    public func keepNoticeRound(_ round: NoticeRound) async throws {
        _ = try transaction { db in try Self.run(Self.sql.keepNoticeRound(round), db) }
    }

    /// Nil before the first round, or when what is kept does not read.
    public func noticeRound() async throws -> NoticeRound? {
        try reading { db in NoticeRound(stored: try Self.fact(.noticeRound, db)) }
    }
}
