import InMemoryLogging
public import Logging

/// Every log line a logger writes, with its metadata, kept for a test to read: swift-log's
/// in-memory handler, read back as one line per entry.
public final class CapturedLog: Sendable {
    /// Shares its entries with every copy, such as the one each logger holds.
    private let handler: InMemoryLogHandler

    /// An empty log that keeps every level, trace included.
    public init() {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        self.handler = handler
    }

    /// The lines so far: «level message key=value …», metadata keys sorted.
    public var lines: [String] {
        handler.entries.map { entry in
            let fields = entry.metadata.map { "\($0)=\($1)" }.sorted().joined(separator: " ")
            return "\(entry.level) \(entry.message) \(fields)"
        }
    }

    /// A logger at trace level that writes here.
    public func logger(label: String = "weatherbot.captured") -> Logger {
        var logger = Logger(label: label) { [handler] _ in handler }
        logger.logLevel = .trace
        return logger
    }
}
