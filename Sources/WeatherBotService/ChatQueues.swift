import DequeModule
public import TelegramBotAPI
public import WeatherBotStore

/// An inbox item on its way to its chat, with its update when the intake just decoded it, so it
/// is not decoded again.
public struct QueuedItem: Sendable {
    public var item: InboxItem
    public var update: Update?

    public init(_ item: InboxItem, update: Update? = nil) {
        self.item = item
        self.update = update
    }
}

/// The chats' queues of inbox items: which chat goes next, and which item of it. No I/O: the
/// workers decide with it and do the work.
///
/// Each inbox item is queued once, however it comes (handed over by the intake, adopted from the
/// shared inbox, a follow-up), until it was handled. Chats with items and none being handled wait
/// in the order their first item came.
struct ChatQueues {
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

    /// Queues items at the end of their chats' queues; returns whether any was new.
    @discardableResult
    mutating func enqueue(_ items: [QueuedItem]) -> Bool {
        var queued = false
        for queuedItem in items {
            let item = queuedItem.item
            if let seq = item.seq, !known.insert(seq).inserted { continue }
            append(queuedItem)
            queued = true
        }
        return queued
    }

    /// The shared inbox is about to be read: items finished from now on are remembered, so that
    /// the read's answer does not bring them back (``adopt(_:)``).
    mutating func beginAdoption() {
        finishedDuringRead = []
    }

    /// Queues the items of a read of the shared inbox that are neither known nor finished since
    /// ``beginAdoption()``, each before its chat's items that came later; returns how many.
    mutating func adopt(_ items: [InboxItem]) -> Int {
        let finished = finishedDuringRead ?? []
        finishedDuringRead = nil
        var adopted = 0
        for item in items {
            guard let seq = item.seq, !finished.contains(seq), known.insert(seq).inserted else { continue }
            // Before the chat's items queued here that came later (posted to this replica meanwhile).
            let position = pending[item.chatId].map { queue in queue.firstIndex { ($0.item.seq ?? .max) > seq } ?? queue.endIndex } ?? 0
            pending[item.chatId, default: []].insert(QueuedItem(item), at: position)
            backlog += 1
            adopted += 1
            if pending[item.chatId]?.count == 1 && !running.contains(item.chatId) { ready.append(item.chatId) }
        }
        return adopted
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
            pending[item.chatId, default: []].append(QueuedItem(item))
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
        guard !stopping, let next = pending[chatID]?.popFirst() else {
            running.remove(chatID)
            if pending[chatID]?.isEmpty ?? false { pending[chatID] = nil }
            return nil
        }
        backlog -= 1
        return next
    }

    private mutating func append(_ queuedItem: QueuedItem) {
        let chatID = queuedItem.item.chatId
        pending[chatID, default: []].append(queuedItem)
        backlog += 1
        if pending[chatID]!.count == 1 && !running.contains(chatID) { ready.append(chatID) }
    }
}
