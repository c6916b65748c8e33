import Foundation
import HTTPTransport
import Synchronization
import WeatherBotTesting

/// One prepared update: its JSON, its chat, and how many Bot API calls answer it; for a button
/// press, the callback query's id, whose answer is timed on its own. A button press comes out of
/// getUpdates only once the chat got every call that answers its earlier updates: a user cannot
/// press a button before the message that bears it arrived.
struct PreparedUpdate: Sendable {
    var data: Data
    var chat: Int64
    var replies: Int
    var callbackQueryID: String? = nil
}

/// Telegram's limits as the fake enforces them: in any `window` seconds at most `perWindow`
/// messages overall, and per chat one every `window / perChatPerWindow` seconds on average, of
/// which `perChatBurst` may come at once (1: strictly spaced).
struct SendingLimits: Sendable {
    var perWindow: Int
    var perChatPerWindow: Double
    var perChatBurst = 1
    var window: Double = 1
}

/// A Bot API for the benchmark. It hands out prepared updates honouring `offset`, all at once or
/// released one every `releaseInterval` seconds from `releaseStart`; it answers every sending
/// method, optionally under `limits` (429 with retry_after beyond them), and measures: each
/// update's latency from its release (or hand-out) to the HTTP 200 of the last call that answers
/// it, counted per chat in order; when each button press's answer arrived; when each message was
/// accepted, to a chat with prepared updates or to another.
///
/// Once a webhook is set (setWebhook) it posts the released updates to it as Telegram does, and
/// refuses getUpdates with 409 until the webhook is deleted: a chat's updates one at a time and in
/// order, up to the webhook's `max_connections` requests at once, each with the secret token; an
/// update is posted again a little later until it is answered 200. A button press waits for its
/// message there too, holding up only its own chat's updates.
final class FakeBotAPI: Sendable {
    /// When released updates start to come out.
    enum ReleaseStart: Sendable {
        /// At the first getUpdates, or when the webhook is set: the worker is up.
        case firstPoll
        /// When the first message (not an answer to a button) is accepted, to any chat: the
        /// worker is already sending something else.
        case firstMessage
    }

    private struct State {
        var firstPoll: Date?
        /// When the first update was released.
        var releaseOrigin: Date?
        var replies = 0
        var rateLimited = 0
        var first: Date?
        var last: Date?
        /// When each update was released or handed out.
        var handedOut: [Date?]
        /// Per chat: Bot API calls received, and the updates not yet fully answered.
        var received: [Int64: Int] = [:]
        var waiting: [Int64: [(index: Int, cumulative: Int)]] = [:]
        var latencies: [Double] = []
        /// When each update's last answer and each button press's answer arrived.
        var answeredAt: [Date?]
        var callbackAnsweredAt: [Date?]
        /// When each message was accepted, to chats with prepared updates and to the others.
        var toUpdatingChats: [Date] = []
        var toOtherChats: [Date] = []
        /// Accepted messages in the current window, oldest first, and each chat's next slot.
        var recent: [Date] = []
        var recentHead = 0
        var nextPerChat: [Int64: Double] = [:]
        /// The update a getUpdates stopped at because it is a button press whose message has not
        /// come yet, and when the last such update came out.
        var heldAt: Int?
        var heldUntil: Date?
        /// Photos uploaded, and sent by a `file_id` an upload was given.
        var uploads = 0
        var byFileID = 0
        var posting = Posting()
    }

    /// A webhook as setWebhook set it.
    struct Webhook: Sendable {
        var url: URL
        var secret: String?
        var maxConnections: Int
    }

    /// Posting to the webhook: which update of each chat comes next, which are due, and the
    /// connections waiting for one.
    private struct Posting {
        var webhook: Webhook?
        /// Posts while the webhook is set; started by the first setWebhook.
        var poster: Task<Void, Never>?
        var stopped = false
        /// Released updates whose chats were looked at, from the first.
        var scanned = 0
        /// Per chat, the position in its updates of the next one to post.
        var next: [Int64: Int] = [:]
        /// Chats with a post in flight, or waiting to post again after a failure.
        var busy: Set<Int64> = []
        /// Chats whose next update may have become due.
        var examine: [Int64] = []
        /// Due updates waiting for a free connection, in order; whether each is a press that was
        /// held back for its message.
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
        var lastError: (date: Date, message: String)?
    }

