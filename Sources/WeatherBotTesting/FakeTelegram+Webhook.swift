import Foundation
import HTTPTransport

/// Posting to the webhook: which chats to look at, which updates are due, and the connections
/// waiting for one.
struct Posting: Sendable {
    /// Connections started: as many as the most any setWebhook asked for.
    var connections = 0
    var tasks: [Task<Void, Never>] = []
    /// Wakes the connections at each scheduled release.
    var releaser: Task<Void, Never>?
    /// Per chat whose post failed, the wait before it is posted again: cancelled on stop.
    var retrying: [Int64: Task<Void, Never>] = [:]
    var stopped = false
    /// Scheduled updates whose chats were looked at, from the first.
    var scanned = 0
    /// Chats with a post in flight, or waiting to post again after a failure.
    var busy: Set<Int64> = []
    /// Chats whose next update may have become due.
    var examine: [Int64] = []
    /// Due updates waiting for a free connection, in order; whether each is a press that was held
    /// back for its message.
    var due: [(index: Int, held: Bool)] = []
    var dueHead = 0
    /// Chats whose next update is a press whose message the chat has not received yet.
    var held: Set<Int64> = []
    /// Per chat, when the last press held back started to be posted.
    var heldUntil: [Int64: Date] = [:]
    /// Connections waiting for a due update.
    var idle: [CheckedContinuation<NextPost, Never>] = []
    /// Posts answered 2xx, and the others (no answer, or another status).
    var delivered = 0
    var failed = 0
}

/// What a webhook connection does next.
enum NextPost: Sendable {
    case post(index: Int, webhook: FakeTelegram.Webhook)
    /// Look again: something may have become due.
    case again
    case stop
}

