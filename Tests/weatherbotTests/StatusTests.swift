import Testing
@testable import weatherbot

@Suite struct StatusTests {
    /// `weatherbot status` says the day's OpenWeather calls, then by endpoint, most first.
    @Test func openWeathersCallsAreToldByEndpointMostFirst() {
        #expect(WeatherBotCommand.Status.openWeatherCalls([:]) == "OpenWeather calls today (UTC): 0")
        #expect(
            WeatherBotCommand.Status.openWeatherCalls(["geocode": 30, "onecall": 70, "reverse": 0, "forecast": 30])
                == "OpenWeather calls today (UTC): 130 (onecall 70, forecast 30, geocode 30)")
    }
}
