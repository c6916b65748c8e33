import Dispatch
import GRDB
import Synchronization

/// Writes submitted concurrently share transactions: a write that finds no commit in progress is
/// committed at once, and the writes arriving meanwhile are committed together in the next
/// transaction. Under load one commit (and one write to the WAL) serves many chats; alone, a write
/// goes at once.
///
/// Commits run on a queue of their own, not on the thread of the write that started them: that
/// thread belongs to the pool the chats run on, and while SQLite held it, the pool's other
/// thread alone produced the writes for the next batch, so batches stayed small.
///
/// Each write sees the effects of those before it in the same transaction. When a shared
/// transaction fails, its writes are tried again one transaction each, so a write that fails does
/// so alone and the others still commit. A write may therefore run twice (the first time rolled
/// back): it must only touch the database.
final class GroupCommit: Sendable {
    private struct Job: Sendable {
        let body: @Sendable (Database) throws -> any Sendable
        let finish: @Sendable (Result<any Sendable, any Error>) -> Void
    }

    private struct State {
        var waiting: [Job] = []
        var committing = false
        var batches = 0
    }

    private let writer: any DatabaseWriter
    private let committer = DispatchQueue(label: "weatherbot.group-commit")
    private let state = Mutex(State())
    /// The most writes one transaction takes, so that no caller waits behind a huge batch.
    private let maximumBatch: Int

    init(writer: any DatabaseWriter, maximumBatch: Int = 256) {
        self.writer = writer
        self.maximumBatch = maximumBatch
    }

    /// Runs `body` in a transaction, possibly shared with other writes, and returns once it committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(body: { try body($0) }) { result in
                // The erased value is always the T that `body` returned.
                continuation.resume(with: result.map { $0 as! T })
            }
            let leads = state.withLock { state in
                state.waiting.append(job)
                if state.committing { return false }
                state.committing = true
                return true
            }
            if leads { committer.async { self.commitWaiting() } }
        }
    }

    /// How many batches were committed so far.
    var batches: Int { state.withLock { $0.batches } }
    /// How many writes wait for the commit in progress.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Commits batches until nothing waits, on the commit queue; the writers only wait for their
    /// result.
    private func commitWaiting() {
        while true {
            let batch: [Job] = state.withLock { state in
                let batch = Array(state.waiting.prefix(maximumBatch))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.committing = false } else { state.batches += 1 }
                return batch
            }
            if batch.isEmpty { return }
            commit(batch)
        }
    }

    private func commit(_ batch: [Job]) {
        if batch.count > 1 {
            do {
                let results = try writer.write { db in try batch.map { try $0.body(db) } }
                for (job, result) in zip(batch, results) { job.finish(.success(result)) }
                return
            } catch {
                // Fall through: find the write that failed by committing each alone.
            }
        }
        for job in batch {
            job.finish(Result { try writer.write { db in try job.body(db) } })
        }
    }
}
