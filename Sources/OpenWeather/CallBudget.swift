public import BotClock
public import Foundation
import Synchronization

/// How urgent an OpenWeather call is when the budget runs short.
public enum CallPriority: Int, Sendable, Comparable, CaseIterable {
    /// Anything that can wait: fetching ahead what nobody asked for yet.
    case background
    /// Work due soon: daily forecasts due within minutes.
    case soon
    /// Someone waiting for an answer.
    case interactive

    /// By urgency: ``background`` is the least, ``interactive`` the most.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The part of the minute's calls this priority may use: the rest is kept for the more
    /// urgent, so a morning broadcast leaves a fifth of every minute to people typing.
    var minuteShare: Double {
        switch self {
        case .background: 0.5
        case .soon: 0.8
        case .interactive: 1
        }
    }

    /// The part of the day's calls it may use. A fifth of the day is kept for scheduled work
    /// (daily forecasts, notices, fetching ahead for them): people cannot take it. Of that fifth
    /// the last tenth of the day is for daily forecasts due soon alone.
    /// A call made on a chat's behalf is people's whatever its priority (``CallBudget/peopleDayShare``).
    var dayShare: Double {
        switch self {
        case .background: 0.9
        case .soon: 1
        case .interactive: CallBudget.peopleDayShare
        }
    }

    /// How long a call of this priority waits for a free slot before it is refused.
    var patience: Duration {
        switch self {
        case .background: .seconds(600)
        case .soon: .seconds(120)
        case .interactive: .seconds(3)
        }
    }

    /// Its patience when whoever waits has older data to show instead (``CallContext/hasLastKnown``):
    /// a person then gets the last known weather, with its age, within half a second rather than
    /// fresher weather after up to three. Work due soon or later waits as long either way.
    func patience(hasLastKnown: Bool) -> Duration {
        self == .interactive && hasLastKnown ? .milliseconds(500) : patience
    }
}

/// On whose behalf and how urgently OpenWeather's calls are made, passed to every call that may
/// spend the budget: a chat's (``chat(_:)``, made where the chat is handled: its step, an inline
/// query or press by its user) or scheduled work's (``soon``, ``background``), nobody's. There is no
/// other way to make one: every call says who pays for it.
public struct CallContext: Sendable {
    /// The chat the calls are counted against (its shares of the minute and the day); nil for
    /// scheduled work, which has the part of the day kept for it.
    public private(set) var chatID: Int64?
    /// How urgent the calls are: someone waiting for a chat, or work that can wait.
    public private(set) var priority: CallPriority

    /// The calls are a batch for one view of the chat (a favorites list's short weather, the air
    /// beside a card): counted in its share of the day (``CallBudget/Limits/perChatDay``) but not
    /// in its share of the minute, which a list of twenty on a cold cache would spend at once.
    public var batch = false

    /// A refusal of these calls reaches the chat as a message's answer, and so counts as told
    /// (``CallBudget/told(_:of:)``); false where it is not shown (an inline answer, a list's rows
    /// without their weather), so that it silences nothing.
    public var refusalsShown = true

    /// Only what the caches keep, or a fetch already under way, answers: no call is started, and
    /// a look-up that would need one throws ``NotCached``. An inline query is answered this way at
    /// once, and calls only once its user stops typing.
    public var cachedOnly = false

    /// Whoever waits for the call has older data to show when it is not made (the weather
    /// cache's last entry for the place): a person waits for a slot only briefly then. Set by the
    /// weather cache for its fetch.
    public internal(set) var hasLastKnown = false

    /// The priority of a call made for several callers at once (a fetch they share), which
    /// overrides ``priority`` as it is raised. Set by the weather cache for its fetch.
    public internal(set) var shared: SharedPriority?

    private init(chatID: Int64?, priority: CallPriority) {
        self.chatID = chatID
        self.priority = priority
    }

    /// Calls on a chat's behalf, someone waiting for them: counted against the chat's shares and
    /// people's part of the day. An inline query's or press's user is the chat of the same id
    /// (their private chat with the bot).
    public static func chat(_ id: Int64) -> CallContext { CallContext(chatID: id, priority: .interactive) }

    /// Scheduled work due soon (daily forecasts due within minutes), nobody's.
    public static let soon = CallContext(chatID: nil, priority: .soon)

    /// Scheduled work that can wait (notices, fetching ahead), nobody's.
    public static let background = CallContext(chatID: nil, priority: .background)

