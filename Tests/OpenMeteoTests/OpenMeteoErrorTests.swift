import Foundation
import HTTPTransport
import OpenWeather
import Testing
@testable import OpenMeteo
import WeatherBotTesting

@Suite struct OpenMeteoErrorTests {
    @Test(arguments: [
        (400, String(decoding: Fixture.data("error-400-latitude"), as: UTF8.self), OpenWeatherError.Code.unexpectedStatus(400)),
        (404, "Not Found", .notFound),
        (429, #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#, .rateLimited),
        (502, "<html>Bad Gateway</html>", .server(502)),
        (418, "", .unexpectedStatus(418)),
        (200, "{not json", .undecodable),
        (200, #"{"latitude":1,"longitude":2}"#, .undecodable),
        (200, #"{"current":{"time":1790859600,"interval":900}}"#, .undecodable),
    ])
    func failuresAreTypedAsOpenWeathersAre(status: Int, body: String, code: OpenWeatherError.Code) async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(status: status, body: Data(body.utf8)) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).forecast(latitude: 1, longitude: 2, for: .chat(1))
        }
        #expect(error?.code == code)
        #expect(error?.endpoint == "/v1/forecast")
        #expect(error?.refusedLocally == false)
    }

    /// A 400 on the forecast or the air is a request Open-Meteo cannot serve: a wrong request,
    /// not a place that is not there. Its reason is kept.
    @Test func a400OnTheForecastOrTheAirIsAnUnexpectedStatusWithItsReason() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("error-400-latitude", status: 400) }
        defer { Task { await server.shutdown() } }
        let client = openMeteo(server.url)
        let reason = "Latitude must be in range of -90 to 90°."
        await #expect(throws: OpenWeatherError(code: .unexpectedStatus(400), endpoint: "/v1/forecast", message: reason)) {
            try await client.forecast(latitude: 91, longitude: 2, for: .chat(1))
        }
        await #expect(throws: OpenWeatherError(code: .unexpectedStatus(400), endpoint: "/v1/air-quality", message: reason)) {
            try await client.airQuality(latitude: 91, longitude: 2, forecast: false, for: .chat(1))
        }
        await #expect(throws: OpenWeatherError(code: .unexpectedStatus(400), endpoint: "/v1/air-quality", message: reason)) {
            try await client.pollen(latitude: 91, longitude: 2, for: .chat(1))
        }
    }

    /// On the place search a 400 is a name it cannot look up: not found.
    @Test func theReasonOfA400IsTheMessage() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("error-400-latitude", status: 400) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).geocode("x", language: "ru", for: .chat(1))
        }
        #expect(error?.code == .notFound)
        #expect(error?.endpoint == "/v1/search")
        #expect(error?.message == "Latitude must be in range of -90 to 90°.")
    }

    @Test func noAnswerIsANetworkFailure() async throws {
        let server = try await LoopbackServer { _ in .noAnswer }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).pollen(latitude: 49.2, longitude: 16.6, for: .chat(1))
        }
        #expect(error?.code == .network)
        #expect(error?.endpoint == "/v1/air-quality")
    }

    @Test(arguments: [
        (["current", "temperature_2m"], 1e300 as Double?),
        (["current", "relative_humidity_2m"], 250),
        (["hourly", "temperature_2m", "3"], -400),
        (["hourly", "precipitation_probability", "0"], 101),
        (["daily", "sunrise", "0"], 1e12),
        (["current", "time"], nil),
    ])
    func anImpossibleOrMissingNumberIsAnUndecodableAnswer(path: [String], value: Double?) async throws {
        let body = Fixture.data(Fixture.completed("forecast-brno"), setting: path, to: value.map { $0 as Any } ?? NSNull())
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).forecast(latitude: 49.2, longitude: 16.6, for: .chat(1))
        }
        #expect(error?.code == .undecodable)
    }

    @Test func anOutageOnTheFakeFailsEveryCallAndIsCounted() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let client = openMeteo(fake.url)
        fake.failAll(status: 503)
        await #expect(throws: OpenWeatherError(code: .server(503), endpoint: "/v1/forecast", message: "Service unavailable")) {
            try await client.forecast(latitude: 55.75, longitude: 37.62, for: .chat(1))
        }
        await #expect(throws: OpenWeatherError.self) { try await client.geocode("Уфа", language: "ru", for: .chat(1)) }
        fake.failAll(status: nil)
        #expect(try await client.geocode("Уфа", language: "ru", for: .chat(1)).count == 1)
        #expect(fake.forecastCalls == 1 && fake.geocodeCalls == 2 && fake.requests == 3)
    }

    @Test func aCallOverTheBudgetIsNotSent() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let budget = CallBudget(.init(perMinute: 60, perChat: 1))
        let client = OpenMeteoClient(
            apiURL: fake.url, geocodingURL: fake.url, airQualityURL: fake.url, transport: NIOHTTPTransport(), budget: budget)
        _ = try await client.forecast(latitude: 55.75, longitude: 37.62, for: .chat(1))
        let error = await #expect(throws: OpenWeatherError.self) {
            try await client.forecast(latitude: 55.75, longitude: 37.62, for: .chat(1))
        }
        #expect(error?.code == .overBudget(.chat) && error?.refusedLocally == true)
        #expect(fake.forecastCalls == 1)
    }
}
