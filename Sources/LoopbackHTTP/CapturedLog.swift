public import Logging
import Synchronization

/// Every log line a logger writes, with its metadata, kept for a test to read.
public final class CapturedLog: Sendable {
    private let storage = Mutex<[String]>([])

    public init() {}

    /// The lines so far: «level message key=value …», metadata keys sorted.
    public var lines: [String] { storage.withLock { $0 } }

    /// A logger at trace level that writes here.
    public func logger(label: String = "weatherbot.captured") -> Logger {
        var logger = Logger(label: label) { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = all.map { "\($0)=\($1)" }.sorted().joined(separator: " ")
            log.append("\(event.level) \(event.message) \(fields)")
        }
    }
}