    /// What a webhook connection does next.
    private enum NextPost: Sendable {
        case post(index: Int, webhook: Webhook)
        /// Look again: something may have become due.
        case again
        case stop
    }

    /// How long after a failed post its update is posted again (Telegram waits longer).
    static let retryDelay: Duration = .milliseconds(200)

    private let updates: [PreparedUpdate]
    /// For each update, the calls its chat must have received before it can be handed out.
    private let shownAfter: [Int]
    private let firstID: Int
    private let releaseInterval: Double?
    private let releaseStart: ReleaseStart
    private let limits: SendingLimits?
    /// The update each callback query id belongs to.
    private let callbackQueries: [String: Int]
    /// The chats the prepared updates come from.
    private let updatingChats: Set<Int64>
    /// Each chat's updates, by index in order, and each update's position among its chat's.
    private let chatUpdates: [Int64: [Int]]
    private let positionInChat: [Int]
    /// Updates come out only through the webhook: a worker that polls gets none.
    private let webhookOnly: Bool
    private let state: Mutex<State>

    /// - Parameter webhookOnly: hand nothing out through getUpdates, to measure webhook mode only.
    init(
        updates: [PreparedUpdate], firstID: Int, releaseInterval: Double? = nil, releaseStart: ReleaseStart = .firstPoll,
        limits: SendingLimits? = nil, webhookOnly: Bool = false
    ) {
        self.updates = updates
        self.webhookOnly = webhookOnly
        self.firstID = firstID
        self.releaseInterval = releaseInterval
        self.releaseStart = releaseStart
        self.limits = limits
        let unanswered = [Date?](repeating: nil, count: updates.count)
        var state = State(handedOut: unanswered, answeredAt: unanswered, callbackAnsweredAt: unanswered)
        var totals: [Int64: Int] = [:]
        var callbackQueries: [String: Int] = [:]
        var shownAfter = [Int](repeating: 0, count: updates.count)
        var chatUpdates: [Int64: [Int]] = [:]
        var positionInChat = [Int](repeating: 0, count: updates.count)
        for (index, update) in updates.enumerated() {
            positionInChat[index] = chatUpdates[update.chat]?.count ?? 0
            chatUpdates[update.chat, default: []].append(index)
            if update.callbackQueryID != nil { shownAfter[index] = totals[update.chat] ?? 0 }
            totals[update.chat, default: 0] += update.replies
            state.waiting[update.chat, default: []].append((index, totals[update.chat]!))
            if let id = update.callbackQueryID { callbackQueries[id] = index }
        }
        self.callbackQueries = callbackQueries
        self.shownAfter = shownAfter
        updatingChats = Set(updates.map(\.chat))
        self.chatUpdates = chatUpdates
        self.positionInChat = positionInChat
        self.state = Mutex(state)
    }

    var replies: Int { state.withLock { $0.replies } }
    /// Chats still waiting for answers, with how many calls each got and how many updates wait.
    var unanswered: [(chat: Int64, received: Int, waiting: Int)] {
        state.withLock { state in
            state.waiting.filter { !$0.value.isEmpty }.map { ($0.key, state.received[$0.key] ?? 0, $0.value.count) }.sorted { $0.chat < $1.chat }
        }
    }
    var photos: (uploads: Int, byFileID: Int) { state.withLock { ($0.uploads, $0.byFileID) } }
    var rateLimited: Int { state.withLock { $0.rateLimited } }
    /// From the first update handed out to the last answer's 200.
    var window: (Date?, Date?) { state.withLock { ($0.first, $0.last) } }
    /// When the first getUpdates arrived, updates or not, or the webhook was set: the worker is up.
    var firstPoll: Date? { state.withLock { $0.firstPoll } }
    /// Seconds from each fully answered update's release to its last answer, in no order.
    var latencies: [Double] { state.withLock { $0.latencies } }
    /// When the first update was released (with `releaseInterval`, update i comes out i intervals later).
    var releaseOrigin: Date? { state.withLock { $0.releaseOrigin } }
    /// When each update's last answer arrived, by index; nil while it waits for some.
    var answeredAt: [Date?] { state.withLock { $0.answeredAt } }
    /// When each button press's answerCallbackQuery arrived, by update index; nil for other
    /// updates and for presses not answered yet.
    var callbackAnsweredAt: [Date?] { state.withLock { $0.callbackAnsweredAt } }

