/// A geocoding result from `/geo/1.0/direct` or `/geo/1.0/reverse`.
public struct GeoPlace: Codable, Sendable, Hashable {
    public var name: String
    /// Names by language code. Also holds the keys `ascii` and `feature_name`, which are not languages.
    public var localNames: [String: String]?
    public var lat: Double
    public var lon: Double
    public var country: String?
    public var state: String?

    /// OpenWeather's names: the same in what this decodes and encodes.
    enum CodingKeys: String, CodingKey {
        case name, lat, lon, country, state
        case localNames = "local_names"
    }

    public init(name: String, localNames: [String: String]? = nil, lat: Double, lon: Double, country: String? = nil, state: String? = nil) {
        self.name = name
        self.localNames = localNames
        self.lat = lat
        self.lon = lon
        self.country = country
        self.state = state
    }

    /// The name in `language`, falling back to the default name.
    public func name(in language: String) -> String {
        guard !Self.nonLanguageKeys.contains(language), let local = localNames?[language], !local.isEmpty else {
            return name
        }
        return local
    }

    static let nonLanguageKeys: Set<String> = ["ascii", "feature_name"]
}
