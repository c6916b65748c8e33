public import Foundation
import HTTPTransport
import TelegramBotAPI

/// A Bot API on loopback that behaves like Telegram for one bot, for the tests and the benchmark.
///
/// Updates come from a test acting as users (``sendText(_:from:language:)`` and the like) or from
/// a schedule the benchmark prepared (``schedule(_:)``), released at once or one per interval.
/// They go out by long polling, honouring `offset`, or, once a webhook is set, posted to it as
/// Telegram does. A button press comes out only once its chat received the calls before it: a
/// user cannot press a button before the message that bears it arrived.
///
/// What the bot says is kept as a transcript (``State``) unless `recording` is off, and every
/// accepted reply and every update handed out is told to an ``FakeTelegramObserver``, which is
/// how the benchmark times them. With ``SendingLimits`` it refuses messages beyond Telegram's
/// limits with 429, as Telegram does.
public final class FakeTelegram: Sendable {
    /// A token of Telegram's shape that the fake accepts unless given another; it reaches no real bot.
    public static let token = "4242:FAKE-token-for-loopback-tests"

    /// A message the bot sent (`sendMessage`, or a photo with its caption as text).
    public struct Sent: Sendable, Equatable {
        /// The chat it went to.
        public var chatID: Int64
        /// The id the fake gave it, counting up across chats.
        public var messageID: Int
        /// Its text as sent, HTML tags included.
        public var text: String
        /// `reply_markup` as JSON text, when any.
        public var markup: String?
        /// The message it replies to (`reply_parameters`), when any.
        public var replyTo: Int? = nil
        /// Sent without a sound (`disable_notification`).
        public var silent = false
        /// When it was accepted.
        public var at = Date()
    }

    /// An edit the bot made: `editMessageText`, `editMessageReplyMarkup` (the text kept) or `editMessageMedia` (the caption).
    public struct Edit: Sendable, Equatable {
        /// The chat of the message edited.
        public var chatID: Int64
        /// The message edited.
        public var messageID: Int
        /// The new text or caption, HTML tags included.
        public var text: String
        /// The new `reply_markup` as JSON text; nil when the edit had none, which removes the buttons.
        public var markup: String?
    }

    /// A photo the bot sent or put in place of another: its message and how it came.
    public struct Photo: Sendable, Equatable {
        /// The chat it went to.
        public var chatID: Int64
        /// The id of the message that shows it.
        public var messageID: Int
        /// The caption, HTML tags included.
        public var caption: String
        /// `reply_markup` as JSON text, when any.
        public var markup: String?
        /// The `file_id` of the picture shown.
        public var fileID: String
        /// Whether its bytes were uploaded with this call (else it went by `file_id`).
        public var uploaded: Bool
        /// Whether it replaced the photo of an earlier message (`editMessageMedia`).
        public var isEdit: Bool
    }

    /// A webhook as setWebhook set it.
    public struct Webhook: Sendable {
        /// Where updates are posted.
        public var url: URL
        /// The `secret_token` the fake sends in `X-Telegram-Bot-Api-Secret-Token`; nil when the bot set none.
        public var secret: String?
        /// How many posts may be under way at once (`max_connections`).
        public var maxConnections: Int
        /// The kinds of update asked for (`allowed_updates`); empty when the bot named none.
        public var allowedUpdates: [String]
    }

    /// When scheduled updates come out: one every `interval` seconds from `start`.
    public struct Release: Sendable {
        /// What starts the clock of a release.
        public enum Start: Sendable {
            /// At the first getUpdates, or when the webhook is set: the worker is up.
            case firstPoll
            /// When the first message (not an answer to a button) is accepted, to any chat: the
            /// worker is already sending something else.
            case firstMessage
        }

        /// Seconds between two scheduled updates.
        public var interval: Double
        /// When the first comes out.
        public var start: Start

