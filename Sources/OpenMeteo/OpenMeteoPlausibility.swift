import OpenWeather

/// Open-Meteo's columns and times, checked as one value each.
extension PlausibilityCheck {
    mutating func check(_ name: String, _ values: [Double?]?, _ range: ClosedRange<Double>) {
        for value in values ?? [] { check(name, value, range) }
    }

    mutating func check(_ name: String, _ time: WireTime?) {
        if case .unix(let seconds) = time { check(name, seconds, Plausible.time) }
    }

    mutating func check(_ name: String, _ times: [WireTime?]?) {
        for time in times ?? [] { check(name, time) }
    }
}

extension ForecastBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        check.check("current.time", current.time)
        check.check("current.temperature_2m", current.temperature, Plausible.temperature)
        check.check("current.apparent_temperature", current.apparentTemperature, Plausible.temperature)
        check.check("current.relative_humidity_2m", current.humidity, Plausible.percent)
        check.check("current.cloud_cover", current.cloudCover, Plausible.percent)
        check.check("current.pressure_msl", current.pressure, Plausible.pressure)
        check.check("current.wind_speed_10m", current.windSpeed, Plausible.speed)
        check.check("current.wind_gusts_10m", current.windGusts, Plausible.speed)
        check.check("current.wind_direction_10m", current.windDirection, Plausible.degrees)
        for (name, value) in [
            ("precipitation", current.precipitation), ("rain", current.rain), ("showers", current.showers),
            ("snowfall", current.snowfall),
        ] {
            check.check("current.\(name)", value, Plausible.precipitation)
        }
        check.check("current.uv_index", current.uvIndex, Plausible.uvIndex)
        if let hourly {
            check.check("hourly.time", hourly.time)
            check.check("hourly.temperature_2m", hourly.temperature, Plausible.temperature)
            check.check("hourly.apparent_temperature", hourly.apparentTemperature, Plausible.temperature)
            check.check("hourly.relative_humidity_2m", hourly.humidity, Plausible.percent)
            check.check("hourly.precipitation_probability", hourly.precipitationProbability, Plausible.percent)
            check.check("hourly.precipitation", hourly.precipitation, Plausible.precipitation)
            check.check("hourly.cloud_cover", hourly.cloudCover, Plausible.percent)
            check.check("hourly.pressure_msl", hourly.pressure, Plausible.pressure)
            check.check("hourly.wind_speed_10m", hourly.windSpeed, Plausible.speed)
            check.check("hourly.wind_direction_10m", hourly.windDirection, Plausible.degrees)
        }
        if let daily {
            check.check("daily.time", daily.time)
            check.check("daily.temperature_2m_max", daily.maximum, Plausible.temperature)
            check.check("daily.temperature_2m_min", daily.minimum, Plausible.temperature)
            check.check("daily.sunrise", daily.sunrise)
            check.check("daily.sunset", daily.sunset)
            check.check("daily.uv_index_max", daily.uvIndexMax, Plausible.uvIndex)
            check.check("daily.precipitation_sum", daily.precipitationSum, Plausible.precipitation)
            check.check("daily.precipitation_probability_max", daily.precipitationProbabilityMax, Plausible.percent)
            check.check("daily.wind_speed_10m_max", daily.windSpeedMax, Plausible.speed)
            check.check("daily.wind_direction_10m_dominant", daily.windDirectionDominant, Plausible.degrees)
        }
        if let minutely15 {
            check.check("minutely_15.time", minutely15.time)
            check.check("minutely_15.precipitation", minutely15.precipitation, Plausible.precipitation)
        }
    }
}

extension SearchBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        for result in results ?? [] {
            check.check("latitude", result.latitude, Plausible.latitude)
            check.check("longitude", result.longitude, Plausible.longitude)
        }
    }
}

extension AirBody: PlausibleBody {
    func check(_ check: inout PlausibilityCheck) {
        if let current {
            check.check("current.time", current.time)
            check.check("current.european_aqi", current.europeanAQI, Plausible.europeanAQI)
            check.check("current.pm2_5", current.pm25, Plausible.particles)
        }
        if let hourly {
            check.check("hourly.time", hourly.time)
            check.check("hourly.european_aqi", hourly.europeanAQI, Plausible.europeanAQI)
            check.check("hourly.pm2_5", hourly.pm25, Plausible.particles)
            for (name, values) in [
                ("alder", hourly.alder), ("birch", hourly.birch), ("grass", hourly.grass), ("mugwort", hourly.mugwort),
                ("olive", hourly.olive), ("ragweed", hourly.ragweed),
            ] {
                check.check("hourly.\(name)_pollen", values, Plausible.pollen)
            }
        }
    }
}
