public import BotClock
public import Foundation
public import HTTPTransport
public import Logging
import Synchronization
public import WeatherBot

/// Follows short map links for the conversation: each link by a single GET whose redirect is the
/// answer, its body never read, within a few seconds, and only to the hosts of ``ShortMapLink``.
///
/// A link is followed once and remembered (its point, or that it leads nowhere; a host that could
/// not be reached is not remembered); askers of a link being followed wait for that one request;
/// and each asker (a user, or a group) may have only ``Limits/perAskerPerMinute`` new links
/// followed a minute, remembered ones free. Many requests from the bot's address to a link's
/// host could get it blocked there, which would break links for everyone.
public final class ShortMapLinks: MapLinkResolver {
    /// What the bot remembers of links, and how many it follows for one asker.
    public struct Limits: Sendable {
        /// New links followed for one asker in a minute.
        public var perAskerPerMinute: Int
        /// Links remembered at most; the one due to be forgotten first goes to make room.
        public var remembered: Int
        /// How long a link's point is remembered: what a short link names does not change.
        public var pointLifetime: Duration
        /// How long a link that leads nowhere is remembered.
        public var nowhereLifetime: Duration

        /// Three new links a minute per asker, 4096 remembered, a point kept a day and a dead end an hour, unless told otherwise.
        public init(perAskerPerMinute: Int = 3, remembered: Int = 4096, pointLifetime: Duration = .seconds(86_400), nowhereLifetime: Duration = .seconds(3600)) {
            self.perAskerPerMinute = perAskerPerMinute
            self.remembered = remembered
            self.pointLifetime = pointLifetime
            self.nowhereLifetime = nowhereLifetime
        }
    }

    /// What one request to a link's host told.
    public enum Followed: Sendable, Hashable {
        /// It redirects here (made absolute against the link).
        case redirect(to: String)
        /// It answered with no redirect.
        case noRedirect
        /// It could not be reached, answered with a server error, or not in time.
        case failed
    }

    let transport: any HTTPTransport
    let timeout: Duration
    let server: URL?
    let limits: Limits
    let clock: any WallClock
    let logger: Logger
    private let state = Mutex(State())

    /// - Parameter server: where the requests go instead of the link's own host, keeping its path
    ///   (a loopback server in tests); nil in production.
    public init(
        transport: any HTTPTransport, timeout: Duration = .seconds(3), server: URL? = nil, limits: Limits = Limits(),
        clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.transport = transport
        self.timeout = timeout
        self.server = server
        self.limits = limits
        self.clock = clock
        self.logger = logger
    }

    /// Anything but a short link of a known host is ``MapLinkLookup/nowhere`` at once, with no request.
    public func lookUp(_ link: String, for asker: Int64, cachedOnly: Bool) async -> MapLinkLookup {
        guard ShortMapLink.isShort(link) else { return .nowhere }
        let now = clock.date
        let step: Step = state.withLock { state in
            if let known = state.known(link, at: now) { return .known(known) }
            if let request = state.following[link] { return .wait(request) }
            if cachedOnly { return .known(.notCached) }
            guard state.admit(asker, at: now, limit: limits.perAskerPerMinute) else { return .known(.tooMany) }
            // Not the asker's own task: others who ask meanwhile wait for it too, and it finishes
            // (within the timeout) even if the asker stops waiting.
            let request = Task { await self.followAndRemember(link) }
            state.following[link] = request
            return .wait(request)
        }
        switch step {
        case .known(let lookup):
            return lookup
        case .wait(let request):
            return await request.value
        }
    }

