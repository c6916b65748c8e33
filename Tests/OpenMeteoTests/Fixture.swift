import Foundation
import WeatherBotTesting

/// Real answers of Open-Meteo and Nominatim, as kept in `Fixtures/` (where each comes from is in
/// `Fixtures/SOURCES.md`).
enum Fixture {
    static func data(_ name: String) -> Data {
        let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json")!
        return try! Data(contentsOf: url)
    }

    static func response(_ name: String, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(status: status, body: data(name))
    }

    /// A fixture with one value replaced, at a path of keys (and indices into arrays).
    static func data(_ name: String, setting path: [String], to value: Any) -> Data {
        let body = (try? JSONSerialization.jsonObject(with: data(name))) ?? [:]
        func set(_ object: Any, _ path: ArraySlice<String>) -> Any {
            guard let key = path.first else { return value }
            if var list = object as? [Any], let index = Int(key) {
                list[index] = set(list[index], path.dropFirst())
                return list
            }
            var dictionary = object as? [String: Any] ?? [:]
            dictionary[key] = set(dictionary[key] as Any, path.dropFirst())
            return dictionary
        }
        return (try? JSONSerialization.data(withJSONObject: set(body, path[...]))) ?? Data()
    }
}
