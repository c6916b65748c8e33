import Testing
@testable import WeatherBot
import WeatherBotStore

/// The words for a place's region and country, the same on buttons, cards and notices.
@Suite struct PlaceWordsTests {
    let ru = Texts.for(.ru)
    let en = Texts.for(.en)

    func place(_ name: String, ru russian: String, region: String?, country: String, _ latitude: Double = 10) -> Place {
        Place(name: name, localNames: ["ru": russian], region: region, country: country, latitude: latitude, longitude: 20)
    }

    @Test func aRussianLineSaysTheRegionInRussianOrLeavesItOut() {
        let kazan = place("Kazan", ru: "Казань", region: "Tatarstan", country: "RU")
        #expect(Views.details(of: kazan, .ru) == ", Татарстан, Россия 🇷🇺")
        #expect(Views.details(of: kazan, .en) == ", Tatarstan, Russia 🇷🇺")
        // Not «Ile-de-France» beside «Франция».
        #expect(Views.details(of: .parisFR, .ru) == ", Иль-де-Франс, Франция 🇫🇷")
        let unknown = place("Lyon", ru: "Лион", region: "Auvergne-Rhône-Alpes", country: "FR")
        #expect(Views.details(of: unknown, .ru) == ", Франция 🇫🇷")
        // The city's own name again says nothing.
        #expect(Views.details(of: place("Moscow", ru: "Москва", region: "Moscow", country: "RU"), .ru) == ", Россия 🇷🇺")
        // A region the geocoder gave in Cyrillic stays as it is.
        #expect(Views.details(of: .saransk, .ru) == ", Республика Мордовия, Россия 🇷🇺")
    }

    @Test func theCountryHasOneFormOnButtonsAndCards() {
        #expect(Views.buttonLabel(of: .parisUS, ru) == "Париж, Техас, США 🇺🇸")
        #expect(Views.details(of: .parisUS, .ru) == ", Техас, США 🇺🇸")
        #expect(Views.details(of: .parisUS, .en) == ", Texas, USA 🇺🇸")
    }

    @Test func namesakesInOneCountryKeepARegionTheLanguageHasNoWordFor() {
        let idaho = place("Moscow", ru: "Москва", region: "Latah County", country: "US", 46.7)
        let pennsylvania = place("Moscow", ru: "Москва", region: "Lackawanna County", country: "US", 41.3)
        #expect(Views.buttonLabel(of: idaho, among: [idaho, pennsylvania], ru) == "Москва, Latah County, США 🇺🇸")
        #expect(Views.buttonLabel(of: idaho, ru) == "Москва, США 🇺🇸")
    }

    @Test func twoPlacesOfOneNameAreToldApart() {
        let places = [Place.parisFR, .parisUS, .saransk]
        #expect(Views.distinctName(of: .parisFR, among: places, ru) == "Париж, Франция")
        #expect(Views.distinctName(of: .parisUS, among: places, ru) == "Париж, США")
        #expect(Views.distinctName(of: .saransk, among: places, ru) == "Саранск")
        let idaho = place("Moscow", ru: "Москва", region: "Idaho", country: "US", 46.7)
        let pennsylvania = place("Moscow", ru: "Москва", region: "Pennsylvania", country: "US", 41.3)
        #expect(Views.distinctName(of: idaho, among: [idaho, pennsylvania], ru) == "Москва, Айдахо")
        #expect(Views.distinctName(of: pennsylvania, among: [idaho, pennsylvania], en) == "Moscow, Pennsylvania")
    }

    @Test func wordsAfterACommaNameACountryAStateOrARegion() {
        #expect(PlaceWords.narrowings("Франция") == [.country("FR")])
        #expect(PlaceWords.narrowings("France") == [.country("FR")])
        #expect(PlaceWords.narrowings("США") == [.country("US")])
        #expect(PlaceWords.narrowings("uk") == [.country("GB")])
        #expect(PlaceWords.narrowings("Idaho") == [.state("ID")])
        #expect(PlaceWords.narrowings("Айдахо") == [.state("ID")])
        #expect(PlaceWords.narrowings("OR") == [.state("OR")])
        // A country first, then the state of that name or code.
        #expect(PlaceWords.narrowings("Georgia") == [.country("GE"), .state("GA")])
        #expect(PlaceWords.narrowings("ID") == [.country("ID"), .state("ID")])
        #expect(PlaceWords.narrowings("Татарстан") == [.region("Tatarstan")])
        #expect(PlaceWords.narrowings("Вахитовский").isEmpty)
    }

    @Test func aNarrowingAsksTheGeocoderAndHoldsItToTheAnswer() {
        #expect(PlaceWords.Narrowing.state("ID").query(for: "Moscow") == "Moscow,ID,US")
        #expect(PlaceWords.Narrowing.country("FR").query(for: "Paris") == "Paris,FR")
        #expect(PlaceWords.Narrowing.country("FR").admits(.parisFR))
        #expect(!PlaceWords.Narrowing.country("FR").admits(.parisUS))
        #expect(PlaceWords.Narrowing.state("TX").admits(.parisUS))
        #expect(!PlaceWords.Narrowing.state("ID").admits(.parisUS))
        // The geocoder's Cyrillic «Республика Мордовия» is Mordovia.
        #expect(PlaceWords.Narrowing.region("Mordovia").admits(.saransk))
    }
}
