public import Foundation
import DequeModule
import HeapModule
public import TelegramBotAPI
public import WeatherBotStore

/// A reply committed to the outbox, as the sender holds it until Telegram has accepted it.
public struct QueuedReply: Sendable, Equatable {
    /// The outbox row's id, which orders the chat's replies.
    public var id: Int64
    /// The Telegram chat it goes to.
    public var chatID: Int64
    /// The lane it waits in, which decides its turn.
    public var lane: OutboxLane
    /// The Bot API call to make.
    public var request: BotRequest
    var attempts = 0
    /// Not to be sent before this time (seconds since 1970): a retry after a failure.
    var notBefore = 0.0
    /// Not to be sent after this time: a notice that would mislead once it is late.
    public var deadline: Date?

    /// A reply as read from the outbox or just committed, not yet tried.
    public init(id: Int64, chatID: Int64, lane: OutboxLane, request: BotRequest, deadline: Date? = nil) {
        self.id = id
        self.chatID = chatID
        self.lane = lane
        self.request = request
        self.deadline = deadline
    }

    /// A callback answer: it never waits behind messages and is not paced.
    var isAnswer: Bool { !request.isMessage }
}

/// The sender's schedule: the replies waiting in memory, in two lanes, and what may go next.
/// It does no I/O and reads no clock: the sender tells it the time, the replies each commit handed
/// over, and the rows it read from the table.
///
/// - **Lanes.** *Interactive* replies answer a chat's own update or button; *notices* tell a chat
///   unasked about its city and are late soon (rain about to begin); *bulk* ones the bot sends
///   unasked that can wait (daily forecasts). Whenever a slot of the overall rate comes, an
///   interactive message goes first, then a notice; bulk takes the rest. While bulk has work it is
///   owed its share of the slots, so chatting never stops a broadcast outright; while notices
///   wait, the share waits too (a notice is late in minutes, a forecast is not, and notices are
///   few: one per chat and episode). Within a lane, chats take turns by their next message's
///   deadline, the earliest first, and in the order they became ready where there is none: rain
///   due in 15 minutes goes before rain due in 40, both before a warning good for hours.
/// - **Chats.** A chat has at most one message in flight, across both lanes; within a lane its
///   messages keep their order. The per-chat rate holds across both lanes. When a chat has an
///   answer and a forecast waiting, the answer goes first unless bulk is owed its slot, and the
///   forecast follows at the chat's pace; a message already in flight is never overtaken.
/// - **Callback answers** wait for nothing: no rate, no chat's turn (Telegram shows a spinner until
///   the button is answered and refuses answers after about 15 seconds).
/// - **The table.** Memory holds at most `capacity` replies per lane. A lane is *complete* when
///   memory holds every row the table has for it; then commits hand their rows over. A hand-over
///   that finds its lane full is refused (its rows wait in the table) and the lane must be read
///   from the lowest refused id once it has room again; at start both lanes are read. While a lane
///   is incomplete, hand-overs are refused too, so its rows always come in id order.
/// - **A chat's share.** One chat holds at most `chatShare` messages of a lane in memory, so one
///   chat's thousands of replies never fill the window the others need. Its rows beyond wait in
///   the table: the chat *overflows*, its later hand-overs are refused (its rows keep their order)
///   and reads of the lane pass its rows by; once half its share is sent, its own rows are read
///   (``startChatReads(_:)``) until none is left in the table.
/// - **Edits collapse.** An edit waiting behind a later edit of the same message that sets all it
///   would (``BotRequest/supersedes(_:)``) is taken out: Telegram shows a message's last state
///   only, so a storm of button presses on one card leaves at most the edit in flight and the
///   latest waiting. The sender deletes its row (``takeSuperseded()``); until then a read does not
///   take it again.
struct OutboxQueue {
    let capacity: Int
    let chatShare: Int
    private var pacing: Pacing
    private var lanes: [Lane] = OutboxLane.allCases.map { _ in Lane() }
    /// Callback answers waiting to go, and the ids of those held (waiting or in flight).
    private var answers = Deque<QueuedReply>()
    private var answerIDs: Set<Int64> = []
    /// Each chat with a message in flight, and that message's id; the chat's next waits.
    private var inFlight: [Int64: Int64] = [:]
    /// Replies in flight whose rows a commit deleted meanwhile (a reset): not to be tried again.
    private var void: Set<Int64> = []
    private var chatCells: [Int64: RateCell] = [:]
    /// The pace of each inline message edited (``takeSlot(for:at:)``), as a chat's.
    private var unstoredCells: [String: RateCell] = [:]
    private var recent: RecentSends
    /// Chats waiting for a time (a retry, their own pace) before their next message may go.
    private var later = Heap<Wake>()
    private var broadcast: Broadcast?
    private var events: [Event] = []
    /// Chats whose replies a commit deleted (a reset), with the first id after it: a hand-over of
    /// an older reply that comes after the reset's is not taken.
    private var emptiedBelow: [Int64: Int64] = [:]
    /// Edits taken out, for the sender to delete; and the ids of those not deleted yet.
    private var superseded: [QueuedReply] = []
    private var supersededIDs: Set<Int64> = []
    /// Numbers the chat reads, so the end of one cut short by a reset is told from a later one's.
    private var chatReadSerial = 0