    /// The same payer at `priority` when that is less urgent: the air beside a card is the
    /// chat's, but waits as background work does. Never raises a priority.
    public func lowered(to priority: CallPriority) -> CallContext {
        var lowered = self
        lowered.priority = min(self.priority, priority)
        return lowered
    }

    /// The priority a call is made with now.
    public var currentPriority: CallPriority { shared?.priority ?? priority }
}

/// A look-up made with ``CallContext/cachedOnly`` that would have needed a call.
public struct NotCached: Error, Sendable, Hashable {
    /// The refusal of a look-up that only reads the caches.
    public init() {}
}

/// The priority of a call shared by several callers: the most urgent of theirs, raised as each
/// joins. A forecast fetched ahead for a daily forecast, waiting for its slot, becomes someone's
/// waiting when a user asks for the same place meanwhile.
public final class SharedPriority: Sendable {
    private let value: Mutex<CallPriority>

    /// Starts at the first caller's priority.
    public init(_ priority: CallPriority) {
        value = Mutex(priority)
    }

    /// The most urgent priority of the callers so far.
    public var priority: CallPriority { value.withLock { $0 } }

    /// A caller joins with `priority`: the shared call takes it when it is more urgent, never less.
    public func raise(to priority: CallPriority) {
        value.withLock { $0 = max($0, priority) }
    }
}

/// OpenWeather's budget, counted before each call is sent: at most `perMinute` calls in any
/// minute (with a second's margin, ``minute``), `perDay` in a UTC day (as OpenWeather counts
/// them), `perChat` in any minute on one chat's behalf, and `perChatDay` in a UTC day on one
/// chat's behalf. People take at most four fifths of the day (``peopleDayShare``): the rest is
/// scheduled work's. A call over the minute's budget waits for a slot, up to its priority's
/// patience; a chat over its share and a day spent are refused at once. A limit of 0 is none.
public final class CallBudget: Sendable {
    /// The limits the operator set; 0 is none.
    public struct Limits: Sendable, Hashable {
        /// Calls in any minute, every caller's; OpenWeather's free plan allows 60.
        public var perMinute: Int
        /// Calls in a UTC day, every caller's; 0: no daily limit.
        public var perDay: Int
        /// Calls in any minute on one chat's behalf: by default 30, what a person trying places
        /// by hand can spend (a new place every four seconds, each its look-up and its weather);
        /// a flood is held to it, and its share of the day (``perChatDay``) bounds its day.
        public var perChat: Int
        /// The calls a chat may make in a UTC day: by default a twentieth of the day, at least
        /// ten, never more than people's part of it (``CallBudget/peopleDayShare``); none
        /// without a day's limit. One chat typing names all day spends its own share, not
        /// everyone's day.
        public var perChatDay: Int

        /// A nil `perChatDay` takes the chat's share of `perDay` (``chatsShare(ofDay:)``).
        public init(perMinute: Int = 60, perDay: Int = 0, perChat: Int = 30, perChatDay: Int? = nil) {
            self.perMinute = perMinute
            self.perDay = perDay
            self.perChat = perChat
            self.perChatDay = perChatDay ?? Self.chatsShare(ofDay: perDay)
        }

        /// A chat's share of a day of `perDay` calls: see ``perChatDay``.
        public static func chatsShare(ofDay perDay: Int) -> Int {
            guard perDay > 0 else { return 0 }
            let people = max(1, Int((Double(perDay) * CallBudget.peopleDayShare).rounded(.down)))
            return min(people, max(10, perDay / 20))
        }
    }

    /// The part of the day people may take: calls on a chat's behalf or for someone waiting. The
    /// rest is kept for daily forecasts and notices.
    public static let peopleDayShare = 0.8

    /// Why a call was not made.
    public enum Refusal: Sendable, Hashable {
        /// The minute's budget had no slot within the call's patience.
        case minute
        /// The UTC day's budget is spent; it renews at `renews`.
        case day(renews: Date)
        /// The chat asked for more than its share of the minute.
        case chat
        /// The chat spent its share of the UTC day; it renews at `renews`.
        case chatDay(renews: Date)
    }

    /// What ``decide(_:chat:at:)`` allows.
    public enum Decision: Sendable, Hashable {
        /// Made now, and counted.
        case go
        /// No slot for this priority before `date`.
        case wait(until: Date)
        case refused(Refusal)
    }

