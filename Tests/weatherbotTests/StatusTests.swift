import Foundation
import OpenWeather
import WeatherBotStore
import Testing
@testable import weatherbot

@Suite struct StatusTests {
    /// `weatherbot status` says the day's OpenWeather calls against the daily cap, then by
    /// endpoint, most first.
    @Test func openWeathersCallsAreToldByEndpointMostFirst() {
        #expect(WeatherBotCommand.Status.openWeatherCalls([:], perDay: 0) == "OpenWeather calls today (UTC): 0, no cap a day")
        #expect(
            WeatherBotCommand.Status.openWeatherCalls(["geocode": 30, "onecall": 70, "reverse": 0, "forecast": 30], perDay: 1000)
                == "OpenWeather calls today (UTC): 130 of 1000 a day (onecall 70, forecast 30, geocode 30)")
    }

    /// The last minute's calls are those kept for the 60 seconds before now, against the budget.
    @Test func theLastMinutesCallsAreToldAgainstTheBudget() {
        let now = Date(timeIntervalSince1970: 1_795_823_000)
        let kept = [1_795_822_930: 5, 1_795_822_941: 3, 1_795_822_999: 2, 1_795_823_000: 1]
        #expect(
            WeatherBotCommand.Status.openWeatherMinute(kept, budget: .init(perMinute: 60, perChat: 10), now: now)
                == "OpenWeather calls in the last minute: 6 of 60 a minute, 10 a minute for one chat")
        #expect(
            WeatherBotCommand.Status.openWeatherMinute([:], budget: .init(perMinute: 0, perChat: 0), now: now)
                == "OpenWeather calls in the last minute: 0, no cap a minute")
    }

    @Test func noticesAreToldWithTheLastRoundAndWhatTheBudgetCannotCover() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(WeatherBotCommand.Status.notices(chats: 0, round: nil, now: now) == ["chats with notices on: 0", "notice checks: none yet"])
        var round = NoticeRound(at: now.addingTimeInterval(-42))
        (round.chats, round.cells, round.checked, round.seconds, round.interval) = (900, 120, 118, 31.4, 600.2)
        (round.queued, round.late, round.quiet, round.held, round.deduplicated, round.uncovered) = (37, 1, 4, 2, 55, 20)
        // As the worker keeps it and status reads it back.
        let kept = try #require(NoticeRound(stored: round.stored))
        #expect(kept == round)
        #expect(
            WeatherBotCommand.Status.notices(chats: 900, round: kept, now: now) == [
                "chats with notices on: 900",
                "notice checks: the last round 42 s ago checked 118 of 120 places in 31 s, 600 s after the one before; OpenWeather's budget cannot check 20 places each interval (those with fewest chats wait)",
                "notices in the last round: 37 queued, 1 too late to send, 4 dropped in quiet hours, 2 held for the end of quiet hours, 55 warnings' entries not told again",
            ])
        #expect(NoticeRound(stored: "chats=3") == nil)
    }
}