    init(pacing: Pacing, capacity: Int = 10_000, chatShare: Int = 100) {
        self.pacing = pacing
        self.capacity = capacity
        self.chatShare = max(1, min(chatShare, capacity))
        recent = RecentSends(limit: pacing.recentLimit)
    }

    /// One lane in memory.
    private struct Lane {
        /// Each chat's messages in id order; the first is the one in flight, if any.
        var chats: [Int64: Deque<QueuedReply>] = [:]
        /// Chats whose first message may be due.
        var ready = ReadyChats()
        /// Replies held, answers included.
        var count = 0
        /// Whether memory holds every row of the lane; false at start.
        var complete = false
        /// When incomplete: every row below this id is held or gone.
        var readFrom = Int64.min
        /// The highest id a read has seen: a row at or below it was taken by a read or is gone,
        /// so a hand-over that comes later for it is not taken again.
        var readThrough = Int64.min
        var read: Read?
        /// Chats over their share, each with the lowest id of its rows not held: every row of the
        /// chat from it waits in the table, and every row below it is held or gone.
        var overflowing: [Int64: Int64] = [:]
        /// Overflowing chats with room again, to be read.
        var roomy: Set<Int64> = []
        var chatReads: [Int64: ChatRead] = [:]

        /// Whether memory holds every row of the lane.
        var holdsEveryRow: Bool { complete && overflowing.isEmpty }

        func held(_ chatID: Int64) -> Int { chats[chatID]?.count ?? 0 }
    }

    /// A read of one overflowing chat's rows under way.
    private struct ChatRead {
        var serial: Int
        var from: Int64
        var limit: Int
        /// The lowest id of a hand-over refused meanwhile.
        var refused: Int64?
    }

    /// What happened to a lane while its rows were being read, so the rows read are taken right.
    private struct Read {
        var from: Int64
        /// Sent and removed meanwhile: a row read may be one of them.
        var finished: Set<Int64> = []
        /// Chats whose rows were deleted meanwhile: their rows read may be gone already.
        var emptiedChats: Set<Int64> = []
        /// The lowest id of a hand-over refused meanwhile.
        var refused: Int64?
    }

    /// The chats of a lane whose first message may be due, in the order they take their turns:
    /// the earliest deadline first (a notice of rain in 15 minutes before one of rain in 40, and
    /// both before a warning good for hours), and in the order they became ready among equal
    /// deadlines or none, so a lane without deadlines is first come, first served.
    struct ReadyChats {
        private struct Entry: Comparable {
            var deadline: Double
            var turn: Int
            var chatID: Int64

            static func < (a: Entry, b: Entry) -> Bool { (a.deadline, a.turn) < (b.deadline, b.turn) }
        }

        private var heap = Heap<Entry>()
        private var members: Set<Int64> = []
        private var turns = 0

        var isEmpty: Bool { heap.isEmpty }
        var count: Int { heap.count }

        /// Puts the chat in line, by its first message's deadline, unless it is in line already.
        mutating func insert(_ chatID: Int64, deadline: Date?) {
            guard members.insert(chatID).inserted else { return }
            turns += 1
            heap.insert(Entry(deadline: deadline?.timeIntervalSince1970 ?? .infinity, turn: turns, chatID: chatID))
        }

        mutating func popFirst() -> Int64? {
            guard let entry = heap.popMin() else { return nil }
            members.remove(entry.chatID)
            return entry.chatID
        }
    }

