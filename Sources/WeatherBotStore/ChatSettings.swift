/// How a chat reads the weather, as `/settings` sets it: units, language and clock. Every value
/// left at nil is the default of the chat's language, so a chat that never opened `/settings`
/// stores nothing and follows its language as before.
public struct ChatSettings: Sendable, Hashable, Codable {
    public enum Temperature: String, Sendable, Hashable, Codable, CaseIterable {
        case celsius = "c"
        case fahrenheit = "f"
    }

    public enum WindSpeed: String, Sendable, Hashable, Codable, CaseIterable {
        case metresPerSecond = "ms"
        case kilometresPerHour = "kmh"
        case milesPerHour = "mph"
    }

    public enum Pressure: String, Sendable, Hashable, Codable, CaseIterable {
        case millimetresOfMercury = "mmhg"
        case hectopascals = "hpa"
        case inchesOfMercury = "inhg"
    }

    public enum Clock: String, Sendable, Hashable, Codable, CaseIterable {
        case twentyFourHour = "24"
        case twelveHour = "12"
    }

    /// nil: degrees Celsius.
    public var temperature: Temperature?
    /// nil: metres per second.
    public var windSpeed: WindSpeed?
    /// nil: the language's (millimetres of mercury in Russian, hectopascals in English).
    public var pressure: Pressure?
    /// nil: as the Telegram client of whoever writes.
    public var language: Language?
    /// nil: 24 hours.
    public var clock: Clock?

    public static let defaults = ChatSettings()

    public init(
        temperature: Temperature? = nil, windSpeed: WindSpeed? = nil, pressure: Pressure? = nil, language: Language? = nil, clock: Clock? = nil
    ) {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.pressure = pressure
        self.language = language
        self.clock = clock
    }

    /// The pressure unit in `language`, chosen or the language's own.
    public func pressure(in language: Language) -> Pressure {
        pressure ?? (language == .ru ? .millimetresOfMercury : .hectopascals)
    }

    // MARK: Stored form

    /// What the store's `settings` column holds: the values set, as `t=f w=kmh p=inhg l=en h=12`;
    /// nil when none is (the column stays NULL).
    public var stored: String? {
        let pairs = [
            temperature.map { "t=\($0.rawValue)" }, windSpeed.map { "w=\($0.rawValue)" }, pressure.map { "p=\($0.rawValue)" },
            language.map { "l=\($0.rawValue)" }, clock.map { "h=\($0.rawValue)" },
        ]
        .compactMap { $0 }
        return pairs.isEmpty ? nil : pairs.joined(separator: " ")
    }

    /// Reads the stored form; a pair it does not know (written by a later version) or cannot read is
    /// left at its default, so settings never make a chat unreadable.
    public init(stored: String?) {
        self.init()
        for pair in (stored ?? "").split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "t": temperature = Temperature(rawValue: parts[1])
            case "w": windSpeed = WindSpeed(rawValue: parts[1])
            case "p": pressure = Pressure(rawValue: parts[1])
            case "l": language = Language(rawValue: parts[1])
            case "h": clock = Clock(rawValue: parts[1])
            default: continue
            }
        }
    }
}
