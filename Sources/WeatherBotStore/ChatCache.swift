import DequeModule
import Synchronization

/// The records of the chats most recently read or written, so a chat's next update does not read
/// its row again. Every write of a chat row goes through the store, which keeps this in step with
/// what it committed: a step's record after its transaction, removal when a chat is deactivated.
/// (On PostgreSQL only the replica holding the lease writes, so its cache stays true.) The oldest
/// entries make room first.
public final class ChatCache: Sendable {
    private struct State {
        var records: [Int64: ChatRecord] = [:]
        /// Ids in the order they were first cached; may hold ids removed since.
        var order = Deque<Int64>()
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` chats; 0 keeps nothing, and every read goes to the database.
    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The cached record of chat `id`; nil when it is not cached, which says nothing of the database.
    public func record(_ id: Int64) -> ChatRecord? {
        state.withLock { $0.records[id] }
    }

    /// Caches `record` as committed, replacing the chat's older one; the oldest chats go beyond the capacity.
    public func keep(_ record: ChatRecord) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.records.updateValue(record, forKey: record.id) == nil {
                state.order.append(record.id)
            }
            while state.records.count > capacity, let oldest = state.order.popFirst() {
                state.records[oldest] = nil
            }
        }
    }

    /// Drops chat `id`, so its next read goes to the database: the store does so when the chat is deactivated.
    public func forget(_ id: Int64) {
        _ = state.withLock { $0.records.removeValue(forKey: id) }
    }

    /// How many chats are cached now.
    public var count: Int { state.withLock { $0.records.count } }
}
