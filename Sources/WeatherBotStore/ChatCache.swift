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

    public init(capacity: Int) {
        self.capacity = capacity
    }

    public func record(_ id: Int64) -> ChatRecord? {
        state.withLock { $0.records[id] }
    }

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

    public func forget(_ id: Int64) {
        _ = state.withLock { $0.records.removeValue(forKey: id) }
    }

    public var count: Int { state.withLock { $0.records.count } }
}
