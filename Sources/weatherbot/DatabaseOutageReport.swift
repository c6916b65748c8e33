import BotClock
import Logging
import WeatherBotPostgres
import WeatherBotService

/// The replica's questions about the lease, each bounded in time, tell when the database stops
/// answering and when it answers again: one line at each end of an outage, and meanwhile
/// `/healthz` unhealthy and `weatherbot_database_up` 0 (``BotMetrics/databaseFailed(_:at:)``).
///
/// Without the bound nothing would be said: a pool whose server is gone waits for a connection as
/// long as it takes, and the question neither fails nor answers.
struct DatabaseOutageReport: Sendable {
    let metrics: BotMetrics
    let logger: Logger
    /// How long a question about the lease may take before the database counts as not answering:
    /// such a question reads or writes one row.
    let patience: Duration

    init(metrics: BotMetrics, logger: Logger, patience: Duration = .seconds(2)) {
        self.metrics = metrics
        self.logger = logger
        self.patience = patience
    }

    /// `question`'s answer within the patience, or its error. The first failure of an outage is
    /// logged at error level with `consequence` (what the outage means for this replica), and the
    /// first answer after one at notice level with how long it lasted.
    func ask<T: Sendable>(consequence: String, _ question: @escaping @Sendable () async throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        do {
            let answer = try await Deadline.within(patience, question)
            if let ended = metrics.databaseAnswered() {
                logger.notice("the database answers again", metadata: ["outage": "\((ContinuousClock.now - ended.since).timeInterval.rounded()) s"])
            }
            return answer
        } catch is CancellationError {
            // The replica is stopping: no news about the database.
            throw CancellationError()
        } catch {
            let reason = PostgresStore.describe(error)
            // Unanswered since it was asked.
            if metrics.databaseFailed(reason, at: asked) != nil {
                logger.error("the database does not answer; \(consequence)", metadata: ["error": "\(reason)"])
            }
            throw error
        }
    }
}
