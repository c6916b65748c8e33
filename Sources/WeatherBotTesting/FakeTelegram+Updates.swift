import Foundation

/// An update waiting to go out.
struct Queued: Sendable {
    var id: Int
    var json: Data
    var chat: Int64
    var callbackQueryID: String?
    /// The replies its chat must have received before it comes out (a press after its message).
    var shownAfter = 0
    /// Its place in the schedule, when it is released over time; nil: out at once.
    var releaseIndex: Int?
    /// Seconds from the schedule's start to its release, when the schedule says; else its place
    /// times the interval.
    var releaseAfter: Double?
    /// Confirmed by an offset, or answered 2xx by the webhook.
    var done = false
    var handedOut = false
}

/// The updates, in order, and what is known of how far each chat and the bot got.
struct Feed: Sendable {
    var updates: [Queued] = []
    /// The first update not done.
    var head = 0
    var pending = 0
    /// Ids that are not increasing (started anew, or wrapped past the top): offsets are applied
    /// to every waiting update rather than from the head.
    var irregular = false
    /// Ids started anew lower than before, as after a quiet week: an offset above every waiting
    /// update confirms none of them.
    var rebased = false
    /// Each chat's updates by index, and the position of the first one not done.
    var byChat: [Int64: [Int]] = [:]
    var chatHead: [Int64: Int] = [:]
    /// Replies each chat received.
    var received: [Int64: Int] = [:]
    var callbackChats: [String: Int64] = [:]
    /// The updates released over time, by index.
    var scheduled: [Int] = []
    /// Each scheduled update's release, in seconds from the start; never decreasing.
    var offsets: [Double] = []
    var firstPoll: Date?
    var origin: Date?
    /// The press a getUpdates stopped at because its message has not come yet, and when the last
    /// such press came out.
    var heldAt: Int?
    var heldUntil: Date?

    mutating func append(_ update: Queued, interval: Double? = nil) {
        if let last = updates.last, update.id <= last.id { irregular = true }
        let index = updates.count
        updates.append(update)
        pending += 1
        byChat[update.chat, default: []].append(index)
        if let query = update.callbackQueryID { callbackChats[query] = update.chat }
        if let position = update.releaseIndex, let interval {
            scheduled.append(index)
            offsets.append(max(update.releaseAfter ?? Double(position) * interval, offsets.last ?? 0))
        }
    }

    func isReleased(_ index: Int, at now: Date, _ release: FakeTelegram.Release?) -> Bool {
        releaseTime(index, release).map { $0 <= now } ?? false
    }

    /// When an update is (or was) released; nil while its release has not started.
    func releaseTime(_ index: Int, _ release: FakeTelegram.Release?) -> Date? {
        guard let position = updates[index].releaseIndex else { return .distantPast }
        guard let origin, release != nil else { return nil }
        return origin.addingTimeInterval(offsets[position])
    }

    /// Scheduled updates released by `now`.
    func releasedCount(at now: Date, _ release: FakeTelegram.Release?) -> Int {
        guard let origin, release != nil else { return 0 }
        let elapsed = now.timeIntervalSince(origin)
        // The first offset past `elapsed`, by bisection.
        var low = 0, high = offsets.count
        while low < high {
            let middle = (low + high) / 2
            if offsets[middle] <= elapsed { low = middle + 1 } else { high = middle }
        }
        return low
    }

    mutating func markDone(_ index: Int) {
        guard !updates[index].done else { return }
        updates[index].done = true
        updates[index].json = Data()
        pending -= 1
    }

    /// Confirms every update below `offset`, as getUpdates does.
    mutating func confirm(below offset: Int?) {
        guard let offset else { return }
        if irregular {
            let waiting = updates[head...].filter { !$0.done }
            if rebased, let highest = waiting.map(\.id).max(), offset - 1 > highest { return }
            for index in head..<updates.count where !updates[index].done && updates[index].id < offset { markDone(index) }
        } else {
            while head < updates.count, updates[head].done || updates[head].id < offset {
                markDone(head)
                head += 1
            }
        }
        while head < updates.count, updates[head].done { head += 1 }
    }

    /// The index of a chat's next update not done.
    mutating func next(of chat: Int64) -> Int? {
        guard let indices = byChat[chat] else { return nil }
        var position = chatHead[chat] ?? 0
        while position < indices.count, updates[indices[position]].done { position += 1 }
        chatHead[chat] = position
        return position < indices.count ? indices[position] : nil
    }

    func isHeld(_ index: Int) -> Bool {
        updates[index].shownAfter > received[updates[index].chat] ?? 0
    }
}

