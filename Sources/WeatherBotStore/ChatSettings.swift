/// How a chat reads the weather, as `/settings` sets it: units, language and clock. Every value
/// left at nil is the default of the chat's language, so a chat that never opened `/settings`
/// stores nothing and follows its language as before.
public struct ChatSettings: Sendable, Hashable, Codable {
    /// The unit temperatures are shown in; the raw value is the code stored and put in buttons.
    public enum Temperature: String, Sendable, Hashable, Codable, CaseIterable {
        case celsius = "c"
        case fahrenheit = "f"
    }

    /// The unit wind speeds are shown in; the raw value is the code stored and put in buttons.
    public enum WindSpeed: String, Sendable, Hashable, Codable, CaseIterable {
        case metresPerSecond = "ms"
        case kilometresPerHour = "kmh"
        case milesPerHour = "mph"
    }

    /// The unit air pressure is shown in; the raw value is the code stored and put in buttons.
    public enum Pressure: String, Sendable, Hashable, Codable, CaseIterable {
        case millimetresOfMercury = "mmhg"
        case hectopascals = "hpa"
        case inchesOfMercury = "inhg"
    }

    /// How times of day are written, `14:00` or `2:00 PM`; the raw value is the code stored and put in buttons.
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

    /// Nothing chosen: everything follows the chat's language.
    public static let defaults = ChatSettings()

    /// Settings with the given choices; each one left nil follows the chat's language.
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

    // MARK: One codec

    /// One setting chosen, as every form writes it: a key letter and its value's code, `t` and
    /// `f` for degrees Fahrenheit. The store's column (`t=f w=kmh`), a /settings button (`t:f`)
    /// and an inline message's button (`en,t=f,w=mph`) all write these pairs, and read them here.
    public enum Choice: Sendable, Hashable {
        case temperature(Temperature)
        case windSpeed(WindSpeed)
        case pressure(Pressure)
        /// nil: as the Telegram client of whoever writes (`tg`).
        case language(Language?)
        case clock(Clock)

        /// The setting's key letter: `t`, `w`, `p`, `l` or `h`.
        public var key: String {
            switch self {
            case .temperature: "t"
            case .windSpeed: "w"
            case .pressure: "p"
            case .language: "l"
            case .clock: "h"
            }
        }

        /// The value's code, such as `kmh`; `tg` for the language of the Telegram client.
        public var value: String {
            switch self {
            case .temperature(let value): value.rawValue
            case .windSpeed(let value): value.rawValue
            case .pressure(let value): value.rawValue
            case .language(let value): value?.rawValue ?? "tg"
            case .clock(let value): value.rawValue
            }
        }

        /// Nil for a key or value this version does not know.
        public init?<S: StringProtocol>(key: S, value: S) {
            let value = String(value)
            switch key {
            case "t": guard let unit = Temperature(rawValue: value) else { return nil }; self = .temperature(unit)
            case "w": guard let unit = WindSpeed(rawValue: value) else { return nil }; self = .windSpeed(unit)
            case "p": guard let unit = Pressure(rawValue: value) else { return nil }; self = .pressure(unit)
            case "l" where value == "tg": self = .language(nil)
            case "l": guard let language = Language(rawValue: value) else { return nil }; self = .language(language)
            case "h": guard let clock = Clock(rawValue: value) else { return nil }; self = .clock(clock)
            default: return nil
            }
        }

        /// `settings` with this choice made.
        public func applied(to settings: ChatSettings) -> ChatSettings {
            var settings = settings
            switch self {
            case .temperature(let value): settings.temperature = value
            case .windSpeed(let value): settings.windSpeed = value
            case .pressure(let value): settings.pressure = value
            case .language(let value): settings.language = value
            case .clock(let value): settings.clock = value
            }
            return settings
        }
    }

    /// The values set, in one order: temperature, wind, pressure, language, clock.
    public var choices: [Choice] {
        [temperature.map(Choice.temperature), windSpeed.map(Choice.windSpeed), pressure.map(Choice.pressure),
         language.map(Choice.language), clock.map(Choice.clock)].compactMap { $0 }
    }

    /// The values set as `key=value` pairs joined by `separator`; nil when none is.
    public func pairs(separator: String) -> String? {
        let choices = choices
        return choices.isEmpty ? nil : choices.map { "\($0.key)=\($0.value)" }.joined(separator: separator)
    }

    /// Reads pairs written by ``pairs(separator:)``; a pair it does not know (written by a later
    /// version) or cannot read is left at its default, so settings never make a chat unreadable.
    public init<S: StringProtocol>(pairs text: S, separator: Character) {
        self.init()
        for pair in text.split(separator: separator) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let choice = Choice(key: parts[0], value: parts[1]) { self = choice.applied(to: self) }
        }
    }

    // MARK: Stored form

    /// What the store's `settings` column holds: the values set, as `t=f w=kmh p=inhg l=en h=12`;
    /// nil when none is (the column stays NULL).
    public var stored: String? { pairs(separator: " ") }

    /// Reads the stored form, as ``init(pairs:separator:)`` does.
    public init(stored: String?) {
        self.init(pairs: stored ?? "", separator: " ")
    }
}