    /// Posts to the webhook answered 2xx, and those answered otherwise or not at all (each
    /// posted again).
    var webhookPosts: (delivered: Int, failed: Int) { state.withLock { ($0.posting.delivered, $0.posting.failed) } }
    /// Whether a webhook was ever set.
    var webhookSet: Bool { state.withLock { $0.posting.poster != nil } }

    /// Messages (callback answers aside) accepted in `start..<end`: to chats with prepared
    /// updates, and to the others.
    func messagesAccepted(from start: Date, to end: Date) -> (updatingChats: Int, otherChats: Int) {
        state.withLock { state in
            func count(_ times: [Date]) -> Int { times.lazy.filter { $0 >= start && $0 < end }.count }
            return (count(state.toUpdatingChats), count(state.toOtherChats))
        }
    }

    func answer(_ request: LoopbackRequest) async -> LoopbackResponse {
        let method = request.path.split(separator: "/").last.map(String.init) ?? ""
        switch method {
        case "getMe":
            return .json(["ok": true, "result": ["id": 1, "is_bot": true, "first_name": "Bench", "username": "bench_bot"]])
        case "getUpdates":
            if state.withLock({ $0.posting.webhook != nil }) {
                return .json(
                    ["ok": false, "error_code": 409, "description": "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"],
                    status: 409)
            }
            if webhookOnly {
                // Nothing for a worker that polls: it is not in webhook mode.
                try? await Task.sleep(for: .seconds(1))
                return .json(["ok": true, "result": [Any]()])
            }
            return await getUpdates(offset: request.json?["offset"] as? Int ?? firstID)
        case "setWebhook":
            return setWebhook(request.json ?? [:])
        case "deleteWebhook":
            state.withLock { $0.posting.webhook = nil }
            return .json(["ok": true, "result": true])
        case "getWebhookInfo":
            return webhookInfo()
        case "sendMessage", "editMessageText", "editMessageReplyMarkup", "answerCallbackQuery", "sendPhoto", "editMessageMedia":
            let form = request.formParts
            let body = request.json ?? [:]
            let isPhoto = method == "sendPhoto" || method == "editMessageMedia"
            // Callback query ids are "<chat>:<n>", so an answer counts for its chat.
            let chat = (body["chat_id"] as? Int).map(Int64.init) ?? form?["chat_id"].flatMap { Int64($0.text) }
                ?? (body["callback_query_id"] as? String)?.split(separator: ":").first.flatMap { Int64($0) } ?? 0
            let limited = method != "answerCallbackQuery" && limits != nil
            let (messageID, woken): (Int?, [CheckedContinuation<NextPost, Never>]) = state.withLock { state in
                let now = Date()
                if limited, !Self.admit(chat: chat, at: now, limits: limits!, &state) {
                    state.rateLimited += 1
                    return (nil, [])
                }
                state.replies += 1
                state.last = now
                if isPhoto {
                    // An upload's file_id is "file-<n>"; anything else went by file_id.
                    if form != nil { state.uploads += 1 } else { state.byFileID += 1 }
                }
                state.received[chat, default: 0] += 1
                if method == "answerCallbackQuery" {
                    if let query = body["callback_query_id"] as? String, let index = callbackQueries[query] {
                        state.callbackAnsweredAt[index] = now
                    }
                } else {
                    if updatingChats.contains(chat) { state.toUpdatingChats.append(now) } else { state.toOtherChats.append(now) }
                    if releaseStart == .firstMessage && state.releaseOrigin == nil { state.releaseOrigin = now }
                }
                Self.complete(chat: chat, at: now, &state)
                // A press held back for this chat's earlier answers may be due now.
                var woken: [CheckedContinuation<NextPost, Never>] = []
                if state.posting.held.contains(chat) {
                    state.posting.examine.append(chat)
                    woken = advance(at: now, &state)
                }
                return (state.replies, woken)
            }
            for connection in woken { connection.resume(returning: .again) }
            guard let messageID else {
                return .json(
                    ["ok": false, "error_code": 429, "description": "Too Many Requests: retry after 1", "parameters": ["retry_after": 1]],
                    status: 429)
            }
            if method == "sendMessage" {
                return .json(["ok": true, "result": ["message_id": messageID, "date": 1_795_000_000, "chat": ["id": chat, "type": "private"]]])
            }
            if isPhoto {
                // The picture's file_id: one per upload, else the one the call named.
                let media = body["media"] as? [String: Any]
                let fileID = form != nil ? "file-\(messageID)" : (body["photo"] as? String ?? media?["media"] as? String ?? "")
                return .json(["ok": true, "result": [
                    "message_id": messageID, "date": 1_795_000_000, "chat": ["id": chat, "type": "private"],
                    "photo": [["file_id": fileID, "file_unique_id": fileID, "width": 1280, "height": 720]],
                ]])
            }
            return .json(["ok": true, "result": true])
        default:
            return .json(["ok": true, "result": true])
        }
    }

