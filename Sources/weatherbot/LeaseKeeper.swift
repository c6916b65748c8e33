import BotClock
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WeatherBotPostgres

/// Keeps this replica's lease while it is active: renews it every third of its duration, and
/// on a graceful stop (after the other services stopped) gives it up, so that a standby takes over
/// at once. When the lease cannot be renewed before it runs out, this replica is no longer the
/// active one: the service fails, which stops the group without grace, and the process exits for
/// its supervisor to start it again, as a standby.
final class LeaseKeeper: Service {
    private let lease: LeaderLease
    private let held: LeaderLease.Held
    private let logger: Logger
    private let report: DatabaseOutageReport
    /// Until when this replica may send, on the monotonic clock: a renewal's start plus the
    /// lease's duration, less a margin. A frozen process that wakes up past it sends nothing.
    private let validUntil: Mutex<ContinuousClock.Instant>

    init(lease: LeaderLease, held: LeaderLease.Held, acquiredAt: ContinuousClock.Instant, report: DatabaseOutageReport) {
        self.lease = lease
        self.held = held
        self.logger = report.logger
        self.report = report
        validUntil = Mutex(acquiredAt + lease.duration - Self.margin(lease.duration))
    }

    /// A third of the lease, at most a second: time for a renewal's answer and the clocks' drift.
    static func margin(_ duration: Duration) -> Duration { min(duration / 3, .seconds(1)) }

    /// Whether this replica may still send.
    var isLeading: Bool { ContinuousClock.now < validUntil.withLock { $0 } }

    func run() async throws {
        let interval = lease.duration / 3
        do {
            try await renewUntilShutdown(every: interval)
        } catch is CancellationError {
            // The graceful stop ended the waiting.
        }
        // Stopped gracefully: everything else stopped first, so the lease can go at once.
        do {
            try await lease.release(held)
            logger.info("lease released", metadata: ["epoch": "\(held.epoch)"])
        } catch {
            logger.warning("could not release the lease; it runs out by itself", metadata: ["error": "\(PostgresStore.describe(error))"])
        }
    }

    /// Why the server refused a renewal: the lease ran out (the database answered too late), or
    /// another replica took it.
    private func howLost() async -> String {
        guard let standing = try? await Deadline.within(.seconds(2), { try await self.lease.standing() }) else {
            return "the lease ran out, or another replica took it"
        }
        if standing.epoch == held.epoch { return "the lease ran out before the database answered again" }
        return "another replica (\(standing.holder), epoch \(standing.epoch)) took the lease"
    }

    private func renewUntilShutdown(every interval: Duration) async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                let started = ContinuousClock.now
                let left = max(Int((self.validUntil.withLock { $0 } - started).timeInterval.rounded()), 0)
                do {
                    let renewed = try await self.report.ask(consequence: "this replica stops unless its lease is renewed within \(left) s") {
                        try await self.lease.renew(self.held)
                    }
                    guard renewed else { throw NotLeading(lease: self.held) }
                    self.validUntil.withLock { $0 = started + self.lease.duration - Self.margin(self.lease.duration) }
                } catch let error as NotLeading {
                    let how = await self.howLost()
                    self.logger.critical("\(how); stopping", metadata: ["epoch": "\(self.held.epoch)"])
                    throw error
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    // The server did not answer (the outage's first failure was said at error
                    // level): go on trying while the lease lasts.
                    guard self.isLeading else {
                        self.logger.critical("the lease could not be renewed before it ran out; stopping", metadata: ["error": "\(PostgresStore.describe(error))"])
                        throw NotLeading(lease: self.held)
                    }
                    self.logger.debug("could not renew the lease; trying again", metadata: ["error": "\(PostgresStore.describe(error))"])
                }
            }
        }
    }
}
