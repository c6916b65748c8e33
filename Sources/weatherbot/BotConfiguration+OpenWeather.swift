import Foundation
import OpenWeather

extension BotConfiguration {
    /// OpenWeather: the key, where the API is and through which proxy, and how long answers are kept.
    struct OpenWeather: Sendable {
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

        init(reader: ConfigurationReader, environment: [String: String]) {
            apiKey = reader.string("apiKey", unset: nil, isSecret: true, help: "the OpenWeather API key") ?? ""
            if apiKey.isEmpty {
                reader.refuse("error: the OpenWeather API key is not set. Set OPEN_WEATHER_API_KEY, or openWeather.apiKey in the --config file.")
            }
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
            let budget = CallBudget.Limits(
                perMinute: reader.int("callsPerMinute", default: 60, help: "OpenWeather calls in any minute at most, 0 for no cap"),
                perDay: reader.int("callsPerDay", default: 0, help: "OpenWeather calls in a UTC day at most, 0 for no cap"),
                perChat: reader.int("callsPerChatPerMinute", default: 30, help: "OpenWeather calls a minute on one chat's behalf at most, 0 for no cap"))
            for (name, value) in [
                ("OPEN_WEATHER_CALLS_PER_MINUTE", budget.perMinute), ("OPEN_WEATHER_CALLS_PER_DAY", budget.perDay),
                ("OPEN_WEATHER_CALLS_PER_CHAT_PER_MINUTE", budget.perChat),
            ] where !(0...10_000_000).contains(value) {
                reader.refuse("error: \(name) must be between 0 and 10000000, not \(value).")
            }
            return budget
        }
    }
}
