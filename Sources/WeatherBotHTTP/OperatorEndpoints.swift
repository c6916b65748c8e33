import BotClock
import CoreMetrics
import Foundation
import HTTPTypes
public import Hummingbird
public import Logging
public import NIOCore
public import Prometheus
public import ServiceLifecycle
public import WeatherBotService
public import WeatherBotStore

/// What the running bot answers over HTTP: `GET /healthz`, whether it is working, `GET /metrics`,
/// its counters in Prometheus's text format, and in webhook mode the updates Telegram posts.
public struct OperatorEndpoints: Sendable {
    /// Where the bot's metrics are kept; ``metricsFactory`` makes them.
    public let registry: PrometheusCollectorRegistry
    let metrics: BotMetrics
    let store: any BotStore
    /// How long the bot may go without hearing from Telegram and still be healthy: a long poll
    /// answers within its timeout, so a few of those without an answer mean something is wrong.
    let window: Duration
    let started: ContinuousClock.Instant
    /// Where Telegram posts updates (the webhook URL's path) and what takes them.
    let webhook: (path: String, receiver: WebhookReceiver)?
    /// A standby replica's: it waits for the lease and hears nothing from Telegram but posts.
    let standby: Bool
    /// The Mini App's page and screens, when the bot has an app.
    let app: MiniAppEndpoints?

    /// The largest body a posted update may have: Telegram's are a few kilobytes, rarely tens.
    public static let webhookBodyLimit = 1 << 20

    /// - Parameters:
    ///   - metrics: the bot's metrics: the health check reads when Telegram was last heard from and
    ///     whether the database is out; the webhook's posts are counted in them.
    ///   - store: the outbox, whose oldest waiting answer the health check judges and whose backlog
    ///     `/metrics` shows.
    ///   - window: how long the bot may go without hearing from Telegram and still be healthy.
    ///   - webhook: the path Telegram posts updates to and what takes them; nil in long-polling mode,
    ///     where no path but `/healthz` and `/metrics` is served.
    ///   - standby: true on a replica waiting for the lease: it reports itself well as `standby`
    ///     instead of being judged by Telegram's silence.
    ///   - started: when the bot started, so that it is not unhealthy before a window has passed.
    ///   - app: the Mini App's page and screens at `/app`; nil for no app.
    public init(
        registry: PrometheusCollectorRegistry, metrics: BotMetrics, store: any BotStore, window: Duration,
        webhook: (path: String, receiver: WebhookReceiver)? = nil, standby: Bool = false, started: ContinuousClock.Instant = .now,
        app: MiniAppEndpoints? = nil
    ) {
        self.app = app
        self.webhook = webhook
        self.standby = standby
        self.registry = registry
        self.metrics = metrics
        self.store = store
        self.window = window
        self.started = started
    }

    /// The factory the bot's metrics are made by, so that `/metrics` shows them.
    public static func metricsFactory(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Steps take milliseconds; the default buckets start at a second's fraction too coarse.
        factory.durationHistogramBuckets["weatherbot_step_duration_seconds"] = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        return factory
    }

