import Foundation
import OpenWeather
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
}