    private func getUpdates(offset: Int) async -> LoopbackResponse {
        let start = max(offset - firstID, 0)
        // A long poll: held until something comes out, at most about a second.
        let deadline = Date().addingTimeInterval(1)
        while true {
            let (batch, wait): (ArraySlice<PreparedUpdate>, Double) = state.withLock { state in
                let now = Date()
                if state.firstPoll == nil { state.firstPoll = now }
                if releaseStart == .firstPoll && state.releaseOrigin == nil { state.releaseOrigin = now }
                let released = releasedCount(at: now, origin: state.releaseOrigin)
                var end = min(start + 100, released)
                // Telegram has no button press before its message was delivered, nor anything after it.
                if let pressed = (start..<end).first(where: { shownAfter[$0] > state.received[updates[$0].chat] ?? 0 }) {
                    end = pressed
                    if start == end {
                        state.heldAt = start
                        return ([], 0.002)
                    }
                }
                // A press held back held up what was released behind it: those are timed from
                // when they came out, since the wait was the earlier reply's.
                if state.heldAt == start {
                    state.heldAt = nil
                    state.heldUntil = now
                }
                guard start < end else {
                    // Held until the next update is released, at most a second, as a long poll is;
                    // while the release has not started, looked at again every 50 ms.
                    let next = releaseInterval.flatMap { interval -> Double? in
                        guard start < updates.count else { return nil }
                        guard let origin = state.releaseOrigin else { return 0.05 }
                        return origin.addingTimeInterval(Double(start) * interval).timeIntervalSince(now)
                    }
                    return ([], min(max(next ?? 1, 0.0005), 1))
                }
                if state.first == nil { state.first = now }
                for index in start..<end where state.handedOut[index] == nil {
                    let release = releaseInterval.map { state.releaseOrigin!.addingTimeInterval(Double(index) * $0) } ?? now
                    state.handedOut[index] = max(release, state.heldUntil ?? release)
                }
                return (updates[start..<end], 0)
            }
            if !batch.isEmpty {
                var body = Data(#"{"ok":true,"result":["#.utf8)
                for (index, update) in batch.enumerated() {
                    if index > 0 { body.append(UInt8(ascii: ",")) }
                    body.append(update.data)
                }
                body.append(contentsOf: Data("]}".utf8))
                return LoopbackResponse(body: body)
            }
            let left = deadline.timeIntervalSinceNow
            try? await Task.sleep(for: .seconds(max(min(wait, left), 0)))
            if wait >= left { break }
        }
        return .json(["ok": true, "result": [Any]()])
    }

    /// How many updates have been released at `now`, from the first.
    private func releasedCount(at now: Date, origin: Date?) -> Int {
        guard let interval = releaseInterval else { return updates.count }
        return origin.map { min(updates.count, max(Int(now.timeIntervalSince($0) / interval) + 1, 0)) } ?? 0
    }

    // MARK: The webhook

    private func setWebhook(_ body: [String: Any]) -> LoopbackResponse {
        guard let url = (body["url"] as? String).flatMap(URL.init(string:)), url.scheme != nil, url.host != nil else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"], status: 400)
        }
        let connections = body["max_connections"] as? Int ?? 40
        guard (1...100).contains(connections) else {
            return .json(["ok": false, "error_code": 400, "description": "Bad Request: bad webhook: max_connections must be between 1 and 100"], status: 400)
        }
        let webhook = Webhook(url: url, secret: body["secret_token"] as? String, maxConnections: connections)
        let woken = state.withLock { state in
            let now = Date()
            state.posting.webhook = webhook
            if state.firstPoll == nil { state.firstPoll = now }
            if releaseStart == .firstPoll && state.releaseOrigin == nil { state.releaseOrigin = now }
            // The connections are those the first setWebhook asked for.
            if state.posting.poster == nil && !state.posting.stopped {
                state.posting.poster = Task { await self.postUpdates(connections: connections) }
            }
            return advance(at: now, &state)
        }
        for connection in woken { connection.resume(returning: .again) }
        return .json(["ok": true, "result": true])
    }

