/// OpenWeather's endpoints the bot calls, as the budget, the store and `/metrics` name them.
public enum OpenWeatherEndpoint: String, Sendable, CaseIterable {
    case onecall, forecast, weather, geocode, reverse, air, other

    /// The endpoint a request's path ends with (the API's URL may have a path of its own).
    public init(path: String) {
        self = Self.paths.first { path.hasSuffix($0.suffix) }?.endpoint ?? .other
    }

    private static let paths: [(suffix: String, endpoint: Self)] = [
        ("/data/3.0/onecall", .onecall), ("/data/2.5/forecast", .forecast), ("/data/2.5/weather", .weather),
        ("/geo/1.0/direct", .geocode), ("/geo/1.0/reverse", .reverse), ("/data/2.5/air_pollution", .air),
        ("/data/2.5/air_pollution/forecast", .air),
    ]
}
