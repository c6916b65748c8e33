import Foundation
import Testing
import WeatherBotStore
@testable import WeatherBotSQLite

/// The running bot holds its file: no transaction takes a file lock, a second bot is refused, and
/// the status is read from the report it keeps beside the file.
@Suite struct HeldFileTests {
    @Test func aSecondOpenOfAHeldFileIsRefusedAndTheFileFreedOnClose() async throws {
        let temporary = try TemporaryDatabase()
        try temporary.database.close()
        let holder = try BotDatabase.open(path: temporary.path, holdingTheFile: true)
        // SQLite waits its busy timeout (ten seconds) before it refuses: off the shared pool, which
        // the other tests run on.
        let path = temporary.path
        let second = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Result { try BotDatabase.open(path: path, holdingTheFile: true) }) }
        }
        #expect(throws: BotDatabase.HeldByAnotherProcess.self) { try second.get() }
        try holder.close()
        let next = try BotDatabase.open(path: temporary.path, holdingTheFile: true)
        try next.close()
    }

    @Test func theStatusOfAHeldFileIsItsHoldersReport() async throws {
        let temporary = try TemporaryDatabase()
        try temporary.database.close()
        let holder = try BotDatabase.open(path: temporary.path, holdingTheFile: true)
        // Held and no report yet: said so, never a guess.
        #expect(throws: BotStatus.HeldWithoutReport.self) { try BotStatus.read(path: temporary.path) }
        let polledAt = Date(timeIntervalSince1970: 1_795_000_000)
        let items = try await holder.receive([(updateID: 5, chatID: 1, payload: Data())], lastUpdateID: 5, at: polledAt)
        #expect(items.count == 1)
        let reportedAt = Date(timeIntervalSince1970: 1_795_000_100)
        holder.writeReport(beside: temporary.path, at: reportedAt)
        let status = try BotStatus.read(path: temporary.path)
        #expect(status.reportedAt == reportedAt)
        #expect(status.lastSuccessfulPoll == polledAt)
        #expect(status.inboxBacklog == 1)
        // Once the holder is gone the file itself is read, whatever report lies beside it.
        try holder.close()
        let direct = try BotStatus.read(path: temporary.path)
        #expect(direct.reportedAt == nil)
        #expect(direct.inboxBacklog == 1)
    }
}
