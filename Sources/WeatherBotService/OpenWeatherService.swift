public import Foundation
public import BotClock
public import Logging
public import OpenWeather
public import WeatherBot
public import WeatherBotStore

/// Geocoding and weather from the one shared OpenWeather client, weather through the shared cache.
/// Every failure is logged here, once, whatever the user is told.
public struct OpenWeatherService: Geocoder, WeatherSource {
    /// The one client: its budget counts every call the service makes.
    public let client: OpenWeatherClient
    /// The forecasts shared by all chats, fetched in English whatever the reader's language.
    public let cache: WeatherCache
    /// Places by name, a day.
    public let geocoding: GeocodingCache
    /// The air per place cell, half an hour.
    public let airCache: AirQualityCache
    /// How long a card or a daily forecast waits for the air before going without it.
    let airPatience: Duration
    let logger: Logger
    let metrics: BotMetrics
    let clock: any WallClock

    /// A service over `client`: forecasts fresh for `freshFor` and standing in when stale for up to `staleFor`, at most `capacity` cached;
    /// a card waits `airPatience` for the air before going without it.
    public init(
        client: OpenWeatherClient, freshFor: Duration = .seconds(600), staleFor: Duration = .seconds(3 * 3600), capacity: Int = 10_000,
        clock: any WallClock = SystemWallClock(), logger: Logger = Logger(label: "weatherbot.openweather"), metrics: BotMetrics = BotMetrics(),
        airPatience: Duration = .milliseconds(1500)
    ) {
        self.client = client
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
        self.geocoding = GeocodingCache(clock: clock)
        self.airCache = AirQualityCache(clock: clock)
        self.airPatience = airPatience
        self.cache = WeatherCache(freshFor: freshFor, staleFor: staleFor, capacity: capacity, clock: clock) { latitude, longitude, language, context in
            metrics.openWeatherCalled("forecast")
            do {
                return try await client.forecast(latitude: latitude, longitude: longitude, language: language, for: context)
            } catch let error as OpenWeatherError {
                Self.countRefusal(error, metrics)
                throw error
            }
        }
    }

    /// Up to five, from the geocoding cache when it holds the name.
    public func places(named name: String, language: Language, for context: CallContext) async throws -> [Place] {
        let (client, metrics) = (client, metrics)
        let found = try await logged(counting: true, context) {
            try await geocoding.places(named: name, for: context) {
                metrics.openWeatherCalled("geocode")
                return try await client.geocode(name, limit: 5, for: context)
            }
        }
        metrics.geocodingRequested(hit: found.cached)
        return found.places.map { Place($0, language: language) }
    }

    /// From the geocoding cache when it holds the point.
    public func places(atLatitude latitude: Double, longitude: Double, language: Language, for context: CallContext) async throws -> [Place] {
        let (client, metrics) = (client, metrics)
        let found = try await logged(counting: true, context) {
            try await geocoding.places(atLatitude: latitude, longitude: longitude, for: context) {
                metrics.openWeatherCalled("reverse")
                return try await client.reverseGeocode(latitude: latitude, longitude: longitude, for: context)
            }
        }
        metrics.geocodingRequested(hit: found.cached)
        return found.places.map { Place($0, language: language) }
    }

    /// A place the geocoding cache found by name at this point; no call.
    public func knownPlace(atLatitude latitude: Double, longitude: Double, language: Language) async -> Place? {
        await geocoding.place(atLatitude: latitude, longitude: longitude).map { Place($0, language: language) }
    }

    /// The language every forecast is fetched in: the views word conditions from their codes in
    /// each reader's language, so one call serves chats of every language.
    static let fetchedLanguage = "en"

    /// Through the shared cache; a failed refresh returns older weather marked stale, up to the cache's `staleFor`.
    public func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport {
        try await report(at: place, context) { cache, language in
            try await cache.forecast(latitude: place.latitude, longitude: place.longitude, language: language, refresh: refresh, for: context)
        }
    }

    /// Through the shared cache, fetching only when its entry is as old as `date` or older.
    public func weather(at place: Place, language: Language, fetchedAfter date: Date, for context: CallContext) async throws -> WeatherReport {
        try await report(at: place, context) { cache, language in
            try await cache.forecast(latitude: place.latitude, longitude: place.longitude, language: language, fetchedAfter: date, for: context)
        }
    }

    /// The cache's entry as a report, counted as a hit or a fetch.
    private func report(
        at place: Place, _ context: CallContext, _ entry: (WeatherCache, String) async throws -> WeatherCache.Entry
    ) async throws -> WeatherReport {
        let asked = clock.date
        let entry = try await logged(context) { try await entry(cache, Self.fetchedLanguage) }
        // Fetched before it was asked for: it was in the cache already.
        metrics.weatherRequested(hit: entry.fetchedAt < asked && !entry.isStale, stale: entry.isStale)
        if entry.isStale {
            logger.notice("OpenWeather refresh failed; showing older data", metadata: ["fetched.at": "\(entry.fetchedAt)"])
        }
        return WeatherReport(forecast: entry.forecast, fetchedAt: entry.fetchedAt, isStale: entry.isStale)
    }

