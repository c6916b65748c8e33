import Synchronization

/// A value behind a lock, shared by reference.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Holds `value` behind a new lock.
    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value under the lock and returns what it returns; keep `body` short, as every other user of the value waits.
    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}
