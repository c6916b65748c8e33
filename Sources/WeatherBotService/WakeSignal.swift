/// A wake-up call for a loop that sleeps until there is work: signals sent while nobody waits are
/// kept as one, so a wake is never lost and never piles up.
struct WakeSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func signal() {
        continuation.yield()
    }

    /// Waits for a signal, or at most `timeout`. Returns at once when one came since the last wait.
    func wait(timeout: Duration) async {
        let stream = stream
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                _ = await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
            }
            await group.next()
            group.cancelAll()
        }
    }

    func finish() {
        continuation.finish()
    }
}
