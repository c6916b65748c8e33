public import Foundation
public import TelegramBotAPI
public import WeatherBotStore

/// The store's statements and what each write does, written once for every engine: which rows a
/// write touches, in which order, and what it returns (``SQLPlan``), and how rows read back
/// become records (``SQLQuery``). An engine gives a connection and a transaction: it runs a plan
/// (the same few lines on each engine, ``SQLStatement/Role``) and a query, and binds
/// ``SQLValue``s as its columns take them.
///
/// The statements are rendered for the engine's dialect once, when the engine makes its
/// `StoreSQL`; a plan costs no rendering. The paths whose cost each update pays (a poll's
/// answer, a step, a sent reply) have their own fast forms in each engine (GRDB's prepared
/// statements on the caller's thread; PostgreSQL's statements over arrays, one round trip); the
/// rows they write are these, and the rules they apply are ``ChatChange``'s and this type's.
///
/// Every statement that touches a chat's rows names the chat.
public struct StoreSQL: Sendable {
    /// The engine's dialect, every statement here rendered in it.
    public let dialect: SQLDialect

    // Rendered once: the statements of every plan below.
    let readFact: String
    let writeFact: String
    let addToFact: String
    let forgetCallsBefore: String
    let readCalls: String
    /// The `INSERT` that queues one reply and returns its id, rendered in the dialect (``queue(_:chatID:lane:at:deadline:)`` binds it).
    public let queueReply: String
    let dropChatOutbox: String
    let pauseChat: String
    let pauseSubscriptions: String
    let retry: String
    let discard: String
    let countAttempt: String
    let takeFromInbox: String
    let keepFailure: String
    let forgetFailures: String
    let markDelivery: String
    let keepTemperature: String
    let forgetTemperatures: String
    let insertFavorite: String
    let deleteFavorite: String
    let moveFavorite: String
    let insertSubscription: String
    let deleteSubscription: String
    let deleteSubscriptions: String
    let setChart: String
    let resumeSubscriptions: String
    let forgetChatRows: [String]
    let forgetChatRow: String
    let readFavorites: String
    let readSubscriptions: String
    let readDue: String
    let readInbox: String
    let readOutbox: String
    let readChatOutbox: String
    let countOutbox: String
    let countLane: String
    let oldestInLane: String
    let readMessageID: String
    let readChat: String
    let readChats: String
    let storeChatRow: String
    let insertChatRow: String
    let updateChatRow: String
    let insertInboxItem: String
    let forgetMarks: String
    let removeSent: String
    let keepTag: String
    let forgetShortLivedTags: String
    let forgetReceived: String
    let remember: String
    let readNoticeChats: String
    let readNoticeMarks: String
    let countNoticeChats: String
    let markNotice: String

    /// A subscription's columns, in the order ``subscription(_:from:)`` reads them.
    static let subscriptionColumns = "id, chat_id, place, time_zone, hour, minute, next_send_at, last_sent_day, is_active, created_at, with_chart"
    static let outboxColumns = "id, chat_id, lane, method, parameters, tag, message_id, photo, attempts, not_before, created_at, deadline"
    /// A chat's columns, in the order ``chat(_:)`` reads them and ``chatValues(_:places:)`` binds them.
    static let chatColumns = [
        "id", "language", "state", "current_place", "recent_places", "place_seq", "question_seq", "is_active", "created_at", "updated_at",
        "last_message_id", "notice_rain", "notice_warnings", "quiet_hours", "notices_set_by", "settings", "notice_pollen",
    ]
    /// The chat's columns a step writes when the row holds its places already: all but the id and the places.
    static let chatColumnsBesidesPlaces = chatColumns.filter { !["id", "current_place", "recent_places"].contains($0) }