    /// The day's count as it stands, for storing it: the UTC day (days since 1970) and its calls
    /// by endpoint.
    public struct DayCount: Sendable, Hashable {
        /// The UTC day counted, in days since 1970.
        public var day: Int
        /// The day's calls by endpoint; an endpoint without calls may be absent.
        public var calls: [OpenWeatherEndpoint: Int]

        /// A day's count, as the store gives it back after a restart.
        public init(day: Int, calls: [OpenWeatherEndpoint: Int]) {
            self.day = day
            self.calls = calls
        }

        /// The day's calls, every endpoint's.
        public var total: Int { calls.values.reduce(0, +) }
    }

    private struct Call {
        var at: Date
        var endpoint: OpenWeatherEndpoint
        /// Made for someone waiting (``CallPriority/interactive``), or for work that could wait.
        var forPeople = false
    }

    private struct State {
        /// The calls in the last minute, oldest first.
        var recent: [Call] = []
        var day: Int
        var dayCalls: [OpenWeatherEndpoint: Int]
        var dayTotal: Int
        /// The day's calls not yet handed to the store.
        var unsaved: [OpenWeatherEndpoint: Int] = [:]
        /// Each chat's calls in the last minute, oldest first.
        var byChat: [Int64: [Date]] = [:]
        /// Each chat's calls in the UTC day.
        var byChatToday: [Int64: Int] = [:]
        /// When each chat was last told of a refusal of each kind (``Refused/repeated``).
        var told: [Told: Date] = [:]
        /// When each chat told its share of the day is spent was last refused it since: while
        /// the refusals come fast (a flood), it is not told again.
        var refusedSinceTold: [Int64: Date] = [:]
        /// How many chats were told when they were last forgotten.
        var toldPrunedAt = 10_000
        /// The calls people waited for (``CallPriority/interactive``) in the last minute, made or
        /// refused: the part of the minute work that can wait leaves them.
        var peopleAsked: [Date] = []
    }

    /// The limits it was made with; they do not change while it runs.
    public let limits: Limits
    private let clock: any WallClock
    private let state: Mutex<State>

    /// - Parameters:
    ///   - restored: the day's count stored before a restart; another day's counts nothing.
    ///   - lastMinute: the calls of the worker before, by second since 1970 (``recentCalls``):
    ///     those of the last minute count against this worker's first minute.
    public init(_ limits: Limits, clock: any WallClock = SystemWallClock(), restored: DayCount? = nil, lastMinute: [Int: Int] = [:]) {
        self.limits = limits
        self.clock = clock
        let now = clock.date
        let today = CivilDate.utcDay(of: now)
        let calls = restored?.day == today ? restored?.calls ?? [:] : [:]
        var state = State(day: today, dayCalls: calls, dayTotal: calls.values.reduce(0, +))
        // Their endpoints are not kept; they are in the day's count already.
        state.recent = lastMinute.sorted { $0.key < $1.key }.flatMap { second, count in
            repeatElement(Call(at: Date(timeIntervalSince1970: Double(second)), endpoint: .other), count: max(0, min(count, 10_000_000)))
        }
        Self.forget(&state.recent, before: now, \.at)
        self.state = Mutex(state)
    }

    /// The calls of the last minute by second since 1970, for the worker after this one.
    public var recentCalls: [Int: Int] {
        let now = clock.date
        return state.withLock { state in
            Self.forget(&state.recent, before: now, \.at)
            // A second rounded up: the next worker forgets each call no sooner than OpenWeather does.
            return state.recent.reduce(into: [:]) { $0[Int($1.at.timeIntervalSince1970.rounded(.up)), default: 0] += 1 }
        }
    }

    /// The calls a minute that `priority` may make however many people ask: its share of
    /// `perMinute`, at most half of it below ``CallPriority/interactive`` (for itself and work
    /// less urgent); 0 when there is no limit.
    public func callsPerMinute(for priority: CallPriority) -> Int {
        guard limits.perMinute > 0 else { return 0 }
        let share = Self.allowed(limits.perMinute, priority)
        return priority < .interactive ? max(1, min(share, limits.perMinute - limits.perMinute / 2)) : share
    }

    private static func allowed(_ perMinute: Int, _ priority: CallPriority) -> Int {
        max(1, Int((Double(perMinute) * priority.minuteShare).rounded(.down)))
    }

