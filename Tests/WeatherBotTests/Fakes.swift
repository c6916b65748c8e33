import Foundation
import OpenWeather
import Synchronization
import WeatherBot
import WeatherBotStore

/// A geocoder answering from tables, counting its calls.
final class FakeGeocoder: Geocoder {
    let byName: [String: [Place]]
    let reverse: [Place]
    let failure: OpenWeatherError?
    let calls = Mutex(0)
    /// Who each look-up was paid by.
    let paid = FakeWeather.OnBehalf()

    init(byName: [String: [Place]] = [:], reverse: [Place] = [], failure: OpenWeatherError? = nil) {
        self.byName = byName
        self.reverse = reverse
        self.failure = failure
    }

    func places(named name: String, language: Language, for context: CallContext) async throws -> [Place] {
        calls.withLock { $0 += 1 }
        paid.calls.withLock { $0.append(.init(context)) }
        if let failure { throw failure }
        if let places = lookUp(name) { return places }
        // Like OpenWeather's, «name,FR» and «name,ID,US» keep to the country asked.
        let parts = name.split(separator: ",").map(String.init)
        guard parts.count > 1, let country = parts.last, country.count == 2 else { return [] }
        return (lookUp(parts[0]) ?? []).filter { $0.country == country }
    }

    /// Like OpenWeather's, the lookup ignores case.
    private func lookUp(_ name: String) -> [Place]? {
        byName[name] ?? byName.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// Like the geocoding cache's: a place some name finds, by its point to four decimals.
    func knownPlace(atLatitude latitude: Double, longitude: Double, language: Language) async -> Place? {
        func key(_ value: Double) -> Int { Int((value * 10_000).rounded()) }
        return byName.values.joined().first { key($0.latitude) == key(latitude) && key($0.longitude) == key(longitude) }
    }

    func places(atLatitude latitude: Double, longitude: Double, language: Language, for context: CallContext) async throws -> [Place] {
        calls.withLock { $0 += 1 }
        paid.calls.withLock { $0.append(.init(context)) }
        if let failure { throw failure }
        return reverse
    }
}

/// Short map links and where each redirects, or how following it fails; any other leads nowhere.
struct FakeMapLinks: MapLinkResolver {
    var targets: [String: String] = [:]
    var failures: [String: MapLinkLookup] = [:]

    func lookUp(_ link: String, for asker: Int64, cachedOnly: Bool) async -> MapLinkLookup {
        if let failure = failures[link] { return failure }
        guard let point = targets[link].flatMap({ ShortMapLink.point(atTarget: $0) }) else { return .nowhere }
        return .point(latitude: point.latitude, longitude: point.longitude)
    }
}

/// Weather that is always the same, or always fails.
struct FakeWeather: WeatherSource {
    var failure: OpenWeatherError?
    var forecast: Forecast = .sample
    var fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)
    /// True as during an outage: older weather stands in for a refresh that failed.
    var isStale = false
    /// Notes who paid (``CallContext``) for each weather asked for.
    var onBehalf: OnBehalf?
    /// False as on the free plan: no minutes ahead.
    var minutes = true
    var hasMinutes: Bool { minutes }
    /// The air now, and by the hour; nil as when the Air Pollution API fails.
    var air: AirQuality?
    var airHours: [AirQuality]?

    /// Pollen by the hour, asked for wherever the place is; nil as outside the data's coverage.
    var pollenHours: [PollenReading]?
    /// Notes the places pollen was asked for.
    var pollenAsked: Asked?

    func airQuality(at place: Place, for context: CallContext) async -> AirQuality? { air }
    func airForecast(at place: Place, for context: CallContext) async -> [AirQuality]? { airHours }
    func pollen(at place: Place, for context: CallContext) async -> [PollenReading]? {
        pollenAsked?.places.withLock { $0.append(place.name) }
        return pollenHours
    }

    /// The places a look-up was asked for, in order.
    final class Asked: Sendable {
        let places = Mutex<[String]>([])
    }

    /// Who paid for each call (``CallContext``): the chat, how urgently, whether as a batch,
    /// whether a refusal would be shown, whether only the caches could answer.
    final class OnBehalf: Sendable {
        struct Call: Hashable {
            var chat: Int64?
            var priority: CallPriority = .interactive
            var batch = false
            var refusalsShown = true
            var cachedOnly = false

            init(chat: Int64?, priority: CallPriority = .interactive, batch: Bool = false, refusalsShown: Bool = true, cachedOnly: Bool = false) {
                (self.chat, self.priority, self.batch, self.refusalsShown, self.cachedOnly) = (chat, priority, batch, refusalsShown, cachedOnly)
            }