    /// The routes: `GET /healthz` and `GET /metrics` at exactly those paths, in webhook mode
    /// `POST` to the webhook's path, and the Mini App under `/app` when there is one; anything
    /// else is 404.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        // Only at their exact paths: a proxy that keeps `/metrics` private by its path must not
        // find it served at `/metrics/` or `//metrics` too.
        router.get("healthz") { request, _ in request.uri.path == "/healthz" ? await health(at: .now) : Self.notFound }
        router.get("metrics") { request, _ in request.uri.path == "/metrics" ? try await exposition() : Self.notFound }
        if let webhook {
            router.post(RouterPath(webhook.path)) { request, context in await post(request, to: webhook.receiver, logger: context.logger) }
        }
        app?.add(to: router)
        return router
    }

    /// An update Telegram posts: 200 once it is stored (or was before), 401 without the secret,
    /// 413 over the limit, 400 for a body that is no update, and 500 when it could not be stored,
    /// which Telegram posts again.
    func post(_ request: Request, to receiver: WebhookReceiver, logger: Logger) async -> Response {
        // The secret first: a stranger's body is not even read.
        guard receiver.isAuthorized(request.headers[Self.secretHeader]) else {
            metrics.webhookRequest("unauthorized")
            logger.debug("a post to the webhook without the secret refused", metadata: ["secret.given": "\(request.headers[Self.secretHeader] != nil)"])
            return Self.closing(Self.json(error: "unauthorized", status: .unauthorized))
        }
        // Refused on its declared length, before its body is read or (with `Expect: 100-continue`) sent.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.webhookBodyLimit {
            return tooLarge()
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.webhookBodyLimit)
        } catch is NIOTooManyBytesError {
            return tooLarge()
        } catch {
            metrics.webhookRequest("failed")
            return Self.json(error: "the body could not be read", status: .badRequest)
        }
        do {
            switch try await receiver.take(Data(body.readableBytesView)) {
            case .accepted, .repeated: return Response(status: .ok)
            case .unreadable: return Self.json(error: "the body is no update", status: .badRequest)
            }
        } catch {
            return Self.json(error: "not stored; post it again", status: .internalServerError)
        }
    }

    private func tooLarge() -> Response {
        metrics.webhookRequest("too_large")
        return Self.closing(Self.json(error: "the body is over \(Self.webhookBodyLimit) bytes", status: .contentTooLarge))
    }

    /// A refusal after which the connection is closed (``ConnectionGuard`` sees to it): the rest
    /// of the request's body, however long it says it is, is never read.
    private static func closing(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }

    static let secretHeader = HTTPField.Name("X-Telegram-Bot-Api-Secret-Token")!

    /// The paths of the operator's endpoints, which have connections of their own
    /// (``ServerLimits/operatorConnections``).
    static let operatorPaths: Set<String> = ["/healthz", "/metrics"]

    /// The verdict at `now`: 503 while the database does not answer (a replica's lease renewals
    /// and a standby's tries tell); else 200 while Telegram was heard from within the window (or the bot
    /// started less than the window ago) and no answer to a chat has waited longer than
    /// ``longestWait``, 503 with the reason otherwise. A standby, running, is well: it says so,
    /// for the reverse proxy may send it webhook posts all the same.
    func health(at now: ContinuousClock.Instant) async -> Response {
        let (status, body) = await verdict(at: now)
        return Self.json(body, status: status)
    }

    /// How long the oldest interactive reply may wait before the bot is unhealthy: chats are
    /// answered in seconds, so a minute means the sender is stuck or swamped.
    static let longestWait: TimeInterval = 60

    /// The health check's answer.
    enum Health: Encodable {
        /// A standby replica, running.
        case standby
        /// Telegram heard from that many seconds ago; nil when not yet since the start.
        case ok(telegramSecondsAgo: Int64?)
        case unhealthy(reason: String)

        enum CodingKeys: String, CodingKey {
            case status, telegramSecondsAgo = "telegram_seconds_ago", reason
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .standby:
                try container.encode("standby", forKey: .status)
            case .ok(let age):
                try container.encode("ok", forKey: .status)
                // null before Telegram was first heard from.
                try container.encode(age, forKey: .telegramSecondsAgo)
            case .unhealthy(let reason):
                try container.encode("unhealthy", forKey: .status)
                try container.encode(reason, forKey: .reason)
            }
        }
    }

    /// The health check's status and JSON body at `now`.
    func verdict(at now: ContinuousClock.Instant) async -> (HTTPResponse.Status, String) {
        if let outage = metrics.databaseOutage {
            let reason = "the database has not answered for \(max(now - outage.since, .zero).components.seconds) s: \(outage.reason)"
            return (.serviceUnavailable, Self.text(Health.unhealthy(reason: reason)))
        }
        var (status, health) = assessment(at: now)
        if status == .ok, !standby, let waited = await oldestInteractiveWait(at: now), waited > Self.longestWait {
            (status, health) = (
                .serviceUnavailable, .unhealthy(reason: "the oldest answer to a chat has waited \(Int(waited)) s to be sent (allowed: \(Int(Self.longestWait)) s)")
            )
        }
        return (status, Self.text(health))
    }

    /// How long the oldest reply of the interactive lane has waited at `now`; nil when none
    /// waits, or the store does not say within a second (the verdict then rests on Telegram).
    private func oldestInteractiveWait(at now: ContinuousClock.Instant) async -> TimeInterval? {
        guard let oldest = try? await Deadline.within(.seconds(1), { [store] in try await store.oldestOutboxItem(lane: .interactive) }) else {
            return nil
        }
        // `now` on the monotonic clock, as a date: tests ask about moments ahead.
        let ahead = (now - .now).components
        let date = Date().addingTimeInterval(Double(ahead.seconds) + Double(ahead.attoseconds) / 1e18)
        return date.timeIntervalSince(oldest)
    }

    private func assessment(at now: ContinuousClock.Instant) -> (HTTPResponse.Status, Health) {
        if standby { return (.ok, .standby) }
        let heard = metrics.lastHeardFromTelegram
        let age = max(now - (heard ?? started), .zero).components.seconds
        let allowed = window.components.seconds
        if age <= allowed {
            return (.ok, .ok(telegramSecondsAgo: heard == nil ? nil : age))
        }
        // What "heard" means: a poll answered and stored; in webhook mode a post stored, or an
        // answer about the webhook that tells of no failure.
        let what = webhook == nil ? "no poll answered and stored" : "no update posted and stored, nor the webhook found working,"
        var reason = heard == nil ? "\(what) since the start \(age) s ago" : "\(what) for \(age) s"
        if let failure = metrics.webhookFailure { reason += "; Telegram cannot post to the webhook: \(failure)" }
        return (.serviceUnavailable, .unhealthy(reason: "\(reason) (allowed: \(allowed) s)"))
    }

    /// The metrics now, the outbox's lanes read from the store at the moment of asking. A store
    /// that fails or takes over two seconds leaves the lanes' figures as they were last read, and
    /// the counters still come.
    func exposition() async throws -> Response {
        let factory = Self.metricsFactory(registry)
        let lanes = try? await Deadline.within(.seconds(2)) { [store] in
            var lanes: [(OutboxLane, backlog: Int, oldest: Date?)] = []
            for lane in OutboxLane.allCases {
                lanes.append((lane, try await store.outboxBacklog(lane: lane), try await store.oldestOutboxItem(lane: lane)))
            }
            return lanes
        }
        let now = Date()
        for (lane, backlog, oldest) in lanes ?? [] {
            Gauge(label: "weatherbot_outbox_backlog", dimensions: [("lane", "\(lane)")], factory: factory).record(backlog)
            Gauge(label: "weatherbot_outbox_oldest_age_seconds", dimensions: [("lane", "\(lane)")], factory: factory)
                .record(oldest.map { max(now.timeIntervalSince($0), 0) } ?? 0)
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: buffer)))
        response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return response
    }

    /// Answers are written by one encoder: keys sorted, so that the same answer is the same bytes.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An answer's JSON: a ``Health``, or an `{"error": …}` object.
    static func text(_ body: some Encodable) -> String {
        // Strings, integers and null encode without fail.
        String(decoding: (try? encoder.encode(body)) ?? Data(), as: UTF8.self)
    }

    private static func json(_ text: String, status: HTTPResponse.Status) -> Response {
        var response = Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = "application/json"
        return response
    }

    private static let notFound = Response(status: .notFound)

    static func json(error: String, status: HTTPResponse.Status) -> Response {
        json(text(["error": error]), status: status)
    }
}