    private struct Wake: Comparable {
        var time: Double
        var lane: OutboxLane
        var chatID: Int64

        static func < (a: Wake, b: Wake) -> Bool { a.time < b.time }
    }

    /// A run of bulk messages, from the first sent to the lane's being empty again.
    private struct Broadcast {
        var started: Double
        var sent = 0
        var dropped = 0
    }

    /// What the sender logs.
    enum Event: Equatable {
        /// `waiting` bulk messages are held; `more` when the table holds others besides.
        case broadcastStarted(waiting: Int, more: Bool)
        case broadcastFinished(sent: Int, dropped: Int, seconds: Double)
    }

    /// What to do next about messages.
    enum Next: Equatable {
        /// Send this reply now.
        case send(QueuedReply)
        /// Nothing may go before this time.
        case wait(until: Double)
        /// Nothing waits.
        case idle
    }

    // MARK: Counts

    func count(_ lane: OutboxLane) -> Int { lanes[lane.rawValue].count }
    var count: Int { lanes.map(\.count).reduce(0, +) }
    var messagesInFlight: Int { inFlight.count }
    var answersInFlight: Int { answerIDs.count - answers.count }
    /// Whether every reply held is in flight and the table holds no other: a reply leaving now
    /// frees a turn that nobody waits for.
    var holdsOnlyInFlight: Bool {
        count == messagesInFlight + answersInFlight && lanes.allSatisfy(\.holdsEveryRow)
    }
    func isComplete(_ lane: OutboxLane) -> Bool { lanes[lane.rawValue].holdsEveryRow }
    /// How many messages of the chat's lane are held.
    func held(_ chatID: Int64, _ lane: OutboxLane) -> Int { lanes[lane.rawValue].held(chatID) }
    /// Whether the chat has rows of the lane waiting in the table beyond its share.
    func isOverflowing(_ chatID: Int64, _ lane: OutboxLane) -> Bool { lanes[lane.rawValue].overflowing[chatID] != nil }

    /// Whether the reply is held.
    func holds(_ reply: QueuedReply) -> Bool {
        if reply.isAnswer { return answerIDs.contains(reply.id) }
        return lanes[reply.lane.rawValue].chats[reply.chatID]?.contains { $0.id == reply.id } ?? false
    }

    // MARK: Hand-over and reads

    /// Takes the replies one commit wrote. `emptying`: that commit first deleted every reply
    /// waiting for this chat (a reset), so those are forgotten; one in flight finishes, but is
    /// not tried again.
    mutating func accept(_ replies: [QueuedReply], emptying chatID: Int64? = nil) {
        if let chatID {
            forget(chatID, keepingInFlight: true)
            if emptiedBelow.count > 10_000 { emptiedBelow.removeAll() }
            emptiedBelow[chatID] = max(emptiedBelow[chatID] ?? .min, replies.map(\.id).min() ?? .max)
        }
        for reply in replies {
            let index = reply.lane.rawValue
            // Already taken by a read, or deleted by a reset committed after it.
            if reply.id <= lanes[index].readThrough || holds(reply) || reply.id < emptiedBelow[reply.chatID] ?? .min { continue }
            // Behind the chat's rows in the table: it waits there too, to keep the chat's order.
            if !reply.isAnswer && lanes[index].overflowing[reply.chatID] != nil {
                overflow(reply, in: index)
                continue
            }
            // Callback answers wait for no window: refused, they would be read back too late.
            guard reply.isAnswer || lanes[index].complete && lanes[index].count < capacity else {
                refuse(reply.id, in: index)
                continue
            }
            if !reply.isAnswer && lanes[index].held(reply.chatID) >= chatShare {
                overflow(reply, in: index)
                continue
            }
            insert(reply)
        }
    }

    /// Starting (again): every lane is read from the table before it takes hand-overs.
    mutating func readAll() {
        for index in lanes.indices where lanes[index].read == nil && lanes[index].chatReads.isEmpty {
            lanes[index].complete = false
            lanes[index].readFrom = .min
            lanes[index].overflowing = [:]
            lanes[index].roomy = []
        }
    }

    /// What to read from the table for `lane`, if it is incomplete and has room: rows with ids from
    /// `from`, at most `limit` (held ones among them). Until ``finishRead(_:rows:fetched:last:)``
    /// or ``readFailed(_:)``, no other read of the lane starts.
    mutating func startRead(_ lane: OutboxLane) -> (from: Int64, limit: Int)? {
        let index = lane.rawValue
        guard !lanes[index].complete, lanes[index].read == nil, lanes[index].count <= capacity / 2 else { return nil }
        lanes[index].read = Read(from: lanes[index].readFrom)
        return (lanes[index].readFrom, capacity)
    }

