public import NIOCore
import NIOPosix

/// The transport's I/O thread as a task executor: work preferring it runs on the thread that
/// reads and writes the connections, so an answer continues the task that waits for it without
/// waking another thread, and a request goes out without waking this one.
public final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    /// The thread every ``AsyncHTTPTransport`` uses.
    public static let shared = LoopExecutor(NIOHTTPTransport.eventLoopGroup.next())

    /// The event loop whose thread runs the jobs and owns the connections.
    public let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    /// Runs `job` on the loop's thread, after what is already queued there.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Whether the caller runs on the I/O thread.
    public var isCurrent: Bool { loop.inEventLoop }
}

extension LoopExecutor {
    /// Runs `body` on the loop after `delay`, unless ``LoopTimer/cancel()`` comes first. A timer of
    /// the loop itself: nothing wakes another thread to tell the time.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> LoopTimer {
        let scheduled = loop.scheduleTask(in: TimeAmount(delay), body)
        return LoopTimer { scheduled.cancel() }
    }
}

/// A timer set with ``LoopExecutor/schedule(after:_:)``.
public struct LoopTimer: Sendable {
    let cancelling: @Sendable () -> Void

    init(_ cancelling: @escaping @Sendable () -> Void) {
        self.cancelling = cancelling
    }

    /// Stops the timer if it has not fired yet; does nothing once it has.
    public func cancel() { cancelling() }
}
