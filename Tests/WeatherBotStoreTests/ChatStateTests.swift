import Foundation
import Testing
import WeatherBotStore


@Suite struct ChatStateTests {
    @Test func everyStateSurvivesStoringAndReading() {
        let place = Place(name: "Kazan", localNames: ["ru": "Казань"], country: "RU", latitude: 55.79, longitude: 49.12)
        let states: [ChatState] = [
            .idle, .locating, .confirmingCity(place), .awaitingCityName(.browse), .choosingPlace([place, place], .setCity),
            .confirmingReset(), .confirmingReset(askedBy: 4_503_599_627_370_495), .confirmingCity(place, then: .tomorrow),
            .choosingPlace([place], .setCity, then: .week),
        ]
        for state in states {
            #expect(ChatState(stored: state.stored) == state)
        }
        // The resting state reads the same whichever way it was written.
        #expect(ChatState(stored: Data(#"{"idle":{}}"#.utf8)) == .idle)
        #expect(ChatState(stored: Data(#"{"idle" : { }}"#.utf8)) == .idle)
        // A reset question stored before questions had an asker is still the question.
        #expect(ChatState(stored: Data(#"{"confirmingReset":{}}"#.utf8)) == .confirmingReset())
        // Questions stored before they kept the view a search asked for show the weather now.
        let asked = try? JSONEncoder().encode(place)
        let stored = #"{"confirmingCity":{"_0":"# + String(decoding: asked ?? Data(), as: UTF8.self) + "}}"
        #expect(ChatState(stored: Data(stored.utf8)) == .confirmingCity(place))
        let listed = #"{"choosingPlace":{"_0":["# + String(decoding: asked ?? Data(), as: UTF8.self) + #"],"_1":"browse"}}"#
        #expect(ChatState(stored: Data(listed.utf8)) == .choosingPlace([place], .browse))
    }

    @Test func anUnreadableStateIsIdle() {
        #expect(ChatState(stored: Data("{\"teleporting\":{}}".utf8)) == .idle)
        #expect(ChatState(stored: Data()) == .idle)
    }
}
