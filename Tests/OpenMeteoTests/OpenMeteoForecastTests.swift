import Foundation
import HTTPTransport
import OpenWeather
import Testing
@testable import OpenMeteo
import WeatherBotTesting

/// An Open-Meteo client whose three base URLs are `url`.
func openMeteo(_ url: URL) -> OpenMeteoClient {
    OpenMeteoClient(apiURL: url, geocodingURL: url, airQualityURL: url, transport: NIOHTTPTransport(), requestTimeout: .seconds(30))
}

@Suite struct OpenMeteoForecastTests {
    /// Brno on 2026-10-01 at 15:00 CEST: the hours of the whole day came, the hours from 15:00 are kept.
    @Test func aRealForecastReadsNowTheHoursFromTheCurrentOneAndTheDays() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("forecast-brno") }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        #expect(forecast.source == .openMeteo)
        #expect(forecast.hourlyStep == 1)
        #expect(forecast.timeZone == .identifier("Europe/Prague"))
        #expect(forecast.alerts.isEmpty)

        let now = forecast.current
        #expect(now.time == Date(timeIntervalSince1970: 1_790_859_600))
        #expect(now.temperature == 23.2)
        #expect(now.feelsLike == 18.6)
        #expect(now.humidity == 27)
        #expect(now.windSpeed == 20.3)  // the recorded request asked for km/h; the client asks for m/s
        #expect(now.condition == Condition(description: "clear sky", icon: "01d", id: 800))
        #expect(now.sunrise == Date(timeIntervalSince1970: 1_790_830_383))
        #expect(now.sunset == Date(timeIntervalSince1970: 1_790_872_353))
        // What the answer did not carry is unknown, never invented.
        #expect(now.windGust == nil && now.rain == nil && now.snow == nil && now.uvIndex == nil)

        #expect(forecast.hourly.count == 57)
        #expect(forecast.hourly.first?.time == now.time)
        #expect(forecast.hourly.first?.temperature == 23.2)
        #expect(forecast.hourly.first?.precipitationChance == 0)
        // No `is_day` by the hour: day and night come from the day's sunrise and sunset.
        #expect(forecast.hourly[0].condition.icon == "01d")
        #expect(forecast.hourly[5].time == Date(timeIntervalSince1970: 1_790_877_600))  // 20:00, after sunset
        #expect(forecast.hourly[5].condition == Condition(description: "overcast", icon: "04n", id: 804))
        #expect(zip(forecast.hourly, forecast.hourly.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 3600 })

        #expect(forecast.daily.count == 3)
        let today = forecast.daily[0]
        #expect(today.time == Date(timeIntervalSince1970: 1_790_848_800))  // local noon
        #expect(today.maximumTemperature == 23.2 && today.minimumTemperature == 13.1)
        #expect(today.condition == Condition(description: "overcast", icon: "04d", id: 804))
        #expect(today.precipitationChance == 0)
        // The parts of the day from that day's hours, the past ones of today included.
        #expect(abs(today.nightTemperature - 14.7167) < 0.001)
        #expect(abs(today.morningTemperature - 15.6667) < 0.001)
        #expect(abs(today.dayTemperature - 22.85) < 0.001)
        #expect(abs(today.eveningTemperature - 18.1) < 0.001)
        #expect(abs(forecast.daily[2].nightTemperature - 11.4667) < 0.001)
        #expect(forecast.minutely.isEmpty)  // no `minutely_15` in the answer
    }

    @Test func theRequestAsksForUnixTimesTheZoneMetricUnitsAndEightDays() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("forecast-brno") }
        defer { Task { await server.shutdown() } }
        _ = try await openMeteo(server.url).forecast(latitude: 49.19512, longitude: 16.6068, for: .chat(1))
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/forecast")
        #expect(request.query["latitude"] == "49.1951")
        #expect(request.query["longitude"] == "16.6068")
        #expect(request.query["timezone"] == "auto")
        #expect(request.query["timeformat"] == "unixtime")
        #expect(request.query["wind_speed_unit"] == "ms")
        #expect(request.query["temperature_unit"] == "celsius")
        #expect(request.query["precipitation_unit"] == "mm")
        #expect(request.query["forecast_days"] == "8")
        #expect(request.query["minutely_15"] == "precipitation")
        for name in ["temperature_2m", "apparent_temperature", "is_day", "weather_code", "wind_gusts_10m", "uv_index", "snowfall"] {
            #expect(request.query["current"]?.split(separator: ",").contains(Substring(name)) == true, "current \(name)")
        }
        for name in ["precipitation_probability", "pressure_msl", "cloud_cover", "wind_direction_10m"] {
            #expect(request.query["hourly"]?.split(separator: ",").contains(Substring(name)) == true, "hourly \(name)")
        }
        for name in ["sunrise", "sunset", "uv_index_max", "precipitation_sum", "wind_direction_10m_dominant"] {
            #expect(request.query["daily"]?.split(separator: ",").contains(Substring(name)) == true, "daily \(name)")
        }
    }

    /// Bergen at night in drizzle: its first quarter hour holds 0.10 mm, the next ones none.
    @Test func theNextHourByTheMinuteComesFromTheQuarterHoursInMillimetresAnHour() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("forecast-bergen-minutely15") }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 60.39, longitude: 5.32, for: .chat(1))
        #expect(forecast.timeZone == .identifier("Europe/Oslo"))
        #expect(forecast.current.condition == Condition(description: "light drizzle", icon: "09n", id: 300))
        #expect(forecast.minutely.count == 60)
        #expect(forecast.minutely.first?.time == Date(timeIntervalSince1970: 1_790_895_600))
        #expect(zip(forecast.minutely, forecast.minutely.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 60 })
        #expect(forecast.minutely.prefix(15).allSatisfy { abs($0.precipitation - 0.4) < 1e-9 })
        #expect(forecast.minutely.dropFirst(15).allSatisfy { $0.precipitation == 0 })
        #expect(forecast.hourly.first?.time == Date(timeIntervalSince1970: 1_790_895_600))  // the hour before is gone
    }

    @Test func quarterHoursWithoutAValueGiveNoMinutes() async throws {
        let body = Fixture.data("forecast-bergen-minutely15", setting: ["minutely_15", "precipitation", "0"], to: NSNull())
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 60.39, longitude: 5.32, for: .chat(1))
        #expect(forecast.minutely.isEmpty)
    }

    @Test func aZoneThisSystemDoesNotKnowFallsBackToTheAnswersOffset() async throws {
        let body = Fixture.data("forecast-brno", setting: ["timezone"], to: "Mars/Olympus_Mons")
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.2, longitude: 16.6, for: .chat(1))
        #expect(forecast.timeZone == .offset(seconds: 7200))
        #expect(forecast.daily.first?.time == Date(timeIntervalSince1970: 1_790_848_800))
    }

    /// The fake sends every variable the client asks for: each is read under its own name.
    @Test func everyVariableAskedForIsReadFromTheFake() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let forecast = try await openMeteo(fake.url).forecast(latitude: 54.18, longitude: 45.17, for: .chat(1))
        let now = forecast.current
        #expect(now.temperature == FakeOpenMeteo.temperatureNow)
        #expect(now.temperature == -4.1)
        #expect(now.feelsLike == -9 && now.humidity == 88 && now.clouds == 100 && now.pressure == 1019.4)
        #expect(now.windSpeed == 4.3 && now.windDegrees == 200 && now.windGust == 9.1 && now.uvIndex == 0)
        #expect(now.rain == 0 && now.snow == 0)
        #expect(now.condition.id == 804)
        #expect(forecast.timeZone == .identifier("Europe/Moscow"))
        #expect(forecast.hourly.count >= 48 + 120)
        let hour = try #require(forecast.hourly.first)
        #expect(hour.pressure == 1019.4 && hour.windDegrees == 200 && hour.windSpeed == 4.3 && hour.clouds == 100 && hour.humidity == 88)
        #expect(abs(hour.precipitationChance - 0.1) < 1e-9 && hour.precipitation == 0 && hour.feelsLike != nil)
        #expect(forecast.daily.count == 8)
        let today = forecast.daily[0]
        #expect(today.uvIndex == 0.4 && today.windSpeed == 6.2 && today.windDegrees == 230 && today.precipitation == 0.7)
        #expect(abs(today.precipitationChance - 0.35) < 1e-9)
        #expect(today.condition == Condition(description: "light snow", icon: "13d", id: 600))
        #expect(today.clouds == 100 && today.humidity == 88 && abs(today.pressure - 1019.4) < 1e-9)
        #expect(forecast.minutely.count == 60 && forecast.minutely.allSatisfy { $0.precipitation == 0 })
        #expect(fake.forecastCalls == 1 && fake.requests == 1)
    }

    @Test func rainOnTheFakeWetsTheMinutesAtFourTimesTheQuarterHoursMillimetres() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        fake.setRain(startsAt: Date().addingTimeInterval(-60), minutes: 30)
        let forecast = try await openMeteo(fake.url).forecast(latitude: 54.18, longitude: 45.17, for: .chat(1))
        #expect(forecast.minutely.first?.precipitation == 2)
        #expect(forecast.minutely.last?.precipitation == 0)
        #expect(forecast.hourly.first?.precipitation == 2)
        #expect(forecast.hourly.first?.condition.id == 500)
        #expect(forecast.current.rain == 0.5)
    }

    /// Snowfall comes in centimetres of snow; Open-Meteo's documentation: "For the water
    /// equivalent in millimeter, divide by 7. E.g. 7 cm snow = 10 mm precipitation water equivalent".
    @Test func snowfallInCentimetresIsSnowInMillimetresOfWater() async throws {
        let body = Fixture.data("forecast-brno", setting: ["current", "snowfall"], to: 0.7)
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.2, longitude: 16.6, for: .chat(1))
        #expect(abs((forecast.current.snow ?? 0) - 1) < 1e-9)
    }
}
