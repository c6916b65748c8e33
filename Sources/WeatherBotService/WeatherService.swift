public import Foundation
public import BotClock
public import Logging
public import OpenMeteo
public import OpenWeather
public import WeatherBot
public import WeatherBotStore

/// Geocoding and weather from the shared sources' clients, weather through the shared cache: the
/// core never knows which source answered, only the forecast's ``Forecast/Source`` says so.
///
/// OpenWeather is the first source when it has a key. Open-Meteo is the second: forecasts, names
/// and the air, with Nominatim for the place at a point. Without a key the second answers alone;
/// with one it answers while OpenWeather cannot (``SourceSwitch``). Pollen only Open-Meteo has.
/// Every failure is logged here, once, whatever the user is told.
public struct WeatherService: Geocoder, WeatherSource {
    /// OpenWeather's client, when there is a key: its budget counts every call made to it.
    public let client: OpenWeatherClient?
    /// Open-Meteo's client, when it is a source: alone, or standing in for OpenWeather.
    public let openMeteo: OpenMeteoClient?
    /// Nominatim, for the place at a point where OpenWeather does not answer.
    public let nominatim: NominatimClient?
    /// Which of the two is asked now.
    public let sources: SourceSwitch
    /// The forecasts shared by all chats, whichever source answered.
    public let cache: WeatherCache
    /// Places by name and by point, a day.
    public let geocoding: GeocodingCache
    /// The air per place cell, half an hour.
    public let airCache: AirQualityCache
    /// Pollen per place cell, three hours: the model's forecast changes twice a day.
    public let pollenCache: PollenCache
    /// How long a card or a daily forecast waits for the air (and pollen) before going without it.
    let airPatience: Duration
    let logger: Logger
    let metrics: BotMetrics
    let clock: any WallClock

    /// A service over the sources given, at least one: forecasts fresh for `freshFor` and standing
    /// in when stale for up to `staleFor`, at most `capacity` cached; a card waits `airPatience`
    /// for the air before going without it.
    /// - Parameters:
    ///   - client: OpenWeather's client; nil without a key.
    ///   - openMeteo: Open-Meteo's client; nil when it is not to answer.
    ///   - nominatim: Nominatim's client, with `openMeteo`.
    public init(
        client: OpenWeatherClient?, openMeteo: OpenMeteoClient? = nil, nominatim: NominatimClient? = nil, sources: SourceSwitch = SourceSwitch(),
        freshFor: Duration = .seconds(600), staleFor: Duration = .seconds(3 * 3600), capacity: Int = 10_000,
        clock: any WallClock = SystemWallClock(), logger: Logger = Logger(label: "weatherbot.weather"), metrics: BotMetrics = BotMetrics(),
        airPatience: Duration = .milliseconds(1500)
    ) {
        precondition(client != nil || openMeteo != nil, "a weather service needs a source")
        self.client = client
        self.openMeteo = openMeteo
        self.nominatim = nominatim
        self.sources = sources
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
        self.geocoding = GeocodingCache(clock: clock)
        self.airCache = AirQualityCache(clock: clock)
        self.pollenCache = PollenCache(freshFor: .seconds(3 * 3600), clock: clock)
        self.airPatience = airPatience
        let either = Either(first: client, second: openMeteo, sources: sources, metrics: metrics, logger: logger)
        self.cache = WeatherCache(freshFor: freshFor, staleFor: staleFor, capacity: capacity, clock: clock) { latitude, longitude, language, context in
            try await either.call(
                "forecast", context,
                first: { try await $0.forecast(latitude: latitude, longitude: longitude, language: language, for: context) },
                second: { try await $0.forecast(latitude: latitude, longitude: longitude, for: context) })
        }
    }

    /// The routing of one call between the sources, shared by every look-up.
    private var either: Either<OpenMeteoClient> { Either(first: client, second: openMeteo, sources: sources, metrics: metrics, logger: logger) }

    /// Up to five, from the geocoding cache when it holds the name. Open-Meteo names places in one
    /// language a call: it is asked in each language the bot speaks, and the names are put
    /// together, so that a place is named alike for every reader, whoever asked first.
    public func places(named name: String, language: Language, for context: CallContext) async throws -> [Place] {
        let either = either
        let found = try await logged(context) {
            try await geocoding.places(named: name, for: context) {
                try await either.call(
                    "geocode", context,
                    first: { try await $0.geocode(name, limit: 5, for: context) },
                    second: { client in
                        let languages = [language] + Language.allCases.filter { $0 != language }
                        return try await client.geocodeInLanguages(name, languages: languages.map(\.rawValue), limit: 5, for: context)
                    })
            }
        }
        metrics.geocodingRequested(hit: found.cached)
        return found.places.map { Place($0, language: language) }
    }

