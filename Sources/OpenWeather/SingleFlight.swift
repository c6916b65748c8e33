import Synchronization

/// One fetch per key at a time: whoever asks for a key while its fetch runs waits for that fetch
/// instead of starting another. The weather, geocoding and air caches share their calls this way.
///
/// Cancellation, one rule: a caller's cancellation ends its own wait at once (it throws
/// `CancellationError`) and never the fetch. The fetch runs to its end whoever still waits, so
/// what it keeps (each cache stores what it brings as part of the fetch) serves whoever asks
/// next: the air given up on after a card's patience is there for the next card, and a person
/// whose wait ends does not take the weather from the others asking for the same place. The
/// fetches are this value's own tasks: ``cancelAll()`` ends those under way when their owner stops.
///
/// A failure reaches every caller waiting for that fetch and is kept by nobody: the next caller
/// starts a new fetch.
///
/// `Note` is what a fetch's callers share besides its value (the weather's ``SharedPriority``,
/// raised as more urgent callers join); `Void` where there is nothing.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable, Note: Sendable>: Sendable {
    private struct Flight {
        var id: Int
        var note: Note
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
    }

    private struct State {
        var nextID = 0
        var flights: [Key: Flight] = [:]
    }

    private let state = Mutex(State())

    /// No fetch under way for the key, and the caller only joins.
    private struct NoFlight: Error {}

    /// No fetch under way yet.
    public init() {}

    /// The note of the fetch under way for `key`; nil when none is.
    public func note(of key: Key) -> Note? {
        state.withLock { $0.flights[key]?.note }
    }

    /// How many fetches are under way.
    public var count: Int { state.withLock { $0.flights.count } }

    /// The value of the fetch under way for `key`, or of `fetch` started now with `note` when none
    /// is; `started` tells which. `fetch` is given the note of the flight it runs for.
    public func value(
        for key: Key, note: Note, fetch: @escaping @Sendable (Note) async throws -> Value
    ) async throws -> (value: Value, started: Bool) {
        try await wait(for: key) { state, id in
            let task = Task { [weak self] in
                let result: Result<Value, any Error>
                do { result = .success(try await fetch(note)) } catch { result = .failure(error) }
                self?.finish(key, id, result)
            }
            state.flights[key] = Flight(id: id, note: note, task: task)
        }
    }

    /// The value of the fetch under way for `key`; nil, at once, when none is.
    public func join(_ key: Key) async throws -> Value? {
        do {
            return try await wait(for: key, starting: nil).value
        } catch is NoFlight {
            return nil
        }
    }

    /// Cancels every fetch under way: their callers get what the fetches make of it (usually a
    /// `CancellationError`). For the owner's stop.
    public func cancelAll() {
        for task in state.withLock({ $0.flights.values.compactMap(\.task) }) { task.cancel() }
    }

    /// Waits for the flight of `key`, started by `starting` (under the lock, with a new flight's
    /// id) when there is none; without `starting`, throws ``NoFlight`` then.
    private func wait(for key: Key, starting: ((inout State, Int) -> Void)?) async throws -> (value: Value, started: Bool) {
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        var started = false
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let refusal: (any Error)? = state.withLock { state in
                    // Cancelled before it waited: the handler found nothing to resume.
                    if Task.isCancelled { return CancellationError() }
                    if state.flights[key] == nil {
                        guard let starting else { return NoFlight() }
                        state.nextID += 1
                        let id = state.nextID
                        starting(&state, id)
                        started = true
                    }
                    state.flights[key]?.waiters[waiter] = continuation
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) }
            }
        } onCancel: {
            // Only this caller stops waiting; the fetch goes on.
            let continuation = state.withLock { $0.flights[key]?.waiters.removeValue(forKey: waiter) }
            continuation?.resume(throwing: CancellationError())
        }
        return (value, started)
    }

    private func finish(_ key: Key, _ id: Int, _ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard let flight = state.flights[key], flight.id == id else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}

extension SingleFlight where Note == Void {
    /// The value of the fetch under way for `key`, or of `fetch` started now; `started` tells which.
    public func value(for key: Key, fetch: @escaping @Sendable () async throws -> Value) async throws -> (value: Value, started: Bool) {
        try await value(for: key, note: ()) { _ in try await fetch() }
    }
}
