import BotClock
import Logging
import ServiceLifecycle
import Synchronization
import WeatherBotPostgres

/// Waits for the lease, trying once a second; ends when this replica holds it, or on SIGTERM.
final class Standby: Service {
    private let lease: LeaderLease
    private let name: String
    private let logger: Logger
    private let report: DatabaseOutageReport
    private let held = Mutex<(LeaderLease.Held, ContinuousClock.Instant)?>(nil)

    init(lease: LeaderLease, name: String, report: DatabaseOutageReport) {
        self.lease = lease
        self.name = name
        self.logger = report.logger
        self.report = report
    }

    /// The lease, and when it was taken; nil when the wait was stopped.
    var acquired: (LeaderLease.Held, ContinuousClock.Instant)? { held.withLock { $0 } }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var announced = false
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    let acquired = try await self.report.ask(consequence: "this standby cannot take over meanwhile") {
                        try await self.lease.acquire(as: self.name)
                    }
                    if let taken = acquired {
                        self.logger.notice("active: this replica holds the lease", metadata: ["replica": "\(self.name)", "epoch": "\(taken.epoch)"])
                        self.held.withLock { $0 = (taken, started) }
                        return
                    }
                    if !announced {
                        let holder = try? await Deadline.within(self.report.patience) { try await self.lease.standing() }
                        self.logger.notice(
                            "standby: another replica is active", metadata: ["replica": "\(self.name)", "active": "\(holder?.holder ?? "?")"])
                        announced = true
                    }
                } catch is CancellationError {
                    return
                } catch {
                    // The outage's first failure was said at error level.
                    self.logger.debug("could not reach the database for the lease; trying again", metadata: ["error": "\(PostgresStore.describe(error))"])
                }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
