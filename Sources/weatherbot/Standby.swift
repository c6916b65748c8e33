import Logging
import ServiceLifecycle
import Synchronization
import WeatherBotPostgres

/// Waits for the lease, trying once a second; ends when this replica holds it, or on SIGTERM.
final class Standby: Service {
    private let lease: LeaderLease
    private let name: String
    private let logger: Logger
    private let held = Mutex<(LeaderLease.Held, ContinuousClock.Instant)?>(nil)

    init(lease: LeaderLease, name: String, logger: Logger) {
        self.lease = lease
        self.name = name
        self.logger = logger
    }

    /// The lease, and when it was taken; nil when the wait was stopped.
    var acquired: (LeaderLease.Held, ContinuousClock.Instant)? { held.withLock { $0 } }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var announced = false
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    if let taken = try await self.lease.acquire(as: self.name) {
                        self.logger.notice("active: this replica holds the lease", metadata: ["replica": "\(self.name)", "epoch": "\(taken.epoch)"])
                        self.held.withLock { $0 = (taken, started) }
                        return
                    }
                    if !announced {
                        let holder = try? await self.lease.standing()
                        self.logger.notice(
                            "standby: another replica is active", metadata: ["replica": "\(self.name)", "active": "\(holder?.holder ?? "?")"])
                        announced = true
                    }
                } catch {
                    self.logger.warning("could not reach the database for the lease; trying again", metadata: ["error": "\(PostgresStore.describe(error))"])
                }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
