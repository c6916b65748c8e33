import Foundation
import Logging
import PostgresNIO
import WeatherBotStore

/// An update posted to the webhook, as the store takes it.
struct PostedUpdate: Sendable {
    var updateID: Int64
    var chatID: Int64?
    var payload: Data
    var at: Date
}

extension PostgresStore {
    /// Stores updates posted at once in one statement, unfenced: any replica stores what is posted
    /// to it. Telegram posts up to `max_connections` at once, and a statement of its own for each
    /// cost the server more than twice as much per update. The statement stores all of them or
    /// none: a failure is every post's, each answered 500 and posted again.
    ///
    /// - Returns: for each update in order, the inbox items written, or nil for an id received
    ///   before (or posted twice in this batch: the first post takes it).
    static func store(posted updates: [PostedUpdate], _ client: PostgresClient, _ logger: Logger) async throws -> [[InboxItem]?] {
        let rows = try await client.query(
            """
            WITH posted AS (
                SELECT DISTINCT ON (update_id) update_id, chat_id, payload, n
                FROM unnest(\(updates.map(\.updateID)), \(updates.map { $0.chatID ?? absent }), \(updates.map { ByteBuffer(bytes: $0.payload) }))
                    WITH ORDINALITY AS post(update_id, chat_id, payload, n)
                ORDER BY update_id, n),
            fresh AS (
                INSERT INTO received_update (update_id, received_at) SELECT update_id, \(updates.map(\.at).max() ?? Date()) FROM posted
                ON CONFLICT DO NOTHING RETURNING update_id),
            queued AS (
                INSERT INTO inbox (chat_id, update_id, kind, payload)
                SELECT posted.chat_id, posted.update_id, \(InboxItem.Kind.update.rawValue), posted.payload
                FROM posted JOIN fresh USING (update_id) WHERE posted.chat_id <> \(absent)
                ORDER BY posted.n
                RETURNING seq, update_id)
            SELECT fresh.update_id, queued.seq FROM fresh LEFT JOIN queued USING (update_id)
            """, logger: logger
        ).collect()
        var stored: [Int64: Int64?] = [:]
        for row in rows {
            let (id, seq) = try row.decode((Int64, Int64?).self)
            stored[id] = .some(seq)
        }
        return updates.map { update in
            guard let seq = stored.removeValue(forKey: update.updateID) else { return nil }
            guard let seq, let chatID = update.chatID else { return [] }
            var item = InboxItem(chatID: chatID, updateID: update.updateID, kind: .update, payload: update.payload)
            item.seq = seq
            return [item]
        }
    }
}