            init(_ context: CallContext) {
                self.init(
                    chat: context.chatID, priority: context.priority, batch: context.batch, refusalsShown: context.refusalsShown,
                    cachedOnly: context.cachedOnly)
            }
        }

        let calls = Mutex<[Call]>([])
    }

    func weather(at place: Place, language: Language, refresh: Bool, for context: CallContext) async throws -> WeatherReport {
        onBehalf?.calls.withLock { $0.append(.init(context)) }
        if let failure { throw failure }
        var forecast = forecast
        // Like OpenWeather's, descriptions come in the language asked for.
        let description = language == .ru ? "облачно с прояснениями" : "broken clouds"
        forecast.current.condition.description = description
        for index in forecast.hourly.indices { forecast.hourly[index].condition.description = description }
        for index in forecast.daily.indices { forecast.daily[index].condition.description = description }
        return WeatherReport(forecast: forecast, fetchedAt: fetchedAt, isStale: isStale)
    }

    /// No weather is kept from earlier calls.
    func lastKnown(at place: Place, language: Language) async -> WeatherReport? { nil }
}

extension Forecast {
    /// Moscow on 2023-11-14 at 22:13 UTC (01:13 local): now, 48 hours and 8 days.
    static let sample: Forecast = {
        let start = 1_699_999_200.0  // 22:00 UTC
        let condition = Condition(description: "облачно с прояснениями", icon: "04d")
        let hours = (0..<48).map { (index: Int) -> HourlyForecast in
            let time = Date(timeIntervalSince1970: start + Double(index) * 3600)
            let temperature = Double(index % 6) - 3
            return HourlyForecast(
                time: time, temperature: temperature,
                clouds: 75, humidity: 80, pressure: 1012, windSpeed: 4, windDegrees: 200, precipitationChance: 0.2,
                precipitation: 0, condition: condition)
        }
        let days = (0..<8).map { (index: Int) -> DailyForecast in
            let time = Date(timeIntervalSince1970: 1_699_952_400 + Double(index) * 86400)
            let day = Double(index) - 1
            let night = Double(index) - 6
            let rainy = index == 2
            return DailyForecast(
                time: time, dayTemperature: day,
                nightTemperature: night, morningTemperature: -4, eveningTemperature: -2, minimumTemperature: -7,
                maximumTemperature: 1, clouds: 60, humidity: 85, pressure: 1015, windSpeed: 5, windDegrees: 90,
                precipitationChance: rainy ? 0.6 : 0, precipitation: rainy ? 1.25 : 0, condition: condition)
        }
        return Forecast(
            timeZone: .identifier("Europe/Moscow"),
            current: CurrentWeather(
                time: Date(timeIntervalSince1970: 1_700_000_000), temperature: -3.4, feelsLike: -7.6, clouds: 75, humidity: 80,
                pressure: 1012, windSpeed: 4, windGust: 9, windDegrees: 200, condition: condition,
                sunrise: Date(timeIntervalSince1970: 1_699_936_500), sunset: Date(timeIntervalSince1970: 1_699_966_200)),
            hourly: hours, daily: days, alerts: [], source: .oneCall)
    }()
}

/// A chat's favorites held in memory, for conversation tests that do not commit.
final class FakeFavorites: ChatStore {
    let list: Mutex<[Favorite]>

    init(_ list: [Favorite] = []) {
        self.list = Mutex(list)
    }

    func favorites(chatID: Int64) async throws -> [Favorite] {
        list.withLock { $0.filter { $0.chatID == chatID } }
    }

    func subscriptions(chatID: Int64) async throws -> [Subscription] { [] }

    /// Chats' records, for inline queries that read the sender's own.
    let chats = Mutex<[Int64: ChatRecord]>([:])

    func chat(_ id: Int64) async throws -> ChatRecord? { chats.withLock { $0[id] } }
}

/// Counts «typing…» calls.
final class FakeActivity: ChatActivity {
    let chats = Mutex<[Int64]>([])
    func typing(in chatID: Int64) async { chats.withLock { $0.append(chatID) } }
}

extension Place {
    static let saransk = Place(
        name: "Saransk", localNames: ["ru": "Саранск", "en": "Saransk"], region: "Республика Мордовия", country: "RU",
        latitude: 54.1838, longitude: 45.1749)
    static let parisFR = Place(name: "Paris", localNames: ["ru": "Париж"], region: "Ile-de-France", country: "FR", latitude: 48.8589, longitude: 2.32)
    static let parisUS = Place(name: "Paris", localNames: ["ru": "Париж"], region: "Texas", country: "US", latitude: 33.66, longitude: -95.55)
}
