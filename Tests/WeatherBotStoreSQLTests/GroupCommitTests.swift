import Logging
import ServiceLifecycle
import Synchronization
import Testing
@testable import WeatherBotStoreSQL

/// The group commit with a commit kept in memory: who commits, and what a failure does.
@Suite struct GroupCommitLoopTests {
    struct Refused: Error {}

    /// Commits numbers; a batch holding a negative one fails with a statement's failure, or, when
    /// `failAll`, with one that is every write's.
    final class Ledger: Sendable {
        let committed = Mutex<[[Int]]>([])
        let failAll: Bool

        init(failAll: Bool = false) { self.failAll = failAll }

        func commit(_ writes: [Int]) throws -> [Int] {
            if writes.contains(where: { $0 < 0 }) {
                throw failAll ? Refused() as any Error : GroupCommit<Int, Int>.StatementFailed(underlying: Refused())
            }
            committed.withLock { $0.append(writes) }
            return writes.map { $0 * 10 }
        }
    }

    static func writeConcurrently(_ group: GroupCommit<Int, Int>, _ writes: [Int]) async -> [Int: Int?] {
        await withTaskGroup(of: (Int, Int?).self) { tasks in
            for write in writes { tasks.addTask { (write, try? await group.write(write)) } }
            var results: [Int: Int?] = [:]
            for await (write, result) in tasks { results[write] = result }
            return results
        }
    }

    @Test func withoutItsLoopAWriteCommitsInItsOwnTask() async throws {
        let ledger = Ledger()
        let group = GroupCommit<Int, Int>(maximumBatch: 8) { try ledger.commit($0) }
        #expect(try await group.write(3) == 30)
        let results = await Self.writeConcurrently(group, Array(1...40))
        #expect(results.values.allSatisfy { $0 != nil })
        #expect(ledger.committed.withLock { $0.flatMap { $0 } }.count == 41)
        #expect(ledger.committed.withLock { $0.allSatisfy { $0.count <= 8 } })
    }

    @Test func itsLoopCommitsWhileItRunsAndWritesStillCommitAfterItStopped() async throws {
        let ledger = Ledger()
        let group = GroupCommit<Int, Int>(maximumBatch: 8) { try ledger.commit($0) }
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: group)], logger: Logger(label: "test")))
        let running = Task { try await services.run() }
        let results = await Self.writeConcurrently(group, Array(1...40))
        #expect(results.values.allSatisfy { $0 != nil })
        await services.triggerGracefulShutdown()
        try await running.value
        #expect(try await group.write(41) == 410)
        #expect(ledger.committed.withLock { $0.flatMap { $0 } }.sorted() == Array(1...41))
    }

    @Test func aStatementFailingFailsItsWriteAloneAndOtherFailuresEveryWrite() async throws {
        let statements = Ledger()
        let group = GroupCommit<Int, Int>(maximumBatch: 64) { try statements.commit($0) }
        let results = await Self.writeConcurrently(group, Array(1...20) + [-1, -2])
        #expect(results.filter { $0.value == nil }.keys.sorted() == [-2, -1])
        #expect(results.filter { $0.value != nil }.count == 20)

        let everyone = Ledger(failAll: true)
        let box = Box()
        let failing = GroupCommit<Int, Int>(maximumBatch: 64) { writes in
            // The first transaction is held until the others wait, so they come together in one.
            let deadline = ContinuousClock.now + .seconds(60)
            while writes == [1], (box.group?.waiting ?? 0) < 10, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            return try everyone.commit(writes)
        }
        box.group = failing
        let first = Task { try? await failing.write(1) }
        while failing.batches == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let together = await Self.writeConcurrently(failing, [-1] + Array(2...10))
        #expect(await first.value == 10)
        #expect(together.values.allSatisfy { $0 == nil }, "the transaction's failure is every write's")
    }

    /// Runs `body` with the group's loop running, then stops it gracefully.
    static func withLoop(_ group: GroupCommit<Int, Int>, _ body: () async throws -> Void) async throws {
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: group)], logger: Logger(label: "test")))
        let running = Task { try await services.run() }
        while !group.isRunning { try await Task.sleep(for: .milliseconds(1)) }
        try await body()
        await services.triggerGracefulShutdown()
        try await running.value
    }

    @Test func aLingeringWriteSharesTheNextWritesTransaction() async throws {
        let ledger = Ledger()
        let group = GroupCommit<Int, Int>(maximumBatch: 8) { try ledger.commit($0) }
        try await Self.withLoop(group) {
            let lingering = Task { try await group.write(1, lingeringUpTo: .seconds(600)) }
            while group.waiting == 0 { try await Task.sleep(for: .milliseconds(1)) }
            try await Task.sleep(for: .milliseconds(50))
            #expect(ledger.committed.withLock { $0 }.isEmpty, "it waits for a write to share its transaction")
            #expect(try await group.write(2) == 20)
            #expect(try await lingering.value == 10)
            #expect(ledger.committed.withLock { $0 } == [[1, 2]], "in the order they came, in one transaction")
        }
    }

    @Test func aLingeringWriteCommitsAloneWhenItsTimeIsUpOrWhenHurried() async throws {
        let ledger = Ledger()
        let group = GroupCommit<Int, Int>(maximumBatch: 8) { try ledger.commit($0) }
        try await Self.withLoop(group) {
            #expect(try await group.write(1, lingeringUpTo: .milliseconds(20)) == 10)
            let hurried = Task { try await group.write(2, lingeringUpTo: .seconds(600)) }
            while group.waiting == 0 { try await Task.sleep(for: .milliseconds(1)) }
            group.hurry()
            #expect(try await hurried.value == 20)
            #expect(ledger.committed.withLock { $0 } == [[1], [2]])
        }
    }

    @Test func aLingeringWriteCommitsAtOnceWithoutTheLoopAndWhenItStops() async throws {
        let ledger = Ledger()
        let group = GroupCommit<Int, Int>(maximumBatch: 8) { try ledger.commit($0) }
        #expect(try await group.write(1, lingeringUpTo: .seconds(600)) == 10, "no loop: nobody would commit it later")
        let stopped = Mutex<Task<Int, any Error>?>(nil)
        try await Self.withLoop(group) {
            stopped.withLock { $0 = Task { try await group.write(2, lingeringUpTo: .seconds(600)) } }
            while group.waiting == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(try await stopped.withLock { $0 }!.value == 20, "a graceful stop commits what still lingers")
        #expect(ledger.committed.withLock { $0 } == [[1], [2]])
    }
}

private final class Box: Sendable {
    private let lock = Mutex<GroupCommit<Int, Int>?>(nil)
    var group: GroupCommit<Int, Int>? {
        get { lock.withLock { $0 } }
        set { lock.withLock { $0 = newValue } }
    }
}
