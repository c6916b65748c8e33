import Foundation
import OpenWeather
import Synchronization
import Testing

/// One fetch per key, and its one cancellation rule: a caller's cancellation ends only its own wait.
@Suite struct SingleFlightTests {
    struct Outage: Error {}

    /// A fetch the test lets finish: its starts counted, its value or failure given when released.
    final class Gate: Sendable {
        let starts = Mutex(0)
        private let waiting = Mutex<[CheckedContinuation<Result<Int, any Error>, Never>]>([])
        private let finished = Mutex(0)

        func fetch() async throws -> Int {
            starts.withLock { $0 += 1 }
            let result = await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } }
            finished.withLock { $0 += 1 }
            return try result.get()
        }

        var started: Int { starts.withLock { $0 } }
        var ended: Int { finished.withLock { $0 } }
        var held: Int { waiting.withLock { $0.count } }

        func release(_ result: Result<Int, any Error>) {
            for continuation in waiting.withLock({ list in defer { list = [] }; return list }) { continuation.resume(returning: result) }
        }
    }

    @Test func twoCallersAtOnceShareOneFetch() async throws {
        let flights = SingleFlight<String, Int, Void>()
        let gate = Gate()
        async let first = flights.value(for: "Kazan") { try await gate.fetch() }
        try await eventually("the first fetch started") { gate.held == 1 }
        async let second = flights.value(for: "Kazan") { try await gate.fetch() }
        try await eventually("the second caller waits for it") { flights.count == 1 && gate.started == 1 }
        try await Task.sleep(for: .milliseconds(50))
        gate.release(.success(42))
        let (one, other) = try await (first, second)
        #expect(one.value == 42 && other.value == 42)
        #expect([one.started, other.started].filter { $0 }.count == 1)
        #expect(gate.started == 1)
        // Done: the next caller starts another.
        async let third = flights.value(for: "Kazan") { try await gate.fetch() }
        try await eventually("a new fetch started") { gate.held == 1 }
        gate.release(.success(7))
        #expect(try await third == (7, true))
    }

    /// A caller cancelled stops waiting at once; the other still gets the value, and the fetch
    /// runs to its end even when nobody waits any more.
    @Test func aCancelledCallerLeavesTheFetchToTheOthers() async throws {
        let flights = SingleFlight<String, Int, Void>()
        let gate = Gate()
        let leaving = Task { try await flights.value(for: "Kazan") { try await gate.fetch() } }
        try await eventually("the fetch started") { gate.held == 1 }
        let staying = Task { try await flights.value(for: "Kazan") { try await gate.fetch() } }
        try await Task.sleep(for: .milliseconds(50))
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(gate.ended == 0)
        gate.release(.success(42))
        #expect(try await staying.value == (42, false))
        #expect(gate.started == 1)

        // Alone and cancelled: the fetch still ends as it would have.
        let alone = Task { try await flights.value(for: "Ufa") { try await gate.fetch() } }
        try await eventually("its fetch started") { gate.held == 1 }
        alone.cancel()
        await #expect(throws: CancellationError.self) { try await alone.value }
        gate.release(.success(1))
        try await eventually("the fetch ended") { gate.ended == 2 && flights.count == 0 }
    }

    /// A failure reaches every caller waiting for it, and nobody keeps it: the next asks again.
    @Test func aFailureReachesEveryWaiterAndIsNotKept() async throws {
        let flights = SingleFlight<String, Int, Void>()
        let gate = Gate()
        let first = Task { try await flights.value(for: "Kazan") { try await gate.fetch() } }
        try await eventually("the fetch started") { gate.held == 1 }
        let second = Task { try await flights.value(for: "Kazan") { try await gate.fetch() } }
        try await Task.sleep(for: .milliseconds(50))
        gate.release(.failure(Outage()))
        await #expect(throws: Outage.self) { try await first.value }
        await #expect(throws: Outage.self) { try await second.value }
        async let again = flights.value(for: "Kazan") { try await gate.fetch() }
        try await eventually("a new fetch started") { gate.held == 1 }
        gate.release(.success(3))
        #expect(try await again == (3, true))
        #expect(gate.started == 2)
    }

    /// Joining only: the fetch under way answers, and with none, nothing is started.
    @Test func joiningStartsNothing() async throws {
        let flights = SingleFlight<String, Int, String>()
        let gate = Gate()
        #expect(try await flights.join("Kazan") == nil)
        #expect(flights.note(of: "Kazan") == nil)
        async let fetched = flights.value(for: "Kazan", note: "soon") { _ in try await gate.fetch() }
        try await eventually("the fetch started") { gate.held == 1 }
        #expect(flights.note(of: "Kazan") == "soon")
        async let joined = flights.join("Kazan")
        try await Task.sleep(for: .milliseconds(50))
        gate.release(.success(5))
        #expect(try await joined == 5)
        #expect(try await fetched.value == 5)
        #expect(gate.started == 1)
    }

    /// The owner's stop cancels the fetches under way, and their callers learn of it.
    @Test func cancelAllEndsTheFetchesUnderWay() async throws {
        let flights = SingleFlight<String, Int, Void>()
        let waiting = Task {
            try await flights.value(for: "Kazan") {
                try await Task.sleep(for: .seconds(60))
                return 1
            }
        }
        try await eventually("the fetch started") { flights.count == 1 }
        flights.cancelAll()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        try await eventually("nothing under way") { flights.count == 0 }
    }
}
