public import Foundation
import Logging
import PostgresNIO
public import WeatherBotStore
import WeatherBotStoreSQL

/// Notices (`/alerts`): the chats the checker looks at, and the marks that keep each notice to one.
/// ``NoticeStore``'s conformance is declared with the class's (``BotStore`` refines it): a class's
/// `Sendable` is declared in its own file.
extension PostgresStore {
    /// Two statements in one transaction, whatever the number of chats: the chats, then all their marks not expired.
    public func noticeChats(at now: Date) async throws -> [NoticeChat] {
        try await client.withTransaction(logger: logger) { connection in
            StoreSQL.noticeChats(
                try await Self.fetch(Self.sql.noticeChats(), connection, logger), marks: try await Self.fetch(Self.sql.noticeMarks(at: now), connection, logger))
        }
    }

    /// One transaction, fenced as every write of the leader: the expired marks go; then each
    /// delivery whose chat is active with a notice on sets its mark, unless the mark holds that
    /// value already, in one statement for all (`unnest`, `ON CONFLICT … WHERE` the value
    /// differs); the deliveries that set theirs queue their requests in the notice lane, with
    /// their deadlines, in one more. Two deliveries of the same chat and key go in successive
    /// statements, as if committed one after the other (a statement may not touch a row twice).
    public func commitNotices(_ deliveries: [NoticeDelivery], at now: Date) async throws -> [[Int64]] {
        // Each delivery's round: the how-manieth of its chat and key it is.
        var rounds: [[Int]] = []
        var seen: [NoticeKey: Int] = [:]
        for (index, delivery) in deliveries.enumerated() {
            let key = NoticeKey(chatID: delivery.chatID, key: delivery.mark.key)
            let round = seen[key, default: 0]
            seen[key] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(index)
        }
        return try await write { connection in
            try await connection.query("DELETE FROM notice_mark WHERE expires_at <= \(now)", logger: logger)
            var marked = [Bool](repeating: false, count: deliveries.count)
            for round in rounds {
                let marks = round.map { deliveries[$0] }
                let rows = try await connection.query(
                    """
                    WITH delivery AS (
                        SELECT item.chat_id, item.key, item.value, item.expires_at, item.n
                        FROM unnest(\(marks.map(\.chatID)), \(marks.map(\.mark.key)), \(marks.map(\.mark.value)), \(marks.map(\.mark.expiresAt)))
                            WITH ORDINALITY AS item(chat_id, key, value, expires_at, n)
                        JOIN chat ON chat.id = item.chat_id
                        WHERE chat.is_active AND (chat.notice_rain OR chat.notice_warnings OR chat.notice_pollen)
                    ), marked AS (
                        INSERT INTO notice_mark (chat_id, key, value, expires_at)
                        SELECT chat_id, key, value, expires_at FROM delivery
                        ON CONFLICT (chat_id, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
                        WHERE notice_mark.value <> EXCLUDED.value
                        RETURNING chat_id, key
                    )
                    SELECT delivery.n FROM marked JOIN delivery USING (chat_id, key)
                    """, logger: logger)
                for try await n in rows.decode(Int64.self) {
                    marked[round[Int(n) - 1]] = true
                }
            }
            let queued = deliveries.indices.filter { marked[$0] }.flatMap { index in
                let delivery = deliveries[index]
                return delivery.requests.map {
                    QueuedRow(chatID: delivery.chatID, lane: .notice, request: $0, at: now, deadline: delivery.deadline)
                }
            }
            var ids = try await Self.queue(queued, connection, logger)[...]
            return deliveries.indices.map { index in
                guard marked[index] else { return [] }
                let count = deliveries[index].requests.count
                defer { ids = ids.dropFirst(count) }
                return Array(ids.prefix(count))
            }
        }
    }

    /// Active chats with a city and a notice on, for `weatherbot status`.
    public func noticeChatCount() async throws -> Int {
        try await fetch(Self.sql.noticeChatCount()).first ?? 0
    }
}

/// A chat's mark's key: two deliveries with the same one are written in turn.
private struct NoticeKey: Hashable {
    var chatID: Int64
    var key: String
}