        /// A release of one update every `interval` seconds, from the first poll unless told.
        public init(interval: Double, start: Start = .firstPoll) {
            self.interval = interval
            self.start = start
        }
    }

    /// What the fake knows and what it was told.
    public struct State: Sendable {
        /// The id the next update gets; a test may move it (`rebaseUpdateIDs(to:)`).
        public var nextUpdateID = 1000
        /// The id the next message gets, in any chat.
        public var nextMessageID = 1
        /// Messages sent, in the order accepted.
        public var sent: [Sent] = []
        /// Edits of messages and photos, in the order accepted.
        public var edits: [Edit] = []
        /// The callback query id of every answered button press, in order.
        public var answers: [String] = []
        /// The chat of every `sendChatAction` («печатает…»), in order.
        public var chatActions: [Int64] = []
        /// Every update id handed out by getUpdates or posted to the webhook and answered 2xx,
        /// repeats included.
        public var delivered: [Int] = []
        /// Scripted failures: method name → responses to give before answering normally.
        public var failures: [String: [LoopbackResponse]] = [:]
        /// How many coming getUpdates calls hang (longer than the client waits) before answering.
        public var stalledPolls = 0
        /// Members getChatMember calls administrators.
        public var administrators: Set<Int64> = []
        /// The command menus set, by language code ("" for the default), as their descriptions.
        public var menus: [String: [String]] = [:]
        /// The default menu button's label and the Mini App page it opens; nil when none was set.
        public var menuButton: (text: String, url: String)?
        /// The texts of the answers to button presses, in order ("" for none).
        public var answerTexts: [String] = []
        /// Photos sent and replaced, in order; photo messages are in `sent` too, their caption as text.
        public var photos: [Photo] = []
        /// The pictures uploaded, by the `file_id` given them: what Telegram knows of them (a test
        /// removes them to have Telegram forget).
        public var files: [String: Data] = [:]
        /// The webhook set, when one is: updates are posted to it and getUpdates is refused.
        public var webhook: Webhook?
        /// setWebhook and deleteWebhook calls, in order: the URL set, or "" for a deletion.
        public var webhookCalls: [String] = []
        /// Every post to the webhook: the update id and the status it was answered with (0 when
        /// no answer came).
        public var posts: [(updateID: Int, status: Int)] = []
        /// The last post that failed, as getWebhookInfo tells it.
        public var lastPostError: (date: Date, message: String)?
        /// Messages refused with 429 under the sending limits.
        public var rateLimited = 0

        /// Updates not yet confirmed by an offset nor answered 2xx by the webhook.
        public var pendingUpdates: Int { feed.pending }
        /// The size of those updates' JSON, as getUpdates would hand them out.
        public var pendingUpdateBytes: Int { feed.updates[feed.head...].lazy.filter { !$0.done }.map(\.json.count).reduce(0, +) }
        /// When the first getUpdates arrived, updates or not, or the webhook was set: the worker is up.
        public var firstPoll: Date? { feed.firstPoll }
        /// When scheduled updates started to come out (update k of the schedule k intervals later).
        public var releaseOrigin: Date? { feed.origin }
        /// Posts to the webhook answered 2xx, and those answered otherwise or not at all.
        public var webhookPosts: (delivered: Int, failed: Int) { (posting.delivered, posting.failed) }
        /// Every answer to an inline query, and the messages sent from the results.
        public var inlineAnswers: [InlineAnswer] = []
        /// Messages sent from inline results, by the id Telegram gives them.
        public var inlineMessages: [InlineMessage] = []
        /// Whether a webhook was ever set.
        public var webhookEverSet: Bool { posting.connections > 0 }

        var feed = Feed()
        var posting = Posting()
        /// Messages the bot sent, and those of them that are photos, as Telegram knows them (with a
        /// transcript only: without one, edits of any message are taken).
        var messages: Set<MessageKey> = []
        var photoMessages: Set<MessageKey> = []
        /// Every `file_id` given, kept whether recording or not.
        var fileIDs: Set<String> = []
        var pace = SendingLimits.Pace()
        /// Long polls waiting for an update, by a number of their own.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    struct MessageKey: Hashable, Sendable {
        var chat: Int64
        var message: Int
    }

