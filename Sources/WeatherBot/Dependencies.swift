public import Foundation
public import Logging
public import OpenWeather
public import WeatherBotStore

/// Finds places by name and by point.
public protocol Geocoder: Sendable {
    /// Places named `name`, best first.
    func places(named name: String, language: Language) async throws -> [Place]
    /// The places at a point, nearest first; empty when there is none (the open sea).
    func places(atLatitude latitude: Double, longitude: Double, language: Language) async throws -> [Place]
}

/// A forecast as the views get it: the data, when it was fetched, and whether it is older than
/// it should be because a refresh failed.
public struct WeatherReport: Sendable, Hashable {
    public var forecast: Forecast
    public var fetchedAt: Date
    public var isStale: Bool

    public init(forecast: Forecast, fetchedAt: Date, isStale: Bool = false) {
        self.forecast = forecast
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }
}

/// Tells the weather at a place.
public protocol WeatherSource: Sendable {
    /// - Parameter refresh: the user asked for fresh data; a cached answer younger than the
    ///   cache's freshness would otherwise do.
    func weather(at place: Place, language: Language, refresh: Bool) async throws -> WeatherReport
}

/// Reads a chat's favorites and daily forecasts; changes to them are returned in the step and
/// committed with it.
public protocol ChatStore: Sendable {
    func favorites(of chatID: Int64) async throws -> [Favorite]
    func subscriptions(of chatID: Int64) async throws -> [Subscription]
}

extension BotDatabase: ChatStore {
    public func favorites(of chatID: Int64) async throws -> [Favorite] {
        try favorites(chatID: chatID)
    }

    public func subscriptions(of chatID: Int64) async throws -> [Subscription] {
        try subscriptions(chatID: chatID)
    }
}

/// Who may change a group's shared data: its administrators, looked up (and remembered for a
/// while) by the runtime.
public protocol ChatMembership: Sendable {
    /// Whether `userID` administers the group `chatID`; false when it cannot be told.
    func isAdministrator(_ userID: Int64, of chatID: Int64) async -> Bool
}

/// Shows the user that the bot is working («typing…») while it waits on OpenWeather.
public protocol ChatActivity: Sendable {
    /// The step about to wait may be slow.
    func typing(in chatID: Int64) async
    /// The chat's step is done (its replies are committed).
    func settled(in chatID: Int64)
}

extension ChatActivity {
    public func settled(in chatID: Int64) {}
}

/// Geocoding and weather from the one shared OpenWeather client, weather through the shared cache.
/// Every failure is logged here, once, whatever the user is told.
public struct OpenWeatherService: Geocoder, WeatherSource {
    public let client: OpenWeatherClient
    public let cache: WeatherCache
    let logger: Logger

    public init(
        client: OpenWeatherClient, freshFor: Duration = .seconds(600), staleFor: Duration = .seconds(3 * 3600), capacity: Int = 10_000,
        logger: Logger = Logger(label: "weatherbot.openweather")
    ) {
        self.client = client
        self.logger = logger
        self.cache = WeatherCache(freshFor: freshFor, staleFor: staleFor, capacity: capacity) { latitude, longitude, language in
            try await client.forecast(latitude: latitude, longitude: longitude, language: language)
        }
    }

    public func places(named name: String, language: Language) async throws -> [Place] {
        try await logged { try await client.geocode(name, limit: 5).map { Place($0, language: language) } }
    }

    public func places(atLatitude latitude: Double, longitude: Double, language: Language) async throws -> [Place] {
        try await logged { try await client.reverseGeocode(latitude: latitude, longitude: longitude).map { Place($0, language: language) } }
    }

    public func weather(at place: Place, language: Language, refresh: Bool) async throws -> WeatherReport {
        let entry = try await logged {
            try await cache.forecast(latitude: place.latitude, longitude: place.longitude, language: language.rawValue, refresh: refresh)
        }
        if entry.isStale {
            logger.notice("OpenWeather refresh failed; showing older data", metadata: ["fetched.at": "\(entry.fetchedAt)"])
        }
        return WeatherReport(forecast: entry.forecast, fetchedAt: entry.fetchedAt, isStale: entry.isStale)
    }

    /// Runs a call, logging its failure: an invalid key as an error the operator must fix, the rest as warnings.
    private func logged<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as OpenWeatherError {
            switch error.code {
            case .invalidKey:
                logger.error("OpenWeather rejected the API key (401): check OPEN_WEATHER_API_KEY", metadata: ["endpoint": "\(error.endpoint)"])
            case .notFound:
                logger.debug("OpenWeather found nothing", metadata: ["endpoint": "\(error.endpoint)"])
            default:
                logger.warning("OpenWeather call failed", metadata: ["error": "\(error)"])
            }
            throw error
        }
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
