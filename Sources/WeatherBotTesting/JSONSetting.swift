public import Foundation

/// A JSON answer with one value replaced, at a path of keys (and indices into arrays): a real
/// answer kept as a fixture, made to say one thing otherwise for one test.
public func jsonSetting(_ path: [String], to value: Any, in data: Data) -> Data {
    let body = (try? JSONSerialization.jsonObject(with: data)) ?? [:]
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
