public import Foundation
import GRDB
public import WeatherBotStore
import WeatherBotStoreSQL

/// Notices (`/alerts`): the chats the checker looks at, and the marks that keep each notice to one.
extension BotDatabase: NoticeStore {
    /// The condition of a chat the checker looks at, as the partial index `chat_notices` reads it.
    static let noticeChatCondition = "(noticeRain OR noticeWarnings) AND isActive AND currentPlace IS NOT NULL"

    /// Two statements in one read, whatever the number of chats: the chats, then all their marks
    /// not expired. A chat whose city does not read is left out: no notice can be made for it.
    public func noticeChats(at now: Date) async throws -> [NoticeChat] {
        try reading { db in
            let decoder = ChatRecord.databaseJSONDecoder(for: "")
            // Many chats share a city: each stored form is decoded once.
            var places: [String: Place] = [:]
            var chats: [NoticeChat] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, language, currentPlace, noticeRain, noticeWarnings, quietHours, noticesSetBy, settings FROM chat
                    WHERE \(Self.noticeChatCondition) ORDER BY id
                    """)
            while let row = try rows.next() {
                let stored: String = row["currentPlace"]
                guard let place = places[stored] ?? (try? decoder.decode(Place.self, from: Data(stored.utf8))) else { continue }
                places[stored] = place
                let language: String = row["language"]
                chats.append(
                    NoticeChat(
                        chatID: row["id"], language: Language(rawValue: language) ?? .ru, place: place, settings: ChatRecord.notices(row),
                        chatSettings: ChatSettings(stored: row["settings"])))
            }
            var marks: [Int64: [String: String]] = [:]
            let markRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT noticeMark.chatId, noticeMark.key, noticeMark.value FROM noticeMark JOIN chat ON chat.id = noticeMark.chatId
                    WHERE noticeMark.expiresAt > ? AND \(Self.noticeChatCondition)
                    """, arguments: [StoredDate(now)])
            while let row = try markRows.next() {
                marks[row[0], default: [:]][row[1]] = row[2] as String
            }
            for index in chats.indices {
                chats[index].marks = marks[chats[index].chatID] ?? [:]
            }
            return chats
        }
    }

    /// One transaction, shared with the chats' steps and the sender as the daily forecasts' is:
    /// the expired marks go, then each delivery in order sets its mark, when its chat is active
    /// with a notice on and the mark held another value or none, and only then queues its
    /// requests in the notice lane with its deadline.
    @discardableResult
    public func commitNotices(_ deliveries: [NoticeDelivery], at now: Date) async throws -> [[Int64]] {
        try await group.submit { db in try Self.write(deliveries, now: now, db) }
    }

    private static func write(_ deliveries: [NoticeDelivery], now: Date, _ db: Database) throws -> [[Int64]] {
        try db.cachedStatement(sql: "DELETE FROM noticeMark WHERE expiresAt <= ?").execute(arguments: [StoredDate(now)])
        // A row changes only when the mark is new or its value another: `changesCount` says
        // whether the delivery is to be sent.
        let mark = try db.cachedStatement(
            sql: """
                INSERT INTO noticeMark (chatId, key, value, expiresAt)
                SELECT id, ?, ?, ? FROM chat WHERE id = ? AND isActive AND (noticeRain OR noticeWarnings)
                ON CONFLICT (chatId, key) DO UPDATE SET value = excluded.value, expiresAt = excluded.expiresAt
                WHERE noticeMark.value <> excluded.value
                """)
        return try deliveries.map { delivery in
            try mark.execute(arguments: [delivery.mark.key, delivery.mark.value, StoredDate(delivery.mark.expiresAt), delivery.chatID])
            guard db.changesCount == 1 else { return [Int64]() }
            return try delivery.requests.map { request in
                try queue(request, chatID: delivery.chatID, lane: .notice, now: now, deadline: delivery.deadline, db)
            }
        }
    }

    /// One row of `workerFact`, replaced in a transaction on the caller's thread.
    public func keepNoticeRound(_ round: NoticeRound) async throws {
        _ = try transaction { db in try Self.run(Self.sql.keepNoticeRound(round), db) }
    }

    /// Nil before the first round, or when what is kept does not read.
    public func noticeRound() async throws -> NoticeRound? {
        try reading { db in NoticeRound(stored: try Self.fact(.noticeRound, db)) }
    }
}
