import Logging
import PostgresNIO
import ServiceLifecycle
import UnixSignals
import WeatherBotHTTP
import WeatherBotPostgres
import WeatherBotService

extension BotApplication {
    /// One of the replicas on a PostgreSQL database: it waits as a standby until it holds the
    /// lease, then runs the bot with every write fenced by the lease, until SIGTERM (when it
    /// gives the lease up) or until it loses the lease (when it exits, for its supervisor to start
    /// it again as a standby).
    ///
    /// One service group runs the replica's whole life: the connection pools first, so they are up
    /// before anything queries them and go down after everything else stopped, the store's group
    /// commits, then the replica (``ReplicaLife``): the standby's wait, and the bot once the lease
    /// is held.
    func runReplica(on location: PostgresLocation, logger: Logger) async throws {
        let store = PostgresStore(location, logger: logger)
        // The lease has connections of its own, so that its renewal never waits behind the bot's
        // queries for one.
        var leaseConfiguration = location.configuration
        leaseConfiguration.options.maximumConnections = 2
        let leaseClient = PostgresClient(configuration: leaseConfiguration, backgroundLogger: logger)
        // The pools wait for an unreachable server as long as it takes, saying nothing: one
        // connection first says what is wrong. Before the service group traps the signals: a stop
        // asked meanwhile ends the start.
        guard try await Self.unlessSignalled([.sigterm, .sigint], { try await Self.waitForDatabase(location, logger: logger) }) != nil else {
            logger.info("stopped before the start was complete")
            return
        }
        let life = ReplicaLife { try await self.live(store, leaseClient: leaseClient, location: location, logger: logger) }
        try await ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: store.client), .init(service: leaseClient)]
                    + store.commits.map { .init(service: $0) }
                    + [.init(service: life, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }

    /// Returns once the database takes a connection. One it cannot reach yet (down, starting,
    /// its host not yet resolvable, too many connections) is tried again with growing pauses, as
    /// Telegram is, each failure logged with the pause; one that refuses the user or password, has
    /// no such database or no TLS the URL requires stops the start with that reason.
    static func waitForDatabase(_ location: PostgresLocation, logger: Logger) async throws {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
        try await backoff.retry {
            try await location.checkConnection(logger: logger)
        } failed: { error, delay in
            guard PostgresStore.isUnreachable(error) else {
                throw StartFailure(message: "cannot connect to the database at \(location): \(Self.describe(error))")
            }
            logger.warning(
                "the database is not reachable yet; retrying",
                metadata: ["database": "\(location)", "error": "\(Self.describe(error))", "retry.in": "\(delay.logDescription)"])
        }
    }

    /// The replica's life while its pools run: the schema brought up to date, the standby's wait,
    /// then the bot. Each phase is a group of its own inside the replica's, which stops it
    /// gracefully.
    private func live(_ store: PostgresStore, leaseClient: PostgresClient, location: PostgresLocation, logger: Logger) async throws {
        do {
            guard try await Self.unlessSignalled([], { try await store.migrate() }) != nil else {
                logger.info("stopped before the start was complete")
                return
            }
        } catch {
            throw StartFailure(message: "cannot use the database at \(location): \(Self.describe(error))")
        }
        let lease = LeaderLease(client: leaseClient, logger: logger)
        let clients = clients(logger: logger)
        let report = DatabaseOutageReport(metrics: clients.metrics, logger: logger)
        let standby = Standby(lease: lease, name: LeaderLease.replicaName, report: report)
        // A standby answers /healthz and /metrics too, and in webhook mode takes Telegram's
        // posts into the shared inbox, for the active replica to handle.
        let webhook = try await webhookSettings(store, where: "\(location)")
        let receiver = webhook.map { settings in
            WebhookReceiver(settings: settings, client: clients.telegram, database: store, workers: nil, metrics: clients.metrics, logger: logger)
        }
        let standbyServer = server(store, clients, webhook: receiver, standby: true, logger: logger)
        do {
            try await ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [.init(service: standby, successTerminationBehavior: .gracefullyShutdownGroup)]
                        + (standbyServer.map { [.init(service: $0)] } ?? []),
                    logger: logger)
            ).run()
        } catch let error as OperatorServer.Failure {
            throw StartFailure(message: "\(error)")
        }
        guard let (held, acquiredAt) = standby.acquired else { return await clients.shutdown() }
        store.fence(with: held)
        let keeper = LeaseKeeper(lease: lease, held: held, acquiredAt: acquiredAt, report: report)
        try await serve(
            store, where: "\(location)", clients: clients, webhook: webhook, first: keeper, deliveryFence: { keeper.isLeading }, sharesInbox: true,
            signals: [], logger: logger)
        await clients.shutdown()
    }
}

/// The part of a replica's service group that is the replica itself, run once its pools run.
struct ReplicaLife: Service {
    let body: @Sendable () async throws -> Void

    func run() async throws {
        try await body()
    }
}
