import Testing
@testable import WeatherBotService

@Suite struct WakeSignalTests {
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
        await signal.wait(timeout: .seconds(30))  // the kept signal
        #expect(ContinuousClock.now - started < .seconds(10))
        let waiting = Task { await signal.wait(timeout: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(100))
        signal.signal()
        await waiting.value
        #expect(ContinuousClock.now - started < .seconds(10))
        // Both earlier signals were one: this wait runs to its timeout.
        let again = ContinuousClock.now
        await signal.wait(timeout: .milliseconds(200))
        #expect(ContinuousClock.now - again >= .milliseconds(190))
    }

    @Test func cancellingAWaitEndsIt() async {
        let signal = WakeSignal()
        let started = ContinuousClock.now
        let waiting = Task { await signal.wait(timeout: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await waiting.value
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func aSignalRightAfterATimeoutIsKeptForTheNextWait() async {
        let signal = WakeSignal()
        for _ in 0..<50 {
            await signal.wait(timeout: .microseconds(200))
            signal.signal()
            let started = ContinuousClock.now
            await signal.wait(timeout: .seconds(30))
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
