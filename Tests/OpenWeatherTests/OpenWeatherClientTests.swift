import Foundation
import HTTPTransport
import LoopbackHTTP
import Testing
@testable import OpenWeather

@Suite struct OpenWeatherClientTests {
    static let key = "test-key-not-real"

    static let reverseBody = #"""
        [{"name":"London","local_names":{"ru":"Лондон","en":"London","ascii":"London","feature_name":"London"},
          "lat":51.5085,"lon":-0.1257,"country":"GB"},
         {"name":"Nowhere Hamlet","lat":1,"lon":2}]
        """#

    static let oneCallBody = #"""
        {"lat":55.75,"lon":37.62,"timezone":"Europe/Moscow","timezone_offset":10800,
         "current":{"dt":1700000000,"temp":-2,"feels_like":-6.5,"pressure":1012,"humidity":80,"clouds":75,
                    "wind_speed":4,"wind_deg":200,"weather":[{"id":803,"main":"Clouds","description":"облачно с прояснениями","icon":"04d"}]}}
        """#

    static let weather25Body = #"""
        {"coord":{"lon":56.0375,"lat":54.775},"weather":[{"id":800,"main":"Clear","description":"ясно","icon":"01d"}],
         "base":"stations","main":{"temp":25.65,"feels_like":24.92,"pressure":1010,"humidity":25},
         "wind":{"speed":2.7,"deg":122,"gust":4.02},"clouds":{"all":1},"dt":1630504249,"timezone":18000,"name":"Уфа","cod":200}
        """#

    static let noSubscription = #"{"cod":401, "message": "Please note that using One Call 3.0 requires a separate subscription to the One Call by Call plan."}"#

    func client(_ server: LoopbackServer) -> OpenWeatherClient {
        OpenWeatherClient(apiKey: Self.key, apiURL: server.url, transport: URLSessionTransport())
    }

    @Test func reverseGeocodingReadsLocalNamesAndToleratesMissingOnes() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Data(Self.reverseBody.utf8)) }
        defer { Task { await server.shutdown() } }
        let places = try await client(server).reverseGeocode(latitude: 51.5, longitude: -0.12, limit: 2)
        #expect(places.count == 2)
        #expect(places[0].name(in: "ru") == "Лондон")
        #expect(places[0].name(in: "ascii") == "London")
        #expect(places[1].name(in: "ru") == "Nowhere Hamlet")
        #expect(places[1].state == nil)
        let query = try #require(server.requests.first?.query)
        #expect(server.requests.first?.path == "/geo/1.0/reverse")
        #expect(query["lat"] == "51.5000")
        #expect(query["appid"] == Self.key)
    }

    @Test func oneCallGivesTheZoneAndTheCurrentWeather() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Data(Self.oneCallBody.utf8)) }
        defer { Task { await server.shutdown() } }
        let now = try await client(server).currentWeather(latitude: 55.75, longitude: 37.62, language: "ru")
        #expect(now.timeZone == .identifier("Europe/Moscow"))
        #expect(now.temperature == -2)
        #expect(now.clouds == 75)
        #expect(now.description == "облачно с прояснениями")
        let query = try #require(server.requests.first?.query)
        #expect(query["units"] == "metric")
        #expect(query["lang"] == "ru")
    }

    @Test func withoutAOneCallSubscriptionTheFreePlanIsUsedAndRemembered() async throws {
        let server = try await LoopbackServer { request in
            request.path == "/data/3.0/onecall"
                ? LoopbackResponse(status: 401, body: Data(Self.noSubscription.utf8))
                : LoopbackResponse(body: Data(Self.weather25Body.utf8))
        }
        defer { Task { await server.shutdown() } }
        let client = client(server)
        let first = try await client.currentWeather(latitude: 54.77, longitude: 56.04, language: "ru")
        #expect(first.timeZone == .offset(seconds: 18000))
        #expect(first.description == "ясно")
        #expect(client.isOneCallUnavailable)
        _ = try await client.currentWeather(latitude: 54.77, longitude: 56.04, language: "ru")
        #expect(server.requests.map(\.path) == ["/data/3.0/onecall", "/data/2.5/weather", "/data/2.5/weather"])
    }

    @Test(arguments: [
        (401, #"{"cod":401,"message":"Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#, OpenWeatherError.Code.invalidKey),
        (429, #"{"cod":"429","message":"Your account is temporary blocked due to exceeding of requests limitation of your subscription type."}"#, .rateLimited),
        (404, #"{"cod":"404","message":"city not found"}"#, .notFound),
        (502, "<html>Bad Gateway</html>", .server(502)),
        (200, "{not json", .undecodable),
    ])
    func failuresAreTyped(status: Int, body: String, code: OpenWeatherError.Code) async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(status: status, body: Data(body.utf8)) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await client(server).geocode("Казань")
        }
        #expect(error?.code == code)
        #expect(error?.description.contains(Self.key) == false)
    }
}
