public import WeatherBotStore

/// A button under a message sent from an inline result. The message lies in a chat the bot may
/// not be in, and is pressed by anyone there: nothing about it is stored, so its data carries
/// all it shows, the view, the message's language and units (its sender's), and the place's point
/// (at four decimals, some ten metres).
public struct InlineButton: Sendable, Hashable {
    /// Which weather the message shows and the button brings up.
    public var view: WeatherView
    /// «🔄 Обновить»: fresh data rather than the cache's.
    public var refresh: Bool
    /// The message's language: its sender's when the result was chosen.
    public var language: Language
    /// The units and clock the message shows (its language is ``language``).
    public var settings: ChatSettings
    /// The place's latitude in degrees, kept to four decimals in the data.
    public var latitude: Double
    /// The place's longitude in degrees, kept to four decimals in the data.
    public var longitude: Double

    /// A button's contents; `settings` loses its language, which `language` carries.
    public init(
        view: WeatherView, refresh: Bool = false, language: Language, settings: ChatSettings = .defaults, latitude: Double, longitude: Double
    ) {
        var settings = settings
        settings.language = nil
        self.settings = settings
        self.view = view
        self.refresh = refresh
        self.language = language
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `iv:h0:ru:55.7887:49.1221`, with units other than the defaults after the language
    /// (`iv:h0:en,t=f,w=mph,h=12:…`); at most 56 bytes.
    public var encoded: String {
        let units = settings.pairs(separator: ",").map { "," + $0 } ?? ""
        return "\(refresh ? "ir" : "iv"):\(view.code):\(language.rawValue)\(units):\(Self.coordinate(latitude)):\(Self.coordinate(longitude))"
    }

    /// Nil for anything that is not exactly such an encoding, or a point off the globe.
    public init?(encoded data: String) {
        guard data.utf8.count <= CallbackAction.maximumLength else { return nil }
        let parts = data.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "iv" || parts[0] == "ir", let view = WeatherView(code: parts[1]) else { return nil }
        let message = parts[2].split(separator: ",", omittingEmptySubsequences: false)
        guard let language = message.first.flatMap({ Language(rawValue: String($0)) }),
            let latitude = Self.coordinate(parts[3], limit: 90), let longitude = Self.coordinate(parts[4], limit: 180)
        else { return nil }
        let settings = ChatSettings(pairs: parts[2].drop { $0 != "," }, separator: ",")
        self.init(view: view, refresh: parts[0] == "ir", language: language, settings: settings, latitude: latitude, longitude: longitude)
    }

    /// Four decimals, a point as the decimal mark, whatever the locale.
    static func coordinate(_ value: Double) -> String {
        let scaled = Int((value * 10_000).rounded())
        let sign = scaled < 0 ? "-" : ""
        let whole = abs(scaled) / 10_000
        let fraction = String(abs(scaled) % 10_000)
        return "\(sign)\(whole).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// A decimal number of at most 3 digits before the point and 4 after it, within ±`limit`.
    static func coordinate(_ text: Substring, limit: Double) -> Double? {
        let digits = text.first == "-" ? text.dropFirst() : text
        let halves = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard halves.count <= 2, halves.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }),
            halves[0].count <= 3, halves.count == 1 || halves[1].count <= 4,
            let value = Double(text), abs(value) <= limit
        else { return nil }
        return value
    }
}
