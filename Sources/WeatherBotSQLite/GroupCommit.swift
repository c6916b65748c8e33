public import GRDB
import WeatherBotStoreSQL

/// A write of the busy paths (chat steps, delivered replies, deliveries, posts): the part of a
/// transaction it needs, whose value it returns.
public typealias SQLiteWrite = @Sendable (Database) throws -> any Sendable

extension GroupCommit where Write == SQLiteWrite, Written == any Sendable {
    /// Writes on `writer`, many to a transaction, synchronously wherever the committing task runs:
    /// in the bot, its one event loop (a hop to GRDB's writer thread cost more CPU than it saved,
    /// BENCHMARKS.md); writes that come meanwhile share the next. When a shared transaction fails,
    /// whatever the reason, its writes are tried again one each: on SQLite a failure is a
    /// statement's.
    static func sqlite(_ writer: any DatabaseWriter, maximumBatch: Int = 256) -> GroupCommit {
        GroupCommit(maximumBatch: maximumBatch) { writes in
            do {
                return try commitNow(writes, on: writer)
            } catch {
                throw StatementFailed(underlying: error)
            }
        }
    }

    /// The writes in one transaction, on the caller's thread.
    private static func commitNow(_ writes: [SQLiteWrite], on writer: any DatabaseWriter) throws -> [any Sendable] {
        try writer.write { db in try writes.map { try $0(db) } }
    }

    /// Runs `body` in a transaction, possibly shared with other writes, and returns once it
    /// committed; it may wait up to `linger` for another write to share it.
    func submit<T: Sendable>(lingeringUpTo linger: Duration = .zero, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // The erased value is always the T that `body` returned.
        try await write({ db in try body(db) } as SQLiteWrite, lingeringUpTo: linger) as! T
    }
}
