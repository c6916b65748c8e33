import Testing
import WeatherBotStore

@Suite struct ChatSettingsTests {
    static let everyChoice: [ChatSettings.Choice] =
        ChatSettings.Temperature.allCases.map(ChatSettings.Choice.temperature) + ChatSettings.WindSpeed.allCases.map(ChatSettings.Choice.windSpeed)
        + ChatSettings.Pressure.allCases.map(ChatSettings.Choice.pressure) + ([nil] + Language.allCases).map(ChatSettings.Choice.language)
        + ChatSettings.Clock.allCases.map(ChatSettings.Choice.clock)

    @Test func everyChoiceReadsBackFromItsKeyAndValue() {
        for choice in Self.everyChoice {
            #expect(ChatSettings.Choice(key: choice.key, value: choice.value) == choice, "\(choice)")
        }
        #expect(Set(Self.everyChoice.map { "\($0.key)=\($0.value)" }).count == Self.everyChoice.count)
    }

    @Test func theStoredFormAndTheButtonsPairsAreOneCodec() {
        let settings = ChatSettings(temperature: .fahrenheit, windSpeed: .milesPerHour, pressure: .inchesOfMercury, language: .en, clock: .twelveHour)
        #expect(settings.stored == "t=f w=mph p=inhg l=en h=12")
        #expect(settings.pairs(separator: ",") == "t=f,w=mph,p=inhg,l=en,h=12")
        #expect(ChatSettings(stored: settings.stored) == settings)
        #expect(ChatSettings(pairs: "t=f,w=mph,p=inhg,l=en,h=12", separator: ",") == settings)
        #expect(settings.choices.reduce(ChatSettings.defaults) { $1.applied(to: $0) } == settings)
    }

    @Test func nothingSetIsStoredAsNothing() {
        #expect(ChatSettings.defaults.stored == nil)
        #expect(ChatSettings(stored: nil) == .defaults)
        #expect(ChatSettings.defaults.choices.isEmpty)
    }

    @Test func aPairFromALaterVersionOrBrokenIsLeftAtItsDefault() {
        #expect(ChatSettings(stored: "t=f x=9 w=knots p l=de h=12") == ChatSettings(temperature: .fahrenheit, clock: .twelveHour))
        #expect(ChatSettings.Choice(key: "l", value: "tg") == .language(nil))
        #expect(ChatSettings.Choice(key: "t", value: "") == nil)
    }
}
