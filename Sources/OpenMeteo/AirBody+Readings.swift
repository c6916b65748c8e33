import Foundation
import OpenWeather

extension AirBody {
    /// The European AQI (0 up, 20 a step) on OpenWeather's scale of 1 good to 5 very poor:
    /// up to 20 is 1, up to 40 is 2, up to 60 is 3, up to 80 is 4, above 80 is 5.
    static func index(europeanAQI value: Double) -> Int? {
        guard value.isFinite, value >= 0 else { return nil }
        switch value {
        case ...20: return 1
        case ...40: return 2
        case ...60: return 3
        case ...80: return 4
        default: return 5
        }
    }

    /// A PM2.5 as OpenWeather's model keeps it: finite and not negative, or none.
    private static func particles(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// The air now, from `current`; none when the answer has no index for it.
    var readingNow: [AirQuality] {
        guard let current, let time = current.time.date(offset: offset),
            let index = current.europeanAQI.flatMap({ Self.index(europeanAQI: $0) })
        else { return [] }
        return [AirQuality(index: index, pm25: Self.particles(current.pm25), time: time)]
    }

    /// The air by the hour, in time order; the hours without an index are left out.
    var hourlyReadings: [AirQuality] {
        guard let hourly else { return [] }
        return hourly.time.enumerated().compactMap { hour, time -> AirQuality? in
            guard let date = time.date(offset: offset),
                let index = hourly.europeanAQI[at: hour].flatMap({ Self.index(europeanAQI: $0) })
            else { return nil }
            return AirQuality(index: index, pm25: Self.particles(hourly.pm25[at: hour]), time: date)
        }
        .sorted { $0.time < $1.time }
    }

    /// Pollen by the hour: each kind the answer gives a number for; an hour with none is left
    /// out, so outside the model's range (every value `null`) there are no readings at all.
    var pollenReadings: [PollenReading] {
        guard let hourly else { return [] }
        let columns: [(PollenReading.Kind, [Double?]?)] = [
            (.alder, hourly.alder), (.birch, hourly.birch), (.grass, hourly.grass), (.mugwort, hourly.mugwort),
            (.olive, hourly.olive), (.ragweed, hourly.ragweed),
        ]
        return hourly.time.enumerated().compactMap { index, time -> PollenReading? in
            guard let date = time.date(offset: offset) else { return nil }
            var grains: [PollenReading.Kind: Double] = [:]
            for (kind, column) in columns {
                if let value = column[at: index] { grains[kind] = value }
            }
            let reading = PollenReading(time: date, grains: grains)
            return reading.grains.isEmpty ? nil : reading
        }
        .sorted { $0.time < $1.time }
    }
}
