import Testing
@testable import WeatherBotService

/// A wait that a signal ends is told from one that timed out by a timeout far longer than any
/// delay a loaded machine adds: 10 minutes against 2. A lost signal fails the test slowly, and a
/// busy CI machine (two cores shared with a compiler) does not fail it at all.
@Suite struct WakeSignalTests {
    static let long = Duration.seconds(600)
    static let woken = Duration.seconds(120)

    @Test func aWaitLastsUntilItsTimeoutEveryTimeNotJustTheFirst() async {
        let signal = WakeSignal()
        for _ in 0..<3 {
            let started = ContinuousClock.now
            await signal.wait(timeout: .milliseconds(200))
            #expect(ContinuousClock.now - started >= .milliseconds(190))
        }
    }

    @Test func aSignalWakesAWaiterAndOneSentEarlierIsKeptAsOne() async {
        let signal = WakeSignal()
        signal.signal()
        signal.signal()
        let started = ContinuousClock.now
        await signal.wait(timeout: Self.long)  // the kept signal
        #expect(ContinuousClock.now - started < Self.woken)
        let waiting = Task { await signal.wait(timeout: Self.long) }
        try? await Task.sleep(for: .milliseconds(100))
        signal.signal()
        await waiting.value
        #expect(ContinuousClock.now - started < Self.woken)
        // Both earlier signals were one: this wait runs to its timeout.
        let again = ContinuousClock.now
        await signal.wait(timeout: .milliseconds(200))
        #expect(ContinuousClock.now - again >= .milliseconds(190))
    }

    @Test func cancellingAWaitEndsIt() async {
        let signal = WakeSignal()
        let started = ContinuousClock.now
        let waiting = Task { await signal.wait(timeout: Self.long) }
        try? await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await waiting.value
        #expect(ContinuousClock.now - started < Self.woken)
    }

    @Test func aSignalRightAfterATimeoutIsKeptForTheNextWait() async {
        let signal = WakeSignal()
        for _ in 0..<50 {
            await signal.wait(timeout: .microseconds(200))
            signal.signal()
            let started = ContinuousClock.now
            await signal.wait(timeout: Self.long)
            #expect(ContinuousClock.now - started < Self.woken)
        }
    }
}
