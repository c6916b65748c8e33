import Foundation

/// The units one section of an Open-Meteo answer says its variables are in (`current_units`,
/// `hourly_units`, …), and their conversion into the bot's: °C, m/s, mm, cm of snow, hPa.
/// Open-Meteo names its units `°C`/`°F`, `km/h`/`m/s`/`mp/h`/`kn`, `mm`/`inch` and, for
/// snowfall, `cm`/`inch`. A variable whose unit is not said is in what the client asked for.
struct WireUnits {
    enum Kind {
        case temperature, speed, precipitation, snowfall, pressure
    }

    var said: [String: String]
    var section: String

    /// What a value in `unit` is in the bot's unit for `kind`; nil for a unit it cannot be.
    static func converter(_ unit: String, _ kind: Kind) -> ((Double) -> Double)? {
        switch (kind, unit) {
        case (.temperature, "°C"), (.speed, "m/s"), (.precipitation, "mm"), (.snowfall, "cm"), (.pressure, "hPa"): { $0 }
        case (.temperature, "°F"): { ($0 - 32) * 5 / 9 }
        case (.speed, "km/h"): { $0 / 3.6 }
        case (.speed, "mp/h"): { $0 * 0.44704 }
        case (.speed, "kn"): { $0 * 1852 / 3600 }
        case (.precipitation, "inch"): { $0 * 25.4 }
        case (.snowfall, "inch"): { $0 * 2.54 }
        default: nil
        }
    }

    private func converter(_ variable: String, _ kind: Kind) throws -> ((Double) -> Double)? {
        guard let unit = said[variable] else { return nil }
        guard let convert = Self.converter(unit, kind) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "\(section).\(variable) in \(unit), which cannot be converted"))
        }
        return convert
    }

    func convert(_ value: inout Double?, _ variable: String, _ kind: Kind) throws {
        guard let convert = try converter(variable, kind) else { return }
        value = value.map(convert)
    }

    func convert(_ values: inout [Double?]?, _ variable: String, _ kind: Kind) throws {
        guard let convert = try converter(variable, kind) else { return }
        values = values?.map { $0.map(convert) }
    }
}
