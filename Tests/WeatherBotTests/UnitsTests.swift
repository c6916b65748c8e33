import Foundation
import Testing
@testable import WeatherBot
import WeatherBotStore

/// Numbers in the chat's units: each conversion, the rounding at its boundaries, the clock, and
/// the settings' stored form.
@Suite struct UnitsTests {
    static func texts(_ language: Language = .ru, _ settings: ChatSettings) -> Texts { .for(language, settings: settings) }
    static let fahrenheit = texts(.en, ChatSettings(temperature: .fahrenheit))

    @Test(arguments: [
        (-0.4, "0°C"), (-0.5, "-1°C"), (0.4, "0°C"), (0.5, "+1°C"), (-3.2, "-3°C"), (25.6, "+26°C"), (-0.0, "0°C"),
    ])
    func celsiusRoundsOnceAndNeverSaysMinusZero(celsius: Double, shown: String) {
        #expect(Self.texts(.ru, .defaults).temperature(celsius) == shown)
    }

    @Test(arguments: [
        (0.0, "+32°F"), (-17.8, "0°F"), (-17.5, "+1°F"), (-18.1, "-1°F"), (100, "+212°F"), (-40, "-40°F"), (21.4, "+71°F"), (-0.4, "+31°F"),
    ])
    func fahrenheitIsConvertedBeforeRounding(celsius: Double, shown: String) {
        #expect(Self.fahrenheit.temperature(celsius) == shown)
    }

    @Test func differencesOfDegreesScaleWithoutTheOffset() {
        #expect(Self.texts(.ru, .defaults).degreesDifference(4) == 4)
        #expect(Self.fahrenheit.degreesDifference(4) == 7)
        #expect(Self.fahrenheit.degreesDifference(-2) == -4)
    }

    @Test func windInEachUnit() {
        let metres = Self.texts(.ru, .defaults)
        let kilometres = Self.texts(.ru, ChatSettings(windSpeed: .kilometresPerHour))
        let miles = Self.texts(.en, ChatSettings(windSpeed: .milesPerHour))
        #expect((metres.speed(4), metres.speedUnit) == (4, "м/с"))
        #expect((kilometres.speed(4), kilometres.speedUnit) == (14, "км/ч"))
        #expect((miles.speed(4), miles.speedUnit) == (9, "mph"))
        // 0.3 m/s is calm in m/s and 1 km/h: the card says what the number says.
        #expect(WeatherViews.wind(0.3, 90, gust: nil, metres) == "штиль")
        #expect(WeatherViews.wind(0.3, 90, gust: nil, kilometres) == "1 км/ч, В")
        #expect(WeatherViews.wind(4, 180, gust: 9, miles) == "9 mph, S (gusts up to 20 mph)")
    }

    @Test func pressureDefaultsFollowTheLanguageAndAChoiceOverridesIt() {
        #expect("\(Self.texts(.ru, .defaults).pressure(1013.25)) \(Self.texts(.ru, .defaults).pressureUnit)" == "760 мм рт. ст.")
        #expect("\(Self.texts(.en, .defaults).pressure(1013.25)) \(Self.texts(.en, .defaults).pressureUnit)" == "1013 hPa")
        let inches = ChatSettings(pressure: .inchesOfMercury)
        #expect(Self.texts(.en, inches).pressure(1013.25) == "29.92")
        #expect(Self.texts(.ru, inches).pressure(1013.25) == "29,92")
        #expect(Self.texts(.ru, ChatSettings(pressure: .hectopascals)).pressureUnit == "гПа")
        #expect(Self.texts(.en, ChatSettings(pressure: .millimetresOfMercury)).pressure(1000) == "750")
    }

    @Test(arguments: [
        (0, 5, "12:05 AM"), (11, 59, "11:59 AM"), (12, 0, "12:00 PM"), (13, 30, "1:30 PM"), (23, 59, "11:59 PM"),
    ])
    func theTwelveHourClock(hour: Int, minute: Int, shown: String) {
        #expect(Self.texts(.ru, ChatSettings(clock: .twelveHour)).time(hour: hour, minute: minute) == shown)
        #expect(Self.texts(.ru, .defaults).time(hour: hour, minute: minute) == String(format: "%02d:%02d", hour, minute))
    }

    @Test func settingsAreStoredAsTheValuesSetAndAnUnknownPairIsLeftAtItsDefault() {
        #expect(ChatSettings.defaults.stored == nil)
        let all = ChatSettings(temperature: .fahrenheit, windSpeed: .milesPerHour, pressure: .inchesOfMercury, language: .en, clock: .twelveHour)
        #expect(all.stored == "t=f w=mph p=inhg l=en h=12")
        #expect(ChatSettings(stored: all.stored) == all)
        #expect(ChatSettings(stored: "t=k w=mph x=1 l= garbage h") == ChatSettings(windSpeed: .milesPerHour))
        #expect(ChatSettings(stored: nil) == .defaults)
    }

    @Test func aChartInOtherUnitsIsAnotherPictureAndOneAtTheDefaultsKeepsItsName() {
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let plain = ChartRequest(view: .hours, place: .moscow, language: .ru, forecastTime: at)
        #expect(!plain.encoded.contains("\"t\":") && !plain.encoded.contains("\"h\":"))
        // Wind and pressure are not drawn: they make no other picture.
        #expect(ChartRequest(view: .hours, place: .moscow, language: .ru, forecastTime: at, settings: ChatSettings(windSpeed: .milesPerHour)) == plain)
        let fahrenheit = ChartRequest(view: .hours, place: .moscow, language: .ru, forecastTime: at, settings: ChatSettings(temperature: .fahrenheit))
        let twelve = ChartRequest(view: .hours, place: .moscow, language: .ru, forecastTime: at, settings: ChatSettings(clock: .twelveHour))
        #expect(Set([plain.encoded, fahrenheit.encoded, twelve.encoded]).count == 3)
        #expect(ChartRequest(encoded: fahrenheit.encoded)?.settings == ChatSettings(temperature: .fahrenheit))
    }

    @Test func anInlineButtonCarriesItsMessagesUnits() throws {
        let settings = ChatSettings(temperature: .fahrenheit, windSpeed: .kilometresPerHour, pressure: .millimetresOfMercury, language: .ru, clock: .twelveHour)
        let button = InlineButton(view: .hourly(page: 1), refresh: true, language: .en, settings: settings, latitude: -89.9999, longitude: -179.9999)
        #expect(button.encoded.utf8.count <= CallbackAction.maximumLength)
        let decoded = try #require(InlineButton(encoded: button.encoded))
        // The message's language is the button's own; the units come along.
        #expect(decoded.language == .en)
        #expect(decoded.settings == ChatSettings(temperature: .fahrenheit, windSpeed: .kilometresPerHour, pressure: .millimetresOfMercury, clock: .twelveHour))
        #expect(InlineButton(encoded: "iv:n:ru:55.7500:37.6200")?.settings == .defaults)
        #expect(InlineButton(encoded: "iv:n:de,t=f:55.7500:37.6200") == nil)
    }
}