    /// The day's calls so far.
    public var today: DayCount {
        let now = clock.date
        return state.withLock { state in
            Self.turnDay(&state, at: now)
            return DayCount(day: state.day, calls: state.dayCalls)
        }
    }

    /// The calls made in the last minute, by endpoint.
    public var lastMinute: [OpenWeatherEndpoint: Int] {
        let now = clock.date
        return state.withLock { state in
            Self.forget(&state.recent, before: now, \.at)
            return state.recent.reduce(into: [:]) { $0[$1.endpoint, default: 0] += 1 }
        }
    }

    /// Whether a call of `priority` for `chat` may go at `now`; one that may is counted.
    /// `batch`: one of several calls for one view of `chat` (``CallContext/batch``), counted in
    /// its share of the day only.
    /// `scheduled`: the call was scheduled work's before someone joined it (``SharedPriority``):
    /// it keeps the part of the day kept for that work.
    public func decide(
        _ priority: CallPriority, chat: Int64?, batch: Bool = false, scheduled: CallPriority? = nil, endpoint: OpenWeatherEndpoint = .other,
        at now: Date
    ) -> Decision {
        state.withLock { state in
            Self.turnDay(&state, at: now)
            let renews = Date(timeIntervalSince1970: Double(state.day + 1) * 86_400)
            // A call on a chat's behalf is people's, whatever its priority.
            let dayShare =
                chat == nil ? max(priority.dayShare, scheduled?.dayShare ?? 0) : min(priority.dayShare, Self.peopleDayShare)
            if limits.perDay > 0, Double(state.dayTotal) >= (Double(limits.perDay) * dayShare).rounded(.down) {
                return .refused(.day(renews: renews))
            }
            if let chat, limits.perChatDay > 0, state.byChatToday[chat, default: 0] >= limits.perChatDay {
                // A flood goes on being refused: it is not told again while it lasts.
                Self.keepQuiet(Told(chat, .chatDay(renews: renews)), &state, at: now)
                return .refused(.chatDay(renews: renews))
            }
            if let chat, limits.perChat > 0, !batch {
                var calls = state.byChat[chat] ?? []
                Self.forget(&calls, before: now, \.self)
                state.byChat[chat] = calls.isEmpty ? nil : calls
                if calls.count >= limits.perChat { return .refused(.chat) }
            }
            if limits.perMinute > 0 {
                Self.forget(&state.recent, before: now, \.at)
                // A slot frees when enough of the oldest calls leave the minute.
                var frees: Date?
                if state.recent.count >= limits.perMinute {
                    frees = state.recent[state.recent.count - limits.perMinute].at.addingTimeInterval(Self.minute)
                }
                if priority < .interactive {
                    // People first: work that can wait has its share of the minute less what
                    // people asked for in the last minute (made or refused), never less than half
                    // the minute, so a crowd cannot starve a morning's forecasts.
                    Self.forget(&state.peopleAsked, before: now, \.self)
                    let kept = max(limits.perMinute - Self.allowed(limits.perMinute, priority), min(state.peopleAsked.count, limits.perMinute / 2))
                    let allowed = max(1, limits.perMinute - kept)
                    let waiting = state.recent.filter { !$0.forPeople }
                    if waiting.count >= allowed {
                        frees = max(frees ?? .distantPast, waiting[waiting.count - allowed].at.addingTimeInterval(Self.minute))
                    }
                }
                if let frees { return .wait(until: frees) }
            }
            // Kept without a limit too: /metrics tells the last minute's calls.
            state.recent.append(Call(at: now, endpoint: endpoint, forPeople: priority == .interactive))
            if limits.perMinute == 0 { Self.forget(&state.recent, before: now, \.at) }
            state.dayCalls[endpoint, default: 0] += 1
            state.dayTotal += 1
            state.unsaved[endpoint, default: 0] += 1
            if let chat, limits.perChatDay > 0 { state.byChatToday[chat, default: 0] += 1 }
            if let chat, limits.perChat > 0, !batch {
                state.byChat[chat, default: []].append(now)
                // Chats that went quiet are let go when many have asked.
                if state.byChat.count > 10_000 { state.byChat = state.byChat.filter { now.timeIntervalSince($0.value.last ?? now) < Self.minute } }
            }
            return .go
        }
    }

