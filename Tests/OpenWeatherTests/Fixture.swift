import Foundation
import WeatherBotTesting

/// The project's own sample answers, shaped like OpenWeather's real ones, quirks included.
enum Fixture {
    static func data(_ name: String) -> Data {
        let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json")!
        return try! Data(contentsOf: url)
    }

    static func response(_ name: String, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(status: status, body: data(name))
    }
}
