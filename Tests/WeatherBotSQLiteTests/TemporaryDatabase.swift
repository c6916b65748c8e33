import Foundation
import WeatherBotStore
import WeatherBotSQLite

/// A real SQLite file in a fresh temporary folder, removed when the test is done with it.
final class TemporaryDatabase {
    let folder: URL
    let path: String
    let database: BotDatabase

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("bot.sqlite").path
        database = try BotDatabase.open(path: path)
    }

    /// Opens the same file again, as a restarted process would.
    func reopen() throws -> BotDatabase {
        try BotDatabase.open(path: path)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}
