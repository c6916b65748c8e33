import Foundation
import GRDB
import TelegramBotAPI
import WeatherBotStore

// MARK: - Replies stored before v8

extension BotDatabase {
    /// v8: the outbox keeps each reply as the Bot API call that makes it. Replies still waiting
    /// were stored in the conversation's own form (v7 keys); each becomes its call. A row that does
    /// not read as one is left without a method, and the sender drops it with a log line, as it
    /// dropped unreadable rows before.
    static func storingRepliesAsRequests(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE outbox RENAME COLUMN payload TO parameters")
        try db.alter(table: "outbox") { t in
            t.add(column: "method", .text).notNull().defaults(to: "")
            t.add(column: "tag", .text)
            t.add(column: "messageId", .integer)
        }
        let decoder = JSONDecoder()
        let update = try db.makeStatement(sql: "UPDATE outbox SET method = ?, parameters = ?, tag = ?, messageId = ? WHERE id = ?")
        // A thousand rows at a time: a broadcast's backlog may hold a hundred thousand.
        var last = Int64.min
        while true {
            let rows = try Row.fetchAll(db, sql: "SELECT id, chatId, parameters FROM outbox WHERE id > ? ORDER BY id LIMIT 1000", arguments: [last])
            guard let end = rows.last?["id"] as Int64? else { break }
            last = end
            for row in rows {
                guard let stored = try? decoder.decode(StoredReply.self, from: row["parameters"] as Data) else { continue }
                let request = stored.request(chatID: row["chatId"])
                try update.execute(arguments: [request.method.rawValue, request.parameters, request.tag, request.messageID, row["id"] as Int64])
            }
        }
    }
}

/// A reply as the outbox stored it from v1 to v7: the conversation's reply in the layout Swift
/// derives for an enum (unlabelled values under `_0`), keyboards under the Bot API's keys since v7.
/// Only the migration to v8 reads it.
private enum StoredReply: Decodable {
    case send(text: String, markup: ReplyMarkup?, tag: String?)
    case edit(Target, text: String, keyboard: InlineKeyboardMarkup?)
    case editKeyboard(Target, keyboard: InlineKeyboardMarkup?)
    case answer(callbackQueryID: String, text: String?, showAlert: Bool)

    enum Target: Decodable {
        case id(Int)
        case tag(String)

        var target: MessageTarget {
            switch self {
            case .id(let id): .id(id)
            case .tag(let tag): .tag(tag)
            }
        }
    }

    func request(chatID: Int64) -> BotRequest {
        switch self {
        case .send(let text, let markup, let tag):
            .sendMessage(chatID: chatID, text: text, replyMarkup: markup, tag: tag)
        case .edit(let target, let text, let keyboard):
            .editMessageText(chatID: chatID, target: target.target, text: text, replyMarkup: keyboard)
        case .editKeyboard(let target, let keyboard):
            .editMessageReplyMarkup(chatID: chatID, target: target.target, replyMarkup: keyboard)
        case .answer(let queryID, let text, let showAlert):
            .answerCallbackQuery(id: queryID, text: text, showAlert: showAlert)
        }
    }
}