    /// Takes the rows a read found, until the lane is full: `rows` decoded, of `fetched` rows read
    /// in all, the last with id `last`.
    mutating func finishRead(_ lane: OutboxLane, rows: [QueuedReply], fetched: Int, last: Int64?) {
        let index = lane.rawValue
        guard let read = lanes[index].read else { return }
        lanes[index].read = nil
        var readFrom: Int64? = fetched == capacity ? (last ?? read.from) + 1 : nil
        if let last { lanes[index].readThrough = max(lanes[index].readThrough, last) }
        for row in rows where !holds(row) && !read.finished.contains(row.id) && !supersededIDs.contains(row.id) {
            // A row of a chat emptied meanwhile may be gone already: it is read again.
            if read.emptiedChats.contains(row.chatID) || lanes[index].count >= capacity {
                readFrom = min(readFrom ?? row.id, row.id)
            } else if row.isAnswer {
                insert(row)
            } else if lanes[index].overflowing[row.chatID] != nil || lanes[index].held(row.chatID) >= chatShare {
                // The chat's own reads take it.
                overflow(row, in: index)
            } else {
                insert(row)
            }
        }
        if let refused = read.refused { readFrom = min(readFrom ?? refused, refused) }
        lanes[index].complete = readFrom == nil
        lanes[index].readFrom = readFrom ?? .min
    }

    /// The read failed; the lane stays incomplete and is read again.
    mutating func readFailed(_ lane: OutboxLane) {
        let index = lane.rawValue
        guard let read = lanes[index].read else { return }
        lanes[index].read = nil
        if let refused = read.refused { lanes[index].readFrom = min(lanes[index].readFrom, refused) }
    }

    /// Rows of overflowing chats to read now: for each, the chat, where its rows start and how
    /// many to read, and the read's number for ``finishChatRead(_:serial:chatID:rows:fetched:last:)``.
    /// A chat is read once half its share is sent, while the lane has room.
    mutating func startChatReads(_ lane: OutboxLane) -> [(chatID: Int64, from: Int64, limit: Int, serial: Int)] {
        let index = lane.rawValue
        var reads: [(chatID: Int64, from: Int64, limit: Int, serial: Int)] = []
        while lanes[index].count < capacity, let chatID = lanes[index].roomy.popFirst() {
            guard let from = lanes[index].overflowing[chatID], lanes[index].chatReads[chatID] == nil else { continue }
            chatReadSerial += 1
            let limit = min(chatShare - lanes[index].held(chatID), capacity - lanes[index].count)
            lanes[index].chatReads[chatID] = ChatRead(serial: chatReadSerial, from: from, limit: limit)
            reads.append((chatID, from, limit, chatReadSerial))
        }
        return reads
    }

    /// Takes the rows a chat's read found, as ``finishRead(_:rows:fetched:last:)`` does for a lane.
    mutating func finishChatRead(_ lane: OutboxLane, serial: Int, chatID: Int64, rows: [QueuedReply], fetched: Int, last: Int64?) {
        let index = lane.rawValue
        // A reset or a refusal emptied the chat meanwhile: what was read may be gone.
        guard let read = lanes[index].chatReads[chatID], read.serial == serial else { return }
        lanes[index].chatReads[chatID] = nil
        var next: Int64? = fetched == read.limit ? (last ?? read.from) + 1 : nil
        for row in rows where !holds(row) && !supersededIDs.contains(row.id) {
            guard lanes[index].held(chatID) < chatShare && lanes[index].count < capacity else {
                next = min(next ?? row.id, row.id)
                break
            }
            insert(row)
        }
        if let refused = read.refused { next = min(next ?? refused, refused) }
        lanes[index].overflowing[chatID] = next
        if next != nil { chatShrank(chatID, in: index) }
    }

    /// A chat's read failed: it is read again.
    mutating func chatReadFailed(_ lane: OutboxLane, serial: Int, chatID: Int64) {
        let index = lane.rawValue
        guard let read = lanes[index].chatReads[chatID], read.serial == serial else { return }
        lanes[index].chatReads[chatID] = nil
        if let refused = read.refused { lanes[index].overflowing[chatID] = min(lanes[index].overflowing[chatID] ?? refused, refused) }
        chatShrank(chatID, in: index)
    }