extension FakeTelegram {
    /// getUpdates: a long poll held until something comes out or its timeout (at most
    /// ``longestPoll`` seconds) passes.
    func getUpdates(_ body: [String: Any]) async -> LoopbackResponse {
        guard polling else {
            // Nothing for a worker that polls: it is not in webhook mode.
            try? await Task.sleep(for: .seconds(1))
            return .json(["ok": true, "result": [Any]()])
        }
        let offset = body["offset"] as? Int
        let limit = min(max(body["limit"] as? Int ?? 100, 1), 100)
        let deadline = Date().addingTimeInterval(Double(min(body["timeout"] as? Int ?? 0, Self.longestPoll)))
        while true {
            var batch: [Data]?
            // How long to sleep before looking again, when only time can bring something: a
            // release to come, or a press held back for its message (looked at again in 2 ms as
            // its chat's replies arrive; waking at each reply would hand presses out one by one).
            var sleep: Double?
            // The deadline's timer is a child of this request's own: it ends with the wait.
            await withDiscardingTaskGroup { timers in
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waiter = state.withLock { state -> (id: Int, seconds: Double)? in
                        let now = Date()
                        if state.feed.firstPoll == nil { state.feed.firstPoll = now }
                        if release?.start == .firstPoll && state.feed.origin == nil { state.feed.origin = now }
                        state.feed.confirm(below: offset)
                        let out = handOut(limit: limit, at: now, &state)
                        if !out.isEmpty || now >= deadline {
                            batch = out
                            return nil
                        }
                        let next = state.feed.heldAt != nil ? now.addingTimeInterval(0.002) : nextRelease(state.feed, after: now)
                        if let next, next < deadline {
                            sleep = max(next.timeIntervalSince(now), 0.0002)
                            return nil
                        }
                        // Nothing until a new update comes, or the deadline.
                        let id = state.nextWaiter
                        state.nextWaiter += 1
                        state.waiters[id] = continuation
                        return (id, max(deadline.timeIntervalSince(now), 0.0002))
                    }
                    guard let waiter else { return continuation.resume() }
                    timers.addTask { [state = self.state] in
                        guard (try? await Task.sleep(for: .seconds(waiter.seconds))) != nil else { return }
                        state.withLock { $0.waiters.removeValue(forKey: waiter.id) }?.resume()
                    }
                }
                // Woken by an update: the timer is not needed any more.
                timers.cancelAll()
            }
            if let sleep { try? await Task.sleep(for: .seconds(sleep)) }
            if let batch {
                var body = Data(#"{"ok":true,"result":["#.utf8)
                for (index, update) in batch.enumerated() {
                    if index > 0 { body.append(UInt8(ascii: ",")) }
                    body.append(update)
                }
                body.append(contentsOf: Data("]}".utf8))
                return LoopbackResponse(body: body)
            }
        }
    }

    /// Up to `limit` released updates from the first not confirmed, in order, stopping at a press
    /// whose message its chat has not received: Telegram has nothing after it either.
    private func handOut(limit: Int, at now: Date, _ state: inout State) -> [Data] {
        var batch: [Data] = []
        var index = state.feed.head
        while index < state.feed.updates.count && batch.count < limit {
            defer { index += 1 }
            if state.feed.updates[index].done { continue }
            guard state.feed.isReleased(index, at: now, release) else { break }
            if state.feed.isHeld(index) {
                if batch.isEmpty { state.feed.heldAt = index }
                break
            }
            // A press held back holds up what was released behind it: those are timed from when
            // it came out, since the wait was the earlier reply's.
            if state.feed.heldAt == index {
                state.feed.heldAt = nil
                state.feed.heldUntil = now
            }
            let update = state.feed.updates[index]
            if !update.handedOut {
                state.feed.updates[index].handedOut = true
                let releasedAt = update.releaseIndex == nil ? now : max(state.feed.releaseTime(index, release) ?? now, state.feed.heldUntil ?? .distantPast)
                observer?.handedOut(HandedOut(updateID: update.id, chat: update.chat, releasedAt: releasedAt, at: now))
            }
            if recording { state.delivered.append(update.id) }
            batch.append(update.json)
        }
        return batch
    }

    /// When the next scheduled update not yet released comes out.
    func nextRelease(_ feed: Feed, after now: Date) -> Date? {
        guard let release, let origin = feed.origin else { return release == nil ? nil : now.addingTimeInterval(0.05) }
        let count = feed.releasedCount(at: now, release)
        guard count < feed.scheduled.count else { return nil }
        return origin.addingTimeInterval(feed.offsets[count])
    }

    /// The long polls waiting, to resume once the lock is let go.
    func wakePolls(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.waiters.isEmpty else { return [] }
        defer { state.waiters.removeAll() }
        return Array(state.waiters.values)
    }
}
