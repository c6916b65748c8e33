import Foundation
import GRDB
import HTTPTransport
import TelegramBotAPI

/// The floor under the bot's own way: the least a bot made of the same parts does for the peer
/// scenario's work (an update in, one reply out), to tell what the stack costs from what the bot
/// adds. Run by the benchmark as a process of its own (`weatherbot-bench --floor MODE`), against
/// the fake Telegram, and measured as the worker is.
///
/// It long-polls with the bot's `TelegramClient` over its `NIOHTTPTransport`, on the transport's
/// event loop as the bot does, confirms a batch with the next poll's offset, and answers each
/// update with one `sendMessage` in a task of its own, as aiogram does. With a store it first
/// commits each batch in one SQLite transaction, as the bot's file is opened (one connection,
/// WAL, `synchronous = FULL`), before confirming it.
struct FloorBot {
    enum Mode: String, CaseIterable, Sendable {
        /// Long polls and replies: no store, no conversation.
        case transport
        /// The same, with one SQLite commit per batch of updates before it is confirmed.
        case commit
    }

    var mode: Mode

    /// The /help text the peer answers with.
    static let reply = "Команды: /start, /weather, /search, /fav, /del, /move, /daily, /help"

    /// On the transport's event loop, as the bot runs.
    func run() async throws {
        try await withTaskExecutorPreference(LoopExecutor.shared) { try await serve() }
    }

    private func serve() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let token = environment["TELEGRAM_BOT_TOKEN"], let api = environment["TELEGRAM_API_URL"].flatMap(URL.init(string:)) else {
            throw ValidationFailed("the floor bot reads TELEGRAM_BOT_TOKEN and TELEGRAM_API_URL")
        }
        let client = TelegramClient(token: token, apiURL: api, transport: NIOHTTPTransport())
        let store = mode == .commit ? try Self.open(path: environment["DATABASE_PATH"] ?? "floor.sqlite") : nil
        var offset: Int64?
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                do {
                    let updates = try await client.getUpdates(offset: offset, limit: 100, timeout: 25, allowedUpdates: ["message"])
                    guard let last = updates.map(\.updateID).max() else { continue }
                    if let store {
                        // On the loop, as the bot's own commits run.
                        try store.inDatabase { db in
                            try db.inTransaction(.immediate) {
                                for update in updates {
                                    try db.execute(
                                        sql: "INSERT INTO received (updateId, chatId, payload) VALUES (?, ?, ?)",
                                        arguments: [update.updateID, update.chatID, update.jsonData])
                                }
                                return .commit
                            }
                        }
                    }
                    offset = last + 1
                    for update in updates {
                        guard let chatID = update.chatID else { continue }
                        group.addTask {
                            _ = try? await client.perform(BotRequest(.sendMessage(SendMessage(chatID: chatID, html: Self.reply))))
                        }
                    }
                } catch {
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
        }
    }

    /// A SQLite file as the bot opens its own: one connection, WAL, commits synced in full.
    private static func open(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS received (updateId INTEGER PRIMARY KEY, chatId INTEGER, payload BLOB NOT NULL)")
        }
        return queue
    }

    struct ValidationFailed: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
