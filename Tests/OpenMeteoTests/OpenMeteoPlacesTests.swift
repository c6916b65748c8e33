import Foundation
import HTTPTransport
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

    /// Paris in Russian, then English as a batch: each place (matched by Open-Meteo's id) named
    /// in both, its region the English one for the bot to translate.
    @Test func aSearchInLanguagesMergesTheNamesOfEachPlaceByItsId() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let places = try await openMeteo(fake.url).geocodeInLanguages("Париж", languages: ["ru", "en"], for: .chat(1))
        #expect(places.map(\.name) == ["Париж", "Париж"])
        #expect(places.map(\.localNames) == [["ru": "Париж", "en": "Paris"], ["ru": "Париж", "en": "Paris"]])
        #expect(places.map(\.state) == ["Île-de-France", "Texas"])
        #expect(places.map(\.country) == ["FR", "US"])
        #expect(fake.geocodeCalls == 2)
        let english = try await openMeteo(fake.url).geocodeInLanguages("Ufa", languages: ["en", "ru"], for: .chat(1))
        #expect(english.first?.name == "Ufa" && english.first?.state == "Bashkortostan")
        #expect(english.first?.localNames == ["en": "Ufa", "ru": "Уфа"])
        #expect(try await openMeteo(fake.url).geocodeInLanguages("Nowhere", languages: ["ru", "en"], for: .chat(1)).isEmpty)
        #expect(fake.geocodeCalls == 5)  // nothing found: the other language is not asked
    }

    /// The recorded Brno search in English, and as the test's own German answer (the same ids,
    /// the first place renamed «Brünn», the second left out): names are matched by id, not by
    /// place in the list.
    @Test func aSearchInLanguagesMatchesRecordedPlacesById() async throws {
        var german = Fixture.data("geocoding-brno", setting: ["results", "0", "name"], to: "Brünn")
        german = Fixture.data(german, setting: ["results", "1", "id"], to: 1)
        let server = try await LoopbackServer { [german] request in
            request.query["language"] == "de" ? LoopbackResponse(body: german) : Fixture.response("geocoding-brno")
        }
        defer { Task { await server.shutdown() } }
        let places = try await openMeteo(server.url).geocodeInLanguages("Brno", languages: ["en", "de"], for: .chat(1))
        #expect(places.count == 5)
        #expect(places[0].localNames == ["en": "Brno", "de": "Brünn"] && places[0].state == "South Moravian")
        #expect(places[1].localNames == ["en": "Bruno"])
        #expect(places[2].localNames == ["en": "Brno", "de": "Brno"])
        #expect(server.requests.map { $0.query["language"] } == ["en", "de"])
    }

    /// The other languages are extras: when they fail, the first answer stands.
    @Test func aSearchInLanguagesKeepsTheFirstAnswerWhenTheOthersFail() async throws {
        let server = try await LoopbackServer { request in
            request.query["language"] == "en" ? Fixture.response("geocoding-brno") : LoopbackResponse(status: 503, body: Data())
        }
        defer { Task { await server.shutdown() } }
        let places = try await openMeteo(server.url).geocodeInLanguages("Brno", languages: ["en", "ru"], for: .chat(1))
        #expect(places.first == GeoPlace(name: "Brno", localNames: ["en": "Brno"], lat: 49.19522, lon: 16.60796, country: "CZ", state: "South Moravian"))
        let failing = try await LoopbackServer { _ in LoopbackResponse(status: 503, body: Data()) }
        defer { Task { await failing.shutdown() } }
        await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(failing.url).geocodeInLanguages("Brno", languages: ["en", "ru"], for: .chat(1))
        }
    }

    /// The first language is paid as the chat's call; the others as a batch, outside its
    /// share of the minute.
    @Test func theOtherLanguagesAreABatch() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let budget = CallBudget(.init(perMinute: 60, perChat: 1))
        let client = OpenMeteoClient(
            apiURL: fake.url, geocodingURL: fake.url, airQualityURL: fake.url, transport: NIOHTTPTransport(), budget: budget)
        let places = try await client.geocodeInLanguages("Kazan", languages: ["en", "ru"], for: .chat(1))
        #expect(places.first?.localNames == ["en": "Kazan", "ru": "Казань"])
        #expect(fake.geocodeCalls == 2)
    }
}
