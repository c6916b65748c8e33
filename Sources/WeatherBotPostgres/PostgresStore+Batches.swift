import Foundation
import PostgresNIO
import TelegramBotAPI
import WeatherBotStore

/// A write the chats and the sender share transactions for (``GroupCommit``).
enum SharedWrite: Sendable {
    /// A chat's step: its record as the step left it, the inbox item it handled, its changes to
    /// the chat's saved data, its replies and its follow-ups.
    case step(chat: ChatRecord, handled: Int64, changes: [ChatChange], replies: [BotRequest], followUps: [Data], at: Date)
    /// Telegram accepted a reply: it leaves the outbox, and its message id is kept under its tag.
    case sent(SentReply)
}

/// A reply Telegram accepted.
struct SentReply: Sendable {
    var id: Int64
    var chatID: Int64
    var tag: String?
    var messageID: Int?
    var at: Date
}

/// A row for the outbox's end.
struct QueuedRow: Sendable {
    var chatID: Int64
    var lane: OutboxLane
    var request: BotRequest
    var at: Date
}

/// Statements that write many rows in one round trip each: the columns go as arrays and
/// `unnest` turns them back into rows. Arrays carry no NULLs here, so an absent text travels as
/// '' and an absent number as ``absent``, and `NULLIF` restores the NULL.
extension PostgresStore {
    /// An absent number in an array.
    static let absent = Int64.min

    /// Writes a group's writes in one transaction, with the effect of writing them one by one in
    /// order: the rows of a run of writes go in one statement per kind (chats, inbox removals,
    /// replies, follow-ups, sent replies), and a step that changes the chat's saved data (a
    /// favorite, a forecast, a reset that deletes its tags and replies) first writes the run
    /// before it. Returns, for each write in order, the step's committed ids (nil for a sent reply).
    static func commit(_ writes: [SharedWrite], _ connection: PostgresConnection, _ logger: Logger) async throws -> [CommittedStep?] {
        var results = [CommittedStep?](repeating: nil, count: writes.count)
        var run = Run()
        for (index, write) in writes.enumerated() {
            switch write {
            case .step(let chat, let seq, let changes, let replies, let followUps, let now):
                if !changes.isEmpty { try await run.write(into: &results, connection, logger) }
                for change in changes {
                    try await apply(change, chatID: chat.id, now: now, connection, logger)
                }
                run.chats.append(chat)
                run.handled.append((seq, chat.id))
                run.replies += replies.map { QueuedRow(chatID: chat.id, lane: .interactive, request: $0, at: now) }
                run.followUps += followUps.map { InboxItem(chatId: chat.id, updateId: nil, kind: .followUp, payload: $0) }
                run.steps.append((index, replies.count, followUps.count))
            case .sent(let reply):
                run.sent.append(reply)
            }
        }
        try await run.write(into: &results, connection, logger)
        return results
    }

    /// Rows of consecutive writes, gathered to be written one statement per kind.
    private struct Run {
        var chats: [ChatRecord] = []
        var handled: [(seq: Int64, chatID: Int64)] = []
        var replies: [QueuedRow] = []
        var followUps: [InboxItem] = []
        var sent: [SentReply] = []
        /// Each step's place among the writes, and how many replies and follow-ups it has.
        var steps: [(index: Int, replies: Int, followUps: Int)] = []

        /// Writes the rows, hands each step its ids, and starts a new run.
        mutating func write(into results: inout [CommittedStep?], _ connection: PostgresConnection, _ logger: Logger) async throws {
            var replyIDs = try await queue(replies, storing: chats, removingFromInbox: handled, connection, logger)[...]
            var inserted = try await insert(followUps, connection, logger)[...]
            try await complete(sent, connection, logger)
            for step in steps {
                results[step.index] = CommittedStep(replyIDs: Array(replyIDs.prefix(step.replies)), followUps: Array(inserted.prefix(step.followUps)))
                replyIDs = replyIDs.dropFirst(step.replies)
                inserted = inserted.dropFirst(step.followUps)
            }
            self = Run()
        }
    }

