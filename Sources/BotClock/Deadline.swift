import Foundation
import Synchronization

/// Work that must answer within a time, or be given up: a health check that must answer while the
/// database does not, a lease renewal that must not wait for a server that is gone.
public enum Deadline {
    /// The work did not end within its time.
    public struct Passed: Error, CustomStringConvertible {
        /// The time the work was given.
        public let limit: Duration

        /// The error for work not done within `limit`.
        public init(limit: Duration) {
            self.limit = limit
        }

        /// The limit in seconds, for logs: `no answer within 2 s`.
        public var description: String { "no answer within \(limit.timeInterval.formatted()) s" }
    }

    /// `body`'s result, or ``Passed`` once `limit` has passed. The body is cancelled then, but not
    /// waited for: work stuck on a connection that does not notice cancellation cannot hold the
    /// caller past the limit.
    public static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation,
                    work: Task { race.finish(await Self.result(of: body)) },
                    timer: Task {
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        race.finish(.failure(Passed(limit: limit)))
                    })
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    private static func result<T>(of body: @Sendable () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}

/// The first of the work, the timer and the caller's cancellation to finish decides; the others
/// are cancelled.
private final class Race<T: Sendable>: Sendable {
    private enum State {
        case waiting
        case running(CheckedContinuation<T, any Error>, [Task<Void, Never>])
        /// Decided before the continuation was there (the caller was cancelled at once).
        case decided(Result<T, any Error>)
        case over
    }

    private let state = Mutex<State>(.waiting)

    func start(_ continuation: CheckedContinuation<T, any Error>, work: Task<Void, Never>, timer: Task<Void, Never>) {
        let early: Result<T, any Error>? = state.withLock { state in
            guard case .decided(let result) = state else {
                state = .running(continuation, [work, timer])
                return nil
            }
            state = .over
            return result
        }
        if let early {
            work.cancel()
            timer.cancel()
            continuation.resume(with: early)
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let running: (CheckedContinuation<T, any Error>, [Task<Void, Never>])? = state.withLock { state in
            switch state {
            case .waiting:
                state = .decided(result)
                return nil
            case .running(let continuation, let tasks):
                state = .over
                return (continuation, tasks)
            case .decided, .over:
                return nil
            }
        }
        guard let (continuation, tasks) = running else { return }
        for task in tasks { task.cancel() }
        continuation.resume(with: result)
    }
}