/// The endpoints' HTTP server as a service of the bot's group: its failure (a port taken, an
/// address not on this machine) names the address it was to listen on.
public struct OperatorServer: Service {
    let application: any Service
    /// `host:port`, as configured.
    public let address: String

    /// - Parameters:
    ///   - eventLoop: the loop the server's connections are served on; the bot gives its own, so
    ///     that a posted update is read, stored and stepped on one thread (default: Hummingbird's).
    ///   - listening: told the port once the server listens (the port asked for, or the one the
    ///     system chose for port 0); the webhook is set then.
    public init(
        _ endpoints: OperatorEndpoints, host: String, port: Int, limits: ServerLimits = ServerLimits(), logger: Logger,
        eventLoop: (any EventLoop)? = nil, listening: (@Sendable (Int) -> Void)? = nil
    ) {
        application = Application(
            router: endpoints.router(), server: limits.server(operatorPaths: OperatorEndpoints.operatorPaths),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), availableConnectionsDelegate: .maximum(limits.acceptedConnections, logger: logger)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port {
                    listening?(port)
                    endpoints.webhook?.receiver.serverListens(on: port)
                }
            },
            eventLoopGroupProvider: eventLoop.map { .shared($0) } ?? .singleton, logger: logger)
        address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Serves until the service group shuts it down. Throws ``Failure`` when the server cannot
    /// listen (the port is taken, the address is not this machine's) or stops with an error.
    public func run() async throws {
        do {
            try await application.run()
        } catch {
            throw Failure(address: address, reason: "\(error)")
        }
    }

    /// The server could not listen, or stopped with an error.
    public struct Failure: Error, CustomStringConvertible {
        /// `host:port` the server was to listen on, an IPv6 host in square brackets.
        public var address: String
        /// What Hummingbird or the system said went wrong.
        public var reason: String
        /// One line for the operator that names the address and the `HTTP_LISTEN` setting to check.
        public var description: String { "the HTTP endpoints cannot listen on \(address) (HTTP_LISTEN): \(reason)" }
    }
}
