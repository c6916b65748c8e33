import Logging

/// The store failing to commit for as long as it cannot (a full disk, a database out of reach):
/// the fault is logged once as it begins and once as it ends, `/healthz` is unhealthy meanwhile
/// (``BotMetrics/databaseFailed(_:at:)``), and the retries between are logged at debug only, so a
/// full disk is two lines, not a few a second for as long as it lasts.
struct StoreFaults: Sendable {
    let metrics: BotMetrics
    let logger: Logger

    /// A commit failed; `what` says what it was, and `delay` when it is tried again.
    func failed(_ description: String, _ what: String, retryIn delay: Duration) {
        let metadata: Logger.Metadata = ["error": "\(description)", "retry.in": "\(delay.logDescription)"]
        if metrics.databaseFailed(description) != nil {
            logger.error("the database cannot commit (\(what)); retrying with backoff until it can", metadata: metadata)
        } else {
            logger.debug("could not commit (\(what)); trying again", metadata: metadata)
        }
    }

    /// A commit went through: the fault going on, if any, is over.
    func committed() {
        guard let outage = metrics.databaseAnswered() else { return }
        logger.notice("the database commits again", metadata: ["outage.seconds": "\((ContinuousClock.now - outage.since).components.seconds)"])
    }
}
