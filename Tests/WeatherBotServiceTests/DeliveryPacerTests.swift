import Synchronization
import Testing
@testable import WeatherBotService

@Suite struct DeliveryPacerTests {
    /// A clock the test moves by hand, in seconds.
    final class ManualClock: Sendable {
        private let time = Mutex(1_000.0)
        var now: Double { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func messagesAreScheduledAtTheRateAfterTheBurst() {
        let clock = ManualClock()
        let pacer = DeliveryPacer(globalRate: 10, globalBurst: 3, globalLimit: 100, chatRate: 100, chatBurst: 100, now: { clock.now })
        let waits = (0..<6).map { Self.seconds(pacer.reserve(chatID: Int64($0))) }
        #expect(waits[0..<3].allSatisfy { $0 == 0 })
        // Then one every tenth of a second, counted from the burst's start.
        #expect(abs(waits[3] - 0.1) < 1e-9 && abs(waits[4] - 0.2) < 1e-9 && abs(waits[5] - 0.3) < 1e-9)
    }

    @Test func oneChatGetsItsOwnSlowerRate() {
        let clock = ManualClock()
        let pacer = DeliveryPacer(globalRate: 1_000, globalBurst: 1_000, globalLimit: 1_000, chatRate: 1, chatBurst: 2, now: { clock.now })
        #expect(pacer.reserve(chatID: 7) == .zero)
        #expect(pacer.reserve(chatID: 7) == .zero)
        #expect(abs(Self.seconds(pacer.reserve(chatID: 7)) - 1) < 1e-9)
        // Another chat is not held up by it (beyond the overall rate's own few milliseconds).
        #expect(pacer.reserve(chatID: 8) < .milliseconds(5))
    }

    @Test func noMoreThanTheLimitAreCountedWithinASecondOfTheirAnswers() {
        let clock = ManualClock()
        let pacer = DeliveryPacer(globalRate: 1_000, globalBurst: 1_000, globalLimit: 3, chatRate: 1_000, chatBurst: 1_000, now: { clock.now })
        for _ in 0..<3 { #expect(pacer.admit() == .zero) }
        for _ in 0..<3 {
            clock.advance(0.1)
            pacer.answered()
        }
        // Answered at +0.1, +0.2 and +0.3: the fourth may go a second after the first answer.
        let wait = pacer.admit()
        #expect(abs(Self.seconds(wait) - 0.8) < 1e-9)
        clock.advance(0.8)
        #expect(pacer.admit() == .zero)
        #expect(pacer.admit() != .zero)
    }

    @Test func aMessageStillInFlightKeepsCountingHoweverLongItTakes() {
        let clock = ManualClock()
        let pacer = DeliveryPacer(globalRate: 1_000, globalBurst: 1_000, globalLimit: 2, chatRate: 1_000, chatBurst: 1_000, now: { clock.now })
        #expect(pacer.admit() == .zero)
        #expect(pacer.admit() == .zero)
        clock.advance(5)
        // Neither answered yet: Telegram may count them any moment now.
        #expect(pacer.admit() != .zero)
        pacer.answered()
        #expect(pacer.admit() != .zero)
        clock.advance(1)
        #expect(pacer.admit() == .zero)
    }

    @Test func aLateWakeUpDoesNotBunchMessagesIntoOneSecond() async {
        // Scheduled for 20 a second; the limit of 20 within a second of their answers still
        // holds when every delivery is admitted at once, as after a stall.
        let clock = ManualClock()
        let pacer = DeliveryPacer(globalRate: 20, globalBurst: 1, globalLimit: 20, chatRate: 1_000, chatBurst: 1_000, now: { clock.now })
        for chat in 0..<40 { _ = pacer.reserve(chatID: Int64(chat)) }
        clock.advance(2)
        var admitted = 0
        while pacer.admit() == .zero { admitted += 1 }
        #expect(admitted == 20)
    }

    @Test func aPauseHoldsBackEverySlotUntilItEnds() {
        let clock = ManualClock()
        let pacer = DeliveryPacer(globalRate: 30, globalBurst: 30, globalLimit: 30, chatRate: 1, chatBurst: 3, now: { clock.now })
        pacer.pause(for: 2)
        #expect(abs(Self.seconds(pacer.reserve(chatID: 1)) - 2) < 1e-9)
    }

    @Test func atTelegramsRateTheScheduleKeepsUnderTheLimit() {
        let pacer = DeliveryPacer(messagesPerSecond: 30, messagesPerSecondPerChat: 1)
        var last = 0.0
        for chat in 0..<300 { last = Self.seconds(pacer.reserve(chatID: Int64(chat))) }
        // 300 messages at 2 % under 30 a second take a little over ten seconds.
        #expect(last > 300 / 30.0 && last < 300 / 29.0)
    }
}
