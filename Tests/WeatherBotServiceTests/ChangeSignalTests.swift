import Synchronization
import Testing
@testable import WeatherBotService

/// A wait that a signal ends is told from one that did not end by a time far longer than any
/// delay a loaded machine adds: 10 minutes against 2. A lost signal fails the test slowly, and a
/// busy CI machine (two cores shared with a compiler) does not fail it at all.
@Suite struct ChangeSignalTests {
    static let long = Duration.seconds(600)
    static let woken = Duration.seconds(120)

    @Test func aTimedWaitLastsUntilItsDeadlineEveryTimeNotJustTheFirst() async {
        let signal = ChangeSignal()
        for _ in 0..<3 {
            let started = ContinuousClock.now
            await signal.wait(since: signal.generation, until: started + .milliseconds(200))
            #expect(ContinuousClock.now - started >= .milliseconds(190))
        }
    }

    @Test func aSignalWakesEveryWaiter() async {
        let signal = ChangeSignal()
        let started = ContinuousClock.now
        let seen = signal.generation
        let first = Task { await signal.wait(since: seen, until: .now + Self.long) }
        let second = Task { await signal.wait(since: seen) }
        try? await Task.sleep(for: .milliseconds(100))
        signal.signal()
        await first.value
        await second.value
        #expect(ContinuousClock.now - started < Self.woken)
    }

    @Test func aChangeBeforeTheWaitEndsItAtOnceForEveryWaiter() async {
        let signal = ChangeSignal()
        let seen = signal.generation
        signal.signal()
        let started = ContinuousClock.now
        await signal.wait(since: seen, until: .now + Self.long)
        await signal.wait(since: seen)
        #expect(ContinuousClock.now - started < Self.woken)
        // Nothing changed since the signal: this wait runs to its deadline.
        let again = ContinuousClock.now
        await signal.wait(since: signal.generation, until: again + .milliseconds(200))
        #expect(ContinuousClock.now - again >= .milliseconds(190))
    }

    @Test func cancellingAWaitEndsIt() async {
        let signal = ChangeSignal()
        let started = ContinuousClock.now
        let waiting = Task { await signal.wait(since: signal.generation) }
        try? await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await waiting.value
        #expect(ContinuousClock.now - started < Self.woken)
    }

    @Test func aConditionIsWaitedForUntilAChangeMakesItHold() async {
        let signal = ChangeSignal()
        let flag = Flag()
        let ended = Flag()
        let waiting = Task {
            await signal.wait { flag.isSet }
            ended.set()
        }
        try? await Task.sleep(for: .milliseconds(100))
        signal.signal()  // a change that does not make it hold
        try? await Task.sleep(for: .milliseconds(100))
        #expect(!ended.isSet)
        flag.set()
        signal.signal()
        let started = ContinuousClock.now
        await waiting.value
        #expect(ContinuousClock.now - started < Self.woken)
    }

    @Test func aSignalRightAfterATimeoutIsSeenByTheNextWait() async {
        let signal = ChangeSignal()
        for _ in 0..<50 {
            let seen = signal.generation
            await signal.wait(since: seen, until: .now + .microseconds(200))
            signal.signal()
            let started = ContinuousClock.now
            await signal.wait(since: seen, until: .now + Self.long)
            #expect(ContinuousClock.now - started < Self.woken)
        }
    }
}

private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
