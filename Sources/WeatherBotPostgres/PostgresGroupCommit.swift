import WeatherBotStore

/// Writes submitted while a transaction is under way share the next one, as on SQLite
/// (`GroupCommit`): under load one commit, one fence check and one statement per kind of row
/// serve many chats; alone, a write goes at once. When a statement of a shared transaction fails
/// (``WriteFailed``), its writes are tried again one transaction each, so a write that fails does
/// so alone. Any other failure (the lease lost, the connection or the commit failing) is every
/// write's: trying them again one by one would only repeat it, or, after a commit whose outcome
/// is unknown, write them twice.
///
/// The chats' steps and the sender's completions share fenced transactions (``SharedWrite``);
/// the updates posted to the webhook share unfenced statements.
actor PostgresGroupCommit<Write: Sendable, Written: Sendable> {
    private struct Job {
        let write: Write
        let continuation: CheckedContinuation<Written, any Error>
    }

    /// Commits writes in one transaction; returns, for each in order, what it wrote.
    typealias Commit = @Sendable ([Write]) async throws -> [Written]

    private let commit: Commit
    private let maximumBatch: Int
    private var waiting: [Job] = []
    private var committing = false
    /// Transactions that carried more than one write so far.
    private(set) var shared = 0

    init(maximumBatch: Int = 128, commit: @escaping Commit) {
        self.maximumBatch = maximumBatch
        self.commit = commit
    }

    /// Commits `write`, possibly with others; returns once it committed.
    func write(_ write: Write) async throws -> Written {
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
            if batch.count > 1 { shared += 1 }
            do {
                let results = try await commit(batch.map(\.write))
                for (job, result) in zip(batch, results) { job.continuation.resume(returning: result) }
            } catch is WriteFailed where batch.count > 1 {
                for job in batch {
                    do {
                        job.continuation.resume(returning: try await commit([job.write])[0])
                    } catch {
                        job.continuation.resume(throwing: Self.reason(error))
                    }
                }
            } catch {
                for job in batch { job.continuation.resume(throwing: Self.reason(error)) }
            }
        }
        committing = false
    }

    private static func reason(_ error: any Error) -> any Error {
        (error as? WriteFailed)?.underlying ?? error
    }
}

/// A statement of a shared transaction failed, `underlying` saying why: its writes are tried
/// again one transaction each.
struct WriteFailed: Error {
    let underlying: any Error
}