    /// A chat's row not taken for its share: it waits in the table for the chat's reads.
    private mutating func overflow(_ reply: QueuedReply, in index: Int) {
        if lanes[index].chatReads[reply.chatID] != nil {
            lanes[index].chatReads[reply.chatID]!.refused = min(lanes[index].chatReads[reply.chatID]!.refused ?? reply.id, reply.id)
        } else {
            lanes[index].overflowing[reply.chatID] = min(lanes[index].overflowing[reply.chatID] ?? reply.id, reply.id)
            chatShrank(reply.chatID, in: index)
        }
    }

    /// The chat holds fewer messages: an overflowing one is read once half its share is free.
    private mutating func chatShrank(_ chatID: Int64, in index: Int) {
        guard lanes[index].overflowing[chatID] != nil, lanes[index].held(chatID) <= chatShare / 2 else { return }
        lanes[index].roomy.insert(chatID)
    }

    private mutating func refuse(_ id: Int64, in index: Int) {
        if lanes[index].read != nil {
            lanes[index].read!.refused = min(lanes[index].read!.refused ?? id, id)
        } else if lanes[index].complete {
            lanes[index].complete = false
            lanes[index].readFrom = id
        } else {
            lanes[index].readFrom = min(lanes[index].readFrom, id)
        }
    }

    private mutating func insert(_ reply: QueuedReply) {
        let index = reply.lane.rawValue
        lanes[index].count += 1
        if reply.isAnswer {
            answerIDs.insert(reply.id)
            answers.append(reply)
            return
        }
        var queue = lanes[index].chats[reply.chatID] ?? []
        let position: Int
        // A chat's rows arrive in id order but for a read that overlaps hand-overs.
        if let last = queue.last, last.id > reply.id {
            position = max(queue.firstIndex { $0.id > reply.id } ?? queue.endIndex, inFlight[reply.chatID] == queue.first?.id ? 1 : 0)
            queue.insert(reply, at: position)
        } else {
            position = queue.endIndex
            queue.append(reply)
        }
        if reply.request.isEdit { collapse(&queue, at: position, in: index) }
        lanes[index].chats[reply.chatID] = queue
        markReady(reply.chatID, in: index)
    }

    /// Takes out the edits the one at `position` makes pointless, or the edit itself when a later
    /// one waiting makes it so. The message in flight is never taken out, and no edit is taken
    /// out across a new message sent under its tag.
    private mutating func collapse(_ queue: inout Deque<QueuedReply>, at position: Int, in index: Int) {
        let edit = queue[position].request
        for later in queue[(position + 1)...] {
            if later.request.retags(edit.tag) { break }
            if later.request.supersedes(edit) { return supersede(queue.remove(at: position), in: index) }
        }
        let first = inFlight[queue[position].chatID] == queue.first?.id ? 1 : 0
        var earlier = position - 1
        while earlier >= first, !queue[earlier].request.retags(edit.tag) {
            if edit.supersedes(queue[earlier].request) { supersede(queue.remove(at: earlier), in: index) }
            earlier -= 1
        }
    }

    private mutating func supersede(_ reply: QueuedReply, in index: Int) {
        lanes[index].count -= 1
        superseded.append(reply)
        supersededIDs.insert(reply.id)
        chatShrank(reply.chatID, in: index)
    }

    /// The edits taken out since the last call, for the sender to delete their rows and then call
    /// ``deletedSuperseded(_:)``.
    mutating func takeSuperseded() -> [QueuedReply] {
        defer { superseded.removeAll() }
        return superseded
    }

    /// A superseded edit's row is deleted: no read can find it any more. (One that could not be
    /// deleted stays kept out until a restart reads it, and it collapses again or goes.)
    mutating func deletedSuperseded(_ id: Int64) {
        supersededIDs.remove(id)
    }

    // MARK: What goes next

    /// The next callback answer due at `now`, if one waits; it is held until ``finish(_:delivered:at:)``.
    mutating func nextAnswer(at now: Double) -> QueuedReply? {
        guard let position = answers.firstIndex(where: { $0.notBefore <= now }) else { return nil }
        return answers.remove(at: position)
    }

    /// When the earliest answer waiting for a retry is due.
    var nextAnswerRetry: Double? { answers.lazy.map(\.notBefore).min() }

