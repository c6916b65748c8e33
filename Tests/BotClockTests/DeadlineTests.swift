import BotClock
import Synchronization
import Testing

@Suite struct DeadlineTests {
    @Test func anAnswerWithinTheLimitIsReturned() async throws {
        #expect(try await Deadline.within(.seconds(5)) { 42 } == 42)
        await #expect(throws: Parsing.self) { try await Deadline.within(.seconds(5)) { () throws -> Int in throw Parsing() } }
    }

    @Test func workThatDoesNotNoticeCancellationDoesNotHoldTheCallerPastTheLimit() async throws {
        // Work stuck on something that ignores cancellation, like a connection that never answers.
        // Only a watchdog, long after the limit, lets it go: the caller must have had its answer before.
        let stuck = Stuck()
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(60))
            stuck.release(byWatchdog: true)
        }
        await #expect(throws: Deadline.Passed.self) {
            try await Deadline.within(.milliseconds(100)) { await stuck.wait() }
        }
        #expect(!stuck.releasedByWatchdog, "the caller waited until the stuck work was let go")
        // Let it go, so that nothing is left waiting when the test ends.
        while !stuck.isWaiting && !stuck.releasedByWatchdog { await Task.yield() }
        watchdog.cancel()
        stuck.release(byWatchdog: false)
    }

    @Test func theCallersCancellationEndsTheWait() async throws {
        let waiting = Task { try await Deadline.within(.seconds(60)) { try await Task.sleep(for: .seconds(60)) } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func thePassedLimitSaysHowLong() {
        #expect("\(Deadline.Passed(limit: .seconds(2)))" == "no answer within 2 s")
    }

    struct Parsing: Error {}

    /// Work that waits until it is let go, whatever cancellation says.
    final class Stuck: Sendable {
        private let state = Mutex<(waiting: CheckedContinuation<Void, Never>?, byWatchdog: Bool)>((nil, false))

        func wait() async {
            await withCheckedContinuation { continuation in state.withLock { $0.waiting = continuation } }
        }

        var isWaiting: Bool { state.withLock { $0.waiting != nil } }
        var releasedByWatchdog: Bool { state.withLock { $0.byWatchdog } }

        func release(byWatchdog: Bool) {
            state.withLock {
                $0.byWatchdog = $0.byWatchdog || byWatchdog
                $0.waiting?.resume()
                $0.waiting = nil
            }
        }
    }
}
