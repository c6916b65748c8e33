public import Foundation
public import OpenWeather
public import WeatherBotStore

/// Finds places by name and by point. Every look-up that may call OpenWeather says who pays for
/// it (``CallContext``): the chat being handled, or the user of an inline query or press.
public protocol Geocoder: Sendable {
    /// Places named `name`, best first.
    func places(named name: String, language: Language, for context: CallContext) async throws -> [Place]
    /// The places at a point, nearest first; empty when there is none (the open sea).
    func places(atLatitude latitude: Double, longitude: Double, language: Language, for context: CallContext) async throws -> [Place]
    /// A place found by name at this point (to four decimals) while the geocoder keeps it; nothing
    /// is looked up. A message sent from an inline result names its place only by the point.
    func knownPlace(atLatitude latitude: Double, longitude: Double, language: Language) async -> Place?
}

extension Geocoder {
    /// Nil: a geocoder that remembers nothing knows no place by its point.
    public func knownPlace(atLatitude latitude: Double, longitude: Double, language: Language) async -> Place? { nil }
}

/// Follows the short links map apps share (`maps.app.goo.gl/…`, `yandex.ru/maps/-/…`), which
/// carry no point of their own, to the point of the address they redirect to. A link is followed
/// once and remembered; each asker may have only a few new ones followed a minute, so that no
/// one can get the bot's address blocked by a link's host, which would break links for everyone.
public protocol MapLinkResolver: Sendable {
    /// Where `link` leads, followed (when it is not remembered) on behalf of `asker`: a user, or
    /// the chat that sent it. `cachedOnly` (an inline query answered at once,
    /// ``CallContext/cachedOnly``): only what is remembered, or a request already under way, answers.
    func lookUp(_ link: String, for asker: Int64, cachedOnly: Bool) async -> MapLinkLookup
}

/// Where a short map link leads.
public enum MapLinkLookup: Sendable, Hashable {
    /// The point of the address it redirects to.
    case point(latitude: Double, longitude: Double)
    /// Nowhere: it does not redirect, or to an address with no point.
    case nowhere
    /// Its host could not be reached, or failed, in time: worth asking again later.
    case unreachable
    /// The asker had their share of new links followed this minute.
    case tooMany
    /// Not known, and only what is remembered may answer (`cachedOnly`).
    case notCached
}

/// A forecast as the views get it: the data, when it was fetched, and whether it is older than
/// it should be because a refresh failed.
public struct WeatherReport: Sendable, Hashable {
    /// What OpenWeather answered for the place, in metric units; the views convert for the chat.
    public var forecast: Forecast
    /// When it was fetched: a stale card shows this time.
    public var fetchedAt: Date
    /// True when a refresh failed and older weather stands in: the card says how old it is.
    public var isStale: Bool
    /// The air now, when the view shows it and it came in time.
    public var air: AirQuality?
    /// Pollen today (each kind's mean over the local day), where the place has it and it came in time.
    public var pollen: PollenReading?

    /// A report; fresh unless `isStale`, without air unless `air` is given.
    public init(forecast: Forecast, fetchedAt: Date, isStale: Bool = false, air: AirQuality? = nil) {
        self.air = air
        self.forecast = forecast
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }
}

/// Tells the weather at a place. Every look-up that may call OpenWeather says who pays for it
/// (``CallContext``): a chat, an inline user, or scheduled work.
public protocol WeatherSource: Sendable {
    /// - Parameter refresh: the user asked for fresh data; a cached answer younger than the
    ///   cache's freshness would otherwise do.
    func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport
    /// The last weather known at the place, however old (up to the source's keeping), marked
    /// stale; nothing is fetched. Nil when none is known.
    func lastKnown(at place: Place, language: Language) async -> WeatherReport?
    /// Weather fetched after `date`, fetching only when what is known is older: a daily forecast
    /// takes weather fetched ahead of its minute.
    func weather(at place: Place, language: Language, fetchedAfter date: Date, for context: CallContext) async throws -> WeatherReport
    /// Whether forecasts carry the minutes ahead (One Call), so rain is told to the minute; on
    /// the free plan it is told from the 3-hourly steps.
    var hasMinutes: Bool { get }
    /// Each forecast the source fetches from now on, whoever asked for it: the notice checker
    /// tells a place's chats of rain as soon as any fetch (a card viewed, a daily forecast) shows
    /// it. Nothing for a source that keeps no shared forecasts.
    func fetched() -> AsyncStream<FetchedForecast>
    /// The air at the place now; nil when it cannot be had soon (the card then has no air line).
    /// Its calls wait as background work does, paid by whoever `context` names.
    func airQuality(at place: Place, for context: CallContext) async -> AirQuality?
    /// The air by the hour for the next days; nil when it cannot be had soon (the daily forecast
    /// then says nothing of the air).
    func airForecast(at place: Place, for context: CallContext) async -> [AirQuality]?
    /// Pollen by the hour for the next days, where the place has it (Europe, ``PollenReading/covers(latitude:longitude:)``);
    /// nil outside that, or when it cannot be had soon. Its calls wait as the air's do.
    func pollen(at place: Place, for context: CallContext) async -> [PollenReading]?
    /// Whether any source tells pollen at all: without one, /alerts offers no pollen notice.
    var hasPollen: Bool { get }
    /// Whether the source tells official warnings: without, /alerts offers no warnings notice.
    var hasWarnings: Bool { get }
}

extension WeatherSource {
    /// Sources that do not say otherwise carry the minutes.
    public var hasMinutes: Bool { true }

    /// A source without a shared cache announces nothing: the stream ends at once.
    public func fetched() -> AsyncStream<FetchedForecast> { AsyncStream { $0.finish() } }

    /// No air by default: the card shows no air line.
    public func airQuality(at place: Place, for context: CallContext) async -> AirQuality? { nil }

    /// No air forecast by default: the daily forecast says nothing of the air.
    public func airForecast(at place: Place, for context: CallContext) async -> [AirQuality]? { nil }

    /// Sources that do not say otherwise tell pollen where their ``pollen(at:for:)`` has it.
    public var hasPollen: Bool { true }

    /// Sources that do not say otherwise tell warnings, in their forecasts' `alerts`.
    public var hasWarnings: Bool { true }

    /// No pollen by default: nothing of it is shown.
    public func pollen(at place: Place, for context: CallContext) async -> [PollenReading]? { nil }

    /// A source without a cache of its own fetches as usual.
    public func weather(at place: Place, language: Language, fetchedAfter date: Date, for context: CallContext) async throws -> WeatherReport {
        try await weather(at: place, language: language, refresh: false, for: context)
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
    /// Nothing to stop for activities that keep no state between steps.
    public func settled(in chatID: Int64) {}
}
