import Foundation
import PostgresNIO
import Synchronization
import TelegramBotAPI
import WeatherBotStore
import WeatherBotStoreSQL

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
    /// Not to be sent after this (a notice).
    var deadline: Date? = nil
}

/// Statements that write many rows in one round trip each: the columns go as arrays and
/// `unnest` turns them back into rows. Arrays carry no NULLs here, so an absent text travels as
/// '' and an absent number as ``absent``, an absent time as ``absentDate``, and `NULLIF` restores
/// the NULL.
extension PostgresStore {
    /// An absent number in an array.
    static let absent = Int64.min
    /// An absent time in an array: no deadline is set two thousand years back.
    static let absentDate = Date.distantPast

    /// Writes a group's writes, with the effect of writing them one by one in order; returns, for
    /// each write in order, the step's committed ids (nil for a sent reply). Writes one statement
    /// can take (``Run/init(alone:)``: the usual steps and sent replies) go in that statement, its
    /// own transaction, the lease checked in it: one round trip. Others go in a transaction
    /// (``commit(_:_:_:)``).
    static func commit(_ writes: [SharedWrite], _ client: PostgresClient, _ fence: Fence, _ logger: Logger) async throws -> [CommittedStep?] {
        guard var run = Run(alone: writes) else {
            return try await transaction(client, fence, logger) { connection in
                do {
                    return try await commit(writes, connection, logger)
                } catch {
                    throw GroupCommit<SharedWrite, CommittedStep?>.StatementFailed(underlying: error)
                }
            }
        }
        let lease = fence.lease.withLock { $0 }
        return try await client.withConnection { connection in
            var results = [CommittedStep?](repeating: nil, count: writes.count)
            do {
                try await run.write(into: &results, inOneStatementFencedBy: .some(lease), connection, logger)
            } catch let error as NotLeading {
                throw error
            } catch {
                throw GroupCommit<SharedWrite, CommittedStep?>.StatementFailed(underlying: error)
            }
            return results
        }
    }