extension FakeTelegram {
    func setWebhook(_ body: [String: Any]) -> LoopbackResponse {
        guard let url = (body["url"] as? String).flatMap(URL.init(string:)), url.scheme != nil, url.host != nil else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"], status: 400)
        }
        let connections = body["max_connections"] as? Int ?? 40
        guard (1...100).contains(connections) else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: bad webhook: max_connections must be between 1 and 100"], status: 400)
        }
        let webhook = Webhook(
            url: url, secret: body["secret_token"] as? String, maxConnections: connections, allowedUpdates: body["allowed_updates"] as? [String] ?? [])
        let woken = state.withLock { state in
            let now = Date()
            state.webhook = webhook
            state.webhookCalls.append(url.absoluteString)
            if state.feed.firstPoll == nil { state.feed.firstPoll = now }
            if release?.start == .firstPoll && state.feed.origin == nil { state.feed.origin = now }
            guard !state.posting.stopped else { return [CheckedContinuation<NextPost, Never>]() }
            while state.posting.connections < connections {
                let connection = state.posting.connections
                state.posting.connections += 1
                state.posting.tasks.append(Task { await self.postDue(connection: connection) })
            }
            if release != nil && state.posting.releaser == nil {
                state.posting.releaser = Task { await self.releaseOverTime() }
            }
            // Every chat with updates waiting may have one due now.
            state.posting.examine.append(contentsOf: state.feed.byChat.keys)
            return advance(at: now, &state)
        }
        resume([], woken)
        return .json(["ok": true, "result": true])
    }

    func webhookInfo() -> LoopbackResponse {
        state.withLock { state in
            guard let webhook = state.webhook else {
                return .json(["ok": true, "result": ["url": "", "has_custom_certificate": false, "pending_update_count": state.feed.pending]])
            }
            let unreleased = state.feed.scheduled.count - state.feed.releasedCount(at: Date(), release)
            var info: [String: Any] = [
                "url": webhook.url.absoluteString, "has_custom_certificate": false, "max_connections": webhook.maxConnections,
                "pending_update_count": max(state.feed.pending - unreleased, 0),
            ]
            if let failure = state.lastPostError {
                info["last_error_date"] = Int(failure.date.timeIntervalSince1970)
                info["last_error_message"] = failure.message
            }
            return .json(["ok": true, "result": info])
        }
    }

    /// Stops posting to the webhook, and waits until the connections have.
    public func stopPosting() async {
        let (tasks, idle) = state.withLock { state in
            state.posting.stopped = true
            defer { state.posting.idle = [] }
            var tasks = state.posting.tasks + state.posting.retrying.values
            if let releaser = state.posting.releaser { tasks.append(releaser) }
            return (tasks, state.posting.idle)
        }
        for connection in idle { connection.resume(returning: .stop) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Looks at the chats of scheduled updates as they are released.
    private func releaseOverTime() async {
        while !Task.isCancelled {
            let (woken, wait): ([CheckedContinuation<NextPost, Never>], Double?) = state.withLock { state in
                let now = Date()
                let woken = advance(at: now, &state)
                if state.posting.stopped { return (woken, nil) }
                guard state.webhook != nil else { return (woken, 0.05) }
                guard let next = nextRelease(state.feed, after: now) else { return (woken, state.feed.origin == nil ? 0.05 : nil) }
                return (woken, next.timeIntervalSince(now))
            }
            resume([], woken)
            guard let wait else { return }
            try? await Task.sleep(for: .seconds(max(wait, 0.0002)))
        }
    }

    /// One connection: posts due updates one after another until posting stops.
    private func postDue(connection: Int) async {
        // The transport keeps at most 32 connections to one host: one transport per 32 connections.
        let transport = transports.withLock { transports in
            while transports.count <= connection / 32 { transports.append(NIOHTTPTransport()) }
            return transports[connection / 32]
        }
        while let (index, webhook, json) = await nextPost() {
            var headers = ["Content-Type": "application/json"]
            if let secret = webhook.secret { headers["X-Telegram-Bot-Api-Secret-Token"] = secret }
            let request = TransportRequest(method: .post, url: webhook.url, headers: headers, body: json, timeout: .seconds(60))
            do {
                let response = try await transport.send(request)
                posted(index, status: response.status)
            } catch {
                if Task.isCancelled { return }
                posted(index, status: 0)
            }
        }
    }

    /// The next due update, its JSON and the webhook to post it to, waiting for one; nil once
    /// posting stops.
    private func nextPost() async -> (Int, Webhook, Data)? {
        while true {
            var json = Data()
            let next: NextPost = await withCheckedContinuation { continuation in
                let (next, woken): (NextPost?, [CheckedContinuation<NextPost, Never>]) = state.withLock { state in
                    if state.posting.stopped || Task.isCancelled { return (.stop, []) }
                    let now = Date()
                    let woken = advance(at: now, &state)
                    guard let webhook = state.webhook, state.posting.dueHead < state.posting.due.count else {
                        state.posting.idle.append(continuation)
                        return (nil, woken)
                    }
                    let (index, held) = state.posting.due[state.posting.dueHead]
                    state.posting.dueHead += 1
                    if state.posting.dueHead > 4096 {
                        state.posting.due.removeFirst(state.posting.dueHead)
                        state.posting.dueHead = 0
                    }
                    // Comes out now: a press held back for its message, and what its chat sends
                    // after it, is timed from when it is posted, as getUpdates does.
                    let update = state.feed.updates[index]
                    if held { state.posting.heldUntil[update.chat] = now }
                    if !update.handedOut {
                        state.feed.updates[index].handedOut = true
                        let releasedAt =
                            update.releaseIndex == nil
                            ? now : max(state.feed.releaseTime(index, release) ?? now, state.posting.heldUntil[update.chat] ?? .distantPast)
                        observer?.handedOut(HandedOut(updateID: update.id, chat: update.chat, releasedAt: releasedAt, at: now))
                    }
                    json = update.json
                    return (.post(index: index, webhook: webhook), woken)
                }
                resume([], woken)
                if let next { continuation.resume(returning: next) }
            }
            switch next {
            case .post(let index, let webhook): return (index, webhook, json)
            case .again: continue
            case .stop: return nil
            }
        }
    }

    /// A post was answered with `status` (0: not at all): a 2xx lets its chat's next update go;
    /// anything else posts it again after ``retryDelay``.
    private func posted(_ index: Int, status: Int) {
        let delivered = (200..<300).contains(status)
        let (chat, woken) = state.withLock { state in
            let now = Date()
            let update = state.feed.updates[index]
            if recording { state.posts.append((update.id, status)) }
            guard delivered else {
                state.posting.failed += 1
                state.lastPostError = (now, status == 0 ? "Connection refused" : "Wrong response from the webhook: \(status) \(status == 401 ? "Unauthorized" : "Error")")
                return (update.chat, [CheckedContinuation<NextPost, Never>]())
            }
            state.posting.delivered += 1
            if recording { state.delivered.append(update.id) }
            state.feed.markDone(index)
            state.posting.busy.remove(update.chat)
            state.posting.examine.append(update.chat)
            return (update.chat, advance(at: now, &state))
        }
        resume([], woken)
        guard !delivered else { return }
        // The wait is the fake's own task, kept until it ends and cancelled by stopPosting.
        let retry = Task {
            guard (try? await Task.sleep(for: Self.retryDelay)) != nil else { return }
            let woken = state.withLock { state in
                state.posting.retrying[chat] = nil
                state.posting.busy.remove(chat)
                state.posting.examine.append(chat)
                return advance(at: Date(), &state)
            }
            resume([], woken)
        }
        let started = state.withLock { state in
            guard !state.posting.stopped else { return false }
            state.posting.retrying[chat] = retry
            return true
        }
        if !started { retry.cancel() }
    }

    /// Makes due every chat's next update that is released, not behind a post in flight, and
    /// (a press) not before its message; returns the idle connections to wake for them.
    func advance(at now: Date, _ state: inout State) -> [CheckedContinuation<NextPost, Never>] {
        guard state.webhook != nil, !state.posting.stopped else {
            // Looked at again, every chat, when a webhook is set.
            state.posting.examine.removeAll(keepingCapacity: true)
            return []
        }
        let released = state.feed.releasedCount(at: now, release)
        while state.posting.scanned < released {
            state.posting.examine.append(state.feed.updates[state.feed.scheduled[state.posting.scanned]].chat)
            state.posting.scanned += 1
        }
        for chat in state.posting.examine where !state.posting.busy.contains(chat) {
            guard let index = state.feed.next(of: chat), state.feed.isReleased(index, at: now, release) else { continue }
            if state.feed.isHeld(index) {
                state.posting.held.insert(chat)
                continue
            }
            let held = state.posting.held.remove(chat) != nil
            state.posting.busy.insert(chat)
            state.posting.due.append((index, held))
        }
        state.posting.examine.removeAll(keepingCapacity: true)
        let waking = min(state.posting.idle.count, state.posting.due.count - state.posting.dueHead)
        guard waking > 0 else { return [] }
        let woken = Array(state.posting.idle.suffix(waking))
        state.posting.idle.removeLast(waking)
        return woken
    }
}
