import Synchronization

/// Tells waiting tasks that what they wait for may have changed, and nothing else: no timer.
///
/// A waiter takes the signal's ``generation`` before it looks at its condition, and waits for a
/// change since then (``wait(since:)``): a change that came in between ends the wait at once, so
/// none is lost, however many tasks wait. A wait also ends when its task is cancelled.
final class ChangeSignal: Sendable {
    private struct State {
        var generation = 0
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// Changes so far: what a waiter took before looking.
    var generation: Int { state.withLock { $0.generation } }

    /// Something changed: every waiting task wakes to look again.
    func signal() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until something changed after `seen` was taken, or the task is cancelled.
    func wait(since seen: Int) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits as ``wait(since:)``, and at most until `deadline`: for a loop that also has something
    /// to do at a given time.
    func wait(since seen: Int, until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(since: seen) }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Waits until `condition` holds, looking again at each change; returns early when the task
    /// is cancelled.
    func wait(until condition: () async -> Bool) async {
        while !Task.isCancelled {
            let seen = generation
            if await condition() { return }
            await wait(since: seen)
        }
    }
}
