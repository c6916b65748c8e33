import WeatherBotStore

/// Writes submitted while a transaction is under way share the next one, as on SQLite
/// (`GroupCommit`): under load one commit, one fence check and one statement per kind of row
/// serve many chats; alone, a write goes at once. When a shared transaction fails, its writes are
/// tried again one transaction each, so a write that fails does so alone.
actor PostgresGroupCommit {
    private struct Job {
        let write: SharedWrite
        let continuation: CheckedContinuation<CommittedStep?, any Error>
    }

    /// Commits writes in one transaction (``PostgresStore``'s fenced transaction); returns, for
    /// each in order, what a step committed.
    typealias Commit = @Sendable ([SharedWrite]) async throws -> [CommittedStep?]

    private let commit: Commit
    private let maximumBatch: Int
    private var waiting: [Job] = []
    private var committing = false

    init(maximumBatch: Int = 128, commit: @escaping Commit) {
        self.maximumBatch = maximumBatch
        self.commit = commit
    }

    /// Commits `write`, possibly with others; returns once it committed.
    func write(_ write: SharedWrite) async throws -> CommittedStep? {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append(Job(write: write, continuation: continuation))
            if !committing {
                committing = true
                Task { await self.commitWaiting() }
            }
        }
    }

    private func commitWaiting() async {
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(maximumBatch))
            waiting.removeFirst(batch.count)
            do {
                let results = try await commit(batch.map(\.write))
                for (job, result) in zip(batch, results) { job.continuation.resume(returning: result) }
            } catch {
                guard batch.count > 1 else {
                    batch[0].continuation.resume(throwing: error)
                    continue
                }
                for job in batch {
                    do {
                        job.continuation.resume(returning: try await commit([job.write])[0])
                    } catch {
                        job.continuation.resume(throwing: error)
                    }
                }
            }
        }
        committing = false
    }
}
