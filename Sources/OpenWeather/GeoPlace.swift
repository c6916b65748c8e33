/// A geocoding result from `/geo/1.0/direct` or `/geo/1.0/reverse`.
public struct GeoPlace: Codable, Sendable, Hashable {
    /// OpenWeather's default name for the place, usually in English or the local script.
    public var name: String
    /// Names by language code. Also holds the keys `ascii` and `feature_name`, which are not languages.
    public var localNames: [String: String]?
    /// Latitude in degrees, north positive.
    public var lat: Double
    /// Longitude in degrees, east positive.
    public var lon: Double
    /// ISO 3166 country code, such as `GB`; nil when the answer had none.
    public var country: String?
    /// The region or state inside the country, when OpenWeather knows one.
    public var state: String?

    /// OpenWeather's names: the same in what this decodes and encodes.
    enum CodingKeys: String, CodingKey {
        case name, lat, lon, country, state
        case localNames = "local_names"
    }

    /// A place as decoded from the geocoding API, or built by hand in tests.
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