    /// The transcript and the fake's own bookkeeping, for tests to read and to script (failures, administrators).
    public let state: Locked<State>
    /// The loopback server answering as the Bot API.
    public let server: LoopbackServer
    /// Whether sent messages, edits, photos and updates handed out are kept in ``State``.
    let recording: Bool
    let release: Release?
    let limits: SendingLimits?
    /// Whether getUpdates hands updates out; off, a worker that polls gets none (webhook only).
    let polling: Bool
    let observer: (any FakeTelegramObserver)?
    let token: String
    /// The connections posting to the webhook, made as they are first needed.
    let transports = Locked<[NIOHTTPTransport]>([])
    /// How long after a failed post an update is posted again (Telegram waits longer).
    public static let retryDelay: Duration = .milliseconds(200)
    /// The longest a long poll is held, whatever timeout it asks for.
    static let longestPoll = 2

    /// - Parameters:
    ///   - recording: keep a transcript of what the bot said and of the requests; the benchmark
    ///     turns it off.
    ///   - release: when scheduled updates come out; without it, all at once.
    ///   - limits: Telegram's sending limits, enforced with 429; without them, none.
    ///   - polling: whether getUpdates hands updates out (off: webhook only).
    ///   - threads: the server's event loop threads.
    public init(
        token: String = FakeTelegram.token, recording: Bool = true, release: Release? = nil, limits: SendingLimits? = nil,
        polling: Bool = true, observer: (any FakeTelegramObserver)? = nil, threads: Int = 1
    ) async throws {
        let state = Locked(State())
        self.state = state
        self.token = token
        self.recording = recording
        self.release = release
        self.limits = limits
        self.polling = polling
        self.observer = observer
        let api = Locked<FakeTelegram?>(nil)
        server = try await LoopbackServer(threads: threads, recording: recording) { request in
            guard let api = api.withLock({ $0 }) else { return .noAnswer }
            return await api.answer(request)
        }
        api.withLock { $0 = self }
    }

    /// Stops posting and answering.
    public func shutdown() async {
        await stopPosting()
        await server.shutdown()
        for transport in transports.withLock({ $0 }) { try? await transport.shutdown() }
    }

    /// The base URL to give the bot as its Bot API server.
    public var url: URL { server.url }

    // MARK: Acting as a user

    /// Queues an update, given as JSON text for the update id it gets, valid or not.
    public func enqueueRaw(_ json: (Int) -> String) {
        let id = state.withLock { state in
            defer { state.nextUpdateID &+= 1 }  // wraps past the top of the range, which a test reaches
            return state.nextUpdateID
        }
        enqueue(Data(json(id).utf8), id: id)
    }

    func enqueueUpdate(_ update: [String: Any]) { enqueue(update) }

    private func enqueue(_ update: [String: Any]) {
        let id = state.withLock { state in
            defer { state.nextUpdateID &+= 1 }
            return state.nextUpdateID
        }
        var update = update
        update["update_id"] = id
        let json = (try? JSONSerialization.data(withJSONObject: update)) ?? Data()
        enqueue(Self.escapingNonASCII(json), id: id)
    }

    private func enqueue(_ json: Data, id: Int) {
        let update = try? Update.posted(json)
        let queued = Queued(id: id, json: json, chat: update?.chatID ?? -Int64(id), callbackQueryID: update?.callbackQuery?.id)
        let (polls, connections) = state.withLock { state in
            state.feed.append(queued)
            state.posting.examine.append(queued.chat)
            return (wakePolls(&state), advance(at: Date(), &state))
        }
        resume(polls, connections)
    }

