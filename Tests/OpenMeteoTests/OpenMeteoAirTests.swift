import Foundation
import OpenWeather
import Testing
@testable import OpenMeteo
import WeatherBotTesting

@Suite struct OpenMeteoAirTests {
    /// Enschede's air now, recorded with local ISO times: a European AQI of 44 is moderate, 3.
    @Test func theAirNowIsOneReadingOnOpenWeathersScale() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("air-current-enschede") }
        defer { Task { await server.shutdown() } }
        let readings = try await openMeteo(server.url).airQuality(latitude: 52.22, longitude: 6.9, forecast: false, for: .chat(1))
        #expect(readings == [AirQuality(index: 3, pm25: 22.1, time: Date(timeIntervalSince1970: 1_791_021_600))])  // 12:00 CEST
        let request = try #require(server.requests.first)
        #expect(request.path == "/v1/air-quality")
        #expect(request.query["current"] == "european_aqi,pm2_5")
        #expect(request.query["hourly"] == nil)
        #expect(request.query["timeformat"] == "unixtime")
    }

    @Test func theAirByTheHourIsOneReadingAnHour() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("air-new-york") }
        defer { Task { await server.shutdown() } }
        let readings = try await openMeteo(server.url).airQuality(latitude: 40.71, longitude: -74, forecast: true, for: .chat(1))
        #expect(readings.count == 24)
        #expect(readings.first == AirQuality(index: 4, pm25: 20.0, time: Date(timeIntervalSince1970: 1_790_827_200)))  // 65
        #expect(readings.prefix(4).map(\.index) == [4, 3, 3, 3])  // 65, 60, 55, 51
        #expect(readings[13].index == 3)  // 44
        let request = try #require(server.requests.first)
        #expect(request.query["hourly"] == "european_aqi,pm2_5")
        #expect(request.query["forecast_days"] == "4")
    }

    static func hourly(_ values: [Any]) -> Data {
        let body: [String: Any] = [
            "utc_offset_seconds": 0,
            "hourly": ["time": values.indices.map { 1_790_805_600 + $0 * 3600 }, "european_aqi": values, "pm2_5": values.map { _ in 5.0 }],
        ]
        return try! JSONSerialization.data(withJSONObject: body)
    }

    @Test func theEuropeanIndexMapsToOneToFiveAtItsBoundariesAndNullHoursAreLeftOut() async throws {
        let body = Self.hourly([0, 20, 20.5, 40, 40.5, 60, 61, 80, 80.5, 300, NSNull()])
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let readings = try await openMeteo(server.url).airQuality(latitude: 1, longitude: 2, forecast: true, for: .chat(1))
        #expect(readings.map(\.index) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
    }

    @Test func noIndexAtAllIsAnUndecodableAnswer() async throws {
        let body = Self.hourly([NSNull(), NSNull()])
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let error = await #expect(throws: OpenWeatherError.self) {
            try await openMeteo(server.url).airQuality(latitude: 1, longitude: 2, forecast: true, for: .chat(1))
        }
        #expect(error?.code == .undecodable && error?.endpoint == "/v1/air-quality")
    }

    /// Brno in October: grass, mugwort and ragweed in the air, trees out of season at zero.
    @Test func pollenIsReadByTheHourWhereTheModelReaches() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("air-brno") }
        defer { Task { await server.shutdown() } }
        let readings = try await openMeteo(server.url).pollen(latitude: 49.2, longitude: 16.6, for: .chat(1))
        #expect(readings.count == 24)
        let first = try #require(readings.first)
        #expect(first.time == Date(timeIntervalSince1970: 1_790_805_600))
        #expect(first.grains == [.alder: 0, .birch: 0, .grass: 0.6, .mugwort: 4.3, .olive: 0, .ragweed: 0.9])
        #expect(first.level(of: .mugwort) == .low)
        #expect(first.level(of: .birch) == .none)
        let request = try #require(server.requests.first)
        #expect(request.query["hourly"] == "alder_pollen,birch_pollen,grass_pollen,mugwort_pollen,olive_pollen,ragweed_pollen")
        #expect(request.query["forecast_days"] == "4")
        #expect(request.query["timeformat"] == "unixtime")
    }

    /// New York: CAMS has no pollen there, every value `null`: no readings, never zeros.
    @Test func pollenOutsideTheModelsRangeIsNoReadings() async throws {
        let server = try await LoopbackServer { _ in Fixture.response("air-new-york") }
        defer { Task { await server.shutdown() } }
        #expect(try await openMeteo(server.url).pollen(latitude: 40.71, longitude: -74, for: .chat(1)).isEmpty)
    }

    @Test func anHourWithSomeKindsHasOnlyThose() async throws {
        let body = Fixture.data("air-brno", setting: ["hourly", "grass_pollen", "0"], to: NSNull())
        let server = try await LoopbackServer { _ in LoopbackResponse(body: body) }
        defer { Task { await server.shutdown() } }
        let readings = try await openMeteo(server.url).pollen(latitude: 49.2, longitude: 16.6, for: .chat(1))
        #expect(readings.first?.grains[.grass] == nil)
        #expect(readings.first?.grains[.mugwort] == 4.3)
    }

    @Test func theFakesAirAndPollenByDefault() async throws {
        let fake = try await FakeOpenMeteo()
        defer { Task { await fake.shutdown() } }
        let client = openMeteo(fake.url)
        #expect(try await client.airQuality(latitude: 55.75, longitude: 37.62, forecast: false, for: .chat(1)).map(\.index) == [2])
        #expect(try await client.airQuality(latitude: 55.75, longitude: 37.62, forecast: true, for: .chat(1)).count == 96)
        let moscow = try await client.pollen(latitude: 55.75, longitude: 37.62, for: .chat(1))
        #expect(moscow.count == 96)
        #expect(moscow.first?.levels.map { $0.kind } == [.birch, .grass])
        #expect(moscow.first?.level(of: .birch) == .high && moscow.first?.level(of: .grass) == .low)
        #expect(try await client.pollen(latitude: 40.71, longitude: -74, for: .chat(1)).isEmpty)
        fake.setPollen { _, _ in [.ragweed: 60] }
        #expect(try await client.pollen(latitude: 40.71, longitude: -74, for: .chat(1)).first?.level(of: .ragweed) == .high)
        #expect(fake.airCalls == 2 && fake.pollenCalls == 3 && fake.requests == 5)
    }
}
