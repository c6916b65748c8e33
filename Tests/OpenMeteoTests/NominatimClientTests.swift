import Foundation
import HTTPTransport
import OpenWeather
import Testing
@testable import OpenMeteo
import WeatherBotTesting

@Suite struct NominatimClientTests {
    static let userAgent = "weatherbot-tests/1.0 (+https://example.org/weatherbot)"

    func nominatim(_ url: URL, minimumInterval: Duration = .milliseconds(1)) -> NominatimClient {
        NominatimClient(
            url: url, userAgent: Self.userAgent, transport: NIOHTTPTransport(), requestTimeout: .seconds(30),
            minimumInterval: minimumInterval)
    }

    /// Nominatim's own documented jsonv2 answer: coordinates as strings, the state in the address.
    @Test func aPlaceIsReadWithItsNameCountryAndState() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("nominatim-reverse-jsonv2") }
        defer { Task { await server.shutdown() } }
        let places = try await nominatim(server.url).reverse(latitude: -34.44076, longitude: -58.70521, for: .chat(1))
        let road = GeoPlace(
            name: "Autopista Pedro Eugenio Aramburu", localNames: nil, lat: -34.4391708, lon: -58.7064573, country: "AR",
            state: "Buenos Aires")
        #expect(places == [road])
        let request = try #require(server.requests.first)
        #expect(request.path == "/reverse")
        #expect(request.query["format"] == "jsonv2")
        #expect(request.query["lat"] == "-34.4408" && request.query["lon"] == "-58.7052")
        #expect(request.query["zoom"] == "10")
        #expect(request.query["addressdetails"] == "1")
        #expect(request.query["namedetails"] == "1")
        #expect(request.headers["user-agent"] == Self.userAgent)
        // English: the state comes as OpenWeather's does, for the bot to translate.
        #expect(request.headers["accept-language"] == "en")
    }

    @Test func theOpenSeaIsNoPlace() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("nominatim-unable-to-geocode") }
        defer { Task { await server.shutdown() } }
        #expect(try await nominatim(server.url).reverse(latitude: 0, longitude: -30, for: .chat(1)).isEmpty)
    }

    @Test func namesByLanguageComeFromNamedetails() async throws {
        let fake = try await FakeNominatim()
        defer { Task { await fake.shutdown() } }
        let place = try #require(try await nominatim(fake.url).reverse(latitude: 54.18, longitude: 45.17, for: .chat(1)).first)
        #expect(place.name == "Саранск")
        #expect(place.localNames == ["ru": "Саранск", "en": "Saransk", "de": "Saransk"])
        #expect(place.name(in: "en") == "Saransk")
        #expect(place.country == "RU")
        #expect(place.state == "Республика Мордовия")
        #expect(place.lat == 54.1807481 && place.lon == 45.1862032)
        #expect(try await nominatim(fake.url).reverse(latitude: 0.5, longitude: -30, for: .chat(1)).isEmpty)
        #expect(fake.userAgents == [Self.userAgent, Self.userAgent])
    }

    /// A burst of five: each starts at least the interval after the one before, in turn.
    @Test func aBurstIsSentNoFasterThanTheMinimumInterval() async throws {
        let fake = try await FakeNominatim()
        defer { Task { await fake.shutdown() } }
        let client = nominatim(fake.url, minimumInterval: .milliseconds(200))
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask { _ = try await client.reverse(latitude: 54 + Double(index) / 100, longitude: 45, for: .chat(Int64(index))) }
            }
            try await group.waitForAll()
        }
        // Five turns 200 ms apart: the last starts 800 ms after the first at the soonest (only a
        // slower machine makes it later). Arrivals on loopback wobble with the machine's load, so
        // the spacing itself is the pacer's test below, on instants it is given.
        #expect(fake.arrivals.count == 5)
        #expect(ContinuousClock.now - started >= .milliseconds(800))
    }

    @Test func thePacerGivesEachAskerTheNextFreeTurnAndRefusesOnePastItsPatience() {
        let pacer = RequestPacer(interval: .seconds(1))
        let now = ContinuousClock.now
        let turns = (0..<4).map { _ in pacer.reserve(patience: .seconds(5), now: now) }
        #expect(turns == [now, now + .seconds(1), now + .seconds(2), now + .seconds(3)])
        // The next turn is 4 s away: past a patience of 3 s, refused, and no turn is taken.
        #expect(pacer.reserve(patience: .seconds(3), now: now) == nil)
        #expect(pacer.reserve(patience: .seconds(5), now: now) == now + .seconds(4))
        // Once the queue has gone by, a request starts at once.
        #expect(pacer.reserve(patience: .zero, now: now + .seconds(60)) == now + .seconds(60))
    }

    @Test func aRequestThatWouldWaitPastItsPatienceIsRefusedWithoutBeingSent() async throws {
        let fake = try await FakeNominatim()
        defer { Task { await fake.shutdown() } }
        // The next turn is 10 s away: more than a person's 5 s.
        let client = nominatim(fake.url, minimumInterval: .seconds(10))
        _ = try await client.reverse(latitude: 54.18, longitude: 45.17, for: .chat(1))
        let started = ContinuousClock.now
        let error = await #expect(throws: OpenWeatherError.self) {
            try await client.reverse(latitude: 54.18, longitude: 45.17, for: .chat(2))
        }
        #expect(error?.code == .rateLimited)
        #expect(error?.endpoint == "/reverse")
        #expect(error?.refusedLocally == true)
        #expect(ContinuousClock.now - started < .seconds(2))  // refused at once, not after waiting
        #expect(fake.requests == 1)
        #expect(NominatimClient.patience(.soon) == .seconds(60) && NominatimClient.patience(.background) == .seconds(600))
    }

    @Test func aRefusalTakesNoTurn() {
        let pacer = RequestPacer(interval: .seconds(1))
        let now = ContinuousClock.now
        #expect(pacer.reserve(patience: .zero, now: now) == now)
        #expect(pacer.reserve(patience: .milliseconds(500), now: now) == nil)
        #expect(pacer.reserve(patience: .seconds(5), now: now) == now + .seconds(1))
        #expect(pacer.reserve(patience: .seconds(5), now: now) == now + .seconds(2))
        #expect(pacer.reserve(patience: .seconds(5), now: now + .seconds(10)) == now + .seconds(10))
    }

    @Test(arguments: [
        (429, "", OpenWeatherError.Code.rateLimited),
        (503, "<html>Service Unavailable</html>", .server(503)),
        (403, "<html>Access blocked</html>", .unexpectedStatus(403)),
        (400, #"{"error":{"code":400,"message":"Parameter 'lon' must be a number."}}"#, .notFound),
        (200, #"{"error":{"code":400,"message":"odd"}}"#, .undecodable),
        (200, #"{"lat":"north","lon":"45.1","name":"X"}"#, .undecodable),
        (200, "[]", .undecodable),
    ])
    func failuresAreTyped(status: Int, body: String, code: OpenWeatherError.Code) async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(status: status, body: Data(body.utf8)) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await nominatim(server.url).reverse(latitude: 54.18, longitude: 45.17, for: .chat(1))
        }
        #expect(error?.code == code)
        #expect(error?.endpoint == "/reverse")
    }
}