    /// An update the benchmark prepared: its id, JSON and chat, and for a button press the
    /// callback query's id and how many replies its chat must have received before it comes out.
    public struct ScheduledUpdate: Sendable {
        /// The update id it carries.
        public var id: Int
        /// The update's JSON as the fake hands it out.
        public var json: Data
        /// The chat it belongs to, which orders it behind that chat's replies.
        public var chat: Int64
        /// For a button press, the callback query's id, which its answer names.
        public var callbackQueryID: String?
        /// How many replies its chat must have received before it comes out: the press waits for its message.
        public var shownAfter: Int
        /// Seconds from the release's start to this update's, when not its place times the
        /// interval (never earlier than the update before it).
        public var releaseAfter: Double?

        /// An update to schedule, coming out as soon as its release and its chat allow.
        public init(id: Int, json: Data, chat: Int64, callbackQueryID: String? = nil, shownAfter: Int = 0, releaseAfter: Double? = nil) {
            self.id = id
            self.json = json
            self.chat = chat
            self.callbackQueryID = callbackQueryID
            self.shownAfter = shownAfter
            self.releaseAfter = releaseAfter
        }
    }

    /// Queues prepared updates, released as ``Release`` says (all at once without it).
    public func schedule(_ updates: [ScheduledUpdate]) {
        let (polls, connections) = state.withLock { state in
            for update in updates {
                let index = release == nil ? nil : state.feed.scheduled.count
                state.feed.append(
                    Queued(
                        id: update.id, json: update.json, chat: update.chat, callbackQueryID: update.callbackQueryID,
                        shownAfter: update.shownAfter, releaseIndex: index, releaseAfter: update.releaseAfter),
                    interval: release?.interval)
                if index == nil { state.posting.examine.append(update.chat) }
            }
            if let last = updates.last { state.nextUpdateID = last.id &+ 1 }
            return (wakePolls(&state), advance(at: Date(), &state))
        }
        resume(polls, connections)
    }

