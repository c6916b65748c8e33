/// A failed call to a weather source (OpenWeather, Open-Meteo or Nominatim, told by its
/// ``endpoint``), typed so that each kind can be told to the user in plain words.
public struct OpenWeatherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, which decides what the user is told.
    public enum Code: Sendable, Hashable {
        /// 401 with an invalid key.
        case invalidKey
        /// 401 because One Call 3.0 needs its own subscription.
        case subscriptionRequired
        /// 404, or 400 for a place that cannot be looked up.
        case notFound
        /// 429.
        case rateLimited
        /// Not sent: over the bot's own budget (``CallBudget``).
        case overBudget(CallBudget.Refusal)
        /// 5xx.
        case server(Int)
        /// No HTTP answer.
        case network
        /// An answer that did not decode.
        case undecodable
        /// Any other HTTP status.
        case unexpectedStatus(Int)
    }

    /// The kind of failure.
    public var code: Code
    /// The endpoint's path, such as `/geo/1.0/reverse`; never the query, which holds the key.
    public var endpoint: String
    /// Details for the log, up to 200 characters of OpenWeather's answer; never the API key, never shown to users.
    public var message: String
    /// Refused by the client without asking OpenWeather (`rateLimited` while it waits out a 429,
    /// `overBudget`).
    public var refusedLocally: Bool

    /// Refused by the bot's budget for a chat that was refused in the last minute already, and
    /// told so then (``CallBudget/Refused/repeated``).
    public var chatToldAlready: Bool

    /// A failure of a call to `endpoint`; most are made by the client, tests build them to fake one.
    public init(code: Code, endpoint: String, message: String, refusedLocally: Bool = false, chatToldAlready: Bool = false) {
        self.code = code
        self.endpoint = endpoint
        self.message = message
        self.refusedLocally = refusedLocally
        self.chatToldAlready = chatToldAlready
    }

    /// The services whose calls fail with this error.
    public enum Source: String, Sendable, Hashable {
        case openWeather = "OpenWeather", openMeteo = "Open-Meteo", nominatim = "Nominatim"
    }

    /// The service the endpoint is of: Open-Meteo's paths begin `/v1/`, Nominatim's is `/reverse`,
    /// OpenWeather's are under `/data` and `/geo`.
    public var source: Source {
        endpoint.hasPrefix("/v1/") ? .openMeteo : endpoint == "/reverse" ? .nominatim : .openWeather
    }

    /// One line for the log: the source, the endpoint, the code and the message.
    public var description: String { "\(source.rawValue) \(endpoint): \(code) \(message)" }
}