    /// Waits for a slot for a call to `endpoint` of `context`'s priority and chat, up to the
    /// priority's patience; throws the refusal when there is none.
    /// A shared call's priority may be raised while it waits: it looks again every second, and
    /// waits from then on with the raised priority's share and patience.
    public func acquire(_ context: CallContext, for endpoint: OpenWeatherEndpoint = .other) async throws(Refused) {
        var priority = context.currentPriority
        let chat = context.chatID
        // Scheduled work a person joins keeps its part of the day.
        let scheduled = chat == nil && context.priority < .interactive ? context.priority : nil
        var giveUp = clock.date.addingTimeInterval(priority.patience(hasLastKnown: context.hasLastKnown).timeInterval)
        if priority == .interactive { askedByPeople() }
        while true {
            switch decide(priority, chat: chat, batch: context.batch, scheduled: scheduled, endpoint: endpoint, at: clock.date) {
            case .go:
                return
            case .refused(let refusal):
                throw Refused(refusal: refusal, repeated: wasTold(chat, of: refusal))
            case .wait(let until):
                guard until <= giveUp else { throw Refused(refusal: .minute, repeated: wasTold(chat, of: .minute)) }
                let wake = context.shared == nil ? until : min(until, clock.date.addingTimeInterval(1))
                do {
                    try await clock.sleep(until: WallInstant(wake), tolerance: nil)
                } catch {
                    throw Refused(refusal: .minute, repeated: wasTold(chat, of: .minute))
                }
                let raised = context.currentPriority
                if raised > priority {
                    if raised == .interactive { askedByPeople() }
                    priority = raised
                    giveUp = clock.date.addingTimeInterval(raised.patience(hasLastKnown: context.hasLastKnown).timeInterval)
                }
            }
        }
    }

    /// A call the budget did not allow.
    public struct Refused: Error, Sendable, Hashable {
        /// Which limit refused it.
        public var refusal: Refusal
        /// The chat it was for was told of a refusal like it lately (``wasTold(_:of:)``): a chat
        /// is told once a minute, not once per message. Whoever shows it calls ``told(_:of:)``.
        public var repeated: Bool

        /// A refusal; `repeated` when the chat was told of one like it lately.
        public init(refusal: Refusal, repeated: Bool = false) {
            self.refusal = refusal
            self.repeated = repeated
        }
    }

    /// A chat and whether the refusal it was told of was of its share of the minute, of its share
    /// of the day, or of everyone's budget: being told the one does not silence the others.
    struct Told: Hashable {
        enum Kind: Hashable { case minuteShare, dayShare, everyones }

        var chat: Int64
        var kind: Kind

        init(_ chat: Int64, _ refusal: Refusal) {
            self.chat = chat
            kind = switch refusal {
            case .chat: .minuteShare
            case .chatDay: .dayShare
            case .minute, .day: .everyones
            }
        }

        /// How long being told silences the same refusal: a minute for the chat's share of the
        /// minute, ten seconds for everyone's budget; for its share of the day see
        /// ``dayShareQuiet``.
        var silence: TimeInterval {
            switch kind {
            case .minuteShare: CallBudget.minute
            case .dayShare: CallBudget.dayShareLongest
            case .everyones: 10
            }
        }
    }

    /// A chat told its share of the day is spent is told again once it paused this long, or
    /// refused less often than once a minute for this long: a flood is told once, a person asking
    /// now and then every ten minutes.
    static let dayShareQuiet: TimeInterval = 600
    /// And at the latest this long after it was told, however it goes on.
    static let dayShareLongest: TimeInterval = 1_800

    /// Whether `chat` is to be told of a refusal now, and if so counts it as told: see
    /// ``wasTold(_:of:)``.
    public func isFirstRefusal(of chat: Int64?, for refusal: Refusal = .chat) -> Bool {
        guard let chat else { return true }
        let now = clock.date
        return state.withLock { state in
            guard !Self.wasTold(Told(chat, refusal), in: state, at: now) else { return false }
            Self.tell(Told(chat, refusal), &state, at: now)
            return true
        }
    }

    /// Whether `chat` was told lately of a refusal like `refusal`: of its own share of the minute
    /// in the last minute (``Refusal/chat``), of its share of the day in the last ten minutes, or
    /// while it floods up to half an hour (``Refusal/chatDay(renews:)``, ``dayShareQuiet``), that
    /// the service is busy or everyone's day spent in the last ten seconds. So a person asking now and then hears each time and a flood hears
    /// rarely. Without a chat, never.
    public func wasTold(_ chat: Int64?, of refusal: Refusal) -> Bool {
        guard let chat else { return false }
        let now = clock.date
        return state.withLock { Self.wasTold(Told(chat, refusal), in: $0, at: now) }
    }