    /// JSON with every non-ASCII character written as `\uXXXX`, as Telegram writes it.
    public static func escapingNonASCII(_ json: Data) -> Data {
        var text = ""
        for unit in String(decoding: json, as: UTF8.self).utf16 {
            if unit < 0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(unit))) } else { text += String(format: "\\u%04x", unit) }
        }
        return Data(text.utf8)
    }

    /// A long message that replies to another long one: Telegram includes the replied-to message.
    public func sendLongReply(_ text: String, replyingTo original: String, from chatID: Int64, language: String = "ru") {
        let chat: [String: Any] = ["id": chatID, "type": "private"]
        enqueue(["message": [
            "message_id": Int.random(in: 1...1_000_000), "date": 1_700_000_000, "from": Self.user(chatID, language), "chat": chat,
            "text": text,
            "reply_to_message": [
                "message_id": 1, "date": 1_699_999_000, "from": Self.user(chatID, language), "chat": chat, "text": original,
            ],
        ]])
    }

    private static func user(_ chatID: Int64, _ language: String) -> [String: Any] {
        ["id": chatID, "is_bot": false, "first_name": "Tester", "language_code": language]
    }

    /// The next update ids start anew at `id`, as Telegram does after a week without updates.
    public func rebaseUpdateIDs(to id: Int) {
        state.withLock { state in
            state.nextUpdateID = id
            state.feed.rebased = true
        }
    }

    /// A user writes `text` in a private chat whose id is the user's.
    public func sendText(_ text: String, from chatID: Int64, language: String = "ru") {
        enqueue(["message": [
            "message_id": Int.random(in: 1...1_000_000), "date": 1_700_000_000, "from": Self.user(chatID, language),
            "chat": ["id": chatID, "type": "private"], "text": text,
        ]])
    }

    /// A user shares a location in a private chat whose id is the user's.
    public func sendLocation(latitude: Double, longitude: Double, from chatID: Int64, language: String = "ru") {
        enqueue(["message": [
            "message_id": Int.random(in: 1...1_000_000), "date": 1_700_000_000, "from": Self.user(chatID, language),
            "chat": ["id": chatID, "type": "private"], "location": ["latitude": latitude, "longitude": longitude],
        ]])
    }

    /// A member's message in a group, perhaps a reply to one of the bot's messages; returns its id.
    @discardableResult
    public func sendGroupText(_ text: String, in groupID: Int64, from member: Int64, replyingTo botMessageID: Int? = nil, language: String = "ru") -> Int {
        let id = Int.random(in: 1...1_000_000)
        var message: [String: Any] = [
            "message_id": id, "date": 1_700_000_000, "from": Self.user(member, language),
            "chat": ["id": groupID, "type": "supergroup", "title": "Дача"], "text": text,
        ]
        if let botMessageID {
            message["reply_to_message"] = [
                "message_id": botMessageID, "date": 1_700_000_000, "chat": ["id": groupID, "type": "supergroup"],
                "from": ["id": 4242, "is_bot": true, "first_name": "Weather", "username": "weather_test_bot"], "text": "…",
            ]
        }
        enqueue(["message": message])
        return id
    }

    /// A member presses the button whose text contains `label` on the bot's message in a group.
    public func pressInGroup(_ label: String, on messageID: Int, in groupID: Int64, by member: Int64, language: String = "ru") throws {
        press(try buttonData(label, on: messageID, in: groupID), on: messageID, in: (groupID, "supergroup"), by: member, language: language)
    }

    /// Presses the inline button whose text contains `label` on message `messageID`.
    public func press(_ label: String, on messageID: Int, in chatID: Int64, language: String = "ru") throws {
        press(try buttonData(label, on: messageID, in: chatID), on: messageID, in: (chatID, "private"), by: chatID, language: language)
    }

    private func press(_ data: String, on messageID: Int, in chat: (id: Int64, type: String), by user: Int64, language: String) {
        var message = shown(messageID, in: chat.id)
        message["chat"] = ["id": chat.id, "type": chat.type]
        enqueue(["callback_query": [
            "id": "q\(Int.random(in: 1...1_000_000_000))", "from": Self.user(user, language), "chat_instance": "x", "data": data,
            "message": message,
        ]])
    }

    /// A message of the bot's as a press carries it: as it shows now, its text without markup
    /// (as Telegram gives a message sent in HTML) and its buttons.
    private func shown(_ messageID: Int, in chatID: Int64) -> [String: Any] {
        var message: [String: Any] = ["message_id": messageID, "date": 1_700_000_000]
        let shown = screen(chatID).last { $0.messageID == messageID }
        message["text"] = shown.map { HTML.plainText(of: $0.text) } ?? "…"
        if let markup = shown?.markup, let keyboard = try? JSONSerialization.jsonObject(with: Data(markup.utf8)) {
            message["reply_markup"] = keyboard
        }
        return message
    }

    private func buttonData(_ label: String, on messageID: Int, in chatID: Int64) throws -> String {
        let markup = state.withLock { state in
            state.edits.last { $0.chatID == chatID && $0.messageID == messageID }?.markup
                ?? state.sent.last { $0.chatID == chatID && $0.messageID == messageID }?.markup
        }
        guard let markup, let data = Self.callbackData(label, in: markup) else {
            throw ButtonNotFound(label: label, messageID: messageID)
        }
        return data
    }

    /// Presses a button with any data; without `messageID`, as Telegram sends it for a message it no longer gives.
    public func pressRaw(data: String, on messageID: Int?, in chatID: Int64, language: String = "ru") {
        var query: [String: Any] = [
            "id": "q\(Int.random(in: 1...1_000_000_000))", "from": Self.user(chatID, language), "chat_instance": "x", "data": data,
        ]
        if let messageID {
            query["message"] = ["message_id": messageID, "date": 1_700_000_000, "chat": ["id": chatID, "type": "private"], "text": "…"]
        }
        enqueue(["callback_query": query])
    }

    /// No button with that label on the message, as the transcript shows it.
    public struct ButtonNotFound: Error { var label: String; var messageID: Int }

    /// The `callback_data` of the first button whose text contains `label` in `markup` (JSON); nil when none does.
    public static func callbackData(_ label: String, in markup: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(markup.utf8)) as? [String: Any],
            let rows = object["inline_keyboard"] as? [[[String: Any]]]
        else { return nil }
        return rows.joined().first { ($0["text"] as? String)?.contains(label) ?? false }?["callback_data"] as? String
    }

    /// The messages of a chat as the user sees them now: each sent message with its latest edit.
    public func screen(_ chatID: Int64) -> [(messageID: Int, text: String, markup: String?)] {
        state.withLock { state in
            state.sent.filter { $0.chatID == chatID }.map { sent in
                let edit = state.edits.last { $0.chatID == chatID && $0.messageID == sent.messageID }
                return (sent.messageID, edit?.text ?? sent.text, edit.map(\.markup) ?? sent.markup)
            }
        }
    }

    /// Waits until `condition` holds of the state, failing after `timeout`.
    public func waitUntil(timeout: Duration = .seconds(30), _ what: String, _ condition: (State) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLock({ condition($0) }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(what: what)
    }

    /// A condition of ``waitUntil(timeout:_:_:)`` that did not hold in time.
    public struct TimedOut: Error, CustomStringConvertible {
        /// What was waited for, as the test named it.
        public var what: String
        /// A time-out waiting for `what`.
        public init(what: String) { self.what = what }
        /// «timed out waiting for …», for the test's failure.
        public var description: String { "timed out waiting for \(what)" }
    }

    /// Resumes long polls and webhook connections woken under the lock.
    func resume(_ polls: [CheckedContinuation<Void, Never>], _ connections: [CheckedContinuation<NextPost, Never>]) {
        for poll in polls { poll.resume() }
        for connection in connections { connection.resume(returning: .again) }
    }
}

