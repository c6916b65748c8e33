import PostgresNIO

/// Writes submitted while a transaction is under way share the next one, as on SQLite
/// (`GroupCommit`): under load one commit, one fence check and one round of the server's log
/// serve many chats; alone, a write goes at once. When a shared transaction fails, its writes are
/// tried again one transaction each, so a write that fails does so alone. A write may therefore
/// run twice (the first time rolled back): it must only touch the database.
actor PostgresGroupCommit {
    private struct Job {
        let body: @Sendable (PostgresConnection) async throws -> any Sendable
        let continuation: CheckedContinuation<any Sendable, any Error>
    }

    /// Runs the writes of one transaction (``PostgresStore``'s fenced transaction).
    typealias Transaction = @Sendable (@Sendable (PostgresConnection) async throws -> [any Sendable]) async throws -> [any Sendable]

    private let transaction: Transaction
    private let maximumBatch: Int
    private var waiting: [Job] = []
    private var committing = false

    init(maximumBatch: Int = 128, transaction: @escaping Transaction) {
        self.maximumBatch = maximumBatch
        self.transaction = transaction
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            waiting.append(Job(body: { try await body($0) }, continuation: continuation))
            if !committing {
                committing = true
                Task { await self.commitWaiting() }
            }
        }
        // The erased value is always the T that `body` returned.
        return result as! T
    }

    private func commitWaiting() async {
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(maximumBatch))
            waiting.removeFirst(batch.count)
            let bodies = batch.map(\.body)
            do {
                let results = try await transaction { connection in
                    var results: [any Sendable] = []
                    for body in bodies { results.append(try await body(connection)) }
                    return results
                }
                for (job, result) in zip(batch, results) { job.continuation.resume(returning: result) }
            } catch {
                for job in batch {
                    do {
                        let results = try await transaction { connection in [try await job.body(connection)] }
                        job.continuation.resume(returning: results[0])
                    } catch {
                        job.continuation.resume(throwing: error)
                    }
                }
            }
        }
        committing = false
    }
}