    /// From the geocoding cache when it holds the point; Nominatim answers where OpenWeather does not.
    public func places(atLatitude latitude: Double, longitude: Double, language: Language, for context: CallContext) async throws -> [Place] {
        let either = Either(first: client, second: nominatim, sources: sources, metrics: metrics, logger: logger, secondName: "nominatim")
        let found = try await logged(context) {
            try await geocoding.places(atLatitude: latitude, longitude: longitude, for: context) {
                try await either.call(
                    "reverse", context,
                    first: { try await $0.reverseGeocode(latitude: latitude, longitude: longitude, for: context) },
                    second: { try await $0.reverse(latitude: latitude, longitude: longitude, for: context) })
            }
        }
        metrics.geocodingRequested(hit: found.cached)
        return found.places.map { Place($0, language: language) }
    }

    /// A place the geocoding cache found by name at this point; no call.
    public func knownPlace(atLatitude latitude: Double, longitude: Double, language: Language) async -> Place? {
        await geocoding.place(atLatitude: latitude, longitude: longitude).map { Place($0, language: language) }
    }

    /// The language every OpenWeather forecast is fetched in: the views word conditions from their
    /// codes in each reader's language, so one call serves chats of every language.
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
            logger.notice("weather refresh failed; showing older data", metadata: ["fetched.at": "\(entry.fetchedAt)"])
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

    /// Pollen by the hour for the next days, from Open-Meteo, where its European model reaches
    /// (``PollenReading/covers(latitude:longitude:)``): elsewhere nil, and no call. Nil too when it
    /// did not come within the air's patience, or no source has it; empty when the model has none
    /// for the place (out of season).
    public func pollen(at place: Place, for context: CallContext) async -> [PollenReading]? {
        guard let openMeteo, PollenReading.covers(latitude: place.latitude, longitude: place.longitude) else { return nil }
        let (latitude, longitude, metrics) = (place.latitude, place.longitude, metrics)
        return await readings(.forecast, at: place, in: pollenCache, context, what: "pollen") { air in
            metrics.sourceCalled("open-meteo", "pollen")
            return try await openMeteo.pollen(latitude: latitude, longitude: longitude, for: air)
        }
    }

    /// Only Open-Meteo tells pollen: without it (OpenWeather alone) /alerts offers no pollen notice.
    public var hasPollen: Bool { openMeteo != nil }

    /// Only OpenWeather tells official warnings: without a key /alerts offers no warnings notice.
    /// (With one, a card Open-Meteo answers while OpenWeather is away shows none meanwhile.)
    public var hasWarnings: Bool { client != nil }

    /// The air's readings at a place, from whichever source answers.
    private func air(_ kind: AirQualityCache.Kind, at place: Place, _ context: CallContext) async -> [AirQuality]? {
        let (latitude, longitude, either) = (place.latitude, place.longitude, either)
        return await readings(kind, at: place, in: airCache, context, what: "air") { air in
            try await either.call(
                "air", air,
                first: { try await $0.airQuality(latitude: latitude, longitude: longitude, forecast: kind == .forecast, for: air) },
                second: { try await $0.airQuality(latitude: latitude, longitude: longitude, forecast: kind == .forecast, for: air) })
        }
    }

    /// Readings of a cell within ``airPatience``: nothing waits for the air or pollen longer than
    /// that (a slow call goes on and fills the cache for the next look). They are a
    /// nice-to-have: their calls are the background's, paid by whoever `context` names (a chat's
    /// counted in its share of the day as a batch, ``CallContext/batch``), and a refusal or
    /// failure is never told to anyone.
    private func readings<Reading: Sendable>(
        _ kind: CellReadingsCache<Reading>.Kind, at place: Place, in cache: CellReadingsCache<Reading>, _ context: CallContext, what: String,
        fetch: @escaping @Sendable (CallContext) async throws -> [Reading]
    ) async -> [Reading]? {
        // Most cards find them kept: no task, no timer.
        if let kept = await cache.cached(kind, latitude: place.latitude, longitude: place.longitude) { return kept }
        let (metrics, logger) = (metrics, logger)
        let (latitude, longitude) = (place.latitude, place.longitude)
        var paid = context.lowered(to: .background)
        paid.batch = true
        paid.refusalsShown = false
        let lookUp: @Sendable () async -> [Reading]? = { [paid] in
            do {
                return try await cache.readings(kind, latitude: latitude, longitude: longitude, for: paid) { try await fetch(paid) }
            } catch let error as OpenWeatherError {
                if error.source == .openWeather { Self.countRefusal(error, metrics) }
                logger.debug("no \(what)", metadata: ["error": "\(error)"])
                return nil
            } catch {
                return nil
            }
        }
        // Not awaited past the patience: the cache's own fetch goes on and keeps what it gets.
        return (try? await Deadline.within(airPatience) { await lookUp() }) ?? nil
    }

    /// False while OpenWeather's key is known to have no One Call subscription (the free plan's
    /// endpoints stand in): rain is then told from 3-hour steps. Open-Meteo's hours are hourly.
    public var hasMinutes: Bool { client.map { !$0.isOneCallUnavailable } ?? true }

    /// The shared cache's announcements.
    public func fetched() -> AsyncStream<FetchedForecast> { cache.fetched() }

