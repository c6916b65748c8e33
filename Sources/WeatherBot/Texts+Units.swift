public import Foundation
import WeatherBotStore

/// Numbers as the chat reads them: OpenWeather's metric figures (°C, m/s, hPa) and the forecast's
/// times turned into the chat's units and clock (`/settings`), each rounded once, at the end.
extension Texts {
    // MARK: Temperature

    /// A temperature in the chat's unit, rounded: 5 for 5.4 °C, 41 for 5 °C in Fahrenheit. Never
    /// «-0»: −0.4 °C is 0.
    func degrees(_ celsius: Double) -> Int {
        Int(Self.inChatUnit(celsius, settings.temperature ?? .celsius).rounded())
    }

    /// «+5°C», «-3°C», «0°C», «+41°F».
    func temperature(_ celsius: Double) -> String {
        signed(degrees(celsius)) + temperatureUnit
    }

    /// «+5», «-3», «0»: the number of ``temperature(_:)`` without its unit, as a range begins.
    func signedDegrees(_ celsius: Double) -> String { signed(degrees(celsius)) }

    /// «°C» or «°F».
    public var temperatureUnit: String { settings.temperature == .fahrenheit ? "°F" : "°C" }

    /// A difference of temperatures in the chat's degrees, rounded: 4 °C warmer is 7 °F warmer.
    func degreesDifference(_ celsius: Double) -> Int {
        Int((settings.temperature == .fahrenheit ? celsius * 9 / 5 : celsius).rounded())
    }

    static func inChatUnit(_ celsius: Double, _ unit: ChatSettings.Temperature) -> Double {
        switch unit {
        case .celsius: celsius
        case .fahrenheit: celsius * 9 / 5 + 32
        }
    }

    private func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

    // MARK: Wind

    /// A speed in the chat's unit, rounded: 4 m/s is 14 km/h or 9 mph.
    func speed(_ metresPerSecond: Double) -> Int {
        let factor: Double =
            switch settings.windSpeed ?? .metresPerSecond {
            case .metresPerSecond: 1
            case .kilometresPerHour: 3.6
            case .milesPerHour: 3600 / 1609.344
            }
        return Int((metresPerSecond * factor).rounded())
    }

    /// «м/с», «km/h», «mph».
    var speedUnit: String { speedUnits[settings.windSpeed ?? .metresPerSecond] ?? "" }

    // MARK: Pressure

    /// A pressure in the chat's unit: «756» mm Hg, «1008» hPa, «29.77» inHg (two decimals, as
    /// barometers in inches show it, with the language's mark).
    func pressure(_ hectopascals: Double) -> String {
        switch settings.pressure(in: language) {
        case .millimetresOfMercury: "\(Int((hectopascals * 0.750062).rounded()))"
        case .hectopascals: "\(Int(hectopascals.rounded()))"
        case .inchesOfMercury: String(format: "%.2f", hectopascals * 0.0295300).replacingOccurrences(of: ".", with: decimalMark)
        }
    }

    /// «мм рт. ст.», «hPa», «inHg».
    var pressureUnit: String { pressureUnits[settings.pressure(in: language)] ?? "" }

    // MARK: Precipitation

    /// Precipitation in inches for a chat that reads degrees Fahrenheit, as forecasts in the
    /// United States give it (and a chart in °F draws it); in millimetres otherwise.
    public var precipitationInInches: Bool { settings.temperature == .fahrenheit }

    /// An amount of precipitation in the chat's unit, without it: «1,3» mm (tenths), «0.05» in
    /// (hundredths, as an inch is some 25 mm), with the language's decimal mark.
    func precipitation(_ millimetres: Double) -> String {
        let text = precipitationInInches ? String(format: "%.2f", millimetres / 25.4) : String(format: "%.1f", millimetres)
        return text.replacingOccurrences(of: ".", with: decimalMark)
    }

    /// «мм» or «in».
    var precipitationUnit: String { precipitationInInches ? inches : millimetres }

    /// «мм/ч» or «in/h».
    var precipitationRateUnit: String { precipitationInInches ? inchesPerHour : perHour }

    /// Whether an amount rounds to something the chat's unit shows: 0,05 mm and up, or 0.005 in.
    func showsPrecipitation(_ millimetres: Double) -> Bool {
        precipitationInInches ? millimetres / 25.4 >= 0.005 : millimetres >= 0.05
    }

    // MARK: Clock

    /// «14:05», or «2:05 PM» on the 12-hour clock.
    func time(hour: Int, minute: Int) -> String {
        guard settings.clock == .twelveHour else { return String(format: "%02d:%02d", hour, minute) }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return String(format: "%d:%02d %@", twelve, minute, hour < 12 ? "AM" : "PM")
    }

    /// An hour alone, as the chart's axis marks it: «15», or «3 PM» on the 12-hour clock, the
    /// same «AM» and «PM» as ``time(hour:minute:)``.
    public func hour(_ hour: Int) -> String {
        guard settings.clock == .twelveHour else { return String(format: "%02d", hour) }
        return "\(hour % 12 == 0 ? 12 : hour % 12) \(hour < 12 ? "AM" : "PM")"
    }

    /// The time of `date` in `zone`, as ``time(hour:minute:)``.
    public func time(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return time(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
    }
}