    /// The latest reading, or nil when it did not come within the air's patience; never an error.
    public func airQuality(at place: Place, for context: CallContext) async -> AirQuality? {
        await air(.now, at: place, context)?.last
    }

    /// The hourly readings, or nil when they did not come within the air's patience; never an error.
    public func airForecast(at place: Place, for context: CallContext) async -> [AirQuality]? {
        await air(.forecast, at: place, context)
    }

    /// The air's readings at a place, within ``airPatience``: nothing waits for the air longer
    /// than that (a slow call goes on and fills the cache for the next look). The air is a
    /// nice-to-have: its calls are the background's, paid by whoever `context` names (a chat's
    /// counted in its share of the day as a batch, ``CallContext/batch``), and a refusal or
    /// failure is never told to anyone.
    private func air(_ kind: AirQualityCache.Kind, at place: Place, _ context: CallContext) async -> [AirQuality]? {
        // Most cards find the air kept: no task, no timer.
        if let kept = await airCache.cached(kind, latitude: place.latitude, longitude: place.longitude) { return kept }
        let (client, metrics, logger, cache) = (client, metrics, logger, airCache)
        let (latitude, longitude) = (place.latitude, place.longitude)
        var air = context.lowered(to: .background)
        air.batch = true
        air.refusalsShown = false
        let lookUp: @Sendable () async -> [AirQuality]? = { [air] in
            do {
                return try await cache.readings(kind, latitude: latitude, longitude: longitude, for: air) {
                    metrics.openWeatherCalled("air")
                    return try await client.airQuality(latitude: latitude, longitude: longitude, forecast: kind == .forecast, for: air)
                }
            } catch let error as OpenWeatherError {
                Self.countRefusal(error, metrics)
                logger.debug("no air quality", metadata: ["error": "\(error)"])
                return nil
            } catch {
                return nil
            }
        }
        // Not awaited past the patience: the cache's own fetch goes on and keeps what it gets.
        return (try? await Deadline.within(airPatience) { await lookUp() }) ?? nil
    }

    /// False while the key is known to have no One Call subscription (the free plan's endpoints stand in).
    public var hasMinutes: Bool { !client.isOneCallUnavailable }

    /// The shared cache's announcements.
    public func fetched() -> AsyncStream<FetchedForecast> { cache.fetched() }

    /// The cache's last known forecast, kept up to a day and a half; no call.
    public func lastKnown(at place: Place, language: Language) async -> WeatherReport? {
        guard let entry = await cache.lastKnown(latitude: place.latitude, longitude: place.longitude, language: Self.fetchedLanguage) else {
            return nil
        }
        return WeatherReport(forecast: entry.forecast, fetchedAt: entry.fetchedAt, isStale: true)
    }

    /// A call the client refused without sending it, counted apart from the requests sent.
    private static func countRefusal(_ error: OpenWeatherError, _ metrics: BotMetrics) {
        guard error.refusedLocally else { return }
        let reason = if case .overBudget = error.code { "budget" } else { "paused" }
        metrics.openWeatherRefused(OpenWeatherEndpoint(path: error.endpoint).rawValue, reason: reason)
    }

    /// Runs a call paid as `context` says, logging its failure: an invalid key as an error the
    /// operator must fix, the rest as warnings.
    /// `counting`: a refusal is counted here (a forecast's is counted where the cache fetches it).
    private func logged<T>(counting: Bool = false, _ context: CallContext, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as OpenWeatherError {
            if counting { Self.countRefusal(error, metrics) }
            switch error.code {
            case .invalidKey:
                logger.error("OpenWeather rejected the API key (401): check OPEN_WEATHER_API_KEY", metadata: ["endpoint": "\(error.endpoint)"])
            case .notFound:
                logger.debug("OpenWeather found nothing", metadata: ["endpoint": "\(error.endpoint)"])
            case .overBudget(let refusal):
                // The bot's own rule at work, counted in /metrics: a flood is not a log line per name.
                logger.debug("OpenWeather call not made: over the budget", metadata: ["endpoint": "\(error.endpoint)", "refusal": "\(refusal)"])
                // It reaches the chat, to be told (older weather standing in for it is not a refusal).
                if !error.chatToldAlready && context.refusalsShown { client.budget?.told(context.chatID, of: refusal) }
            default:
                logger.warning("OpenWeather call failed", metadata: ["error": "\(error)"])
            }
            throw error
        }
    }
}