    /// The cache's last known forecast, kept up to a day and a half; no call.
    public func lastKnown(at place: Place, language: Language) async -> WeatherReport? {
        guard let entry = await cache.lastKnown(latitude: place.latitude, longitude: place.longitude, language: Self.fetchedLanguage) else {
            return nil
        }
        return WeatherReport(forecast: entry.forecast, fetchedAt: entry.fetchedAt, isStale: true)
    }

    /// The budget of the source that refused `error`'s call.
    private func budget(refusing error: OpenWeatherError) -> CallBudget? {
        switch error.source {
        case .openWeather: client?.budget
        case .openMeteo: openMeteo?.budget
        case .nominatim: nominatim?.budget
        }
    }

    /// A call a client refused without sending it, counted apart from the requests sent.
    fileprivate static func countRefusal(_ error: OpenWeatherError, _ metrics: BotMetrics) {
        guard error.refusedLocally else { return }
        let reason = if case .overBudget = error.code { "budget" } else { "paused" }
        metrics.openWeatherRefused(OpenWeatherEndpoint(path: error.endpoint).rawValue, reason: reason)
    }

    /// Runs a look-up paid as `context` says, logging its failure: an invalid key as an error the
    /// operator must fix, the rest as warnings.
    private func logged<T>(_ context: CallContext, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as OpenWeatherError {
            switch error.code {
            case .invalidKey:
                logger.error("OpenWeather rejected the API key (401): check OPEN_WEATHER_API_KEY", metadata: ["endpoint": "\(error.endpoint)"])
            case .notFound:
                logger.debug("the weather source found nothing", metadata: ["endpoint": "\(error.endpoint)"])
            case .overBudget(let refusal):
                // The bot's own rule at work, counted in /metrics: a flood is not a log line per name.
                logger.debug("weather call not made: over the budget", metadata: ["endpoint": "\(error.endpoint)", "refusal": "\(refusal)"])
                // It reaches the chat, to be told (older weather standing in for it is not a refusal).
                if !error.chatToldAlready && context.refusalsShown { budget(refusing: error)?.told(context.chatID, of: refusal) }
            default:
                logger.warning("weather call failed", metadata: ["error": "\(error)"])
            }
            throw error
        }
    }
}

/// One call routed between OpenWeather and a second source (Open-Meteo, or Nominatim for the
/// place at a point) as the ``SourceSwitch`` says, counted per source and logged when the switch
/// turns.
private struct Either<Second: Sendable>: Sendable {
    let first: OpenWeatherClient?
    let second: Second?
    let sources: SourceSwitch
    let metrics: BotMetrics
    let logger: Logger
    var secondName = "open-meteo"

    /// The second source as the log names it.
    var secondTitle: String { secondName == "nominatim" ? "Nominatim" : "Open-Meteo" }

    func call<T>(
        _ endpoint: String, _ context: CallContext,
        first ask: (OpenWeatherClient) async throws -> T,
        second askSecond: (Second) async throws -> T
    ) async throws -> T {
        if let first {
            guard second != nil else { return try await asking(first, endpoint, ask) }
            var reason = "away"
            if case .first(let probe) = sources.route(endpoint) {
                do {
                    let value = try await asking(first, endpoint, ask)
                    if sources.answered(endpoint) {
                        logger.notice("OpenWeather answers again; it is the source again", metadata: ["calls": "\(endpoint)"])
                        metrics.openWeatherAway(false, endpoint)
                    }
                    return value
                } catch let error as OpenWeatherError {
                    let wasAway = sources.isAway(endpoint)
                    guard sources.failed(error, endpoint, probe: probe) else { throw error }
                    if !wasAway && sources.isAway(endpoint) {
                        logger.warning(
                            "OpenWeather does not answer; \(secondTitle) answers for now", metadata: ["calls": "\(endpoint)", "error": "\(error)"])
                        metrics.openWeatherAway(true, endpoint)
                    } else if !SourceSwitch.isBudget(error) {
                        logger.notice("OpenWeather call failed; \(secondTitle) answered it", metadata: ["error": "\(error)"])
                    }
                    reason = SourceSwitch.isBudget(error) ? "budget" : "outage"
                } catch {
                    // No answer to judge OpenWeather by (a cancellation): the switch must not
                    // wait for this probe for ever.
                    if probe { sources.probeEnded(endpoint) }
                    throw error
                }
            }
            metrics.fellBack(reason)
        }
        guard let second else { throw OpenWeatherError(code: .network, endpoint: endpoint, message: "no source to ask") }
        metrics.sourceCalled(secondName, endpoint)
        return try await askSecond(second)
    }

    private func asking<T>(_ client: OpenWeatherClient, _ endpoint: String, _ ask: (OpenWeatherClient) async throws -> T) async throws -> T {
        metrics.openWeatherCalled(endpoint)
        metrics.sourceCalled("openweather", endpoint)
        do {
            return try await ask(client)
        } catch let error as OpenWeatherError {
            WeatherService.countRefusal(error, metrics)
            throw error
        }
    }
}