    /// When an answer may go next, if one waits: nil also while `limit` are in flight, since the
    /// end of one of those wakes the sender anyway.
    func nextAnswerDue(inFlightLimit limit: Int) -> Double? {
        answersInFlight < limit ? nextAnswerRetry : nil
    }

    /// Decides about messages at `now`: the one to send (its chat becomes busy and the rates count
    /// it), or how long nothing may go.
    mutating func nextMessage(at now: Double) -> Next {
        while let wake = later.min, wake.time <= now {
            later.removeMin()
            markReady(wake.chatID, in: wake.lane.rawValue)
        }
        let interactive = OutboxLane.interactive.rawValue, notice = OutboxLane.notice.rawValue, bulk = OutboxLane.bulk.rawValue
        guard lanes.contains(where: { !$0.ready.isEmpty }) else {
            return later.min.map { .wait(until: $0.time) } ?? .idle
        }
        let slot = pacing.global.earliest(notBefore: now)
        if slot > now { return .wait(until: slot) }
        if let wait = recent.wait(at: now) { return .wait(until: wait) }
        let bulkOwed = pacing.bulkShare.map { $0.earliest(notBefore: now) <= now } ?? false
        // Bulk's owed slot waits while notices do: they are late in minutes, forecasts are not.
        let order = bulkOwed && !lanes[bulk].ready.isEmpty && lanes[notice].ready.isEmpty ? [bulk, interactive, notice] : [interactive, notice, bulk]
        for index in order {
            guard let reply = takeReady(index, at: now) else { continue }
            pacing.global.consume(at: now, forgivingLateness: true)
            var cell = chatCells[reply.chatID] ?? pacing.chatCell()
            cell.consume(at: now)
            chatCells[reply.chatID] = cell
            if chatCells.count > 10_000 { chatCells = chatCells.filter { $0.value.arrival > now } }
            // The share keeps its schedule when its slots come late, as the overall rate does.
            if index == bulk { pacing.bulkShare?.consume(at: now, forgivingLateness: true) }
            recent.start()
            inFlight[reply.chatID] = reply.id
            if index == bulk && broadcast == nil {
                broadcast = Broadcast(started: now)
                events.append(.broadcastStarted(waiting: lanes[bulk].count, more: !lanes[bulk].holdsEveryRow))
            }
            return .send(reply)
        }
        return later.min.map { .wait(until: $0.time) } ?? .idle
    }

    /// The first ready chat of the lane whose message may go at `now`; chats that must wait are
    /// set aside until their time.
    private mutating func takeReady(_ index: Int, at now: Double) -> QueuedReply? {
        while let chatID = lanes[index].ready.popFirst() {
            guard inFlight[chatID] == nil, let head = lanes[index].chats[chatID]?.first else { continue }
            let due = max(head.notBefore, chatCells[chatID]?.earliest(notBefore: now) ?? now)
            if due > now {
                later.insert(Wake(time: due, lane: OutboxLane(rawValue: index)!, chatID: chatID))
                continue
            }
            return head
        }
        return nil
    }

    private mutating func markReady(_ chatID: Int64, in index: Int) {
        guard let head = lanes[index].chats[chatID]?.first else { return }
        lanes[index].ready.insert(chatID, deadline: head.deadline)
    }

    // MARK: Outcomes

    /// A message's request is over (answered or failed) at `now`: the overall count needs it.
    mutating func answered(at now: Double) {
        recent.answered(at: now)
    }

    /// The reply left the outbox at `now`: delivered, or given up (`delivered` false).
    mutating func finish(_ reply: QueuedReply, delivered: Bool = true, at now: Double) {
        let index = reply.lane.rawValue
        void.remove(reply.id)
        if reply.isAnswer {
            guard answerIDs.remove(reply.id) != nil else { return }
        } else {
            if inFlight[reply.chatID] == reply.id { inFlight[reply.chatID] = nil }
            guard var queue = lanes[index].chats[reply.chatID], let position = queue.firstIndex(where: { $0.id == reply.id }) else { return }
            queue.remove(at: position)
            lanes[index].chats[reply.chatID] = queue.isEmpty ? nil : queue
            for lane in lanes.indices { markReady(reply.chatID, in: lane) }
            chatShrank(reply.chatID, in: index)
        }
        lanes[index].count -= 1
        lanes[index].read?.finished.insert(reply.id)
        if reply.lane == .bulk {
            if delivered { broadcast?.sent += 1 } else { broadcast?.dropped += 1 }
            endBroadcastIfDone(at: now)
        }
    }

