public import ServiceLifecycle
import Synchronization

/// Writes submitted while a transaction is under way share the next one: under load one commit
/// (one sync, one fence check, one statement per kind of row) serves many chats; alone, a write
/// goes at once. Each engine gives the transaction (`commit`); this decides who shares it.
///
/// When the commit of a shared transaction fails with ``StatementFailed``, its writes are tried
/// again one transaction each, so a write that fails does so alone and the others still commit;
/// a write may therefore run twice (the first time rolled back), and must only touch the
/// database. Any other failure (the lease lost, the connection or the commit failing) is every
/// write's: trying them again one by one would only repeat it, or, after a commit whose outcome
/// is unknown, write them twice.
///
/// The committing loop is a service (``run()``), run by the service group of whoever owns the
/// store, first, so that it stops after everything that writes. While it does not run (before the
/// group starts, after it stopped, in a one-off command or a test) a write finding no commit
/// under way commits in its own task, taking along the writes that come meanwhile; so a write
/// never waits for a loop that is not there.
///
/// A write nobody waits on (a delivered reply's removal on a quiet day) may linger
/// (``write(_:lingeringUpTo:)``): it waits for the next write that commits at once and shares its
/// transaction, or commits alone when its time is up or ``hurry()`` is called. Writes commit in
/// the order they came, lingering or not. Only the loop lingers: without it every write commits
/// at once.
public final class GroupCommit<Write: Sendable, Written: Sendable>: Service, Sendable {
    /// Commits writes in one transaction; returns, for each in order, what it wrote.
    public typealias Commit = @Sendable ([Write]) async throws -> [Written]

    /// A statement of a shared transaction failed, `underlying` saying why: its writes are tried
    /// again one transaction each.
    public struct StatementFailed: Error {
        /// The engine's error for the failed statement.
        public let underlying: any Error

        /// Wraps the engine's `underlying` error, so that the writes are tried again one by one.
        public init(underlying: any Error) {
            self.underlying = underlying
        }
    }

    private struct Job: Sendable {
        let write: Write
        /// Until when the write may wait for another to share its transaction; nil: none.
        var lingersUntil: ContinuousClock.Instant? = nil
        let finish: @Sendable (Result<Written, any Error>) -> Void
    }

    private struct State {
        var waiting: [Job] = []
        /// Writes waiting that commit at once (the others linger).
        var urgent = 0
        /// Whether the lingering writes waiting commit at once all the same.
        var hurried = false
        /// The loop's timer, told the time the first lingering write is due.
        var timer: AsyncStream<ContinuousClock.Instant>.Continuation?
        /// Whether someone (the loop, or a write while it does not run) commits the waiting writes.
        var committing = false
        /// How the loop is woken, while it runs.
        var loop: AsyncStream<Void>.Continuation?
        var batches = 0
        var shared = 0
    }

    private enum Turn: Sendable {
        case written(Result<Written, any Error>)
        /// Nobody commits: the write commits itself.
        case lead
    }

    private let commit: Commit
    /// The most writes one transaction takes, so that no caller waits behind a huge batch.
    private let maximumBatch: Int
    private let state = Mutex(State())

    /// Commits through `commit`, at most `maximumBatch` writes a transaction (SQLite takes 256, PostgreSQL 128).
    public init(maximumBatch: Int, commit: @escaping Commit) {
        self.maximumBatch = maximumBatch
        self.commit = commit
    }

    /// Transactions committed so far.
    public var batches: Int { state.withLock { $0.batches } }
    /// Transactions that carried more than one write so far.
    public var shared: Int { state.withLock { $0.shared } }
    /// Writes waiting for the commit under way.
    public var waiting: Int { state.withLock { $0.waiting.count } }
    /// Whether the committing loop runs.
    public var isRunning: Bool { state.withLock { $0.loop != nil } }

    /// Commits `write`, possibly with others; returns once it committed.
    public func write(_ write: Write) async throws -> Written {
        try await self.write(write, lingeringUpTo: .zero)
    }

