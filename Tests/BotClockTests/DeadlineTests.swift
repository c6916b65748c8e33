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
        let stuck = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let started = ContinuousClock.now
        await #expect(throws: Deadline.Passed.self) {
            try await Deadline.within(.milliseconds(100)) {
                await withCheckedContinuation { continuation in stuck.withLock { $0 = continuation } }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        // Let it go, so that nothing is left waiting when the test ends.
        while stuck.withLock({ $0 == nil }) { await Task.yield() }
        stuck.withLock { $0?.resume() }
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
}
