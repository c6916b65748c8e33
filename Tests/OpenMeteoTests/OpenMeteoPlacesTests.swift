import Foundation
import OpenWeather
import Testing
@testable import OpenMeteo
import WeatherBotTesting

@Suite struct OpenMeteoPlacesTests {
    @Test func aSearchReadsNamesCountriesAndRegions() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geocoding-brno") }
        defer { Task { await server.shutdown() } }
        let places = try await openMeteo(server.url).geocode("Brno", language: "en", for: .chat(1))
        #expect(places.count == 5)
        let brno = GeoPlace(name: "Brno", localNames: ["en": "Brno"], lat: 49.19522, lon: 16.60796, country: "CZ", state: "South Moravian")
        #expect(places[0] == brno)
        #expect(places[0].name(in: "en") == "Brno")
        #expect(places[1].country == "US" && places[1].state == "Nebraska" && places[1].lon == -96.95864)
        #expect(places[2].state == "Plzeň Region")
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/search")
        #expect(request.query["name"] == "Brno")
        #expect(request.query["count"] == "5")
        #expect(request.query["language"] == "en")
        #expect(request.query["format"] == "json")
    }

    @Test func aSearchThatFindsNothingIsAnEmptyList() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geocoding-none") }
        defer { Task { await server.shutdown() } }
        #expect(try await openMeteo(server.url).geocode("Xyzzy", language: "ru", limit: 3, for: .chat(1)).isEmpty)
        #expect(server.requests.first?.query["count"] == "3")
    }

    @Test func namesAreSentWhateverTheirCharacters() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("geocoding-none") }
        defer { Task { await server.shutdown() } }
        for name in ["Санкт-Петербург", "C++", "a&b=c", "Saint-Étienne #1", "100% "] {
            _ = try await openMeteo(server.url).geocode(name, language: "ru", for: .chat(1))
            #expect(server.requests.last?.query["name"] == name)
        }
    }

    @Test func aPlaceAtAnImpossiblePointIsAnError() async throws {
        let body = Fixture.data("geocoding-brno", setting: ["results", "1", "latitude"], to: 1000)
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).geocode("Brno", language: "en", for: .chat(1))
        }
        #expect(error?.code == .undecodable)
        #expect(error?.endpoint == "/v1/search")
    }

    @Test func theFakeNamesItsPlacesInTheLanguageAsked() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let client = openMeteo(fake.url)
        let russian = try await client.geocode("Paris", language: "ru", for: .chat(1))
        #expect(russian.map(\.name) == ["Париж", "Париж"])
        #expect(russian.map(\.country) == ["FR", "US"])
        #expect(russian[1].state == "Техас")
        #expect(russian[0].localNames == ["ru": "Париж"] && russian[0].name(in: "ru") == "Париж")
        let english = try await client.geocode("Париж", language: "en", for: .chat(1))
        #expect(english.map(\.name) == ["Paris", "Paris"] && english[1].state == "Texas")
        let names = [("Саранск", "Саранск", "Saransk"), ("Казань", "Казань", "Kazan"), ("Уфа", "Уфа", "Ufa"), ("London", "Лондон", "London")]
        for (name, ru, en) in names {
            #expect(try await client.geocode(name, language: "ru", for: .chat(1)).first?.name == ru)
            #expect(try await client.geocode(name, language: "en", for: .chat(1)).first?.name == en)
        }
        #expect(try await client.geocode("Place 7", language: "ru", for: .chat(1)).first?.lat == 47)
        #expect(try await client.geocode("Nowhere", language: "ru", for: .chat(1)).isEmpty)
        #expect(fake.geocodeCalls == 12 && fake.forecastCalls == 0)
    }
}
