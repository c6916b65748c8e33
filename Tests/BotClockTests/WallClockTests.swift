import BotClock
import Foundation
import Testing

@Suite struct WallClockTests {
    @Test func durationsConvertToSeconds() {
        #expect(Duration.milliseconds(1500).timeInterval == 1.5)
        #expect(Duration.seconds(-2).timeInterval == -2)
    }

    @Test func instantsAreDatesMovedByDurations() {
        let start = WallInstant(Date(timeIntervalSince1970: 1_795_000_000))
        let later = start.advanced(by: .seconds(90))
        #expect(later.date == Date(timeIntervalSince1970: 1_795_000_090))
        #expect(start.duration(to: later) == .seconds(90))
        #expect(start < later)
    }

    @Test func theSystemClockReadsTheDate() {
        let before = Date()
        let read = SystemWallClock().date
        #expect(read >= before && read <= Date())
    }

    /// A scheduler's sleep on a manual clock ends at once, with the time at its deadline; the time
    /// never runs backwards.
    @Test func aManualClockMovesOnlyWhenToldOrSleptOn() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_000_000))
        clock.advance(by: .seconds(30))
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_000_030))
        try await clock.sleep(for: .seconds(20))
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_000_050))
        try await clock.sleep(until: WallInstant(Date(timeIntervalSince1970: 1_795_000_000)), tolerance: nil)
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_000_050))
        clock.set(Date(timeIntervalSince1970: 1_800_000_000))
        #expect(clock.date == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func aCancelledSleepOnAManualClockThrows() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
