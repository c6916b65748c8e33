import Foundation
import Logging
import PostgresNIO
import WeatherBotStore

/// Updates posted to the webhook while a statement is under way are stored together by the next
/// one, as the chats' steps share transactions: Telegram posts up to `max_connections` at once,
/// and a statement of its own for each would cost the server more than twice as much per update.
/// Not fenced: any replica stores what is posted to it. The statement stores all its updates or
/// none, and a failure is every post's: each is answered 500 and posted again.
actor PostgresPostedUpdates {
    typealias Posted = (updateID: Int64, chatID: Int64?, payload: Data)

    private struct Job {
        let update: Posted
        let at: Date
        let continuation: CheckedContinuation<[InboxItem]?, any Error>
    }

    private let client: PostgresClient
    private let logger: Logger
    private let maximumBatch: Int
    private var waiting: [Job] = []
    private var storing = false

    init(client: PostgresClient, logger: Logger, maximumBatch: Int = 128) {
        self.client = client
        self.logger = logger
        self.maximumBatch = maximumBatch
    }

    /// Stores `update` unless its id was received before (nil then), possibly with others.
    func receive(_ update: Posted, at now: Date) async throws -> [InboxItem]? {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append(Job(update: update, at: now, continuation: continuation))
            if !storing {
                storing = true
                Task { await self.storeWaiting() }
            }
        }
    }

    private func storeWaiting() async {
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(maximumBatch))
            waiting.removeFirst(batch.count)
            do {
                let stored = try await Self.store(batch.map(\.update), at: batch.map(\.at).max() ?? Date(), client, logger)
                // The same update posted twice at once: the first post takes it, the other is a repeat.
                var answered: Set<Int64> = []
                for job in batch {
                    let id = job.update.updateID
                    guard let seq = stored[id], answered.insert(id).inserted else {
                        job.continuation.resume(returning: nil)
                        continue
                    }
                    guard let seq, let chatID = job.update.chatID else {
                        job.continuation.resume(returning: [])
                        continue
                    }
                    var item = InboxItem(chatId: chatID, updateId: id, kind: .update, payload: job.update.payload)
                    item.seq = seq
                    job.continuation.resume(returning: [item])
                }
            } catch {
                for job in batch { job.continuation.resume(throwing: error) }
            }
        }
        storing = false
    }

    /// One statement: remembers the ids not received before and queues those of chats' updates,
    /// in the order posted. Returns each new id with its inbox item's number (nil for an update of
    /// no chat).
    private static func store(_ updates: [Posted], at now: Date, _ client: PostgresClient, _ logger: Logger) async throws -> [Int64: Int64?] {
        let absent = PostgresStore.absent
        let rows = try await client.query(
            """
            WITH posted AS (
                SELECT DISTINCT ON (update_id) update_id, chat_id, payload, n
                FROM unnest(\(updates.map(\.updateID)), \(updates.map { $0.chatID ?? absent }), \(updates.map { ByteBuffer(bytes: $0.payload) }))
                    WITH ORDINALITY AS post(update_id, chat_id, payload, n)
                ORDER BY update_id, n),
            fresh AS (
                INSERT INTO received_update (update_id, received_at) SELECT update_id, \(now) FROM posted
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
        return stored
    }
}
