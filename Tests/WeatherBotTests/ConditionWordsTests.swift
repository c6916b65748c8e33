import OpenWeather
import Testing
@testable import WeatherBot
import WeatherBotStore

/// One forecast read in every language: conditions in the bot's words, by OpenWeather's code.
@Suite struct ConditionWordsTests {
    @Test func aCodeIsWordedInTheReadersLanguageWhateverLanguageTheForecastCameIn() {
        let overcast = Condition(description: "overcast clouds", icon: "04d", id: 804)
        #expect(ConditionWords.text(overcast, .ru) == "пасмурно")
        #expect(ConditionWords.text(overcast, .en) == "overcast clouds")
        let snow = Condition(description: "light snow", icon: "13d", id: 600)
        #expect(ConditionWords.text(snow, .ru) == "небольшой снег")
    }

    @Test func withoutAKnownCodeOpenWeathersWordsStand() {
        #expect(ConditionWords.text(Condition(description: "облачно", icon: "04d"), .en) == "облачно")
        #expect(ConditionWords.text(Condition(description: "strange sky", icon: "50d", id: 999), .ru) == "strange sky")
    }

    /// Every code OpenWeather documents has words in both languages.
    @Test func bothLanguagesWordTheSameCodes() {
        let ru = Set(ConditionWords.table[.ru]?.keys.map { $0 } ?? [])
        let en = Set(ConditionWords.table[.en]?.keys.map { $0 } ?? [])
        #expect(ru == en)
        #expect(ru.count == 55)
    }
}
