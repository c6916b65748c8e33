import OpenWeather
import WeatherBotStore

/// Finds places by name and by point.
public protocol Geocoder: Sendable {
    /// Places named `name`, best first.
    func places(named name: String, language: Language) async throws -> [Place]
    /// The places at a point, nearest first; empty when there is none (the open sea).
    func places(atLatitude latitude: Double, longitude: Double, language: Language) async throws -> [Place]
}

/// Tells the current weather at a place.
public protocol WeatherSource: Sendable {
    func weatherNow(at place: Place, language: Language) async throws -> WeatherNow
}

/// Shows the user that the bot is working («typing…») while it waits on OpenWeather.
public protocol ChatActivity: Sendable {
    func typing(in chatID: Int64) async
}

extension OpenWeatherClient: Geocoder, WeatherSource {
    public func places(named name: String, language: Language) async throws -> [Place] {
        try await geocode(name, limit: 5).map { Place($0, language: language) }
    }

    public func places(atLatitude latitude: Double, longitude: Double, language: Language) async throws -> [Place] {
        try await reverseGeocode(latitude: latitude, longitude: longitude).map { Place($0, language: language) }
    }

    public func weatherNow(at place: Place, language: Language) async throws -> WeatherNow {
        try await currentWeather(latitude: place.latitude, longitude: place.longitude, language: language.rawValue)
    }
}

extension Place {
    /// A place from a geocoding result, keeping the Russian and English names.
    public init(_ geo: GeoPlace, language: Language) {
        var names: [String: String] = [:]
        for language in Language.allCases {
            let local = geo.name(in: language.rawValue)
            if local != geo.name { names[language.rawValue] = local }
        }
        self.init(name: geo.name, localNames: names, region: geo.state, country: geo.country, latitude: geo.lat, longitude: geo.lon)
    }
}
