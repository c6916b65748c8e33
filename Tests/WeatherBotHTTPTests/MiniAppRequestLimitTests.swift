import Testing
@testable import WeatherBotHTTP

/// A user's pace through the app's API: a burst of taps, then a request a second.
@Suite struct MiniAppRequestLimitTests {
    @Test func aBurstIsAnsweredThenOneRequestASecondAndOthersAreNotHeldBack() {
        let limit = MiniAppRequestLimit(perMinute: 60, burst: 20)
        let now = 1_000_000.0
        #expect((0..<20).allSatisfy { _ in limit.admits(7, at: now) })
        #expect(!limit.admits(7, at: now))
        #expect(limit.admits(8, at: now), "another user has a pace of their own")
        #expect(!limit.admits(7, at: now + 0.5))
        #expect(limit.admits(7, at: now + 1))
        #expect(!limit.admits(7, at: now + 1))
        // After a quiet minute, the burst is back.
        #expect((0..<20).allSatisfy { _ in limit.admits(7, at: now + 80) })
    }
}
