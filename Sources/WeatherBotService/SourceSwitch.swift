public import OpenWeather
import Synchronization

/// Whether OpenWeather, the first source, is asked, or Open-Meteo answers in its place.
///
/// A failure of OpenWeather's own (no answer, a 5xx, a 429, a refused key, an answer that does
/// not decode) sends everyone to Open-Meteo for a while, so that no one else waits out the same
/// timeout; after that while one call tries OpenWeather again while the rest still go to
/// Open-Meteo, and its answer decides: back for everyone, or a longer while (doubled each time, up
/// to ``longest``). So the source does not flap call by call, and an outage costs one failed call
/// per while. A refusal of the bot's own budget for the minute or the day falls back call by call
/// without tripping anything (it is decided locally, at no cost); a chat over its own share does
/// not fall back, or it could spend both sources' shares.
public final class SourceSwitch: Sendable {
    /// What to do with one call.
    public enum Route: Sendable, Hashable {
        /// Ask OpenWeather; `probe`: it is the one call trying it again after a while away.
        case first(probe: Bool)
        /// Ask Open-Meteo: OpenWeather failed a moment ago.
        case second
    }

    private struct State {
        /// Until when OpenWeather is left alone; nil while it answers.
        var awayUntil: ContinuousClock.Instant?
        /// How long the next while away lasts.
        var away: Duration
        /// A call is trying OpenWeather again now.
        var probing = false
    }

    private let state: Mutex<State>
    /// The first while away.
    public let shortest: Duration
    /// The longest while away.
    public let longest: Duration

    /// - Parameters:
    ///   - shortest: how long OpenWeather is left alone after its first failure (30 s).
    ///   - longest: the most it is left alone after failing again and again (10 minutes).
    public init(shortest: Duration = .seconds(30), longest: Duration = .seconds(600)) {
        self.shortest = shortest
        self.longest = longest
        state = Mutex(State(awayUntil: nil, away: shortest))
    }

    /// Where the next call goes.
    public func route(at now: ContinuousClock.Instant = .now) -> Route {
        state.withLock { state in
            guard let until = state.awayUntil else { return .first(probe: false) }
            if now < until || state.probing { return .second }
            state.probing = true
            return .first(probe: true)
        }
    }

    /// Whether OpenWeather is being left alone now.
    public var isAway: Bool { state.withLock { $0.awayUntil != nil } }

    /// OpenWeather answered: everyone goes back to it. True when it had been left alone until now.
    @discardableResult
    public func answered() -> Bool {
        state.withLock { state in
            let wasAway = state.awayUntil != nil
            if wasAway || state.away != shortest { state = State(awayUntil: nil, away: shortest) }
            return wasAway
        }
    }

    /// Whether `error` is the bot's own budget for everyone (the minute's or the day's) refusing
    /// a call: it falls back without tripping the switch.
    public static func isBudget(_ error: OpenWeatherError) -> Bool { kind(of: error) == .budget }

    /// A call routed to OpenWeather failed with `error`; true when Open-Meteo should answer it.
    /// A failure of OpenWeather's own sends everyone away for a while; a probe's failure, for
    /// twice as long as the last.
    public func failed(_ error: OpenWeatherError, probe: Bool, at now: ContinuousClock.Instant = .now) -> Bool {
        switch Self.kind(of: error) {
        case .outage:
            state.withLock { state in
                // Calls sent before the switch went away fail too: only the first sets the while.
                if state.awayUntil == nil || probe {
                    state.awayUntil = now + state.away
                    state.away = min(state.away * 2, longest)
                }
                if probe { state.probing = false }
            }
            return true
        case .budget:
            if probe { state.withLock { $0.probing = false } }
            return true
        case .notForOthers:
            // Not a sign of OpenWeather's health: the probe ends undecided, the next call tries.
            if probe { state.withLock { $0.probing = false } }
            return false
        }
    }

    private enum Kind { case outage, budget, notForOthers }

    private static func kind(of error: OpenWeatherError) -> Kind {
        switch error.code {
        case .network, .server, .invalidKey, .subscriptionRequired, .undecodable, .unexpectedStatus:
            return .outage
        case .rateLimited:
            // OpenWeather's 429; while the client waits it out it refuses locally.
            return error.refusedLocally ? .budget : .outage
        case .overBudget(.minute), .overBudget(.day):
            return .budget
        case .overBudget(.chat), .overBudget(.chatDay), .notFound:
            return .notForOthers
        }
    }
}
