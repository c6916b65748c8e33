public import OpenWeather

/// Open-Meteo's WMO weather codes as OpenWeather's conditions: the views word a condition by
/// OpenWeather's id and pick its emoji by the icon, so a sky from either source reads the same.
public enum WeatherCode {
    /// OpenWeather's id, icon digits and a short English phrase for each WMO code Open-Meteo
    /// sends (its documentation's table: 0 clear … 99 thunderstorm with heavy hail).
    static let table: [Int: (id: Int, icon: String, description: String)] = [
        0: (800, "01", "clear sky"),
        1: (801, "02", "mainly clear"),
        2: (802, "03", "partly cloudy"),
        3: (804, "04", "overcast"),
        45: (741, "50", "fog"),
        48: (741, "50", "fog"),
        51: (300, "09", "light drizzle"),
        53: (301, "09", "drizzle"),
        55: (302, "09", "heavy drizzle"),
        56: (511, "13", "freezing drizzle"),
        57: (511, "13", "freezing drizzle"),
        61: (500, "10", "light rain"),
        63: (501, "10", "moderate rain"),
        65: (502, "10", "heavy rain"),
        66: (511, "13", "freezing rain"),
        67: (511, "13", "freezing rain"),
        71: (600, "13", "light snow"),
        73: (601, "13", "snow"),
        75: (602, "13", "heavy snow"),
        77: (600, "13", "snow grains"),
        80: (520, "09", "light rain showers"),
        81: (521, "09", "rain showers"),
        82: (522, "09", "violent rain showers"),
        85: (620, "13", "light snow showers"),
        86: (622, "13", "heavy snow showers"),
        95: (211, "11", "thunderstorm"),
        96: (201, "11", "thunderstorm with hail"),
        99: (202, "11", "thunderstorm with heavy hail"),
    ]

    /// The condition a WMO `code` means, by day or by night (the icon's `d` or `n`). A code
    /// outside the table (or none) is told by the cloud cover (`clouds`, percent) as OpenWeather
    /// tells its clouds: 800 clear below 11 %, 801 below 25 %, 802 below 51 %, 803 below 85 %,
    /// 804 above. The id is what the bot words in the reader's language; the description is
    /// OpenWeather's English for it, never "unknown".
    public static func condition(code: Int?, isDay: Bool, clouds: Int) -> Condition {
        let suffix = isDay ? "d" : "n"
        guard let code, let entry = table[code] else {
            let (id, digits, description) =
                switch clouds {
                case ..<11: (800, "01", "clear sky")
                case ..<25: (801, "02", "few clouds")
                case ..<51: (802, "03", "scattered clouds")
                case ..<85: (803, "04", "broken clouds")
                default: (804, "04", "overcast clouds")
                }
            return Condition(description: description, icon: digits + suffix, id: id)
        }
        return Condition(description: entry.description, icon: entry.icon + suffix, id: entry.id)
    }

    /// A code as the answer gives it (a number, maybe `null`, NaN or 1e300): an Int only when it
    /// is one of the two-digit WMO codes.
    static func code(_ value: Double?) -> Int? {
        guard let value, (0...99).contains(value), value == value.rounded() else { return nil }
        return Int(value)
    }
}