    /// Follows `link` and remembers where it leads, unless its host failed.
    private func followAndRemember(_ link: String) async -> MapLinkLookup {
        let lookup: MapLinkLookup
        switch await follow(link) {
        case .redirect(let target):
            lookup = ShortMapLink.point(atTarget: target).map { .point(latitude: $0.latitude, longitude: $0.longitude) } ?? .nowhere
        case .noRedirect:
            lookup = .nowhere
        case .failed:
            lookup = .unreachable
        }
        let now = clock.date
        state.withLock { state in
            state.following[link] = nil
            switch lookup {
            case .point: state.remember(link, lookup, at: now, for: limits.pointLifetime, capacity: limits.remembered)
            case .nowhere: state.remember(link, lookup, at: now, for: limits.nowhereLifetime, capacity: limits.remembered)
            case .unreachable, .tooMany, .notCached: break
            }
        }
        return lookup
    }

    /// One request to the link's host, nothing remembered, no limit.
    public func follow(_ link: String) async -> Followed {
        guard ShortMapLink.isShort(link), let url = URL(string: link), let asked = address(of: url) else { return .noRedirect }
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(url: asked, headers: ["Accept": "text/html"], timeout: timeout, readsBody: false))
        } catch {
            logger.info("a short map link could not be followed", metadata: ["host": "\(url.host ?? "")", "error": "\(error)"])
            return .failed
        }
        guard (300..<400).contains(response.status), let location = response.headers["location"], !location.isEmpty else {
            logger.info("a short map link did not redirect", metadata: ["host": "\(url.host ?? "")", "status": "\(response.status)"])
            // A server's error says nothing of the link: asked again later, not remembered.
            return response.status >= 500 ? .failed : .noRedirect
        }
        // A relative redirect is relative to the link.
        return URL(string: location, relativeTo: url).map { .redirect(to: $0.absoluteString) } ?? .noRedirect
    }

    private func address(of url: URL) -> URL? {
        guard let server else { return url }
        var parts = URLComponents(url: server, resolvingAgainstBaseURL: false)
        parts?.percentEncodedPath = url.path(percentEncoded: true)
        parts?.percentEncodedQuery = url.query(percentEncoded: true)
        return parts?.url
    }

    /// What a look-up does: answers from what is known, or waits for a request.
    private enum Step {
        case known(MapLinkLookup)
        case wait(Task<MapLinkLookup, Never>)
    }

    /// Links remembered, requests under way, and when each asker last had links followed.
    private struct State {
        var remembered: [String: (lookup: MapLinkLookup, until: Date)] = [:]
        var following: [String: Task<MapLinkLookup, Never>] = [:]
        /// Each asker's requests of the last minute, oldest first.
        var started: [Int64: [Date]] = [:]

        func known(_ link: String, at now: Date) -> MapLinkLookup? {
            guard let entry = remembered[link], entry.until > now else { return nil }
            return entry.lookup
        }

        /// Remembers where `link` leads for `lifetime`; when full, the links forgotten already go,
        /// and if none has, the one due to be forgotten first.
        mutating func remember(_ link: String, _ lookup: MapLinkLookup, at now: Date, for lifetime: Duration, capacity: Int) {
            if remembered[link] == nil && remembered.count >= capacity {
                remembered = remembered.filter { $0.value.until > now }
                if remembered.count >= capacity, let first = remembered.min(by: { $0.value.until < $1.value.until }) {
                    remembered[first.key] = nil
                }
            }
            remembered[link] = (lookup, now.addingTimeInterval(lifetime.timeInterval))
        }

        /// Whether `asker` may have one more link followed now; counts it when so.
        mutating func admit(_ asker: Int64, at now: Date, limit: Int) -> Bool {
            let minuteAgo = now.addingTimeInterval(-60)
            // Askers quiet for a minute are forgotten, so the table holds only the last minute's.
            if started.count > 1024 { started = started.filter { $0.value.last.map { $0 > minuteAgo } ?? false } }
            var recent = started[asker, default: []].filter { $0 > minuteAgo }
            defer { started[asker] = recent.isEmpty ? nil : recent }
            guard recent.count < limit else { return false }
            recent.append(now)
            return true
        }
    }
}