    /// Puts replies at the end of their lanes, in order, and returns their ids in the same order;
    /// in the same statement, inserts or replaces chats' records and deletes handled inbox items,
    /// each only from its own chat: a step's rows cost one round trip, not three.
    static func queue(
        _ rows: [QueuedRow], storing chats: [ChatRecord] = [], removingFromInbox handled: [(seq: Int64, chatID: Int64)] = [],
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [Int64] {
        guard !rows.isEmpty || !chats.isEmpty || !handled.isEmpty else { return [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // One row per chat: a chat's steps never share a transaction, but a statement must not
        // touch a row twice.
        var latest: [Int64: Int] = [:]
        for (index, chat) in chats.enumerated() { latest[chat.id] = index }
        let chats = chats.indices.filter { latest[chats[$0].id] == $0 }.map { chats[$0] }
        let places = try chats.map { chat in try chat.currentPlace.map { String(decoding: try encoder.encode($0), as: UTF8.self) } ?? "" }
        let recent = try chats.map { String(decoding: try encoder.encode($0.recentPlaces), as: UTF8.self) }
        // Each data-modifying part of WITH runs once, whether or not the rest reads it; the rows
        // are inserted in the order given, so the sequence numbers the replies in that order.
        let ids = try await connection.query(
            """
            WITH stored AS (
                INSERT INTO chat (id, language, state, current_place, recent_places, place_seq, question_seq, is_active, created_at, updated_at, last_message_id)
                SELECT id, language, state, NULLIF(place, ''), recent, place_seq, question_seq, active, created, updated, NULLIF(last, \(absent))
                FROM unnest(\(chats.map(\.id)), \(chats.map(\.language.rawValue)), \(chats.map { ByteBuffer(bytes: $0.state.stored) }), \(places), \(recent),
                    \(chats.map { Int64($0.placeSeq) }), \(chats.map { Int64($0.questionSeq) }), \(chats.map(\.isActive)), \(chats.map(\.createdAt)),
                    \(chats.map(\.updatedAt)), \(chats.map { $0.lastMessageID.map(Int64.init) ?? absent }))
                    AS row(id, language, state, place, recent, place_seq, question_seq, active, created, updated, last)
                ON CONFLICT (id) DO UPDATE SET
                    language = EXCLUDED.language, state = EXCLUDED.state, current_place = EXCLUDED.current_place,
                    recent_places = EXCLUDED.recent_places, place_seq = EXCLUDED.place_seq, question_seq = EXCLUDED.question_seq,
                    is_active = EXCLUDED.is_active, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
                    last_message_id = EXCLUDED.last_message_id
            ), handled AS (
                DELETE FROM inbox USING unnest(\(handled.map(\.seq)), \(handled.map(\.chatID))) AS item(seq, chat_id)
                WHERE inbox.seq = item.seq AND inbox.chat_id = item.chat_id
            )
            INSERT INTO outbox (chat_id, lane, method, parameters, tag, message_id, photo, attempts, not_before, created_at)
            SELECT chat_id, lane, method, parameters, NULLIF(tag, ''), NULLIF(message_id, \(absent)), NULLIF(photo, ''), 0, at, at
            FROM unnest(\(rows.map(\.chatID)), \(rows.map { Int64($0.lane.rawValue) }), \(rows.map(\.request.method.rawValue)),
                \(rows.map { ByteBuffer(bytes: $0.request.parameters) }), \(rows.map { $0.request.tag ?? "" }),
                \(rows.map { $0.request.messageID.map(Int64.init) ?? absent }), \(rows.map { $0.request.photo ?? "" }), \(rows.map(\.at)))
                WITH ORDINALITY AS row(chat_id, lane, method, parameters, tag, message_id, photo, at, n)
            ORDER BY n
            RETURNING id
            """, logger: logger
        ).collect().map { try $0.decode(Int64.self) }.sorted()
        guard ids.count == rows.count else { throw PostgresStoreError(description: "the outbox gave \(ids.count) ids for \(rows.count) rows") }
        return ids
    }

    /// Adds items to the inbox, in order; returns them with their sequence numbers.
    static func insert(_ items: [InboxItem], _ connection: PostgresConnection, _ logger: Logger) async throws -> [InboxItem] {
        guard !items.isEmpty else { return [] }
        let seqs = try await connection.query(
            """
            INSERT INTO inbox (chat_id, update_id, kind, payload)
            SELECT chat_id, NULLIF(update_id, \(absent)), kind, payload
            FROM unnest(\(items.map(\.chatId)), \(items.map { $0.updateId ?? absent }), \(items.map(\.kind.rawValue)),
                \(items.map { ByteBuffer(bytes: $0.payload) }))
                WITH ORDINALITY AS item(chat_id, update_id, kind, payload, n)
            ORDER BY n
            RETURNING seq
            """, logger: logger
        ).collect().map { try $0.decode(Int64.self) }.sorted()
        guard seqs.count == items.count else { throw PostgresStoreError(description: "the inbox gave \(seqs.count) numbers for \(items.count) items") }
        return zip(items, seqs).map { item, seq in
            var written = item
            written.seq = seq
            return written
        }
    }

    /// Removes sent replies from the outbox, each only from its own chat, and keeps the message
    /// ids of tagged ones.
    static func complete(_ sent: [SentReply], _ connection: PostgresConnection, _ logger: Logger) async throws {
        guard !sent.isEmpty else { return }
        try await connection.query(
            """
            DELETE FROM outbox USING unnest(\(sent.map(\.id)), \(sent.map(\.chatID))) AS sent(id, chat_id)
            WHERE outbox.id = sent.id AND outbox.chat_id = sent.chat_id
            """, logger: logger)
        // The last message of each chat's tag, once: a statement must not touch a row twice.
        var tagged: [String: (chatID: Int64, tag: String, messageID: Int64, at: Date)] = [:]
        for reply in sent {
            guard let tag = reply.tag, let messageID = reply.messageID else { continue }
            tagged["\(reply.chatID) \(tag)"] = (reply.chatID, tag, Int64(messageID), reply.at)
        }
        guard !tagged.isEmpty else { return }
        let tags = Array(tagged.values)
        try await connection.query(
            """
            INSERT INTO message_tag (chat_id, tag, message_id, created_at)
            SELECT chat_id, tag, message_id, at FROM unnest(\(tags.map(\.chatID)), \(tags.map(\.tag)), \(tags.map(\.messageID)), \(tags.map(\.at)))
                AS tagged(chat_id, tag, message_id, at)
            ON CONFLICT (chat_id, tag) DO UPDATE SET message_id = EXCLUDED.message_id, created_at = EXCLUDED.created_at
            """, logger: logger)
        // A chat keeps a day's short-lived tags at most.
        let shortLived = tags.filter { MessageTags.isShortLived($0.tag) }
        guard !shortLived.isEmpty else { return }
        let pattern = MessageTags.shortLivedPrefix + "%"
        try await connection.query(
            """
            DELETE FROM message_tag USING unnest(\(shortLived.map(\.chatID)), \(shortLived.map { $0.at.addingTimeInterval(-MessageTags.shortLivedFor) }))
                AS kept(chat_id, since)
            WHERE message_tag.chat_id = kept.chat_id AND message_tag.tag LIKE \(pattern) AND message_tag.created_at < kept.since
            """, logger: logger)
    }
}
