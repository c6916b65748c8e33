import DequeModule
public import TelegramBotAPI
public import WeatherBotStore

/// An inbox item on its way to its chat, with its update when the intake just decoded it, so it
/// is not decoded again.
public struct QueuedItem: Sendable {
    /// The item as committed, or as the batch will commit it.
    public var item: InboxItem
    /// The update decoded from the item's payload; nil for a follow-up, or when the item was read back from the store.
    public var update: Update?
    /// The chat sent faster than it is answered and its oldest waiting updates were dropped:
    /// this item's step tells it so, once a flood.
    var tellsOfFlood = false
    /// The batch the item came in, not stored yet (the item has no `seq`): its step is offered
    /// to it, to be committed with it.
    var receipt: PendingReceipt?
    /// Told once the item was handled, its step committed or not (dropped in a flood, set aside
    /// after failing): a change the Mini App asked for waits for it.
    var handled: (@Sendable () -> Void)?

    /// An item to queue, with its update when it was decoded already.
    public init(_ item: InboxItem, update: Update? = nil, handled: (@Sendable () -> Void)? = nil) {
        self.item = item
        self.update = update
        self.handled = handled
    }
}

/// The chats' queues of inbox items: which chat goes next, and which item of it. No I/O: the
/// workers decide with it and do the work.
///
/// Each inbox item is queued once, however it comes (handed over by the intake, adopted from the
/// shared inbox, a follow-up), until it was handled. Chats with items and none being handled wait
/// in the order their first item came.
///
/// A chat holds at most `chatLimit` updates waiting: one that sends faster than it is answered
/// (a flood) has its oldest waiting updates dropped, so it is answered on its latest ones, its
/// backlog stays small and the intake's room (``backlog``) stays every other chat's. The next
/// item of a flooding chat is marked to tell it so, once until its queue runs dry. Follow-ups,
/// the bot's own continuations, are never dropped.
struct ChatQueues {
    /// The updates a chat may have waiting; beyond them, the oldest are dropped.
    let chatLimit: Int
    private var pending: [Int64: Deque<QueuedItem>] = [:]
    /// The inbox items queued or being handled.
    private var known: Set<Int64> = []
    /// While the inbox is read for items other replicas took, the items finished meanwhile: the
    /// read may still see them.
    private var finishedDuringRead: Set<Int64>?
    private var ready = Deque<Int64>()
    /// The chats whose items are being handled.
    private(set) var running: Set<Int64> = []
    /// Items queued and not yet taken.
    private(set) var backlog = 0
    /// Chats that dropped updates and are still to be told, and those told during this flood.
    private var flooding: Set<Int64> = []
    private var told: Set<Int64> = []

    init(chatLimit: Int = 50) {
        self.chatLimit = max(chatLimit, 1)
    }

    /// What a hand-over did: whether any item was new, the updates dropped to make room in
    /// their chats (to be removed from the inbox), and the items of a batch not stored yet that
    /// wait behind others (their chat's, or other chats' for a free worker).
    struct Queued {
        var any = false
        var dropped: [QueuedItem] = []
        var behind: [QueuedItem] = []
    }

    /// Queues items at the end of their chats' queues, dropping the oldest waiting updates of a
    /// chat beyond ``chatLimit``. `chatsAtOnce` is how many chats the workers run together.
    @discardableResult
    mutating func enqueue(_ items: [QueuedItem], chatsAtOnce: Int = .max) -> Queued {
        var result = Queued()
        var grown: Set<Int64> = []
        for queuedItem in items {
            let item = queuedItem.item
            if let seq = item.seq, !known.insert(seq).inserted { continue }
            if queuedItem.receipt != nil {
                let startsAtOnce = pending[item.chatID] == nil && !running.contains(item.chatID) && running.count + ready.count < chatsAtOnce
                if !startsAtOnce { result.behind.append(queuedItem) }
            }
            append(queuedItem)
            grown.insert(item.chatID)
            result.any = true
        }
        for chatID in grown { result.dropped += trim(chatID) }
        return result
    }