    /// Renders every statement of the store in `dialect`: done once, when the engine makes its store.
    public init(_ dialect: SQLDialect) {
        self.dialect = dialect
        let r = dialect.render
        readFact = r("SELECT value FROM worker_fact WHERE key = ?")
        writeFact = r("INSERT INTO worker_fact (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        // Counts are added in place: replicas adding at once each count theirs.
        addToFact = r(
            """
            INSERT INTO worker_fact (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(worker_fact.value AS BIGINT) + CAST(excluded.value AS BIGINT) AS TEXT)
            """)
        forgetCallsBefore = r("DELETE FROM worker_fact WHERE key LIKE ? AND key < ?")
        readCalls = r("SELECT key, value FROM worker_fact WHERE key = ? OR key LIKE ?")
        queueReply = r(
            """
            INSERT INTO outbox (chat_id, lane, method, parameters, tag, message_id, photo, attempts, not_before, created_at, deadline)
            VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING id
            """)
        dropChatOutbox = r("DELETE FROM outbox WHERE chat_id = ?")
        pauseChat = r("UPDATE chat SET is_active = ? WHERE id = ?")
        pauseSubscriptions = r("UPDATE subscription SET is_active = ? WHERE chat_id = ?")
        retry = r("UPDATE outbox SET attempts = attempts + 1, not_before = ? WHERE id = ? AND chat_id = ?")
        discard = r("DELETE FROM inbox WHERE seq = ? AND chat_id = ?")
        countAttempt = r(
            """
            UPDATE inbox SET attempts = attempts + 1
            WHERE seq IN (SELECT MIN(seq) FROM inbox GROUP BY chat_id) AND EXISTS (SELECT 1 FROM worker_fact WHERE key = ? AND value = ?)
            """)
        takeFromInbox = r("DELETE FROM inbox WHERE seq = ? AND chat_id = ? RETURNING seq")
        keepFailure = r(
            """
            INSERT INTO inbox_failure (seq, chat_id, update_id, kind, payload, attempts, error, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (seq) DO UPDATE SET attempts = excluded.attempts, error = excluded.error, failed_at = excluded.failed_at
            """)
        forgetFailures = r("DELETE FROM inbox_failure WHERE failed_at < ?")
        markDelivery = r(
            """
            UPDATE subscription SET last_sent_day = ?, next_send_at = ?
            WHERE id = ? AND chat_id = ? AND (last_sent_day IS NULL OR last_sent_day <> ?) RETURNING id
            """)
        keepTemperature = r(
            """
            INSERT INTO day_temperature (cell, day, minimum, maximum) VALUES (?, ?, ?, ?)
            ON CONFLICT (cell, day) DO UPDATE SET minimum = excluded.minimum, maximum = excluded.maximum
            """)
        forgetTemperatures = r("DELETE FROM day_temperature WHERE day < ?")
        insertFavorite = r("INSERT INTO favorite (chat_id, position, place, created_at) VALUES (?, ?, ?, ?)")
        deleteFavorite = r("DELETE FROM favorite WHERE id = ? AND chat_id = ?")
        moveFavorite = r("UPDATE favorite SET position = ? WHERE id = ? AND chat_id = ?")
        insertSubscription = r(
            """
            INSERT INTO subscription (chat_id, place, time_zone, hour, minute, next_send_at, last_sent_day, is_active, created_at, with_chart)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        deleteSubscription = r("DELETE FROM subscription WHERE id = ? AND chat_id = ?")
        deleteSubscriptions = r("DELETE FROM subscription WHERE chat_id = ?")
        setChart = r("UPDATE subscription SET with_chart = ? WHERE id = ? AND chat_id = ?")
        resumeSubscriptions = r("UPDATE subscription SET is_active = ? WHERE chat_id = ? AND NOT is_active")
        forgetChatRows = ["subscription", "message_tag", "outbox", "notice_mark"].map { r("DELETE FROM \($0) WHERE chat_id = ?") }
        forgetChatRow = r("DELETE FROM chat WHERE id = ?")
        readFavorites = r("SELECT id, chat_id, position, place, created_at FROM favorite WHERE chat_id = ? ORDER BY position, id")
        readSubscriptions = r("SELECT \(Self.subscriptionColumns) FROM subscription WHERE chat_id = ? ORDER BY id")
        let qualified = Self.subscriptionColumns.split(separator: ", ").map { "subscription.\($0)" }.joined(separator: ", ")
        readDue = r(
            """
            SELECT \(qualified), chat.language, chat.settings FROM subscription JOIN chat ON chat.id = subscription.chat_id
            WHERE subscription.is_active = ? AND subscription.next_send_at <= ? ORDER BY subscription.next_send_at LIMIT ?
            """)
        readInbox = r("SELECT seq, chat_id, update_id, kind, payload, attempts FROM inbox ORDER BY seq")
        readOutbox = r("SELECT \(Self.outboxColumns) FROM outbox WHERE lane = ? AND id >= ? ORDER BY id LIMIT ?")
        readChatOutbox = r("SELECT \(Self.outboxColumns) FROM outbox WHERE chat_id = ? AND lane = ? AND id >= ? ORDER BY id LIMIT ?")
        countOutbox = r("SELECT COUNT(*) FROM outbox")
        countLane = r("SELECT COUNT(*) FROM outbox WHERE lane = ?")
        oldestInLane = r("SELECT MIN(created_at) FROM outbox WHERE lane = ?")
        readMessageID = r("SELECT message_id FROM message_tag WHERE chat_id = ? AND tag = ?")
        let chat = Self.chatColumns.joined(separator: ", ")
        let chatMarks = Array(repeating: "?", count: Self.chatColumns.count).joined(separator: ", ")
        readChat = r("SELECT \(chat) FROM chat WHERE id = ?")
        readChats = r("SELECT \(chat) FROM chat ORDER BY id")
        insertChatRow = r("INSERT INTO chat (\(chat)) VALUES (\(chatMarks))")
        storeChatRow = r(
            "INSERT INTO chat (\(chat)) VALUES (\(chatMarks)) ON CONFLICT (id) DO UPDATE SET "
                + Self.chatColumns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        updateChatRow = r(
            "UPDATE chat SET \(Self.chatColumnsBesidesPlaces.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ? RETURNING id")
        forgetMarks = r("DELETE FROM notice_mark WHERE expires_at <= ?")
        removeSent = r("DELETE FROM outbox WHERE id = ? AND chat_id = ?")
        keepTag = r(
            """
            INSERT INTO message_tag (chat_id, tag, message_id, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (chat_id, tag) DO UPDATE SET message_id = excluded.message_id, created_at = excluded.created_at
            """)
        forgetShortLivedTags = r("DELETE FROM message_tag WHERE chat_id = ? AND tag LIKE ? AND created_at < ?")
        forgetReceived = r("DELETE FROM received_update WHERE received_at < ?")
        remember = r("INSERT INTO received_update (update_id, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING update_id")
        // The chats the checker looks at, as the partial index `chat_notices` reads them.
        let noticeChat = "(chat.notice_rain OR chat.notice_warnings OR chat.notice_pollen) AND chat.is_active AND chat.current_place IS NOT NULL"
        readNoticeChats = r(
            """
            SELECT id, language, current_place, notice_rain, notice_warnings, quiet_hours, notices_set_by, settings, notice_pollen FROM chat
            WHERE \(noticeChat) ORDER BY id
            """)
        countNoticeChats = r("SELECT COUNT(*) FROM chat WHERE \(noticeChat)")
        readNoticeMarks = r(
            """
            SELECT notice_mark.chat_id, notice_mark.key, notice_mark.value FROM notice_mark JOIN chat ON chat.id = notice_mark.chat_id
            WHERE notice_mark.expires_at > ? AND \(noticeChat)
            """)
        // A row changes, and is returned, only when the mark is new or its value another, and the
        // chat still takes notices.
        markNotice = r(
            """
            INSERT INTO notice_mark (chat_id, key, value, expires_at)
            SELECT id, ?, ?, ? FROM chat WHERE id = ? AND is_active AND (notice_rain OR notice_warnings OR notice_pollen)
            ON CONFLICT (chat_id, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
            WHERE notice_mark.value <> excluded.value
            RETURNING chat_id
            """)
        insertInboxItem = r("INSERT INTO inbox (chat_id, update_id, kind, payload) VALUES (?, ?, ?, ?) RETURNING seq")
    }
}

// MARK: - Facts

extension StoreSQL {
    /// The worker fact under `key`; no row when it was never kept.
    public func fact(_ key: WorkerFact.Key) -> SQLQuery<String> {
        SQLQuery(SQLStatement(readFact, [.text(key.rawValue)])) { try $0.text(required: 0) }
    }

    /// Keeps `value` under `key` in place of what was there.
    public func setFact(_ key: WorkerFact.Key, _ value: String) -> SQLStatement {
        SQLStatement(writeFact, [.text(key.rawValue), .text(value)])
    }

    func add(_ count: Int, toFact key: String) -> SQLStatement {
        SQLStatement(addToFact, [.text(key), .text(String(count))])
    }

    /// Records that getUpdates answered, with nothing new.
    public func notePoll(at now: Date) -> SQLPlan { [setFact(.lastSuccessfulPoll, WorkerFact.time(now))] }

    /// A run of the worker starts: when the last one did not stop cleanly, the first waiting item
    /// of each chat may be the one whose handling stopped it (a crash), so it counts an attempt.
    public func beginRun() -> SQLPlan {
        [
            SQLStatement(countAttempt, [.text(WorkerFact.Key.stoppedCleanly.rawValue), .text("0")]),
            setFact(.stoppedCleanly, "0"),
        ]
    }

    /// The chat workers stopped cleanly: no item was cut off.
    public func endRun() -> SQLPlan { [setFact(.stoppedCleanly, "1")] }

    /// Keeps the last minute's OpenWeather calls, by second since 1970, in place of the minute kept before.
    public func keepOpenWeatherMinute(_ calls: [Int: Int]) -> SQLPlan {
        [setFact(.openWeatherLastMinute, WorkerFact.openWeatherMinute(calls))]
    }

    /// Keeps the notice checker's last round, in its stored form, in place of the one before.
    public func keepNoticeRound(_ round: NoticeRound) -> SQLPlan { [setFact(.noticeRound, round.stored)] }

    /// Adds the day's calls by endpoint to what is kept, each row in place, after forgetting
    /// earlier days' (``openWeatherCalls(onDay:)`` then reads the day's counts).
    public func addOpenWeatherCalls(_ calls: [String: Int], onDay day: Int) -> SQLPlan {
        [SQLStatement(forgetCallsBefore, [.text(WorkerFact.openWeatherCallsPrefix + "%"), .text(WorkerFact.openWeatherCalls(onDay: day))])]
            + calls.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map {
                add($0.value, toFact: WorkerFact.openWeatherCalls(onDay: day, endpoint: $0.key))
            }
    }

    /// OpenWeather's calls kept for the UTC `day`: the rows; ``WorkerFact/openWeatherCalls(onDay:from:)`` reads them by endpoint.
    public func openWeatherCalls(onDay day: Int) -> SQLQuery<(String, String)> {
        let base = WorkerFact.openWeatherCalls(onDay: day)
        return SQLQuery(SQLStatement(readCalls, [.text(base), .text(base + ".%")])) { (try $0.text(required: 0), try $0.text(required: 1)) }
    }
}

// MARK: - Days' temperatures

extension StoreSQL {
    /// Keeps each record in place of its cell and day's, then forgets the days before `day` (`yyyy-MM-dd`, compared as text).
    public func keepDayTemperatures(_ records: [DayTemperatures], forgettingBefore day: String) -> SQLPlan {
        records.map { SQLStatement(keepTemperature, [.text($0.cell), .text($0.day), .real($0.minimum), .real($0.maximum)]) }
            + [SQLStatement(forgetTemperatures, [.text(day)])]
    }

    /// Rendered for each call: the number of cells varies.
    public func dayTemperatures(cells: [String], day: String) -> SQLQuery<DayTemperatures> {
        let marks = Array(repeating: "?", count: cells.count).joined(separator: ", ")
        let sql = dialect.render("SELECT cell, minimum, maximum FROM day_temperature WHERE day = ? AND cell IN (\(marks))")
        return SQLQuery(SQLStatement(sql, [.text(day)] + cells.map { .text($0) })) { row in
            DayTemperatures(cell: try row.text(required: 0), day: day, minimum: try row.double(required: 1), maximum: try row.double(required: 2))
        }
    }
}

// MARK: - Inbox and outbox

extension StoreSQL {
    /// Puts one reply at the end of its lane, to be sent from `now` and, with a `deadline` (a
    /// notice), not after it; the plan collects its id.
    public func queue(_ request: BotRequest, chatID: Int64, lane: OutboxLane, at now: Date, deadline: Date? = nil) -> SQLStatement {
        SQLStatement(
            queueReply,
            [
                .integer(chatID), .integer(Int64(lane.rawValue)), .text(request.method.rawValue), .blob(request.parameters),
                request.tag.sqlValue, request.messageID.sqlValue, request.photo.sqlValue, .date(now), .date(now), deadline.sqlValue,
            ], role: .collecting)
    }

    /// Deletes one inbox item, named by its chat too; nothing when it is gone.
    public func discardInboxItem(seq: Int64, chatID: Int64) -> SQLPlan {
        [SQLStatement(discard, [.integer(seq), .integer(chatID)])]
    }

    /// Moves an item that keeps failing out of the inbox into `inbox_failure` with its error,
    /// forgets those set aside longer ago than ``SetAside/keptFor``, and queues `apology`: only
    /// when the item is still there (the plan's result is then the apology's id).
    public func setAside(_ item: InboxItem, seq: Int64, attempts: Int, error: String, apology: BotRequest, at now: Date) -> SQLPlan {
        [
            SQLStatement(takeFromInbox, [.integer(seq), .integer(item.chatID)], role: .guarding),
            SQLStatement(
                keepFailure,
                [
                    .integer(seq), .integer(item.chatID), item.updateID.sqlValue, .text(item.kind.rawValue), .blob(item.payload),
                    .integer(Int64(attempts)), .text(String(error.prefix(2_000))), .date(now),
                ]),
            SQLStatement(forgetFailures, [.date(now.addingTimeInterval(-SetAside.keptFor))]),
            queue(apology, chatID: item.chatID, lane: .interactive, at: now),
        ]
    }

    /// The chat blocked the bot: its waiting replies go, it is marked inactive, and its daily
    /// forecasts pause.
    public func deactivateChat(_ chatID: Int64) -> SQLPlan {
        [
            SQLStatement(dropChatOutbox, [.integer(chatID)]),
            SQLStatement(pauseChat, [.bool(false), .integer(chatID)]),
            SQLStatement(pauseSubscriptions, [.bool(false), .integer(chatID)]),
        ]
    }

    /// Telegram accepted a reply, or it was abandoned: it leaves the outbox and, sent under a tag,
    /// its message id is kept for later edits (a chat keeps a day's short-lived tags at most).
    public func complete(id: Int64, chatID: Int64, tag: String?, messageID: Int?, at now: Date) -> SQLPlan {
        var plan = [SQLStatement(removeSent, [.integer(id), .integer(chatID)])]
        guard let tag, let messageID else { return plan }
        plan.append(SQLStatement(keepTag, [.integer(chatID), .text(tag), .integer(Int64(messageID)), .date(now)]))
        if MessageTags.isShortLived(tag) {
            plan.append(
                SQLStatement(
                    forgetShortLivedTags,
                    [.integer(chatID), .text(MessageTags.shortLivedPrefix + "%"), .date(now.addingTimeInterval(-MessageTags.shortLivedFor))]))
        }
        return plan
    }

    /// An update Telegram posted to the webhook: the ids received before `forgettingBefore` are
    /// forgotten, then its id is remembered and, only when it was not before, the update goes to
    /// the inbox when it belongs to a chat. The plan's result is nil for an id received before,
    /// else the item's `seq`, if any.
    public func receivePosted(_ update: (updateID: Int64, chatID: Int64?, payload: Data), forgettingBefore: Date?, at now: Date) -> SQLPlan {
        var plan = forgettingBefore.map { [SQLStatement(forgetReceived, [.date($0)])] } ?? []
        plan.append(SQLStatement(remember, [.integer(update.updateID), .date(now)], role: .guarding))
        if let chatID = update.chatID { plan.append(insert(InboxItem(chatID: chatID, updateID: update.updateID, kind: .update, payload: update.payload))) }
        return plan
    }

    /// Counts a failed attempt at one reply and holds it until `notBefore`; nothing when it is gone.
    public func retryOutbox(id: Int64, chatID: Int64, notBefore: Date) -> SQLPlan {
        [SQLStatement(retry, [.date(notBefore), .integer(id), .integer(chatID)])]
    }

    /// The whole inbox by `seq`; an item of a kind this version does not know reads as an update.
    public func pendingInbox() -> SQLQuery<InboxItem> {
        SQLQuery(SQLStatement(readInbox)) { row in
            InboxItem(
                seq: try row.int64(required: 0), chatID: try row.int64(required: 1), updateID: try row.int64(2),
                kind: InboxItem.Kind(rawValue: try row.text(required: 3)) ?? .update, payload: try row.blob(required: 4), attempts: try row.int(required: 5))
        }
    }

    /// Replies of one lane from outbox id `id` on, at most `limit`, by id; of one chat only when `chatID` is given.
    public func outboxItems(lane: OutboxLane, chatID: Int64?, from id: Int64, limit: Int) -> SQLQuery<OutboxItem> {
        let statement =
            if let chatID {
                SQLStatement(readChatOutbox, [.integer(chatID), .integer(Int64(lane.rawValue)), .integer(id), .integer(Int64(limit))])
            } else {
                SQLStatement(readOutbox, [.integer(Int64(lane.rawValue)), .integer(id), .integer(Int64(limit))])
            }
        return SQLQuery(statement) { row in
            // The method as stored: one this version does not make reads as no request.
            OutboxItem(
                id: try row.int64(required: 0), chatID: try row.int64(required: 1), lane: OutboxLane(rawValue: try row.int(required: 2)) ?? .interactive,
                method: try row.text(required: 3), parameters: try row.blob(required: 4), tag: try row.text(5), messageID: try row.int64(6).map(Int.init),
                photo: try row.text(7), attempts: try row.int(required: 8), notBefore: try row.date(required: 9), createdAt: try row.date(required: 10),
                deadline: try row.date(11))
        }
    }

    /// How many replies wait: in `lane`, or in every lane when it is nil.
    public func outboxBacklog(lane: OutboxLane? = nil) -> SQLQuery<Int> {
        let statement = lane.map { SQLStatement(countLane, [.integer(Int64($0.rawValue))]) } ?? SQLStatement(countOutbox)
        return SQLQuery(statement) { try $0.int(required: 0) }
    }

    /// When the oldest reply waiting in `lane` was queued: one row, NULL when none waits.
    public func oldestOutboxItem(lane: OutboxLane) -> SQLQuery<Date?> {
        SQLQuery(SQLStatement(oldestInLane, [.integer(Int64(lane.rawValue))])) { try $0.date(0) }
    }

    /// The message id remembered under `tag` in the chat; no row when none is.
    public func messageID(chatID: Int64, tag: String) -> SQLQuery<Int> {
        SQLQuery(SQLStatement(readMessageID, [.integer(chatID), .text(tag)])) { try $0.int(required: 0) }
    }
}

// MARK: - A chat's saved data

extension StoreSQL {
    /// A place as its columns hold it: JSON, keys sorted.
    static func stored(_ place: Place) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(place), as: UTF8.self)
    }

    static func place(_ stored: String) throws -> Place {
        try JSONDecoder().decode(Place.self, from: Data(stored.utf8))
    }

    /// The statements of one write of a ``ChatChange``; each names the chat.
    public func statements(for write: ChatChange.Write, chatID: Int64) throws -> [SQLStatement] {
        let chat = SQLValue.integer(chatID)
        switch write {
        case .insertFavorite(let favorite):
            return [SQLStatement(insertFavorite, [chat, .integer(Int64(favorite.position)), .text(try Self.stored(favorite.place)), .date(favorite.createdAt)])]
        case .deleteFavorite(let id):
            return [SQLStatement(deleteFavorite, [.integer(id), chat])]
        case .moveFavorite(let id, let position):
            return [SQLStatement(moveFavorite, [.integer(Int64(position)), .integer(id), chat])]
        case .insertSubscription(let subscription):
            return [
                SQLStatement(
                    insertSubscription,
                    [
                        chat, .text(try Self.stored(subscription.place)), .text(subscription.timeZone), .integer(Int64(subscription.hour)),
                        .integer(Int64(subscription.minute)), .date(subscription.nextSendAt), subscription.lastSentDay.sqlValue,
                        .bool(subscription.isActive), .date(subscription.createdAt), .bool(subscription.withChart),
                    ])
            ]
        case .deleteSubscription(let id):
            return [SQLStatement(deleteSubscription, [.integer(id), chat])]
        case .deleteAllSubscriptions:
            return [SQLStatement(deleteSubscriptions, [chat])]
        case .setChart(let id, let withChart):
            return [SQLStatement(setChart, [.bool(withChart), .integer(id), chat])]
        case .resumeSubscriptions:
            return [SQLStatement(resumeSubscriptions, [.bool(true), chat])]
        case .forgetChat:
            return forgetChatRows.map { SQLStatement($0, [chat]) } + [SQLStatement(forgetChatRow, [chat])]
        }
    }

    /// The chat's favorites by position, then id.
    public func favorites(chatID: Int64) -> SQLQuery<Favorite> {
        SQLQuery(SQLStatement(readFavorites, [.integer(chatID)])) { row in
            Favorite(
                id: try row.int64(required: 0), chatID: try row.int64(required: 1), position: try row.int(required: 2),
                place: try Self.place(try row.text(required: 3)), createdAt: try row.date(required: 4))
        }
    }

    /// The chat's daily forecasts by id (the order they were made), paused ones too.
    public func subscriptions(chatID: Int64) -> SQLQuery<Subscription> {
        SQLQuery(SQLStatement(readSubscriptions, [.integer(chatID)])) { try Self.subscription($0) }
    }

    /// A subscription from the first columns of a row, in the order of ``subscriptionColumns``.
    static func subscription(_ row: any SQLRow) throws -> Subscription {
        Subscription(
            id: try row.int64(required: 0), chatID: try row.int64(required: 1), place: try place(try row.text(required: 2)),
            timeZone: try row.text(required: 3), hour: try row.int(required: 4), minute: try row.int(required: 5),
            nextSendAt: try row.date(required: 6), lastSentDay: try row.text(7), isActive: try row.bool(required: 8),
            createdAt: try row.date(required: 9), withChart: try row.bool(required: 10))
    }
}

// MARK: - Daily forecasts

extension StoreSQL {
    /// Active subscriptions due at or before `now`, earliest first, with their chats' languages.
    public func dueSubscriptions(at now: Date, limit: Int) -> SQLQuery<DueSubscription> {
        SQLQuery(SQLStatement(readDue, [.bool(true), .date(now), .integer(Int64(limit))])) { row in
            DueSubscription(
                subscription: try Self.subscription(row), language: try row.text(11).flatMap(Language.init(rawValue:)) ?? .ru,
                settings: ChatSettings(stored: try row.text(12)))
        }
    }

    /// Each delivery's plan, all run in one transaction, in order: the subscription is marked
    /// sent for its local date and rescheduled, and only then are its messages queued in the bulk
    /// lane (a date sent already sends nothing twice); a delivery without messages counts as
    /// skipped. Each plan's result is the delivery's outbox ids (nil: nothing was queued).
    public func commitDeliveries(_ deliveries: [DailyDelivery], at now: Date) -> [SQLPlan] {
        deliveries.map { delivery in
            let mark = SQLStatement(
                markDelivery,
                [.text(delivery.day), .date(delivery.nextSendAt), .integer(delivery.subscriptionID), .integer(delivery.chatID), .text(delivery.day)],
                role: .guarding)
            if delivery.requests.isEmpty { return [mark, add(1, toFact: WorkerFact.Key.dailyForecastsSkipped.rawValue)] }
            return [mark] + delivery.requests.map { queue($0, chatID: delivery.chatID, lane: .bulk, at: now) }
        }
    }
}

// MARK: - Changes to a chat's saved data

extension StoreSQL {
    /// The statements that carry out `change` on the chat's rows as they stand (those
    /// ``ChatChange/reads`` names; the others may be passed empty), by ``ChatChange``'s rules.
    public func statements(for change: ChatChange, chatID: Int64, favorites: [Favorite], subscriptions: [Subscription], at now: Date) throws
        -> [SQLStatement]
    {
        try change.writes(chatID: chatID, favorites: favorites, subscriptions: subscriptions, now: now).flatMap { try statements(for: $0, chatID: chatID) }
    }
}

// MARK: - Chats and their steps

extension StoreSQL {
    /// The chat's record; no row when the bot never met it or forgot it.
    public func chat(id: Int64) -> SQLQuery<ChatRecord> {
        SQLQuery(SQLStatement(readChat, [.integer(id)])) { try Self.chat($0) }
    }

    /// Every chat's record by id (moving house).
    public func allChats() -> SQLQuery<ChatRecord> {
        SQLQuery(SQLStatement(readChats)) { try Self.chat($0) }
    }

    /// A chat from a row in the order of ``chatColumns``. The places are JSON; a language or
    /// quiet hours this version does not read fall back to the defaults, so a setting never makes
    /// the chat unreadable.
    static func chat(_ row: any SQLRow) throws -> ChatRecord {
        let decoder = JSONDecoder()
        return ChatRecord(
            id: try row.int64(required: 0), language: Language(rawValue: try row.text(required: 1)) ?? .ru,
            state: ChatState(stored: try row.blob(required: 2)),
            currentPlace: try row.text(3).map { try decoder.decode(Place.self, from: Data($0.utf8)) },
            recentPlaces: try row.text(4).map { try decoder.decode([RecentPlace].self, from: Data($0.utf8)) } ?? [],
            placeSeq: try row.int(required: 5), questionSeq: try row.int(required: 6), isActive: try row.bool(required: 7),
            createdAt: try row.date(required: 8), updatedAt: try row.date(required: 9), lastMessageID: try row.int64(10).map(Int.init),
            notices: NoticeSettings(
                rain: try row.bool(11) ?? false, warnings: try row.bool(12) ?? false, pollen: try row.bool(16) ?? false,
                quiet: try row.text(13).flatMap(QuietChoice.init(stored:)), setBy: try row.int64(14)),
            settings: ChatSettings(stored: try row.text(15)))
    }

    /// The chats the notice checker looks at, without their marks (``noticeMarks(at:)``), each
    /// with its city as stored (``noticeChats(_:marks:)`` decodes them).
    public func noticeChats() -> SQLQuery<(chat: NoticeChat, place: String)> {
        SQLQuery(SQLStatement(readNoticeChats)) { row in
            let chat = NoticeChat(
                chatID: try row.int64(required: 0), language: Language(rawValue: try row.text(required: 1)) ?? .ru,
                place: Place(name: "", latitude: 0, longitude: 0),
                settings: NoticeSettings(
                    rain: try row.bool(3) ?? false, warnings: try row.bool(4) ?? false, pollen: try row.bool(8) ?? false,
                    quiet: try row.text(5).flatMap(QuietChoice.init(stored:)), setBy: try row.int64(6)),
                chatSettings: ChatSettings(stored: try row.text(7)))
            return (chat, try row.text(required: 2))
        }
    }

    /// How many chats the notice checker looks at.
    public func noticeChatCount() -> SQLQuery<Int> {
        SQLQuery(SQLStatement(countNoticeChats)) { try $0.int(required: 0) }
    }

    /// The marks not expired by `now` of the chats ``noticeChats()`` reads: chat, key, value.
    public func noticeMarks(at now: Date) -> SQLQuery<(chatID: Int64, key: String, value: String)> {
        SQLQuery(SQLStatement(readNoticeMarks, [.date(now)])) { (try $0.int64(required: 0), try $0.text(required: 1), try $0.text(required: 2)) }
    }

    /// The chats with their cities and marks; a chat whose city does not read is left out: no
    /// notice can be made for it. Many chats share a city: each stored form is decoded once.
    public static func noticeChats(_ rows: [(chat: NoticeChat, place: String)], marks: [(chatID: Int64, key: String, value: String)]) -> [NoticeChat] {
        let decoder = JSONDecoder()
        var places: [String: Place] = [:]
        var kept: [Int64: [String: String]] = [:]
        for mark in marks { kept[mark.chatID, default: [:]][mark.key] = mark.value }
        return rows.compactMap { row in
            guard let place = places[row.place] ?? (try? decoder.decode(Place.self, from: Data(row.place.utf8))) else { return nil }
            places[row.place] = place
            var chat = row.chat
            chat.place = place
            chat.marks = kept[chat.chatID] ?? [:]
            return chat
        }
    }

    /// The chat's values in the order of ``chatColumns``; without `places`, those of
    /// ``chatColumnsBesidesPlaces`` then the id, as ``updateChatRow`` binds them.
    func chatValues(_ chat: ChatRecord, places: Bool) throws -> [SQLValue] {
        let besides: [SQLValue] = [
            .text(chat.language.rawValue), .blob(chat.state.stored), .integer(Int64(chat.placeSeq)), .integer(Int64(chat.questionSeq)),
            .bool(chat.isActive), .date(chat.createdAt), .date(chat.updatedAt), chat.lastMessageID.sqlValue, .bool(chat.notices.rain),
            .bool(chat.notices.warnings), chat.notices.quiet?.stored.sqlValue ?? .null, chat.notices.setBy.sqlValue, chat.settings.stored.sqlValue,
            .bool(chat.notices.pollen),
        ]
        guard places else { return besides + [.integer(chat.id)] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let current = try chat.currentPlace.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let recent = String(decoding: try encoder.encode(chat.recentPlaces), as: UTF8.self)
        return [.integer(chat.id), besides[0], besides[1], current.sqlValue, .text(recent)] + besides[2...]
    }

    /// Inserts the chat's row, or replaces the one there. With `placesUnchanged` (the row holds
    /// the record's current and recent places already, as most steps leave them) the places are
    /// neither encoded nor written, unless the row turns out to be gone.
    public func storeChat(_ chat: ChatRecord, placesUnchanged: Bool = false) throws -> SQLStatement {
        guard placesUnchanged else { return SQLStatement(storeChatRow, try chatValues(chat, places: true)) }
        return SQLStatement(
            updateChatRow, try chatValues(chat, places: false),
            role: .updating(orElse: { [storeChatRow] in SQLStatement(storeChatRow, try chatValues(chat, places: true)) }))
    }

    /// Inserts chats' rows as they are (a restore, a prepared benchmark); an id that exists is refused.
    public func insertChats(_ chats: [ChatRecord]) throws -> SQLPlan {
        try chats.map { SQLStatement(insertChatRow, try chatValues($0, places: true)) }
    }

    /// Puts an item at the end of the inbox; the plan collects its `seq`.
    public func insert(_ item: InboxItem) -> SQLStatement {
        SQLStatement(
            insertInboxItem, [.integer(item.chatID), item.updateID.sqlValue, .text(item.kind.rawValue), .blob(item.payload)], role: .collecting)
    }

    /// What a step writes besides its changes to the chat's saved data (``statements(for:chatID:favorites:subscriptions:at:)``,
    /// run before it): the chat's record (``storeChat(_:placesUnchanged:)``), the handled inbox
    /// item removed (none for a step committed with its update's receipt), its replies queued in
    /// the interactive lane, its follow-ups put in the inbox. The plan collects the replies' ids,
    /// then the follow-ups' `seq`s (``committedStep(_:replies:followUps:)``).
    public func step(chat: ChatRecord, placesUnchanged: Bool, handled seq: Int64?, replies: [BotRequest], followUps: [Data], at now: Date) throws
        -> SQLPlan
    {
        var plan = [try storeChat(chat, placesUnchanged: placesUnchanged)]
        if let seq { plan += discardInboxItem(seq: seq, chatID: chat.id) }
        plan += replies.map { queue($0, chatID: chat.id, lane: .interactive, at: now) }
        plan += followUps.map { insert(InboxItem(chatID: chat.id, updateID: nil, kind: .followUp, payload: $0)) }
        return plan
    }

    /// A step's committed ids from what its plan (``step(chat:placesUnchanged:handled:replies:followUps:at:)``) collected.
    public func committedStep(_ collected: [Int64], chatID: Int64, replies: Int, followUps: [Data]) -> CommittedStep {
        let items = zip(followUps, collected.dropFirst(replies)).map { payload, seq in
            InboxItem(seq: seq, chatID: chatID, updateID: nil, kind: .followUp, payload: payload)
        }
        return CommittedStep(replyIDs: Array(collected.prefix(replies)), followUps: items)
    }
}

// MARK: - Notices

extension StoreSQL {
    /// Forgets the marks that expired by `now`: what they kept from being told twice may be told again.
    public func forgetExpiredMarks(at now: Date) -> SQLPlan {
        [SQLStatement(forgetMarks, [.date(now)])]
    }

    /// Each notice's plan, run in order in one transaction after ``forgetExpiredMarks(at:)``: its
    /// mark is kept, and only when it is new or says something new, and the chat still takes
    /// notices, are its messages queued in the notice lane with its deadline. Each plan's result is
    /// the notice's outbox ids (nil: it was told already, or no longer wanted).
    public func commitNotices(_ deliveries: [NoticeDelivery], at now: Date) -> [SQLPlan] {
        deliveries.map { delivery in
            let mark = SQLStatement(
                markNotice,
                [.text(delivery.mark.key), .text(delivery.mark.value), .date(delivery.mark.expiresAt), .integer(delivery.chatID)],
                role: .guarding)
            return [mark] + delivery.requests.map { queue($0, chatID: delivery.chatID, lane: .notice, at: now, deadline: delivery.deadline) }
        }
    }
}
