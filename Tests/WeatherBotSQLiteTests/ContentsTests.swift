import Foundation
import GRDB
import TelegramBotAPI
import Testing
@testable import WeatherBotSQLite
import WeatherBotStore

/// Reading a whole database file for moving it elsewhere: read-only, at one moment, whatever
/// version of the bot wrote it, and refused in one line when it is not a bot's file.
@Suite struct ContentsTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    func unreadable(_ path: String) -> String? {
        do {
            _ = try StoreContents(readingFileAt: path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aFileOfAnOlderVersionIsReadAsThisVersionWouldAndStaysAsItWas() async throws {
        try await withFolder { folder in
            let path = folder.appendingPathComponent("bot.sqlite").path
            let old = try DatabaseQueue(path: path)
            try BotDatabase.migrator.migrate(old, upTo: "v8: the outbox keeps Bot API calls")
            try old.write { db in
                try db.execute(
                    sql: "INSERT INTO chat (id, language, state, createdAt, updatedAt) VALUES (5, 'en', ?, ?, ?)",
                    arguments: [Data("idle".utf8), Self.now, Self.now])
                try db.execute(
                    sql: "INSERT INTO outbox (chatId, lane, method, parameters, attempts, notBefore, createdAt) VALUES (5, 1, 'sendMessage', ?, 0, ?, ?)",
                    arguments: [Data(#"{"chat_id":5,"text":"hi"}"#.utf8), Self.now, Self.now])
            }
            try old.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))

            let contents = try StoreContents(readingFileAt: path)
            #expect(contents.chats.map(\.id) == [5] && contents.chats.first?.recentPlaces == [])
            #expect(contents.outbox.map(\.lane) == [.bulk] && contents.outbox.first?.photo == nil)
            #expect(contents.rowCounts["outbox"] == 1 && contents.rowCounts["inboxFailure"] == 0)
            #expect(contents.stoppedCleanly == nil && contents.lastUpdateID == nil)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is only read")
            let applied = try DatabaseQueue(path: path).read { db in try BotDatabase.migrator.appliedIdentifiers(db) }
            #expect(!applied.contains("v9: charts"))
        }
    }

    @Test func aFileOfANewerVersionOrOfAnotherProgramIsRefused() async throws {
        try await withFolder { folder in
            let newer = folder.appendingPathComponent("newer.sqlite").path
            let database = try BotDatabase.open(path: newer)
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: the future')")
            }
            #expect(unreadable(newer) == "\(newer) was written by a newer version of weatherbot; use that version")

            let other = folder.appendingPathComponent("other.sqlite").path
            try DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE note (text TEXT)") }
            #expect(unreadable(other) == "\(other) is not a weatherbot database")
        }
    }

    @Test func aFileTheBotHasOpenIsReadWithEverythingCommitted() async throws {
        try await withFolder { folder in
            let path = folder.appendingPathComponent("bot.sqlite").path
            let database = try BotDatabase.open(path: path)
            _ = try await database.receive([(1, 7, Data("{}".utf8))], lastUpdateID: 1, at: Self.now)
            #expect(try StoreContents(readingFileAt: path).inbox.map(\.updateID) == [1])
            _ = try await database.receive([(2, 7, Data("{}".utf8))], lastUpdateID: 2, at: Self.now)
            let contents = try StoreContents(readingFileAt: path)
            #expect(contents.inbox.map(\.updateID) == [1, 2] && contents.lastUpdateID == 2 && contents.rowCounts["inbox"] == 2)
            #expect(contents.lastIDs["inbox"] == 2)
        }
    }
}
