import OpenWeather
import Testing
@testable import OpenMeteo

@Suite struct WeatherCodeTests {
    /// Every WMO code Open-Meteo documents, with the OpenWeather id and icon digits it stands for.
    static let expected: [(code: Int, id: Int, icon: String)] = [
        (0, 800, "01"), (1, 801, "02"), (2, 802, "03"), (3, 804, "04"), (45, 741, "50"), (48, 741, "50"),
        (51, 300, "09"), (53, 301, "09"), (55, 302, "09"), (56, 511, "13"), (57, 511, "13"),
        (61, 500, "10"), (63, 501, "10"), (65, 502, "10"), (66, 511, "13"), (67, 511, "13"),
        (71, 600, "13"), (73, 601, "13"), (75, 602, "13"), (77, 600, "13"),
        (80, 520, "09"), (81, 521, "09"), (82, 522, "09"), (85, 620, "13"), (86, 622, "13"),
        (95, 211, "11"), (96, 201, "11"), (99, 202, "11"),
    ]

    @Test func everyWMOCodeIsOpenWeathersConditionByDayAndByNight() {
        #expect(WeatherCode.table.count == Self.expected.count)
        for (code, id, icon) in Self.expected {
            let day = WeatherCode.condition(code: code, isDay: true, clouds: 0)
            let night = WeatherCode.condition(code: code, isDay: false, clouds: 0)
            #expect(day.id == id, "code \(code)")
            #expect(day.icon == icon + "d", "code \(code)")
            #expect(night.icon == icon + "n", "code \(code)")
            #expect(night.id == id && night.description == day.description)
            #expect(!day.description.isEmpty && day.description != "unknown")
        }
        #expect(WeatherCode.condition(code: 0, isDay: true, clouds: 0).description == "clear sky")
        #expect(WeatherCode.condition(code: 45, isDay: true, clouds: 0).description == "fog")
        #expect(WeatherCode.condition(code: 77, isDay: true, clouds: 0).description == "snow grains")
        #expect(WeatherCode.condition(code: 95, isDay: true, clouds: 0).description == "thunderstorm")
    }

    /// A code outside the table (or none) is OpenWeather's cloud condition by the cover, with its
    /// id for the bot to word: no English "unknown" reaches a reader.
    @Test func anUnknownCodeIsOpenWeathersCloudConditionByItsClouds() {
        let expected: [(clouds: Int, id: Int, icon: String)] = [
            (0, 800, "01"), (10, 800, "01"), (11, 801, "02"), (24, 801, "02"), (25, 802, "03"), (50, 802, "03"),
            (51, 803, "04"), (84, 803, "04"), (85, 804, "04"), (100, 804, "04"),
        ]
        for (clouds, id, icon) in expected {
            let condition = WeatherCode.condition(code: 42, isDay: false, clouds: clouds)
            #expect(condition.id == id && condition.icon == icon + "n", "\(clouds) %")
            #expect(condition.description != "unknown")
        }
        #expect(WeatherCode.condition(code: nil, isDay: true, clouds: 90) == Condition(description: "overcast clouds", icon: "04d", id: 804))
        #expect(WeatherCode.condition(code: nil, isDay: true, clouds: 5) == Condition(description: "clear sky", icon: "01d", id: 800))
    }

    @Test func aCodeThatIsNoWholeNumberUpTo99IsNone() {
        #expect(WeatherCode.code(61) == 61)
        #expect(WeatherCode.code(nil) == nil)
        #expect(WeatherCode.code(61.5) == nil)
        #expect(WeatherCode.code(.nan) == nil)
        #expect(WeatherCode.code(1e300) == nil)
        #expect(WeatherCode.code(-1) == nil)
    }
}