    /// The shared inbox is about to be read: items finished from now on are remembered, so that
    /// the read's answer does not bring them back (``adopt(_:)``).
    mutating func beginAdoption() {
        finishedDuringRead = []
    }

    /// Queues the items of a read of the shared inbox that are neither known nor finished since
    /// ``beginAdoption()``, each before its chat's items that came later; returns how many, and
    /// the updates dropped to make room in their chats.
    mutating func adopt(_ items: [InboxItem]) -> (adopted: Int, dropped: [QueuedItem]) {
        let finished = finishedDuringRead ?? []
        finishedDuringRead = nil
        var adopted = 0
        var grown: Set<Int64> = []
        for item in items {
            guard let seq = item.seq, !finished.contains(seq), known.insert(seq).inserted else { continue }
            // Before the chat's items queued here that came later (posted to this replica meanwhile).
            let position = pending[item.chatID].map { queue in queue.firstIndex { ($0.item.seq ?? .max) > seq } ?? queue.endIndex } ?? 0
            pending[item.chatID, default: []].insert(QueuedItem(item), at: position)
            backlog += 1
            adopted += 1
            if pending[item.chatID]?.count == 1 && !running.contains(item.chatID) { ready.append(item.chatID) }
            grown.insert(item.chatID)
        }
        return (adopted, grown.flatMap { trim($0) })
    }

    /// A read of the shared inbox failed: nothing is adopted.
    mutating func abandonAdoption() {
        finishedDuringRead = nil
    }

    /// Follow-ups a step wrote: at the end of their chat's queue, which is running and will reach
    /// them.
    mutating func enqueueFollowUps(_ items: [InboxItem]) {
        for item in items {
            if let seq = item.seq { known.insert(seq) }
            pending[item.chatID, default: []].append(QueuedItem(item))
            backlog += 1
        }
    }

    /// The next chat to start, when fewer than `limit` run: it runs until ``take(_:finished:stopping:)``
    /// finds its queue empty.
    mutating func startNextChat(limit: Int) -> Int64? {
        guard running.count < limit, let chatID = ready.popFirst() else { return nil }
        running.insert(chatID)
        return chatID
    }

    /// The running chat's next item, or nil (and the chat stops running) when it has none or
    /// `stopping`; `finished` is the item handled before, which may now be queued again should it
    /// come.
    mutating func take(_ chatID: Int64, finished: Int64?, stopping: Bool) -> QueuedItem? {
        if let finished {
            known.remove(finished)
            finishedDuringRead?.insert(finished)
        }
        guard !stopping, var next = pending[chatID]?.popFirst() else {
            running.remove(chatID)
            if pending[chatID]?.isEmpty ?? false {
                pending[chatID] = nil
                // Caught up: a flood after this one is told of again.
                told.remove(chatID)
            }
            return nil
        }
        backlog -= 1
        if flooding.remove(chatID) != nil, told.insert(chatID).inserted { next.tellsOfFlood = true }
        return next
    }

    /// Drops the oldest waiting updates of a chat beyond ``chatLimit``; returns them.
    private mutating func trim(_ chatID: Int64) -> [QueuedItem] {
        guard var queue = pending[chatID] else { return [] }
        var updates = queue.lazy.filter { $0.item.kind == .update }.count
        guard updates > chatLimit else { return [] }
        var dropped: [QueuedItem] = []
        var kept = Deque<QueuedItem>()
        for queued in queue {
            if updates > chatLimit && queued.item.kind == .update {
                updates -= 1
                dropped.append(queued)
                if let seq = queued.item.seq {
                    known.remove(seq)
                    // A read of the shared inbox under way may still see it: not to be adopted.
                    finishedDuringRead?.insert(seq)
                }
            } else {
                kept.append(queued)
            }
        }
        queue = kept
        pending[chatID] = queue
        backlog -= dropped.count
        flooding.insert(chatID)
        return dropped
    }

    private mutating func append(_ queuedItem: QueuedItem) {
        let chatID = queuedItem.item.chatID
        pending[chatID, default: []].append(queuedItem)
        backlog += 1
        if pending[chatID]!.count == 1 && !running.contains(chatID) { ready.append(chatID) }
    }
}