    private func webhookInfo() -> LoopbackResponse {
        state.withLock { state in
            guard let webhook = state.posting.webhook else {
                return .json(["ok": true, "result": ["url": "", "has_custom_certificate": false, "pending_update_count": 0]])
            }
            let released = releasedCount(at: Date(), origin: state.releaseOrigin)
            var info: [String: Any] = [
                "url": webhook.url.absoluteString, "has_custom_certificate": false, "max_connections": webhook.maxConnections,
                "pending_update_count": max(released - state.posting.delivered, 0),
            ]
            if let failure = state.posting.lastError {
                info["last_error_date"] = Int(failure.date.timeIntervalSince1970)
                info["last_error_message"] = failure.message
            }
            return .json(["ok": true, "result": info])
        }
    }

    /// Stops posting to the webhook, and waits until the connections have.
    func stopPosting() async {
        let (poster, idle) = state.withLock { state in
            state.posting.stopped = true
            defer { state.posting.idle = [] }
            return (state.posting.poster, state.posting.idle)
        }
        for connection in idle { connection.resume(returning: .stop) }
        poster?.cancel()
        await poster?.value
    }

    /// `connections` connections posting due updates, and the release of updates over time.
    private func postUpdates(connections: Int) async {
        // The transport keeps at most 32 connections to one host: one per 32 connections needed.
        let transports = (0..<(connections + 31) / 32).map { _ in AsyncHTTPTransport() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.releaseOverTime() }
            for connection in 0..<connections {
                let transport = transports[connection % transports.count]
                group.addTask { await self.postDue(through: transport) }
            }
        }
        for transport in transports { try? await transport.shutdown() }
    }

    /// Looks at the chats of updates as they are released: at each release, or once when all are
    /// released at once.
    private func releaseOverTime() async {
        while !Task.isCancelled {
            let (woken, wait): ([CheckedContinuation<NextPost, Never>], Double?) = state.withLock { state in
                let now = Date()
                let woken = advance(at: now, &state)
                if state.posting.stopped { return (woken, nil) }
                guard let origin = state.releaseOrigin, state.posting.webhook != nil else { return (woken, 0.05) }
                guard let interval = releaseInterval, state.posting.scanned < updates.count else { return (woken, nil) }
                return (woken, origin.addingTimeInterval(Double(state.posting.scanned) * interval).timeIntervalSince(now))
            }
            for connection in woken { connection.resume(returning: .again) }
            guard let wait else { return }
            try? await Task.sleep(for: .seconds(max(wait, 0.0002)))
        }
    }

    /// One connection: posts due updates one after another until posting stops.
    private func postDue(through transport: AsyncHTTPTransport) async {
        while let (index, webhook) = await nextPost() {
            var headers = ["Content-Type": "application/json"]
            if let secret = webhook.secret { headers["X-Telegram-Bot-Api-Secret-Token"] = secret }
            let request = TransportRequest(method: .post, url: webhook.url, headers: headers, body: updates[index].data, timeout: .seconds(60))
            do {
                let response = try await transport.send(request)
                posted(index, status: response.status, failure: "Wrong response from the webhook: \(response.status)")
            } catch {
                if Task.isCancelled { return }
                posted(index, status: 0, failure: "\(error)")
            }
        }
    }

    /// The next due update and the webhook to post it to, waiting for one; nil once posting stops.
    private func nextPost() async -> (Int, Webhook)? {
        while true {
            let next: NextPost = await withCheckedContinuation { continuation in
                let (next, woken): (NextPost?, [CheckedContinuation<NextPost, Never>]) = state.withLock { state in
                    if state.posting.stopped || Task.isCancelled { return (.stop, []) }
                    let now = Date()
                    let woken = advance(at: now, &state)
                    guard let webhook = state.posting.webhook, state.posting.dueHead < state.posting.due.count else {
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
                    let chat = updates[index].chat
                    if held { state.posting.heldUntil[chat] = now }
                    if state.first == nil { state.first = now }
                    if state.handedOut[index] == nil {
                        let release = releaseInterval.map { state.releaseOrigin!.addingTimeInterval(Double(index) * $0) } ?? now
                        state.handedOut[index] = max(release, state.posting.heldUntil[chat] ?? release)
                    }
                    return (.post(index: index, webhook: webhook), woken)
                }
                for connection in woken { connection.resume(returning: .again) }
                if let next { continuation.resume(returning: next) }
            }
            switch next {
            case .post(let index, let webhook): return (index, webhook)
            case .again: continue
            case .stop: return nil
            }
        }
    }

    /// A post was answered with `status` (0: not at all): a 2xx lets its chat's next update go;
    /// anything else posts it again after ``retryDelay``.
    private func posted(_ index: Int, status: Int, failure: String) {
        let chat = updates[index].chat
        let delivered = (200..<300).contains(status)
        let woken = state.withLock { state in
            let now = Date()
            guard delivered else {
                state.posting.failed += 1
                state.posting.lastError = (now, failure)
                return [CheckedContinuation<NextPost, Never>]()
            }
            state.posting.delivered += 1
            state.posting.next[chat, default: 0] += 1
            state.posting.busy.remove(chat)
            state.posting.examine.append(chat)
            return advance(at: now, &state)
        }
        for connection in woken { connection.resume(returning: .again) }
        guard !delivered else { return }
        Task {
            try? await Task.sleep(for: Self.retryDelay)
            let woken = state.withLock { state in
                state.posting.busy.remove(chat)
                state.posting.examine.append(chat)
                return advance(at: Date(), &state)
            }
            for connection in woken { connection.resume(returning: .again) }
        }
    }

    /// Makes due every chat's next update that is released, not behind a post in flight, and
    /// (a press) not before its message; returns the idle connections to wake for them.
    private func advance(at now: Date, _ state: inout State) -> [CheckedContinuation<NextPost, Never>] {
        guard state.posting.webhook != nil, !state.posting.stopped else { return [] }
        let released = releasedCount(at: now, origin: state.releaseOrigin)
        while state.posting.scanned < released {
            let index = state.posting.scanned
            state.posting.scanned += 1
            let chat = updates[index].chat
            if positionInChat[index] == state.posting.next[chat, default: 0] { state.posting.examine.append(chat) }
        }
        for chat in state.posting.examine where !state.posting.busy.contains(chat) {
            let position = state.posting.next[chat, default: 0]
            guard let indices = chatUpdates[chat], position < indices.count, indices[position] < released else { continue }
            let index = indices[position]
            if shownAfter[index] > state.received[chat] ?? 0 {
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

    /// Whether a message to `chat` fits Telegram's limits now; if so it is counted.
    private static func admit(chat: Int64, at now: Date, limits: SendingLimits, _ state: inout State) -> Bool {
        while state.recentHead < state.recent.count, now.timeIntervalSince(state.recent[state.recentHead]) >= limits.window {
            state.recentHead += 1
        }
        if state.recentHead > 4096 {
            state.recent.removeFirst(state.recentHead)
            state.recentHead = 0
        }
        if state.recent.count - state.recentHead >= limits.perWindow { return false }
        // Per chat, a cell rate: the theoretical time of the chat's next message at the steady rate.
        let interval = limits.window / limits.perChatPerWindow
        let time = now.timeIntervalSinceReferenceDate
        let next = state.nextPerChat[chat] ?? time
        if time < next - Double(limits.perChatBurst - 1) * interval { return false }
        state.recent.append(now)
        state.nextPerChat[chat] = max(next, time) + interval
        return true
    }

    /// Records the latency of every update of `chat` whose answers have now all arrived.
    private static func complete(chat: Int64, at now: Date, _ state: inout State) {
        guard var waiting = state.waiting[chat] else { return }
        let received = state.received[chat] ?? 0
        var done = 0
        while done < waiting.count, waiting[done].cumulative <= received {
            let index = waiting[done].index
            state.answeredAt[index] = now
            if let released = state.handedOut[index] {
                state.latencies.append(now.timeIntervalSince(released))
            }
            done += 1
        }
        if done > 0 {
            waiting.removeFirst(done)
            state.waiting[chat] = waiting
        }
    }
}
