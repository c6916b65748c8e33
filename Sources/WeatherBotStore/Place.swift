/// A place the bot knows: a geocoded city with its coordinates.
public struct Place: Codable, Sendable, Hashable {
    /// The name as the geocoder gives it by default.
    public var name: String
    /// Local names by language code (`ru`, `en`), where the geocoder knows them.
    public var localNames: [String: String]
    /// Region or state, when known.
    public var region: String?
    /// ISO 3166 country code, when known.
    public var country: String?
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive.
    public var longitude: Double
    /// IANA identifier (`Europe/Moscow`), or `UTC+05:45`-style for a fixed offset, once known.
    public var timeZone: String?

    /// A place from the geocoder, a shared location or the store; the time zone stays nil until a forecast gives it.
    public init(
        name: String, localNames: [String: String] = [:], region: String? = nil, country: String? = nil,
        latitude: Double, longitude: Double, timeZone: String? = nil
    ) {
        self.name = name
        self.localNames = localNames
        self.region = region
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
    }

    /// The place's name in `language`, or its default name.
    public func name(in language: String) -> String {
        localNames[language] ?? name
    }
}
