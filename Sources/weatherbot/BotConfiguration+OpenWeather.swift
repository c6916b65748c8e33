import Foundation
import OpenWeather

extension BotConfiguration {
    /// OpenWeather: the key, where the API is and through which proxy, and how long answers are kept.
    /// Without a key the bot runs on the second source alone (``OpenMeteo``).
    struct OpenWeather: Sendable {
        /// Empty: no key, and OpenWeather is not called.
        var apiKey: String
        var apiURL: URL
        /// Seconds the free plan is kept to after One Call 3.0 refused the key.
        var fallbackMemory: Int
        /// Seconds a forecast stays fresh in the shared cache.
        var cacheTTL: Int
        /// Where requests to OpenWeather go through.
        var proxy: ProxyChoice
        /// What the key may spend: calls a minute, a UTC day, and a minute on one chat's behalf.
        var budget: CallBudget.Limits

        /// Whether a key is set: OpenWeather is the first source.
        var isConfigured: Bool { !apiKey.isEmpty }

        init(reader: ConfigurationReader, environment: [String: String]) {
            apiKey = reader.string("apiKey", unset: "none: Open-Meteo and Nominatim alone", isSecret: true, help: "the OpenWeather API key") ?? ""
            apiURL = reader.httpURL("apiURL", default: "https://api.openweathermap.org", help: "base URL of the geocoding and weather APIs")
            fallbackMemory = reader.int(
                "fallbackMemory", default: 3600, help: "seconds the free plan is kept to after One Call 3.0 refused the key")
            if fallbackMemory < 0 {
                reader.refuse("error: OPEN_WEATHER_FALLBACK_MEMORY must not be negative.")
            }
            cacheTTL = reader.int("cacheTTL", default: 600, help: "seconds a forecast stays fresh, 0 to 86400")
            if !(0...86_400).contains(cacheTTL) {
                reader.refuse("error: OPEN_WEATHER_CACHE_TTL must be between 0 and 86400 seconds, not \(cacheTTL).")
            }
            proxy = reader.proxy("proxy", for: apiURL, environment: environment, help: "the proxy for OpenWeather, written alike")
            budget = Self.budget(reader: reader)
        }

        /// What the key may spend, from the section's three settings.
        static func budget(reader: ConfigurationReader) -> CallBudget.Limits {
            BotConfiguration.budget(reader: reader, source: "OpenWeather", defaults: CallBudget.Limits(perMinute: 60, perDay: 0, perChat: 30))
        }
    }

    /// The second source: Open-Meteo for forecasts, names and the air (and pollen, which only it
    /// has), Nominatim for the place at a shared point. Without an OpenWeather key it is the only
    /// source; with one it answers when OpenWeather cannot, unless `fallback` is off.
    struct OpenMeteo: Sendable {
        var apiURL: URL
        var geocodingURL: URL
        var airQualityURL: URL
        /// With an OpenWeather key: whether Open-Meteo answers when OpenWeather cannot.
        var fallback: Bool
        /// Open-Meteo's fair use, shared as OpenWeather's budget is.
        var budget: CallBudget.Limits
        /// Where requests to Open-Meteo and Nominatim go through.
        var proxy: ProxyChoice

        init(reader: ConfigurationReader, environment: [String: String]) {
            apiURL = reader.httpURL("apiURL", default: "https://api.open-meteo.com", help: "base URL of Open-Meteo's forecast API")
            geocodingURL = reader.httpURL(
                "geocodingURL", default: "https://geocoding-api.open-meteo.com", help: "base URL of Open-Meteo's geocoding API (places by name)")
            airQualityURL = reader.httpURL(
                "airQualityURL", default: "https://air-quality-api.open-meteo.com", help: "base URL of Open-Meteo's air quality API (the air and pollen)")
            fallback = reader.bool(
                "fallback", default: true, help: "with an OpenWeather key, Open-Meteo answers while OpenWeather cannot (an outage, a refused key, the budget spent)")
            budget = BotConfiguration.budget(
                reader: reader, source: "Open-Meteo", defaults: CallBudget.Limits(perMinute: 100, perDay: 10_000, perChat: 30))
            proxy = reader.proxy("proxy", for: apiURL, environment: environment, help: "the proxy for Open-Meteo and Nominatim, written alike")
        }
    }

    /// Nominatim (OpenStreetMap's geocoder): the place at a point shared with the bot, where
    /// OpenWeather does not answer. Its usage policy: an identifying User-Agent, one request a second.
    struct Nominatim: Sendable {
        var url: URL
        var userAgent: String

        /// Whether the User-Agent says how to reach the bot's operator (a URL or an e-mail address).
        var identifiesOperator: Bool {
            userAgent.contains("@") || userAgent.contains("http") || userAgent.contains("t.me/")
        }

        init(reader: ConfigurationReader) {
            url = reader.httpURL("url", default: "https://nominatim.openstreetmap.org", help: "base URL of Nominatim's reverse geocoding")
            userAgent = reader.string(
                "userAgent", default: "weatherbot/1.0 (Telegram weather bot)",
                help: "the User-Agent Nominatim's usage policy asks for: the bot's name and a way to reach its operator")
            if userAgent.trimmingCharacters(in: .whitespaces).isEmpty {
                reader.refuse("error: NOMINATIM_USER_AGENT must name the bot: Nominatim refuses requests that do not say who sends them.")
            }
        }
    }

    /// A source's budget from its section's three settings, each from 0 (no cap) to 10,000,000.
    static func budget(reader: ConfigurationReader, source: String, defaults: CallBudget.Limits) -> CallBudget.Limits {
        let budget = CallBudget.Limits(
            perMinute: reader.int("callsPerMinute", default: defaults.perMinute, help: "\(source) calls in any minute at most, 0 for no cap"),
            perDay: reader.int("callsPerDay", default: defaults.perDay, help: "\(source) calls in a UTC day at most, 0 for no cap"),
            perChat: reader.int("callsPerChatPerMinute", default: defaults.perChat, help: "\(source) calls a minute on one chat's behalf at most, 0 for no cap"))
        for (key, value) in [("callsPerMinute", budget.perMinute), ("callsPerDay", budget.perDay), ("callsPerChatPerMinute", budget.perChat)]
        where !(0...10_000_000).contains(value) {
            reader.refuse("error: \(reader.environment(of: key)) must be between 0 and 10000000, not \(value).")
        }
        return budget
    }
}