    /// Commits `write`, letting it wait up to `linger` for another write that commits at once to
    /// share its transaction; returns once it committed.
    public func write(_ write: Write, lingeringUpTo linger: Duration) async throws -> Written {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let job = Job(write: write) { continuation.resume(returning: .written($0)) }
            typealias Timer = (AsyncStream<ContinuousClock.Instant>.Continuation, ContinuousClock.Instant)
            let (leads, loop, timer) = state.withLock { state -> (Bool, AsyncStream<Void>.Continuation?, Timer?) in
                if state.loop == nil && !state.committing {
                    state.committing = true
                    return (true, nil, nil)
                }
                var job = job
                if linger > .zero, state.loop != nil { job.lingersUntil = .now + linger } else { state.urgent += 1 }
                state.waiting.append(job)
                guard let due = job.lingersUntil else { return (false, state.loop, nil) }
                // A commit under way, or a write that commits at once, takes it along; or the timer
                // already set for a lingering write before it.
                if state.hurried { return (false, state.loop, nil) }
                if state.committing || state.urgent > 0 || state.waiting.count > 1 { return (false, nil, nil) }
                return (false, nil, state.timer.map { ($0, due) })
            }
            if leads { continuation.resume(returning: .lead) } else { loop?.yield() }
            if let (timer, due) = timer { timer.yield(due) }
        }
        switch turn {
        case .written(let result):
            return try result.get()
        case .lead:
            let own = Mutex<Result<Written, any Error>?>(nil)
            await commitWaiting(first: Job(write: write) { result in own.withLock { $0 = result } })
            return try own.withLock { $0 }!.get()
        }
    }

    /// Commits the lingering writes waiting now, or the next to come if none waits yet, without
    /// waiting for their time.
    public func hurry() {
        let loop = state.withLock { state -> AsyncStream<Void>.Continuation? in
            state.hurried = true
            return state.loop
        }
        loop?.yield()
    }

    /// Commits the writes as they come, until a graceful shutdown; then the ones still waiting.
    public func run() async throws {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (dues, timer) = AsyncStream.makeStream(of: ContinuousClock.Instant.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            state.loop = wake
            state.timer = timer
            if !state.waiting.isEmpty { wake.yield() }
        }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    // Wakes the loop when the first lingering write is due.
                    for await due in dues {
                        try? await Task.sleep(until: due, clock: .continuous)
                        wake.yield()
                    }
                }
                for await _ in wakes { await commitIfIdle() }
                timer.finish()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            // Ends the loop after the commit under way, not in the middle of it.
            wake.finish()
        }
        state.withLock {
            $0.loop = nil
            $0.timer = nil
        }
        // What came before the loop was gone, lingering or not; from now on writes commit themselves.
        await commitIfIdle()
    }

    private func commitIfIdle() async {
        let idle = state.withLock { state in
            guard !state.committing, !state.waiting.isEmpty else { return false }
            state.committing = true
            return true
        }
        if idle { await commitWaiting(first: nil) }
    }

    /// Commits batches, `first` in the first, until nothing waits but writes that may still
    /// linger; then nobody commits.
    private func commitWaiting(first: Job?) async {
        var first = first
        while true {
            let (batch, timer): ([Job], (AsyncStream<ContinuousClock.Instant>.Continuation, ContinuousClock.Instant)?) = state.withLock { state in
                if first == nil, let due = state.waiting.first?.lingersUntil, state.urgent == 0, !state.hurried, state.loop != nil,
                    due > .now
                {
                    state.committing = false
                    return ([], state.timer.map { ($0, due) })
                }
                let taken = Array(state.waiting.prefix(maximumBatch - (first == nil ? 0 : 1)))
                state.waiting.removeFirst(taken.count)
                state.urgent -= taken.count(where: { $0.lingersUntil == nil })
                if state.waiting.isEmpty { state.hurried = false }
                let batch = (first.map { [$0] } ?? []) + taken
                if batch.isEmpty {
                    state.committing = false
                } else {
                    state.batches += 1
                    if batch.count > 1 { state.shared += 1 }
                }
                return (batch, nil)
            }
            first = nil
            if let (timer, due) = timer { timer.yield(due) }
            if batch.isEmpty { return }
            await commit(batch)
        }
    }

    private func commit(_ batch: [Job]) async {
        do {
            // A closure, not `\.write`: in this generic class a key path is built at run time on
            // every commit (measured: 1 % of the worker's CPU at 20 updates a second).
            let results = try await commit(batch.map { $0.write })
            for (job, result) in zip(batch, results) { job.finish(.success(result)) }
        } catch is StatementFailed where batch.count > 1 {
            for job in batch {
                do {
                    job.finish(.success(try await commit([job.write])[0]))
                } catch {
                    job.finish(.failure(Self.reason(error)))
                }
            }
        } catch {
            for job in batch { job.finish(.failure(Self.reason(error))) }
        }
    }

    private static func reason(_ error: any Error) -> any Error {
        (error as? StatementFailed)?.underlying ?? error
    }
}
