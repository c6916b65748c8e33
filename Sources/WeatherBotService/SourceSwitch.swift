public import OpenWeather
import Synchronization

/// Whether OpenWeather, the first source, is asked, or Open-Meteo answers in its place, for each
/// kind of call apart (forecasts, names, points, the air): OpenWeather's forecasts may fail while
/// its geocoding answers, and the one's answers must not hide the other's failures.
///
/// Every call OpenWeather fails (no answer, a 5xx, a 429, a refused key, an answer that does not
/// decode) is answered by Open-Meteo instead, so no one is told to try later. Failures of
/// OpenWeather's own, ``threshold`` in a row with no answer between, send everyone to Open-Meteo
/// for a while, so that no one else waits out the same timeout; after that while one call tries
/// OpenWeather again while the rest still go to Open-Meteo, and its answer decides: back for
/// everyone, or a longer while (doubled each time, up to ``longest``). Back, the next while away
/// is shortened step by step as OpenWeather keeps answering, not at once: an OpenWeather that
/// fails now and then is not asked and left again every half minute. An answer that does not
/// decode at one place says nothing of the others and never sends everyone away. A refusal of the
/// bot's own budget for the minute or the day falls back call by call without turning anything
/// (it is decided locally, at no cost); a chat over its own share does not fall back, or it could
/// spend both sources' shares.
public final class SourceSwitch: Sendable {
    /// What to do with one call.
    public enum Route: Sendable, Hashable {
        /// Ask OpenWeather; `probe`: it is the one call trying it again after a while away.
        case first(probe: Bool)
        /// Ask Open-Meteo: OpenWeather is being left alone for a while.
        case second
    }

    private struct State {
        /// Until when OpenWeather is left alone; nil while it is asked.
        var awayUntil: ContinuousClock.Instant?
        /// How long the next while away lasts.
        var away: Duration
        /// Failures of OpenWeather's own since it last answered.
        var failures = 0
        /// A call is trying OpenWeather again now.
        var probing = false
    }

    /// By kind of call (`forecast`, `geocode`, …).
    private let states = Mutex<[String: State]>([:])
    /// The first while away.
    public let shortest: Duration
    /// The longest while away.
    public let longest: Duration
    /// Failures in a row that send everyone away.
    public let threshold: Int

    /// - Parameters:
    ///   - shortest: how long OpenWeather is left alone the first time (30 s).
    ///   - longest: the most it is left alone after failing again and again (10 minutes).
    ///   - threshold: its failures in a row, with no answer between, that send everyone away (3).
    public init(shortest: Duration = .seconds(30), longest: Duration = .seconds(600), threshold: Int = 3) {
        self.shortest = shortest
        self.longest = longest
        self.threshold = max(1, threshold)
    }

    /// Runs `body` on the state of `kind`'s calls.
    private func withState<T>(_ kind: String, _ body: (inout State) -> T) -> T {
        states.withLock { states in
            var state = states[kind] ?? State(awayUntil: nil, away: shortest)
            defer { states[kind] = state }
            return body(&state)
        }
    }

    /// Where the next call of `kind` goes.
    public func route(_ kind: String = "forecast", at now: ContinuousClock.Instant = .now) -> Route {
        withState(kind) { state in
            guard let until = state.awayUntil else { return .first(probe: false) }
            if now < until || state.probing { return .second }
            state.probing = true
            return .first(probe: true)
        }
    }

    /// Whether OpenWeather is being left alone now for `kind`'s calls.
    public func isAway(_ kind: String = "forecast") -> Bool { withState(kind) { $0.awayUntil != nil } }

    /// OpenWeather answered: everyone goes back to it, and the next while away, should it come,
    /// is half the last (never below ``shortest``). True when it had been left alone until now.
    @discardableResult
    public func answered(_ kind: String = "forecast") -> Bool {
        withState(kind) { state in
            let wasAway = state.awayUntil != nil
            guard wasAway || state.failures > 0 || state.away > shortest else { return false }
            state.awayUntil = nil
            state.probing = false
            state.failures = 0
            state.away = max(state.away / 2, shortest)
            return wasAway
        }
    }

    /// A call of kind `call` routed to OpenWeather failed with `error`; true when Open-Meteo should answer it.
    public func failed(_ error: OpenWeatherError, _ call: String = "forecast", probe: Bool, at now: ContinuousClock.Instant = .now) -> Bool {
        let kind = Self.kind(of: error)
        withState(call) { state in
            if probe { state.probing = false }
            guard kind == .outage else { return }
            state.failures += 1
            // A probe's failure, or the threshold reached while OpenWeather is asked, sends
            // everyone away; calls sent before that and failing after change nothing.
            if probe || (state.awayUntil == nil && state.failures >= threshold) {
                state.awayUntil = now + state.away
                state.away = min(state.away * 2, longest)
            }
        }
        return kind != .notForOthers
    }

    /// A probe of `call`'s kind ended without an answer or a failure to judge by (its task was
    /// cancelled): the next call after it probes instead.
    public func probeEnded(_ call: String) {
        withState(call) { $0.probing = false }
    }

    /// Whether `error` is the bot's own budget for everyone (the minute's or the day's) refusing
    /// a call: it falls back without turning the switch.
    public static func isBudget(_ error: OpenWeatherError) -> Bool { kind(of: error) == .budget }

    private enum Kind { case outage, place, budget, notForOthers }

    private static func kind(of error: OpenWeatherError) -> Kind {
        switch error.code {
        case .network, .server, .invalidKey, .subscriptionRequired, .unexpectedStatus:
            return .outage
        case .undecodable:
            // One place's answer: Open-Meteo answers it, the others still ask OpenWeather.
            return .place
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