/// Told of every update handed out and every reply accepted, under the fake's lock and in the
/// order they happened: how the benchmark times answers.
public protocol FakeTelegramObserver: Sendable {
    /// An update came out for the first time, by getUpdates or posted to the webhook.
    func handedOut(_ update: HandedOut)
    /// A reply was accepted: a message, an edit, a photo or an answer to a button press.
    func accepted(_ reply: AcceptedReply)
}

/// An update as it came out to the worker, for the benchmark's timings.
public struct HandedOut: Sendable {
    /// The update's id.
    public var updateID: Int
    /// The chat it belongs to.
    public var chat: Int64
    /// When it was released, or when a press held back for its message came out, whichever is
    /// later: the time its answer is measured from.
    public var releasedAt: Date
    /// When it was handed out, by a poll's answer or a post to the webhook.
    public var at: Date
}

/// A reply the fake accepted, for the benchmark's timings.
public struct AcceptedReply: Sendable {
    /// The Bot API method, such as `sendMessage`.
    public var method: String
    /// The chat it went to.
    public var chat: Int64
    /// The button press an answerCallbackQuery answers.
    public var callbackQueryID: String?
    /// For a photo: whether its bytes were uploaded (else it went by `file_id`).
    public var uploaded: Bool?
    /// When it was accepted.
    public var at: Date
    /// A message's text (`sendMessage`), for the benchmark to tell what it was.
    public var text: String? = nil
    /// Sent without a sound (`disable_notification`).
    public var silent = false
    /// The inline query an answerInlineQuery answers.
    public var inlineQueryID: String? = nil

    /// Whether it answers a button press (`answerCallbackQuery`), which the benchmark times apart from messages.
    public var isAnswerToPress: Bool { method == "answerCallbackQuery" }
}