    /// Counts `chat` as told of `refusal` now: it was shown to it. A refusal that older weather
    /// stood in for was not, and silences nothing.
    public func told(_ chat: Int64?, of refusal: Refusal) {
        guard let chat else { return }
        let now = clock.date
        state.withLock { Self.tell(Told(chat, refusal), &$0, at: now) }
    }

    private static func wasTold(_ told: Told, in state: State, at now: Date) -> Bool {
        guard let last = state.told[told], now.timeIntervalSince(last) < told.silence else { return false }
        guard told.kind == .dayShare else { return true }
        return now.timeIntervalSince(state.refusedSinceTold[told.chat] ?? last) < dayShareQuiet
    }

    private static func tell(_ told: Told, _ state: inout State, at now: Date) {
        state.told[told] = now
        if told.kind == .dayShare { state.refusedSinceTold[told.chat] = nil }
        // Forgotten once past their silence, and only when the chats told grew by half again.
        if state.told.count > state.toldPrunedAt * 3 / 2 {
            state.told = state.told.filter { now.timeIntervalSince($0.value) < $0.key.silence }
            state.refusedSinceTold = state.refusedSinceTold.filter { now.timeIntervalSince($0.value) < dayShareQuiet }
            state.toldPrunedAt = max(10_000, state.told.count)
        }
    }

    /// A refusal of the chat's share of the day, not told again: while they come less than a
    /// minute apart (a flood) the silence goes on, up to ``dayShareLongest``.
    private static func keepQuiet(_ told: Told, _ state: inout State, at now: Date) {
        guard told.kind == .dayShare, wasTold(told, in: state, at: now), let last = state.told[told] else { return }
        if now.timeIntervalSince(state.refusedSinceTold[told.chat] ?? last) < minute { state.refusedSinceTold[told.chat] = now }
    }

    private func askedByPeople() {
        guard limits.perMinute > 0 else { return }
        let now = clock.date
        state.withLock { state in
            Self.forget(&state.peopleAsked, before: now, \.self)
            state.peopleAsked.append(now)
        }
    }

    /// The minute as the budget counts it: a second longer than OpenWeather's, for the time a
    /// request takes to reach it. Counted as it leaves, a call made 60 s after another may arrive
    /// within 60 s of it, and be the minute's one too many.
    static let minute: TimeInterval = 61

    private static func forget<Item>(_ calls: inout [Item], before now: Date, _ time: KeyPath<Item, Date>) {
        let horizon = now.addingTimeInterval(-minute)
        if let keep = calls.firstIndex(where: { $0[keyPath: time] > horizon }) {
            if keep > 0 { calls.removeFirst(keep) }
        } else {
            calls.removeAll(keepingCapacity: true)
        }
    }

    private static func turnDay(_ state: inout State, at now: Date) {
        let today = CivilDate.utcDay(of: now)
        if today > state.day {
            // Yesterday's calls not yet stored no longer count against anything.
            state.day = today
            state.dayCalls = [:]
            state.dayTotal = 0
            state.unsaved = [:]
            state.byChatToday = [:]
        }
    }

    // MARK: Stored

    /// The calls counted since the last take, to add to the stored count of their day.
    public func takeUnsaved() -> DayCount {
        let now = clock.date
        return state.withLock { state in
            Self.turnDay(&state, at: now)
            defer { state.unsaved = [:] }
            return DayCount(day: state.day, calls: state.unsaved)
        }
    }

    /// Calls taken that could not be stored, counted as unsaved again.
    public func giveBack(_ taken: DayCount) {
        state.withLock { state in
            if state.day == taken.day { state.unsaved.merge(taken.calls, uniquingKeysWith: +) }
        }
    }

    /// The stored count of `day`, with what every replica added: the day's count from now on,
    /// plus the calls made since it was taken.
    public func adopt(_ stored: DayCount) {
        state.withLock { state in
            guard state.day == stored.day else { return }
            state.dayCalls = stored.calls.merging(state.unsaved, uniquingKeysWith: +)
            state.dayTotal = state.dayCalls.values.reduce(0, +)
        }
    }
}
