import Foundation
import BotClock
import HTTPTransport
import Synchronization
import Testing
@testable import OpenWeather
import WeatherBotTesting

@Suite struct OpenWeatherClientTests {
    static let key = "test-key-not-real"

    func client(_ server: LoopbackServer) -> OpenWeatherClient {
        OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), requestTimeout: .seconds(30))
    }

    @Test func directGeocodingReadsLocalNamesAndToleratesMissingOnes() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geo-direct-paris") }
        defer { Task { await server.shutdown() } }
        let places = try await client(server).geocode("Paris", for: .chat(1))
        #expect(places.count == 3)
        #expect(places[0].name(in: "ru") == "Париж")
        #expect(places[0].name(in: "ascii") == "Paris")
        #expect(places[0].name(in: "feature_name") == "Paris")
        #expect(places[2].name(in: "ru") == "Paris")  // no local_names at all
        #expect(places[1].state == "Texas")
        let request = try #require(server.requests.first)
        #expect(request.path == "/geo/1.0/direct")
        #expect(request.query["q"] == "Paris")
        #expect(request.query["limit"] == "5")
        #expect(request.query["appid"] == Self.key)
    }

    @Test func queriesAreFullyEncoded() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geo-reverse-open-sea") }
        defer { Task { await server.shutdown() } }
        for name in ["C++", "Санкт-Петербург", "a&b=c", "Saint-Étienne #1", "100% "] {
            _ = try await client(server).geocode(name, for: .chat(1))
            #expect(server.requests.last?.query["q"] == name)
        }
    }

    @Test func theOpenSeaIsAnEmptyList() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geo-reverse-open-sea") }
        defer { Task { await server.shutdown() } }
        #expect(try await client(server).reverseGeocode(latitude: 0, longitude: -30, for: .chat(1)).isEmpty)
        #expect(server.requests.first?.query["lat"] == "0.0000")
    }

    /// A real One Call answer lists each warning once per language (Moscow: «Rain» and «Дождь»,
    /// «Thunderstorms» and «Гроза»): two warnings, whoever each entry names as its sender, since
    /// the feed may name the sender in each language too.
    @Test func aWarningListedPerLanguageIsOneWarningWhateverItsSenders() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("onecall-moscow-alerts") }
        defer { Task { await server.shutdown() } }
        let forecast = try await client(server).forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        #expect(forecast.alerts.count == 4)
        #expect(Set(forecast.alerts.map(\.identity)).count == 2)
        let named = forecast.alerts.map { alert in
            var alert = alert
            alert.sender = alert.event.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) } ? "Росгидромет" : "Roshydromet"
            return alert
        }
        #expect(Set(named.map(\.identity)).count == 2)
        var later = named[0]
        later.end = later.end.addingTimeInterval(3600)
        #expect(later.identity != named[0].identity)
    }

    @Test func oneCallDecodesNowHoursDaysAndAlerts() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("onecall-kazan-ru") }
        defer { Task { await server.shutdown() } }
        let forecast = try await client(server).forecast(latitude: 55.79, longitude: 49.12, language: "ru", for: .chat(1))
        #expect(forecast.source == .oneCall)
        #expect(forecast.hourlyStep == 1)
        #expect(forecast.timeZone == .identifier("Europe/Moscow"))
        #expect(forecast.current.temperature == 1)  // an integer in the JSON
        #expect(forecast.current.snow == 0.84)  // {"1h": x}
        #expect(forecast.current.rain == nil)
        #expect(forecast.current.windGust == 11.2)
        // Every snake_case key is read: a wrong name would leave a fallback, not a failure.
        #expect(forecast.current.feelsLike == -3.52)
        #expect(forecast.current.windSpeed == 5 && forecast.current.windDegrees == 225)
        #expect(forecast.hourly[0].feelsLike == -3.1)
        #expect(forecast.hourly[0].windSpeed == 5.1 && forecast.hourly[0].windDegrees == 220)
        #expect(forecast.daily[0].windSpeed == 6.2 && forecast.daily[0].windDegrees == 230)
        #expect(forecast.alerts.first?.sender == "Росгидромет")
        #expect(forecast.current.condition == Condition(description: "снег", icon: "13n", id: 601))
        #expect(forecast.hourly.count == 3)
        #expect(forecast.hourly[0].precipitation == 0.3)
        #expect(forecast.hourly[2].precipitation == 0)
        #expect(forecast.daily.count == 2)
        #expect(abs(forecast.daily[0].precipitation - 4.55) < 0.0001)  // plain numbers for days: snow + rain
        #expect(forecast.daily[0].summary == "Expect a day of snow")
        #expect(forecast.daily[1].nightTemperature == -5)
        #expect(forecast.alerts.first?.event == "Гололёд")
        #expect(forecast.alerts.first?.tags == ["Ice"])
        let query = try #require(server.requests.first?.query)
        #expect(server.requests.first?.path == "/data/3.0/onecall")
        #expect(query["units"] == "metric")
        #expect(query["lang"] == "ru")
        #expect(query["exclude"] == nil)  // the minutes ahead serve rain notices
    }

    /// An OpenWeather whose key has no One Call subscription: the free plan's pair answers.
    static func freePlanOnly() async throws -> LoopbackServer {
        try await LoopbackServer { request in
            switch request.path {
            case "/data/3.0/onecall": Fixture.response("error-401-subscription", status: 401)
            case "/data/2.5/weather": Fixture.response("weather25-tbilisi")
            default: Fixture.response("forecast25-tbilisi")
            }
        }
    }

    @Test func withoutAOneCallSubscriptionTheFreePlanIsUsedAndRemembered() async throws {
        let server = try await Self.freePlanOnly()
        defer { Task { await server.shutdown() } }
        let client = client(server)
        let forecast = try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1))
        #expect(forecast.source == .freePlan)
        #expect(forecast.hourlyStep == 3)
        #expect(forecast.timeZone == .offset(seconds: 14400))
        #expect(forecast.current.rain == 0.25)
        #expect(forecast.current.feelsLike == 7.41)
        #expect(forecast.hourly.count == 40)
        #expect(forecast.hourly[0].precipitation == 0.5)  // {"3h": x}
        // 40 steps from 16:00 local on day one: six local days, the first and the last partial;
        // the last, two steps, does not count as a day.
        #expect(forecast.daily.count == 5)
        let first = forecast.daily[0]
        #expect(first.maximumTemperature >= first.minimumTemperature)
        #expect(first.precipitationChance == 0.4)
        #expect(client.isOneCallUnavailable)

        _ = try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1))
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/data/3.0/onecall" }.count == 1)
        #expect(paths.filter { $0 == "/data/2.5/forecast" }.count == 2)
    }

    /// The free plan's two calls are admitted together: with one slot left in the minute, neither
    /// is sent (one without the other would be a call paid for nothing).
    @Test func theFreePlansPairIsAdmittedTogetherOrNotAtAll() async throws {
        let server = try await Self.freePlanOnly()
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(
            apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), budget: CallBudget(.init(perMinute: 4, perChat: 0)))
        // One Call refused (one slot), then the pair (two more): one slot is left.
        _ = try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1))
        #expect(client.budget?.lastMinute == [.onecall: 1, .weather: 1, .forecast: 1])
        await #expect(throws: OpenWeatherError.self) { try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1)) }
        #expect(server.requests.map(\.path).filter { $0.hasPrefix("/data/2.5") }.count == 2)
    }

    @Test func theFallbackIsForgottenAfterItsMemory() async throws {
        let server = try await LoopbackServer { request in
            request.path == "/data/3.0/onecall" ? Fixture.response("error-401-subscription", status: 401)
                : request.path == "/data/2.5/weather" ? Fixture.response("weather25-tbilisi") : Fixture.response("forecast25-tbilisi")
        }
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), fallbackMemory: .zero)
        _ = try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1))
        _ = try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1))
        #expect(server.requests.filter { $0.path == "/data/3.0/onecall" }.count == 2)
    }

    @Test(arguments: [
        (401, #"{"cod":401,"message":"Invalid API key. Please see the FAQ."}"#, OpenWeatherError.Code.invalidKey),
        (429, String(decoding: Fixture.data("error-429"), as: UTF8.self), .rateLimited),
        (404, #"{"cod":"404","message":"city not found"}"#, .notFound),
        (502, "<html>Bad Gateway</html>", .server(502)),
        (200, "{not json", .undecodable),
        (200, #"{"lat":1,"lon":2}"#, .undecodable),
    ])
    func failuresAreTyped(status: Int, body: String, code: OpenWeatherError.Code) async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(status: status, body: Data(body.utf8)) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await client(server).forecast(latitude: 1, longitude: 2, language: "ru", for: .chat(1))
        }
        #expect(error?.code == code)
        #expect(error?.description.contains(Self.key) == false)
    }

    /// One Call's Kazan answer with one number replaced.
    static func oneCall(setting path: [String], to value: Any) throws -> Data {
        jsonSetting(path, to: value, in: Fixture.data("onecall-kazan-ru"))
    }

    @Test func theUVIndexIsReadNowAndForEachDayAndAnImpossibleOneIsNone() async throws {
        var body = try Self.oneCall(setting: ["current", "uvi"], to: 6.3)
        var server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        var forecast = try await client(server).forecast(latitude: 55.79, longitude: 49.12, language: "ru", for: .chat(1))
        #expect(forecast.current.uvIndex == 6.3)
        #expect(forecast.daily.map(\.uvIndex) == [0.3, 0.5])
        await server.shutdown()
        body = try Self.oneCall(setting: ["current", "uvi"], to: -1)
        server = try await LoopbackServer { [body] _ in LoopbackResponse(body: body) }
        forecast = try await client(server).forecast(latitude: 55.79, longitude: 49.12, language: "ru", for: .chat(1))
        #expect(forecast.current.uvIndex == nil)
        await server.shutdown()
    }

    /// The reference answer of `/data/2.5/air_pollution` (aqi 1, PM2.5 5.36), and a forecast whose
    /// readings come out of order, one with an index OpenWeather does not have.
    @Test func theAirIsReadNowAndByTheHourAndAnIndexOutsideOneToFiveIsLeftOut() async throws {
        let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/reference/openweather/air-pollution.json")
        let now = (try? Data(contentsOf: reference)) ?? Data(#"{"coord":{"lon":50,"lat":50},"list":[{"dt":1748505600,"main":{"aqi":1},"components":{"pm2_5":5.36}}]}"#.utf8)
        let forecast = Data(#"""
            {"coord":{"lon":50,"lat":50},"list":[
              {"dt":1748512800,"main":{"aqi":4},"components":{"pm2_5":61.9}},
              {"dt":1748509200,"main":{"aqi":9},"components":{"pm2_5":1}},
              {"dt":1748505600,"main":{"aqi":2},"components":{"pm2_5":-3}}]}
            """#.utf8)
        let paths = Mutex<[String]>([])
        let server = try await LoopbackServer { request in
            paths.withLock { $0.append(request.path) }
            return LoopbackResponse(body: request.path.hasSuffix("/forecast") ? forecast : now)
        }
        defer { Task { await server.shutdown() } }
        let current = try await client(server).airQuality(latitude: 50, longitude: 50, for: .chat(1))
        #expect(current == [AirQuality(index: 1, pm25: 5.36, time: Date(timeIntervalSince1970: 1_748_505_600))])
        let hours = try await client(server).airQuality(latitude: 50, longitude: 50, forecast: true, for: .chat(1))
        #expect(hours.map(\.index) == [2, 4])
        #expect(hours.map(\.pm25) == [nil, 61.9])
        #expect(paths.withLock { $0 } == ["/data/2.5/air_pollution", "/data/2.5/air_pollution/forecast"])
        #expect(OpenWeatherEndpoint(path: "/data/2.5/air_pollution/forecast") == .air)
    }

    static let impossible: [([String], Double)] = [
        (["current", "temp"], 1e300),
        (["current", "feels_like"], -1e300),
        (["timezone_offset"], 1e300),
        (["hourly", "0", "wind_speed"], 1e308),
        (["hourly", "2", "pop"], 7),
        (["daily", "1", "temp", "night"], 5e200),
        (["current", "dt"], -1e300),
    ]

    @Test(arguments: impossible)
    func anImpossibleNumberIsAClearErrorForThatPlace(path: [String], value: Double) async throws {
        let body = try Self.oneCall(setting: path, to: value)
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await client(server).forecast(latitude: 55.79, longitude: 49.12, language: "ru", for: .chat(1))
        }
        #expect(error?.code == .undecodable)
        #expect(error?.message.contains("impossible") == true && error?.message.contains(path.last!) == true, "\(error?.message ?? "")")
        // The same answer with a real number is read.
        let fine = try Self.oneCall(setting: path, to: path.last == "pop" ? 0.5 : 3)
        let fineServer = try await LoopbackServer { _ in LoopbackResponse(body: fine) }
        defer { Task { await fineServer.shutdown() } }
        _ = try await client(fineServer).forecast(latitude: 55.79, longitude: 49.12, language: "ru", for: .chat(1))
    }

    @Test func aPlaceAtAnImpossiblePointIsAnError() async throws {
        let server = try await LoopbackServer { _ in .json([["name": "Nowhere", "lat": 1000.0, "lon": 10.0, "country": "XX"]]) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) { try await client(server).geocode("Nowhere", for: .chat(1)) }
        #expect(error?.code == .undecodable)
    }

    @Test func aServerMessageQuotingTheKeyInAnySpellingIsRedacted() async throws {
        let quoted = "/data/3.0/onecall?appid=\(Self.key) and appid=test%2Dkey%2dnot%2Dreal " + String(repeating: "x", count: 180) + Self.key
        let body = try JSONSerialization.data(withJSONObject: ["cod": 500, "message": quoted])
        let server = try await LoopbackServer { _ in LoopbackResponse(status: 500, body: body) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await client(server).forecast(latitude: 1, longitude: 2, language: "ru", for: .chat(1))
        }
        let text = error.map { "\($0) \($0.message)" } ?? ""
        // Not even in part where the message is cut short.
        #expect(!text.contains("key") && !text.contains("%2D"), "\(text)")
        #expect(text.contains("appid=<redacted>"))
    }

    @Test func afterA429NoCallIsMadeUntilThePauseEnds() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("error-429", status: 429) }
        defer { Task { await server.shutdown() } }
        let paused = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), rateLimitPause: .seconds(60))
        for _ in 0..<5 {
            let error = await #expect(throws: OpenWeatherError.self) { try await paused.geocode("Казань", for: .chat(1)) }
            #expect(error?.code == .rateLimited)
        }
        #expect(server.requests.count == 1)
        let brief = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), rateLimitPause: .zero)
        _ = try? await brief.geocode("Казань", for: .chat(1))
        _ = try? await brief.geocode("Казань", for: .chat(1))
        #expect(server.requests.count == 3)
    }

    /// One Call answers 429 while the free plan answers: its daily cap. OpenWeather words the cap
    /// as it words the key's rate, so the first 429 is waited out with every other call; One Call
    /// refused again after that minute, the free plan is asked, serves the rest of the UTC day,
    /// and geocoding, which has its own limit, goes on.
    @Test func aOneCallCapIsToldAfterThePauseAndFallsBackToTheFreePlanForTheDay() async throws {
        let server = try await LoopbackServer { request in
            switch request.path {
            case "/data/3.0/onecall": Fixture.response("error-429", status: 429)
            case "/data/2.5/weather": Fixture.response("weather25-tbilisi")
            case "/data/2.5/forecast": Fixture.response("forecast25-tbilisi")
            default: Fixture.response("geo-direct-paris")
            }
        }
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), rateLimitPause: .milliseconds(500))
        let first = await #expect(throws: OpenWeatherError.self) { try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1)) }
        #expect(first?.code == .rateLimited)
        _ = try? await client.geocode("Paris", for: .chat(1))
        #expect(server.requests.map(\.path) == ["/data/3.0/onecall"])
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await client.forecast(latitude: 41.72, longitude: 44.79, language: "en", for: .chat(1)).source == .freePlan)
        #expect(client.isOneCallUnavailable)
        #expect(try await client.geocode("Paris", for: .chat(1)).isEmpty == false)
        #expect(try await client.forecast(latitude: 41.72, longitude: 44.79, language: "ru", for: .chat(1)).source == .freePlan)
        #expect(server.requests.filter { $0.path == "/data/3.0/onecall" }.count == 2)
    }

    /// The key's rate is a 429 from every endpoint: everyone waits it out, and after the pause
    /// the free plan refusing too says it was the rate, not One Call's cap.
    @Test func aRateLimitOnEveryEndpointPausesEveryone() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("error-429", status: 429) }
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), rateLimitPause: .milliseconds(500))
        let error = await #expect(throws: OpenWeatherError.self) { try await client.forecast(latitude: 1, longitude: 2, language: "ru", for: .chat(1)) }
        #expect(error?.code == .rateLimited)
        _ = try? await client.geocode("Казань", for: .chat(1))
        // One Call alone; the geocoding after it is not sent.
        #expect(server.requests.count == 1)
        try await Task.sleep(for: .milliseconds(600))
        _ = try? await client.forecast(latitude: 1, longitude: 2, language: "ru", for: .chat(1))
        // One Call again, then the free plan's pair (its second call may be let go unsent once the
        // first is refused).
        let sent = server.requests.count
        #expect((3...4).contains(sent))
        #expect(!client.isOneCallUnavailable)
        _ = try? await client.geocode("Казань", for: .chat(1))
        #expect(server.requests.count == sent)
    }

    /// At the fake OpenWeather over loopback, whose key is allowed one call a minute: One Call's
    /// 429 stops every call for the minute, the free plan's pair and geocoding alike, whoever
    /// asks, as the README promises; nothing else reaches the server.
    @Test func aOneCall429StopsEveryCallForTheMinute() async throws {
        let fake = try await FakeOpenWeather(perMinute: 1, logging: true)
        defer { Task { await fake.shutdown() } }
        let client = OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: fake.url, transport: NIOHTTPTransport(), rateLimitPause: .seconds(60))
        _ = try await client.forecast(latitude: 55.75, longitude: 37.62, language: "ru", for: .chat(1))
        let refused = await #expect(throws: OpenWeatherError.self) {
            try await client.forecast(latitude: 59.94, longitude: 30.31, language: "ru", for: .chat(1))
        }
        #expect(refused?.code == .rateLimited && refused?.refusedLocally == false)
        for chat in Int64(2)...Int64(4) {
            let paused = await #expect(throws: OpenWeatherError.self) {
                try await client.forecast(latitude: 54.74, longitude: 55.97, language: "en", for: .chat(chat))
            }
            #expect(paused?.refusedLocally == true)
            _ = try? await client.geocode("Казань", for: .chat(chat))
            _ = try? await client.reverseGeocode(latitude: 54.2, longitude: 45.2, for: .background)
        }
        #expect(fake.log.map(\.path) == ["/data/3.0/onecall", "/data/3.0/onecall"])
        #expect(fake.requests == 2 && fake.tooManyRequests == 1)
        #expect(!client.isOneCallUnavailable)
    }

    /// A person trying places by hand, a new one every four seconds for a minute (each its
    /// look-up and its weather), never meets the chat's share of the minute as configured by
    /// default. Only a sixteenth new place within the minute, faster than by hand, is over it.
    @Test func aPersonTryingAPlaceEveryFourSecondsNeverMeetsTheChatsShare() async throws {
        let server = try await LoopbackServer { request in
            switch request.path {
            case "/data/3.0/onecall": Fixture.response("onecall-kazan-ru")
            default: Fixture.response("geo-direct-paris")
            }
        }
        defer { Task { await server.shutdown() } }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_800_000))
        let budget = CallBudget(.init(), clock: clock)
        let client = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), budget: budget)
        for place in 0..<15 {
            let latitude = 40 + Double(place) / 10
            #expect(try await client.reverseGeocode(latitude: latitude, longitude: 44.79, for: .chat(1)).isEmpty == false)
            #expect(try await client.forecast(latitude: latitude, longitude: 44.79, language: "ru", for: .chat(1)).source == .oneCall)
            clock.advance(by: .milliseconds(3900))
        }
        let over = await #expect(throws: OpenWeatherError.self) { try await client.reverseGeocode(latitude: 39, longitude: 44.79, for: .chat(1)) }
        #expect(over?.code == .overBudget(.chat))
        // Another chat is not held by it.
        #expect(try await client.reverseGeocode(latitude: 39, longitude: 44.79, for: .chat(2)).isEmpty == false)
    }

    /// On the free plan a forecast is a pair of calls, both counted in the minute's and the day's
    /// budgets, but one look-up in the chat's share of the minute: what the person asked for.
    @Test func theFreePlansPairIsOneLookUpForTheChatsShare() async throws {
        let server = try await LoopbackServer { request in
            switch request.path {
            case "/data/3.0/onecall": Fixture.response("error-401-subscription", status: 401)
            case "/data/2.5/weather": Fixture.response("weather25-tbilisi")
            default: Fixture.response("forecast25-tbilisi")
            }
        }
        defer { Task { await server.shutdown() } }
        let budget = CallBudget(.init(perMinute: 0, perChat: 3), clock: ManualClock(Date(timeIntervalSince1970: 1_795_800_000)))
        let client = OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), budget: budget)
        // One Call's 401, then two forecasts on the free plan: three look-ups, five calls.
        for place in 0..<2 {
            #expect(try await client.forecast(latitude: 41 + Double(place), longitude: 44.79, language: "en", for: .chat(1)).source == .freePlan)
        }
        #expect(budget.today.total == 5)
        let over = await #expect(throws: OpenWeatherError.self) { try await client.forecast(latitude: 43, longitude: 44.79, language: "en", for: .chat(1)) }
        #expect(over?.code == .overBudget(.chat))
    }

    /// A server that refuses beyond five calls a minute, as OpenWeather does beyond a key's rate,
    /// is never provoked by a client whose budget is five a minute: the rest are refused before
    /// they are sent, told as the bot's own budget.
    @Test func theBudgetIsSpentBeforeTheServerRefuses() async throws {
        let served = Mutex(0)
        let server = try await LoopbackServer { _ in
            let count = served.withLock { served in
                served += 1
                return served
            }
            return count <= 5 ? Fixture.response("geo-direct-paris") : Fixture.response("error-429", status: 429)
        }
        defer { Task { await server.shutdown() } }
        let client = OpenWeatherClient(
            apiKey: Self.key, apiURL: server.url, transport: NIOHTTPTransport(), budget: CallBudget(.init(perMinute: 5, perChat: 0)))
        let outcomes = await withTaskGroup(of: OpenWeatherError.Code?.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    do {
                        _ = try await client.geocode("Paris", for: .chat(1))
                        return nil
                    } catch {
                        return (error as? OpenWeatherError)?.code
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 5)
        #expect(outcomes.filter { $0 == OpenWeatherError.Code.overBudget(.minute) }.count == 7)
        #expect(server.requests.count == 5)
        #expect(client.budget?.lastMinute.values.reduce(0, +) == 5)
    }

    @Test func noServerIsANetworkError() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geo-reverse-open-sea") }
        let client = client(server)
        await server.shutdown()
        let error = await #expect(throws: OpenWeatherError.self) { try await client.reverseGeocode(latitude: 1, longitude: 2, for: .chat(1)) }
        #expect(error?.code == .network)
        #expect(error?.description.contains(Self.key) == false)
    }
}