    /// The reply stays, to be tried again no earlier than `notBefore`; a reply whose row a reset
    /// deleted meanwhile is let go instead.
    mutating func retry(_ reply: QueuedReply, notBefore: Double, at now: Double) {
        if void.contains(reply.id) { return finish(reply, delivered: false, at: now) }
        var again = reply
        again.attempts += 1
        again.notBefore = notBefore
        if reply.isAnswer {
            answers.append(again)
            return
        }
        let index = reply.lane.rawValue
        if var queue = lanes[index].chats[reply.chatID], queue.first?.id == reply.id {
            queue[0] = again
            lanes[index].chats[reply.chatID] = queue
        }
        if inFlight[reply.chatID] == reply.id { inFlight[reply.chatID] = nil }
        for lane in lanes.indices { markReady(reply.chatID, in: lane) }
    }

    /// A message sent outside the lanes (an edit of an inline message, which no chat holds and
    /// nothing stores), keyed by what it edits, one at a time per key: nil when it may go at
    /// `now`, and then counted as one of the overall rate; else when to ask again. Its end is
    /// told with ``answered(_:at:)``.
    mutating func takeSlot(for key: String, at now: Double) -> Double? {
        let due = max(pacing.global.earliest(notBefore: now), unstoredCells[key]?.earliest(notBefore: now) ?? now)
        if due > now { return due }
        if let wait = recent.wait(at: now) { return wait }
        pacing.global.consume(at: now, forgivingLateness: true)
        recent.start()
        return nil
    }

    /// A message sent outside the lanes is over at `now`. It counts for its key's pace as it is
    /// answered, the latest Telegram may have counted it: a request that took long to arrive
    /// never lets the next come less than a chat's interval after it.
    mutating func answered(_ key: String, at now: Double) {
        answered(at: now)
        var cell = unstoredCells[key] ?? pacing.chatCell()
        cell.consume(at: now)
        unstoredCells[key] = cell
        if unstoredCells.count > 10_000 { unstoredCells = unstoredCells.filter { $0.value.arrival > now } }
    }

    /// Telegram said to wait: no message goes before `seconds` from `now`.
    mutating func pause(for seconds: Double, at now: Double) {
        pacing.global.arrival = max(pacing.global.arrival, now + seconds + pacing.global.tolerance)
    }

    /// Forgets every message of a chat the bot may no longer write to (its rows were deleted);
    /// `failed` is the reply that was refused.
    mutating func drop(chatID: Int64, failed: QueuedReply, at now: Double) {
        if failed.isAnswer {
            finish(failed, delivered: false, at: now)
        } else if inFlight[chatID] == failed.id {
            inFlight[chatID] = nil
        }
        // A refused answer leaves the chat's message in flight, if one is, to finish.
        forget(chatID, keepingInFlight: failed.isAnswer)
        endBroadcastIfDone(at: now)
    }

    private mutating func forget(_ chatID: Int64, keepingInFlight: Bool) {
        let flying = keepingInFlight ? inFlight[chatID] : nil
        for index in lanes.indices {
            lanes[index].read?.emptiedChats.insert(chatID)
            // Its rows in the table are deleted with it; a read of them under way is let go.
            lanes[index].overflowing[chatID] = nil
            lanes[index].roomy.remove(chatID)
            lanes[index].chatReads[chatID] = nil
            guard let queue = lanes[index].chats[chatID] else { continue }
            let kept = queue.filter { $0.id == flying }
            lanes[index].count -= queue.count - kept.count
            if index == OutboxLane.bulk.rawValue { broadcast?.dropped += queue.count - kept.count }
            lanes[index].chats[chatID] = kept.isEmpty ? nil : Deque(kept)
        }
        if let flying { void.insert(flying) }
    }

    private mutating func endBroadcastIfDone(at now: Double) {
        let bulk = OutboxLane.bulk.rawValue
        guard let run = broadcast, lanes[bulk].count == 0, lanes[bulk].holdsEveryRow else { return }
        events.append(.broadcastFinished(sent: run.sent, dropped: run.dropped, seconds: now - run.started))
        broadcast = nil
    }

    /// What happened since the last call, for the log.
    mutating func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }
}