    /// Writes a group's writes inside a transaction: the rows of a run of writes go in one
    /// statement per kind (chats, inbox removals and replies together, follow-ups, sent replies),
    /// and a step that changes the chat's saved data (a favorite, a forecast, a reset that deletes
    /// its tags and replies) first writes the run before it.
    static func commit(_ writes: [SharedWrite], _ connection: PostgresConnection, _ logger: Logger) async throws -> [CommittedStep?] {
        var results = [CommittedStep?](repeating: nil, count: writes.count)
        var run = Run()
        for (index, write) in writes.enumerated() {
            if case .step(let chat, _, let changes, _, _, let now) = write, !changes.isEmpty {
                try await run.write(into: &results, connection, logger)
                for change in changes {
                    try await apply(change, chatID: chat.id, now: now, connection, logger)
                }
            }
            run.add(write, at: index)
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

        init() {}

        /// The writes as one run that one statement writes whole: no step changes the chat's
        /// saved data or leaves follow-ups, and no sent reply has a message id to keep under a
        /// tag. Nil otherwise.
        init?(alone writes: [SharedWrite]) {
            for (index, write) in writes.enumerated() {
                switch write {
                case .step(_, _, let changes, _, let followUps, _):
                    guard changes.isEmpty, followUps.isEmpty else { return nil }
                case .sent(let reply):
                    guard reply.tag == nil || reply.messageID == nil else { return nil }
                }
                add(write, at: index)
            }
        }

        /// Adds a write's rows (not a step's changes, which are written in order before it).
        mutating func add(_ write: SharedWrite, at index: Int) {
            switch write {
            case .step(let chat, let seq, _, let replies, let followUps, let now):
                chats.append(chat)
                handled.append((seq, chat.id))
                self.replies += replies.map { QueuedRow(chatID: chat.id, lane: .interactive, request: $0, at: now) }
                self.followUps += followUps.map { InboxItem(chatID: chat.id, updateID: nil, kind: .followUp, payload: $0) }
                steps.append((index, replies.count, followUps.count))
            case .sent(let reply):
                sent.append(reply)
            }
        }

        /// Writes the rows, hands each step its ids, and starts a new run. `inOneStatementFencedBy`
        /// writes a run of ``init(alone:)`` in one statement, checking the lease when one is given.
        mutating func write(
            into results: inout [CommittedStep?], inOneStatementFencedBy lease: LeaderLease.Held?? = nil,
            _ connection: PostgresConnection, _ logger: Logger
        ) async throws {
            var replyIDs: ArraySlice<Int64>
            var inserted: ArraySlice<InboxItem> = []
            if let lease {
                replyIDs = try await queue(replies, storing: chats, removingFromInbox: handled, removingSent: sent, fencedBy: lease, connection, logger)[...]
            } else {
                replyIDs = try await queue(replies, storing: chats, removingFromInbox: handled, connection, logger)[...]
                inserted = try await insert(followUps, connection, logger)[...]
                try await complete(sent, connection, logger)
            }
            for step in steps {
                results[step.index] = CommittedStep(replyIDs: Array(replyIDs.prefix(step.replies)), followUps: Array(inserted.prefix(step.followUps)))
                replyIDs = replyIDs.dropFirst(step.replies)
                inserted = inserted.dropFirst(step.followUps)
            }
            self = Run()
        }
    }

    /// Puts replies at the end of their lanes, in order, and returns their ids in the same order;
    /// in the same statement, inserts or replaces chats' records, deletes handled inbox items and
    /// sent replies, each only from its own chat: a group's rows cost one round trip. With a
    /// `lease`, the statement writes only while the lease holds, and throws ``NotLeading`` when
    /// it does not: it can then be a transaction of its own.
    static func queue(
        _ rows: [QueuedRow], storing chats: [ChatRecord] = [], removingFromInbox handled: [(seq: Int64, chatID: Int64)] = [],
        removingSent sent: [SentReply] = [], fencedBy lease: LeaderLease.Held? = nil, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [Int64] {
        guard !rows.isEmpty || !chats.isEmpty || !handled.isEmpty || !sent.isEmpty else { return [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // One row per chat: a chat's steps never share a transaction, but a statement must not
        // touch a row twice.
        var latest: [Int64: Int] = [:]
        for (index, chat) in chats.enumerated() { latest[chat.id] = index }
        let chats = chats.indices.filter { latest[chats[$0].id] == $0 }.map { chats[$0] }
        let places = try chats.map { chat in try chat.currentPlace.map { String(decoding: try encoder.encode($0), as: UTF8.self) } ?? "" }
        let recent = try chats.map { String(decoding: try encoder.encode($0.recentPlaces), as: UTF8.self) }
        let notices = chats.map(\.notices)
        // Each data-modifying part of WITH runs once, whether or not the rest reads it; each reads
        // `allowed` (`fenceFor:`), so nothing is written unless the lease holds, and a NULL says
        // it did not. The rows are inserted in the order given, so the sequence numbers the
        // replies in that order.
        let ids = try await connection.query(
            """
            \(fenceFor: lease), stored AS (
                INSERT INTO chat (
                    id, language, state, current_place, recent_places, place_seq, question_seq, is_active, created_at, updated_at, last_message_id,
                    notice_rain, notice_warnings, quiet_hours, notices_set_by, settings, notice_pollen)
                SELECT id, language, state, NULLIF(place, ''), recent, place_seq, question_seq, active, created, updated, NULLIF(last, \(absent)),
                    rain, warnings, NULLIF(quiet, ''), NULLIF(set_by, \(absent)), NULLIF(settings, ''), pollen
                FROM unnest(\(chats.map(\.id)), \(chats.map(\.language.rawValue)), \(chats.map { ByteBuffer(bytes: $0.state.stored) }), \(places), \(recent),
                    \(chats.map { Int64($0.placeSeq) }), \(chats.map { Int64($0.questionSeq) }), \(chats.map(\.isActive)), \(chats.map(\.createdAt)),
                    \(chats.map(\.updatedAt)), \(chats.map { $0.lastMessageID.map(Int64.init) ?? absent }), \(notices.map(\.rain)), \(notices.map(\.warnings)),
                    \(notices.map { $0.quiet?.stored ?? "" }), \(notices.map { $0.setBy ?? absent }), \(chats.map { $0.settings.stored ?? "" }),
                    \(notices.map(\.pollen)))
                    AS row(id, language, state, place, recent, place_seq, question_seq, active, created, updated, last, rain, warnings, quiet, set_by,
                        settings, pollen),
                    allowed
                WHERE allowed.ok
                ON CONFLICT (id) DO UPDATE SET
                    language = EXCLUDED.language, state = EXCLUDED.state, current_place = EXCLUDED.current_place,
                    recent_places = EXCLUDED.recent_places, place_seq = EXCLUDED.place_seq, question_seq = EXCLUDED.question_seq,
                    is_active = EXCLUDED.is_active, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
                    last_message_id = EXCLUDED.last_message_id, notice_rain = EXCLUDED.notice_rain, notice_warnings = EXCLUDED.notice_warnings,
                    quiet_hours = EXCLUDED.quiet_hours, notices_set_by = EXCLUDED.notices_set_by, settings = EXCLUDED.settings,
                    notice_pollen = EXCLUDED.notice_pollen
            ), handled AS (
                DELETE FROM inbox USING unnest(\(handled.map(\.seq)), \(handled.map(\.chatID))) AS item(seq, chat_id), allowed
                WHERE allowed.ok AND inbox.seq = item.seq AND inbox.chat_id = item.chat_id
            ), removed AS (
                DELETE FROM outbox USING unnest(\(sent.map(\.id)), \(sent.map(\.chatID))) AS sent(id, chat_id), allowed
                WHERE allowed.ok AND outbox.id = sent.id AND outbox.chat_id = sent.chat_id
            ), queued AS (
                INSERT INTO outbox (chat_id, lane, method, parameters, tag, message_id, photo, attempts, not_before, created_at, deadline)
                SELECT chat_id, lane, method, parameters, NULLIF(tag, ''), NULLIF(message_id, \(absent)), NULLIF(photo, ''), 0, at, at,
                    NULLIF(deadline, \(absentDate))
                FROM unnest(\(rows.map(\.chatID)), \(rows.map { Int64($0.lane.rawValue) }), \(rows.map(\.request.method.rawValue)),
                    \(rows.map { ByteBuffer(bytes: $0.request.parameters) }), \(rows.map { $0.request.tag ?? "" }),
                    \(rows.map { $0.request.messageID.map(Int64.init) ?? absent }), \(rows.map { $0.request.photo ?? "" }), \(rows.map(\.at)),
                    \(rows.map { $0.deadline ?? absentDate }))
                    WITH ORDINALITY AS row(chat_id, lane, method, parameters, tag, message_id, photo, at, deadline, n), allowed
                WHERE allowed.ok
                ORDER BY n
                RETURNING id
            )
            SELECT NULL::bigint FROM allowed WHERE NOT allowed.ok
            UNION ALL SELECT id FROM queued
            """, logger: logger
        ).collect().map { try $0.decode(Int64?.self) }
        if ids.contains(nil) {
            throw lease.map { NotLeading(lease: $0) as any Error } ?? PostgresStoreError(description: "the statement was refused without a lease")
        }
        let queued = ids.compactMap { $0 }.sorted()
        guard queued.count == rows.count else { throw PostgresStoreError(description: "the outbox gave \(queued.count) ids for \(rows.count) rows") }
        return queued
    }

    /// Adds items to the inbox, in order; returns them with their sequence numbers.
    static func insert(_ items: [InboxItem], _ connection: PostgresConnection, _ logger: Logger) async throws -> [InboxItem] {
        guard !items.isEmpty else { return [] }
        let seqs = try await connection.query(
            """
            INSERT INTO inbox (chat_id, update_id, kind, payload)
            SELECT chat_id, NULLIF(update_id, \(absent)), kind, payload
            FROM unnest(\(items.map(\.chatID)), \(items.map { $0.updateID ?? absent }), \(items.map(\.kind.rawValue)),
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
