import Foundation
import OpenWeather
import Testing
import WeatherBotService

/// When Open-Meteo answers in OpenWeather's place, and when OpenWeather is asked again.
struct SourceSwitchTests {
    static let outage = OpenWeatherError(code: .server(503), endpoint: "/data/3.0/onecall", message: "Service Unavailable")

    @Test func anOutageSendsEveryoneAwayAndOneCallTriesAgainAfterTheWhile() {
        let sources = SourceSwitch(shortest: .seconds(30), longest: .seconds(600), threshold: 1)
        let start = ContinuousClock.now
        #expect(sources.route(at: start) == .first(probe: false))
        #expect(sources.failed(Self.outage, probe: false, at: start))
        #expect(sources.isAway())
        // A call sent before the switch turned, failing after, does not make the while longer.
        #expect(sources.failed(Self.outage, probe: false, at: start + .seconds(5)))
        #expect(sources.route(at: start + .seconds(29)) == .second)
        // After the while: one call tries OpenWeather, the others still go to Open-Meteo.
        #expect(sources.route(at: start + .seconds(30)) == .first(probe: true))
        #expect(sources.route(at: start + .seconds(31)) == .second)
        #expect(sources.answered())
        #expect(!sources.isAway())
        #expect(sources.route(at: start + .seconds(32)) == .first(probe: false))
        #expect(!sources.answered())
    }

    @Test func aProbeThatFailsDoublesTheWhileUpToTheLongest() {
        let sources = SourceSwitch(shortest: .seconds(30), longest: .seconds(100), threshold: 1)
        var now = ContinuousClock.now
        _ = sources.failed(Self.outage, probe: false, at: now)
        for seconds in [30, 60, 100, 100] {
            #expect(sources.route(at: now + .seconds(seconds - 1)) == .second, "away \(seconds) s")
            now += .seconds(seconds)
            #expect(sources.route(at: now) == .first(probe: true))
            #expect(sources.failed(Self.outage, probe: true, at: now))
        }
        // Back: the next while away is half the last, not the shortest at once.
        #expect(sources.answered())
        _ = sources.failed(Self.outage, probe: false, at: now)
        #expect(sources.route(at: now + .seconds(49)) == .second)
        #expect(sources.route(at: now + .seconds(50)) == .first(probe: true))
    }

    @Test func everyFailureFallsBackButOnlyFailuresInARowSendEveryoneAway() {
        let sources = SourceSwitch(threshold: 3)
        let now = ContinuousClock.now
        #expect(sources.failed(Self.outage, probe: false, at: now))
        #expect(sources.failed(Self.outage, probe: false, at: now))
        #expect(!sources.isAway())
        // An answer between: the count starts again.
        sources.answered()
        #expect(sources.failed(Self.outage, probe: false, at: now))
        #expect(sources.failed(Self.outage, probe: false, at: now))
        #expect(!sources.isAway())
        #expect(sources.failed(Self.outage, probe: false, at: now))
        #expect(sources.isAway())
    }

    @Test func aProbeThatEndsWithoutAnAnswerLetsTheNextCallProbe() {
        let sources = SourceSwitch(threshold: 1)
        let now = ContinuousClock.now
        _ = sources.failed(Self.outage, probe: false, at: now)
        #expect(sources.route(at: now + .seconds(30)) == .first(probe: true))
        #expect(sources.route(at: now + .seconds(30)) == .second)
        sources.probeEnded("forecast")
        #expect(sources.route(at: now + .seconds(31)) == .first(probe: true))
    }

    @Test func eachKindOfCallIsSwitchedApart() {
        let sources = SourceSwitch(threshold: 2)
        let now = ContinuousClock.now
        // Forecasts fail while names answer: the names' answers do not hide the forecasts' failures.
        _ = sources.failed(Self.outage, "forecast", probe: false, at: now)
        sources.answered("geocode")
        _ = sources.failed(Self.outage, "forecast", probe: false, at: now)
        #expect(sources.isAway("forecast") && !sources.isAway("geocode"))
        #expect(sources.route("geocode", at: now) == .first(probe: false))
        #expect(sources.route("forecast", at: now) == .second)
    }

    @Test func anAnswerThatDoesNotDecodeAtOnePlaceFallsBackAndSendsNoOneAway() {
        let sources = SourceSwitch(threshold: 1)
        let undecodable = OpenWeatherError(code: .undecodable, endpoint: "/data/3.0/onecall", message: "an impossible temperature")
        for _ in 1...5 { #expect(sources.failed(undecodable, probe: false)) }
        #expect(!sources.isAway())
    }

    @Test func theBudgetForEveryoneFallsBackCallByCallWithoutTurningTheSwitch() {
        let sources = SourceSwitch()
        let day = OpenWeatherError(code: .overBudget(.day(renews: .now)), endpoint: "/data/3.0/onecall", message: "", refusedLocally: true)
        let minute = OpenWeatherError(code: .overBudget(.minute), endpoint: "/data/3.0/onecall", message: "", refusedLocally: true)
        let paused = OpenWeatherError(code: .rateLimited, endpoint: "/data/3.0/onecall", message: "paused after a 429", refusedLocally: true)
        for error in [day, minute, paused] {
            #expect(sources.failed(error, probe: false))
            #expect(SourceSwitch.isBudget(error))
            #expect(!sources.isAway())
        }
    }

    @Test func aChatOverItsOwnShareOrANameNotFoundStaysWithOpenWeather() {
        let sources = SourceSwitch()
        for code in [OpenWeatherError.Code.overBudget(.chat), .overBudget(.chatDay(renews: .now)), .notFound] {
            #expect(!sources.failed(OpenWeatherError(code: code, endpoint: "/geo/1.0/direct", message: ""), probe: false))
        }
        #expect(!sources.isAway())
    }

    @Test func everyFailureOfOpenWeathersOwnTurnsTheSwitch() {
        for code in [OpenWeatherError.Code.network, .server(500), .invalidKey, .rateLimited, .unexpectedStatus(418)] {
            let sources = SourceSwitch(threshold: 1)
            #expect(sources.failed(OpenWeatherError(code: code, endpoint: "/data/3.0/onecall", message: ""), probe: false))
            #expect(sources.isAway(), "\(code)")
        }
    }
}
