import Foundation
import GRDB
import Synchronization
import Testing
import WeatherBotStoreSQL
@testable import WeatherBotSQLite

@Suite struct GroupCommitTests {
    /// Many concurrent writes to a table of facts, every tenth of which breaks the key constraint.
    func writeConcurrently(_ group: GroupCommit<SQLiteWrite, any Sendable>, count: Int) async -> [Int: Bool] {
        await withTaskGroup(of: (Int, Bool).self) { tasks in
            for index in 0..<count {
                tasks.addTask {
                    do {
                        try await group.submit { db in
                            // Every tenth write repeats the key of the write before it and fails.
                            let key = index % 10 == 9 ? index - 1 : index
                            try db.execute(sql: "INSERT INTO workerFact (key, value) VALUES (?, ?)", arguments: ["k\(key)", "\(index)"])
                        }
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            var outcomes: [Int: Bool] = [:]
            for await (index, committed) in tasks { outcomes[index] = committed }
            return outcomes
        }
    }

    @Test func aFailingWriteFailsAloneAndTheOthersInItsBatchCommit() async throws {
        let temporary = try TemporaryDatabase()
        let group = GroupCommit.sqlite(temporary.database.writer)
        let outcomes = await writeConcurrently(group, count: 200)
        let stored = try await temporary.database.writer.read { db in try String.fetchAll(db, sql: "SELECT key FROM workerFact") }
        // Each pair (8, 9), (18, 19)… stores one row: whichever came first; the other failed.
        #expect(stored.count == 180)
        #expect(outcomes.values.filter { $0 }.count == 180)
        for pair in stride(from: 8, to: 200, by: 10) {
            #expect(outcomes[pair] != outcomes[pair + 1], "exactly one of \(pair) and \(pair + 1) commits")
        }
    }

    @Test func writesArrivingDuringACommitShareTheNextOne() async throws {
        let temporary = try TemporaryDatabase()
        let group = GroupCommit.sqlite(temporary.database.writer)
        let started = Mutex(false)
        let first = Task {
            try await group.submit { db in
                started.withLock { $0 = true }
                // A slow transaction: the writes below arrive while it commits.
                let deadline = Date().addingTimeInterval(10)
                while group.waiting < 99 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                try db.execute(sql: "INSERT INTO workerFact (key, value) VALUES ('first', 'v')")
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        await withTaskGroup(of: Void.self) { tasks in
            for index in 0..<99 {
                tasks.addTask {
                    try? await group.submit { db in
                        try db.execute(sql: "INSERT INTO workerFact (key, value) VALUES (?, ?)", arguments: ["k\(index)", "v"])
                    }
                }
            }
        }
        try await first.value
        let stored = try await temporary.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workerFact") }
        #expect(stored == 100)
        // The first transaction, then the 99 that waited for it, together.
        #expect(group.batches == 2)
    }
}
