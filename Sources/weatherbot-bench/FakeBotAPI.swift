import Foundation
import LoopbackHTTP
import Synchronization

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
final class FakeBotAPI: Sendable {
    /// When released updates start to come out.
    enum ReleaseStart: Sendable {
        /// At the first getUpdates: the worker is up.
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
    }

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
    private let state: Mutex<State>

    init(
        updates: [PreparedUpdate], firstID: Int, releaseInterval: Double? = nil, releaseStart: ReleaseStart = .firstPoll,
        limits: SendingLimits? = nil
    ) {
        self.updates = updates
        self.firstID = firstID
        self.releaseInterval = releaseInterval
        self.releaseStart = releaseStart
        self.limits = limits
        let unanswered = [Date?](repeating: nil, count: updates.count)
        var state = State(handedOut: unanswered, answeredAt: unanswered, callbackAnsweredAt: unanswered)
        var totals: [Int64: Int] = [:]
        var callbackQueries: [String: Int] = [:]
        var shownAfter = [Int](repeating: 0, count: updates.count)
        for (index, update) in updates.enumerated() {
            if update.callbackQueryID != nil { shownAfter[index] = totals[update.chat] ?? 0 }
            totals[update.chat, default: 0] += update.replies
            state.waiting[update.chat, default: []].append((index, totals[update.chat]!))
            if let id = update.callbackQueryID { callbackQueries[id] = index }
        }
        self.callbackQueries = callbackQueries
        self.shownAfter = shownAfter
        updatingChats = Set(updates.map(\.chat))
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
    /// When the first getUpdates arrived, updates or not: the worker is up.
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
            return await getUpdates(offset: request.json?["offset"] as? Int ?? firstID)
        case "sendMessage", "editMessageText", "editMessageReplyMarkup", "answerCallbackQuery", "sendPhoto", "editMessageMedia":
            let form = request.formParts
            let body = request.json ?? [:]
            let isPhoto = method == "sendPhoto" || method == "editMessageMedia"
            // Callback query ids are "<chat>:<n>", so an answer counts for its chat.
            let chat = (body["chat_id"] as? Int).map(Int64.init) ?? form?["chat_id"].flatMap { Int64($0.text) }
                ?? (body["callback_query_id"] as? String)?.split(separator: ":").first.flatMap { Int64($0) } ?? 0
            let limited = method != "answerCallbackQuery" && limits != nil
            let messageID: Int? = state.withLock { state in
                let now = Date()
                if limited, !Self.admit(chat: chat, at: now, limits: limits!, &state) {
                    state.rateLimited += 1
                    return nil
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
                return state.replies
            }
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
                let released: Int
                if let interval = releaseInterval {
                    released = state.releaseOrigin.map { min(updates.count, Int(now.timeIntervalSince($0) / interval) + 1) } ?? 0
                } else {
                    released = updates.count
                }
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

/// OpenWeather answering every call at once, counting the calls. Its forecast starts at the
/// current hour, so daily forecasts find today in it.
final class FakeWeatherAPI: Sendable {
    static let geocoded = Data(#"[{"name":"Kazan","local_names":{"ru":"Казань"},"lat":55.79,"lon":49.12,"country":"RU","state":"Tatarstan"}]"#.utf8)

    private let oneCall: Data
    private let counter = Mutex(0)

    init() {
        let hour = Int(Date().timeIntervalSince1970) / 3600 * 3600
        let day = hour / 86_400 * 86_400
        let weather = #"[{"id":803,"main":"Clouds","description":"облачно","icon":"04d"}]"#
        let hours = (0..<48).map { index in
            #"{"dt":\#(hour + index * 3600),"temp":\#(-3 + index % 6),"feels_like":-6,"pressure":1015,"humidity":80,"clouds":75,"#
                + #""wind_speed":4,"wind_deg":200,"pop":0.2,"weather":\#(weather)}"#
        }
        let days = (0..<8).map { index in
            #"{"dt":\#(day + index * 86_400 + 36_000),"sunrise":\#(day + index * 86_400 + 25_000),"sunset":\#(day + index * 86_400 + 55_000),"#
                + #""temp":{"day":-1,"min":-6,"max":0,"night":-5,"eve":-2,"morn":-4},"feels_like":{"day":-4,"night":-8,"eve":-5,"morn":-7},"#
                + #""pressure":1015,"humidity":80,"wind_speed":4,"wind_deg":200,"clouds":75,"pop":0.4,"rain":1.2,"weather":\#(weather)}"#
        }
        oneCall = Data((#"{"lat":55.75,"lon":37.62,"timezone":"Europe/Moscow","timezone_offset":10800,"current":{"dt":\#(hour),"#
            + #""sunrise":\#(day + 25_000),"sunset":\#(day + 55_000),"temp":-2.5,"feels_like":-6,"pressure":1015,"humidity":80,"#
            + #""clouds":75,"wind_speed":4,"wind_deg":200,"weather":\#(weather)},"hourly":[\#(hours.joined(separator: ","))],"#
            + #""daily":[\#(days.joined(separator: ","))]}"#).utf8)
    }

    /// Forecast calls so far (geocoding not counted).
    var forecastCalls: Int { counter.withLock { $0 } }

    func answer(_ request: LoopbackRequest) -> LoopbackResponse {
        switch request.path {
        case "/geo/1.0/direct":
            // «Place N» is a place of its own, N degrees from the others; any other name is Kazan.
            if let name = request.query["q"], name.hasPrefix("Place "), let number = Int(name.dropFirst("Place ".count)) {
                return LoopbackResponse(body: Data(#"[{"name":"\#(name)","lat":\#(40 + number),"lon":30,"country":"RU"}]"#.utf8))
            }
            return LoopbackResponse(body: Self.geocoded)
        case "/geo/1.0/reverse": return LoopbackResponse(body: Self.geocoded)
        default:
            counter.withLock { $0 += 1 }
            return LoopbackResponse(body: oneCall)
        }
    }
}
