import Foundation
import WeatherBotStore

/// The sender's schedule of waiting replies: a window over the outbox table in id order, so the
/// database is only asked for what is new. Each chat's replies go out one at a time, in order;
/// chats take turns in the order their replies became ready.
struct OutboxQueue {
    /// The most replies held; the rest wait in the table and are read as these leave.
    let capacity: Int
    /// The highest id read from the table.
    private(set) var lastID: Int64 = 0
    /// Whether the last read stopped at `capacity`, so the table may hold more than was read.
    private var truncated = false
    private(set) var count = 0

    private var chats: [Int64: [OutboxEntry]] = [:]
    /// Chats with a reply being delivered: their next waits.
    private var busy: Set<Int64> = []
    /// Chats whose first reply can go as soon as there is room, in the order they became ready.
    private var ready: [Int64] = []
    private var readyHead = 0
    private var isReady: Set<Int64> = []
    /// Chats whose first reply waits for its time (a retry after a failure).
    private var later: Set<Int64> = []

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    var inFlight: Int { busy.count }
    /// How many more replies fit in the window.
    var room: Int { capacity - count }
    /// Whether the table may hold replies the window has no room for yet.
    var wantsMore: Bool { truncated && count < capacity / 2 }

    /// Takes replies read from the table (ids above `lastID`, in order).
    mutating func add(_ entries: [OutboxEntry], truncated: Bool) {
        self.truncated = truncated
        for entry in entries where entry.id > lastID {
            lastID = entry.id
            chats[entry.chatId, default: []].append(entry)
            count += 1
            if !busy.contains(entry.chatId) && !later.contains(entry.chatId) { markReady(entry.chatId) }
        }
    }

    /// Whether the reply was read from the table and has not left the window since.
    func holds(_ id: Int64, chatID: Int64) -> Bool {
        chats[chatID]?.contains { $0.id == id } ?? false
    }

    /// The next reply to deliver whose time has come, marking its chat busy.
    mutating func next(now: Date) -> OutboxEntry? {
        if !later.isEmpty { wakeLater(now: now) }
        while readyHead < ready.count {
            let chatID = ready[readyHead]
            readyHead += 1
            if readyHead > 1024 && readyHead * 2 > ready.count {
                ready.removeFirst(readyHead)
                readyHead = 0
            }
            isReady.remove(chatID)
            guard !busy.contains(chatID), let head = chats[chatID]?.first else { continue }
            if head.notBefore > now {
                later.insert(chatID)
                continue
            }
            busy.insert(chatID)
            return head
        }
        return nil
    }

    /// The chat's reply left the outbox (delivered or given up); its next one may go.
    mutating func finish(_ entry: OutboxEntry) {
        remove(entry)
        busy.remove(entry.chatId)
        if chats[entry.chatId] != nil { markReady(entry.chatId) }
    }

    /// The chat's reply stays, to be tried again no earlier than `notBefore`.
    mutating func retry(_ entry: OutboxEntry, notBefore: Date) {
        if var queue = chats[entry.chatId], queue.first?.id == entry.id {
            queue[0].attempts += 1
            queue[0].notBefore = notBefore
            chats[entry.chatId] = queue
        }
        busy.remove(entry.chatId)
        later.insert(entry.chatId)
    }

    /// Forgets every reply of a chat whose outbox was emptied (the bot may no longer write there).
    mutating func drop(chatID: Int64) {
        count -= chats.removeValue(forKey: chatID)?.count ?? 0
        busy.remove(chatID)
        later.remove(chatID)
    }

    /// When the earliest waiting retry becomes due, if one waits.
    var nextRetry: Date? {
        later.compactMap { chats[$0]?.first?.notBefore }.min()
    }

    private mutating func wakeLater(now: Date) {
        for chatID in later where (chats[chatID]?.first?.notBefore ?? .distantPast) <= now {
            later.remove(chatID)
            if chats[chatID] != nil { markReady(chatID) }
        }
    }

    private mutating func markReady(_ chatID: Int64) {
        if isReady.insert(chatID).inserted { ready.append(chatID) }
    }

    private mutating func remove(_ entry: OutboxEntry) {
        guard var queue = chats[entry.chatId], let index = queue.firstIndex(where: { $0.id == entry.id }) else { return }
        queue.remove(at: index)
        count -= 1
        chats[entry.chatId] = queue.isEmpty ? nil : queue
    }
}
