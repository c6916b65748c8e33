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
    /// Brno on 2026-10-01 at 15:00 CEST, as recorded: the request asked for no cloud cover,
    /// pressure or wind direction, by the hour or now. Nothing is made up for them: there is no
    /// weather now to show.
    @Test func aRealAnswerLackingWhatTheWeatherNowNeedsIsUndecodable() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("forecast-brno") }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        }
        #expect(error?.code == .undecodable && error?.endpoint == "/v1/forecast")
        #expect(error?.message == "no cloud cover now")
    }

    /// The same answer with the hourly variables it lacks added by the test
    /// (``Fixture/completed(_:precipitation:)``): 0.4 mm in the hour before 16:00.
    @Test func aRealForecastReadsNowTheHoursFromTheCurrentOneAndTheDays() async throws {
        let body = Fixture.completed("forecast-brno", precipitation: [16: 0.4])
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
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
        // The recorded request asked for km/h, and `current_units` says so: 20.3 km/h in m/s.
        #expect(abs(now.windSpeed - 20.3 / 3.6) < 1e-9)
        // What the weather now lacks comes from its hour, 15:00.
        #expect(now.clouds == 40 && now.pressure == 1015 && now.windDegrees == 180)
        #expect(now.condition == Condition(description: "clear sky", icon: "01d", id: 800))
        #expect(now.sunrise == Date(timeIntervalSince1970: 1_790_830_383))
        #expect(now.sunset == Date(timeIntervalSince1970: 1_790_872_353))
        // What the answer did not carry is unknown, never invented.
        #expect(now.windGust == nil && now.rain == nil && now.snow == nil && now.uvIndex == nil)

        // From 15:00 to 22:00 of the third day: the last hour has no hour after it to tell its rain.
        #expect(forecast.hourly.count == 56)
        #expect(forecast.hourly.first?.time == now.time)
        #expect(forecast.hourly.first?.temperature == 23.2)
        #expect(forecast.hourly.first?.precipitationChance == 0)
        #expect(abs((forecast.hourly.first?.windSpeed ?? 0) - 3) < 1e-9)
        // The rain given at 16:00 fell from 15:00: the step from 15:00 holds it.
        #expect(forecast.hourly[0].precipitation == 0.4 && forecast.hourly[1].precipitation == 0)
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
        #expect(today.clouds == 40 && today.humidity == 60 && today.pressure == 1015)
        // No daily wind or sum in the answer: from the day's hours.
        #expect(abs(today.windSpeed - 3) < 1e-9 && today.windDegrees == 180 && abs(today.precipitation - 0.4) < 1e-9)
        // The parts of the day from that day's hours, the past ones of today included.
        #expect(abs(today.nightTemperature - 14.7167) < 0.001)
        #expect(abs(today.morningTemperature - 15.6667) < 0.001)
        #expect(abs(today.dayTemperature - 22.85) < 0.001)
        #expect(abs(today.eveningTemperature - 18.1) < 0.001)
        #expect(abs(forecast.daily[2].nightTemperature - 11.4667) < 0.001)
        #expect(forecast.minutely.isEmpty)  // no `minutely_15` in the answer
    }

    /// An hour with a `null` is left out, and the day is made of the hours kept: no zero drags
    /// its humidity down. A day without its highest temperature is left out.
    @Test func anHourWithANullIsLeftOutAndTheDaysComeFromTheHoursKept() async throws {
        var body = Fixture.completed("forecast-brno")
        body = Fixture.data(body, setting: ["hourly", "relative_humidity_2m", "20"], to: NSNull())
        body = Fixture.data(body, setting: ["hourly", "wind_direction_10m", "21"], to: NSNull())
        body = Fixture.data(body, setting: ["hourly", "relative_humidity_2m", "10"], to: 0)
        body = Fixture.data(body, setting: ["hourly", "precipitation_probability", "23"], to: NSNull())
        body = Fixture.data(body, setting: ["daily", "temperature_2m_max", "1"], to: NSNull())
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        let hours = forecast.hourly.map { Int($0.time.timeIntervalSince1970 - 1_790_805_600) / 3600 }
        // 20 and 21 lack a value; 22's chance is the one given at 23.
        #expect(!hours.contains(20) && !hours.contains(21) && !hours.contains(22) && hours.contains(23))
        #expect(forecast.hourly.count == 53)
        // Of the day's 21 hours kept, 20 have 60 % and hour 10 has 0 % (a value, kept): hours 20–22 count for nothing.
        let today = try #require(forecast.daily.first)
        #expect(today.humidity == Int((Double(20 * 60) / 21).rounded()))
        #expect(forecast.daily.count == 2)
        #expect(forecast.daily[1].time == Date(timeIntervalSince1970: 1_791_021_600))  // the third day's noon
    }

    @Test func whatTheWeatherNowLacksComesFromItsHourOrItIsUndecodable() async throws {
        var body = Fixture.completed("forecast-brno")
        body = Fixture.data(body, setting: ["current", "apparent_temperature"], to: NSNull())
        body = Fixture.data(body, setting: ["current", "weather_code"], to: NSNull())
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        #expect(abs(forecast.current.feelsLike - 22.2) < 1e-9)  // 15:00's apparent temperature
        #expect(forecast.current.condition.id == 800)  // 15:00's code, 0

        for (variable, name) in [("relative_humidity_2m", "humidity"), ("apparent_temperature", "apparent temperature")] {
            var missing = Fixture.data(body, setting: ["current", variable], to: NSNull())
            missing = Fixture.data(missing, setting: ["hourly", variable, "15"], to: NSNull())
            let server = try await LoopbackServer { [missing] _ in LoopbackResponse(body: missing) }
            defer { Task { await server.shutdown() } }
            let error = await #expect(throws: OpenWeatherError.self) {
                try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
            }
            #expect(error?.code == .undecodable && error?.message == "no \(name) now")
        }
    }

    /// The units each section says are read: °F, mp/h and inches become °C, m/s and mm.
    @Test func unitsAreReadFromTheAnswer() async throws {
        var body = Fixture.completed("forecast-brno", precipitation: [16: 0.1])
        body = Fixture.data(body, setting: ["current_units", "temperature_2m"], to: "°F")
        body = Fixture.data(body, setting: ["current", "temperature_2m"], to: 50)
        body = Fixture.data(body, setting: ["current_units", "wind_speed_10m"], to: "mp/h")
        body = Fixture.data(body, setting: ["current", "wind_speed_10m"], to: 10)
        body = Fixture.data(body, setting: ["hourly_units", "precipitation"], to: "inch")
        body = Fixture.data(body, setting: ["daily_units", "temperature_2m_max"], to: "°F")
        body = Fixture.data(body, setting: ["daily", "temperature_2m_max", "0"], to: 212)
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        #expect(abs(forecast.current.temperature - 10) < 1e-9)
        #expect(abs(forecast.current.windSpeed - 4.4704) < 1e-9)
        #expect(abs((forecast.hourly.first?.precipitation ?? 0) - 2.54) < 1e-9)
        #expect(abs((forecast.daily.first?.maximumTemperature ?? 0) - 100) < 1e-9)
        #expect(WireUnits.converter("kn", .speed)?(3600) == 1852)
        #expect(WireUnits.converter("inch", .snowfall)?(1) == 2.54)
        #expect(WireUnits.converter("km/h", .temperature) == nil)
    }

    @Test(arguments: [["current_units", "wind_speed_10m"], ["hourly_units", "temperature_2m"], ["hourly_units", "precipitation"]])
    func aUnitThatCannotBeConvertedIsAnUndecodableAnswer(path: [String]) async throws {
        let body = Fixture.data(Fixture.completed("forecast-brno"), setting: path, to: "furlongs")
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        }
        #expect(error?.code == .undecodable)
    }

    /// A code outside WMO's table is told by the clouds, as OpenWeather's own condition.
    @Test func anUnknownCodeIsACloudCondition() async throws {
        let body = Fixture.data(Fixture.completed("forecast-brno"), setting: ["hourly", "weather_code", "16"], to: 42)
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.1951, longitude: 16.6068, for: .chat(1))
        #expect(forecast.hourly[1].condition == Condition(description: "scattered clouds", icon: "03d", id: 802))  // 40 %
    }

    @Test func theRequestAsksForUnixTimesTheZoneMetricUnitsAndEightDays() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Fixture.completed("forecast-brno")) }
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

    /// Bergen at night in drizzle: its first quarter hour holds 0.10 mm, the rain of the quarter
    /// hour before it, the next ones none. Bergen is beyond the models with quarter hours of their
    /// own (ICON-D2, AROME, HRRR): no minutes there.
    @Test func quarterHoursAreNoMinutesWhereTheyAreTheHoursSpreadOut() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Fixture.completed("forecast-bergen-minutely15")) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 60.39, longitude: 5.32, for: .chat(1))
        #expect(forecast.timeZone == .identifier("Europe/Oslo"))
        #expect(forecast.current.condition == Condition(description: "light drizzle", icon: "09n", id: 300))
        #expect(forecast.minutely.isEmpty)
        #expect(forecast.hourly.first?.time == Date(timeIntervalSince1970: 1_790_895_600))  // the hour before is gone
    }

    /// The same answer as if asked in Central Europe: the quarter hour from T is the value given
    /// at T + 15 min, so Bergen's 0.10 mm (the quarter hour before now) is no minute ahead.
    @Test func theNextHourByTheMinuteComesFromTheQuarterHoursAfterInMillimetresAnHour() async throws {
        let body = Fixture.data(Fixture.completed("forecast-bergen-minutely15"), setting: ["minutely_15", "precipitation", "2"], to: 0.2)
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 50.08, longitude: 14.42, for: .chat(1))
        #expect(forecast.minutely.count == 60)
        #expect(forecast.minutely.first?.time == Date(timeIntervalSince1970: 1_790_895_600))
        #expect(zip(forecast.minutely, forecast.minutely.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 60 })
        #expect(forecast.minutely.prefix(15).allSatisfy { $0.precipitation == 0 })
        #expect(forecast.minutely.dropFirst(15).prefix(15).allSatisfy { abs($0.precipitation - 0.8) < 1e-9 })
        #expect(forecast.minutely.dropFirst(30).allSatisfy { $0.precipitation == 0 })
    }

    @Test func quarterHoursWithoutAValueGiveNoMinutes() async throws {
        let body = Fixture.data(Fixture.completed("forecast-bergen-minutely15"), setting: ["minutely_15", "precipitation", "1"], to: NSNull())
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 50.08, longitude: 14.42, for: .chat(1))
        #expect(forecast.minutely.isEmpty)
    }

    @Test func quarterHoursAreTheModelsOwnInCentralEuropeAndNorthAmericaOnly() {
        for (latitude, longitude) in [(49.2, 16.6), (50.08, 14.42), (48.86, 2.35), (52.52, 13.4), (40.71, -74.0), (39.74, -104.99), (34.05, -118.24)] {
            #expect(ForecastBody.hasOwnQuarterHours(latitude: latitude, longitude: longitude), "\(latitude), \(longitude)")
        }
        for (latitude, longitude) in [(54.18, 45.17), (55.75, 37.62), (60.39, 5.32), (35.68, 139.69), (-33.87, 151.21), (64.84, -147.72), (19.43, -99.13)] {
            #expect(!ForecastBody.hasOwnQuarterHours(latitude: latitude, longitude: longitude), "\(latitude), \(longitude)")
        }
    }

    @Test func aZoneThisSystemDoesNotKnowFallsBackToTheAnswersOffset() async throws {
        let body = Fixture.data(Fixture.completed("forecast-brno"), setting: ["timezone"], to: "Mars/Olympus_Mons")
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
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
        // Saransk's quarter hours are Open-Meteo's hours spread out: no minutes.
        #expect(forecast.minutely.isEmpty)
        let prague = try await openMeteo(fake.url).forecast(latitude: 50.08, longitude: 14.42, for: .chat(1))
        #expect(prague.minutely.count == 60 && prague.minutely.allSatisfy { $0.precipitation == 0 })
        #expect(fake.forecastCalls == 2 && fake.requests == 2)
    }

    /// Saransk's quarter hours are not the model's own: the rain is in the hours. Where they are
    /// (Prague), the minutes carry it at four times the quarter hour's millimetres.
    @Test func rainOnTheFakeWetsTheHoursAndWhereTheyAreNativeTheMinutes() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        fake.setRain(startsAt: Date().addingTimeInterval(-20 * 60), minutes: 40)
        let saransk = try await openMeteo(fake.url).forecast(latitude: 54.18, longitude: 45.17, for: .chat(1))
        #expect(saransk.minutely.isEmpty)
        #expect(saransk.hourly.first?.precipitation == 2)
        #expect(saransk.hourly.first?.condition.id == 500)
        #expect(saransk.current.rain == 2)  // 0.5 mm over the quarter hour before now: 2 mm an hour
        let prague = try await openMeteo(fake.url).forecast(latitude: 50.08, longitude: 14.42, for: .chat(1))
        #expect(prague.minutely.first?.precipitation == 2)
        #expect(prague.minutely.last?.precipitation == 0)
    }

    /// A rain set on a whole hour is in the step of that hour and not the one before.
    @Test func rainOnTheFakeFromAWholeHourIsInThatHoursStep() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let hour = ((Date().timeIntervalSince1970 + 3 * 3600) / 3600).rounded(.down) * 3600
        fake.setRain(startsAt: Date(timeIntervalSince1970: hour), minutes: 30)
        let forecast = try await openMeteo(fake.url).forecast(latitude: 54.18, longitude: 45.17, for: .chat(1))
        let wet = forecast.hourly.filter { $0.precipitation > 0 }
        #expect(wet.map(\.time) == [Date(timeIntervalSince1970: hour)])
        #expect(wet.first.map { abs($0.precipitationChance - 0.9) < 1e-9 } == true)
    }

    /// Snowfall comes in centimetres of snow; Open-Meteo's documentation: "For the water
    /// equivalent in millimeter, divide by 7. E.g. 7 cm snow = 10 mm precipitation water
    /// equivalent". The weather now's sums are over its `interval`, 900 s: shown as mm an hour.
    @Test func snowfallInCentimetresIsSnowInMillimetresOfWaterAnHour() async throws {
        var body = Fixture.data(Fixture.completed("forecast-brno"), setting: ["current", "snowfall"], to: 0.7)
        body = Fixture.data(body, setting: ["current", "rain"], to: 0.25)
        body = Fixture.data(body, setting: ["current", "showers"], to: 0.25)
        let server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let forecast = try await openMeteo(server.url).forecast(latitude: 49.2, longitude: 16.6, for: .chat(1))
        #expect(abs((forecast.current.snow ?? 0) - 4) < 1e-9)
        #expect(abs((forecast.current.rain ?? 0) - 2) < 1e-9)
        let hourly = Fixture.data(body, setting: ["current", "interval"], to: 3600)
        let server2 = try await LoopbackServer { _ in LoopbackResponse(body: hourly) }
        defer { Task { await server2.shutdown() } }
        let perHour = try await openMeteo(server2.url).forecast(latitude: 49.2, longitude: 16.6, for: .chat(1))
        #expect(abs((perHour.current.snow ?? 0) - 1) < 1e-9 && abs((perHour.current.rain ?? 0) - 0.5) < 1e-9)
    }
}
