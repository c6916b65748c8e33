import Synchronization

/// A wake-up call for a loop that sleeps until there is work: a signal sent while nobody waits is
/// kept (as one), so a wake is never lost and never piles up; a wait also ends at its timeout or
/// when its task is cancelled.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// Wakes every waiting loop, or the next one to wait.
    func signal() {
        let waiters = state.withLock { state in
            let waiters = state.waiters.values
            state.waiters.removeAll()
            if waiters.isEmpty { state.pending = true }
            return Array(waiters)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for a signal, at most `timeout`. Returns at once when one came since the last wait.
    /// The timer is a child task, cancelled as soon as the signal comes.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Waits for a signal, or for its task to be cancelled.
    private func wait() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    // Cancelled (the timer won, or the loop stops): a signal still to come is kept.
                    if Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            resume(id)
        }
    }

    private func resume(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
