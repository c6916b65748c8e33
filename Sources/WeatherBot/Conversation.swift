public import BotClock
public import Foundation
import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// The conversation of one chat: `(chat, event) → (chat, changes, replies, follow-ups)`.
///
/// It writes nothing itself: it is given the chat's record and returns the new one with the
/// changes and replies to commit in one transaction. Geocoding, weather and the chat's favorites
/// come through the protocols it is given, so every transition can be tested without the network.
public struct Conversation: Sendable {
    /// Something for the conversation to handle.
    public enum Event: Sendable, Hashable {
        case incoming(Incoming)
        case followUp(FollowUp, chatID: Int64)

        var chatID: Int64 {
            switch self {
            case .incoming(let incoming): incoming.chatID
            case .followUp(_, let chatID): chatID
            }
        }
    }

    /// The outcome of one step, to be committed in one transaction.
    public struct Step: Sendable {
        /// The chat's record as the step leaves it, to be stored in place of the one read.
        public var chat: ChatRecord
        /// The changes to the chat's other rows (favorites, daily forecasts), in order.
        public var changes: [ChatChange]
        /// The messages to send, in order, into the outbox with the commit.
        public var replies: [Reply]
        /// Work the step leaves for later steps of the same chat, put back into the inbox.
        public var followUps: [FollowUp]
    }

    let geocoder: any Geocoder
    let weather: any WeatherSource
    let store: any ChatStore
    let activity: any ChatActivity
    /// Tells a group's administrators; nil where there are none to ask (tests without groups).
    let membership: (any ChatMembership)?
    /// Follows short map links; without it they are answered as links without a point.
    let mapLinks: (any MapLinkResolver)?
    /// Shown to chats that have no city yet.
    let defaultPlace: Place
    let maximumFavorites: Int
    let maximumSubscriptions: Int
    /// The charts a chat may have in a minute, each drawn and uploaded as a photo: the same rule
    /// as OpenWeather's calls on a chat's behalf, told once a minute.
    let charts: CallBudget
    /// The quiet hours of chats that chose none of their own (`ALERTS_QUIET_HOURS`); nil for none.
    let defaultQuietHours: QuietHours?
    /// The Mini App's page, which private cards and /help offer; nil for no app.
    let miniApp: URL?
    let clock: any WallClock

    /// A conversation over its collaborators. The limits are each chat's: its favorites, its daily forecasts, its charts a minute.
    /// `defaultPlace` is shown to chats without a city; `defaultQuietHours` are those of chats that chose none (nil: none).
    public init(
        geocoder: any Geocoder,
        weather: any WeatherSource,
        store: any ChatStore,
        activity: any ChatActivity,
        membership: (any ChatMembership)? = nil,
        mapLinks: (any MapLinkResolver)? = nil,
        defaultPlace: Place = .moscow,
        maximumFavorites: Int = 20,
        maximumSubscriptions: Int = 5,
        chartsPerChatPerMinute: Int = 6,
        defaultQuietHours: QuietHours? = .night,
        miniApp: URL? = nil,
        clock: any WallClock = SystemWallClock()
    ) {
        self.miniApp = miniApp
        self.defaultQuietHours = defaultQuietHours
        self.charts = CallBudget(.init(perMinute: 0, perDay: 0, perChat: chartsPerChatPerMinute), clock: clock)
        self.geocoder = geocoder
        self.weather = weather
        self.store = store
        self.activity = activity
        self.membership = membership
        self.mapLinks = mapLinks
        self.defaultPlace = defaultPlace
        self.maximumFavorites = maximumFavorites
        self.maximumSubscriptions = maximumSubscriptions
        self.clock = clock
    }

    /// Handles one event for a chat (`nil` when the chat is new).
    public func handle(_ event: Event, chat existing: ChatRecord?) async -> Step {
        let now = clock.date
        let chat = existing ?? ChatRecord(id: event.chatID, language: .ru, state: .idle, createdAt: now, updatedAt: now)
        let state = chat.state
        var context = Context(chat: chat, state: state)
        switch event {
        case .incoming(let incoming) where incoming.isEdit && (existing == nil || incoming.userMessageID != chat.lastMessageID):
            // An edit of a message answered long ago, or of one the bot never answered: the
            // conversation has moved on, and replying now would only confuse.
            return Step(chat: chat, changes: [], replies: [], followUps: [])
        case .incoming(let incoming):
            // The chat's own language when it chose one (a group's is the group's, not whoever acts).
            let language = chat.settings.language ?? incoming.language
            context.telegramLanguage = incoming.language
            context.language = language
            context.isGroup = incoming.isGroup
            context.userMessageID = incoming.userMessageID
            context.senderID = incoming.senderID
            context.bySelf = incoming.bySelf
            context.botUsername = incoming.botUsername
            context.repliedPlace = incoming.repliedPlace
            context.pressed = incoming.callbackQueryID != nil
            context.chat.language = language
            // A user who writes again (after blocking the bot once) can be written to again.
            if !context.chat.isActive {
                context.chat.isActive = true
                context.changes.append(.resumeSubscriptions)
            }
            await handle(incoming, &context)
            // Which message this step answered, so that an edit of it can be read again.
            context.chat.lastMessageID = incoming.callbackQueryID == nil ? incoming.userMessageID : nil
            // Every button press is answered, whatever the branch did.
            if let queryID = incoming.callbackQueryID,
                !context.replies.contains(where: { if case .answer = $0 { true } else { false } })
            {
                context.replies.insert(.answer(callbackQueryID: queryID), at: 0)
            }
        case .followUp(let followUp, _):
            await handle(followUp, &context)
        }
        context.chat.state = context.state
        return Step(chat: context.chat, changes: context.changes, replies: context.replies, followUps: context.followUps)
    }

    /// The working copy of one step.
    struct Context {
        var chat: ChatRecord
        var state: ChatState
        var changes: [ChatChange] = []
        var replies: [Reply] = []
        var followUps: [FollowUp] = []
        var language: Language
        /// The language of the Telegram client of whoever acts, which a chat that chose none is spoken to in.
        var telegramLanguage: Language
        /// A group: no location button, and questions are asked of the member by reply.
        var isGroup = false
        /// The member's message being answered, which a question in a group replies to.
        var userMessageID: Int?
        /// The member who wrote or pressed.
        var senderID: Int64?
        /// Written on behalf of the group by one of its anonymous administrators.
        var bySelf = false
        var botUsername: String?
        /// The place of the bot's weather message the typed text replies to, as its buttons name it.
        var repliedPlace: PlaceReference?
        /// The step answers a button press: a refusal is shown even when the chat was told of one
        /// moments ago, since whoever pressed waits to see something happen.
        var pressed = false

        /// In a group, the member whose request a destructive button or question belongs to.
        var owner: Int64? { isGroup ? senderID : nil }

        /// Who pays for the step's OpenWeather calls: the chat, counted against its share.
        var calls: CallContext { .chat(chat.id) }

        init(chat: ChatRecord, state: ChatState) {
            self.chat = chat
            self.state = state
            self.language = chat.language
            self.telegramLanguage = chat.language
        }

        var texts: Texts { .for(language, inGroup: isGroup, settings: chat.settings) }

        /// Starts a new question: older buttons become stale.
        mutating func nextQuestion() -> Int {
            chat.questionSeq += 1
            return chat.questionSeq
        }

        /// How a question asks for its answer: by reply, and in a group of the member who asked only.
        var question: ForceReply {
            // Selective needs the member's message to reply to; a question after a button asks everyone.
            let member = isGroup ? userMessageID : nil
            return ForceReply(selective: member == nil ? nil : true, inputFieldPlaceholder: texts.inputPlaceholder, replyTo: member)
        }

        /// Whether a failure goes unanswered: a refusal the chat was told of moments ago, for a
        /// message it typed (a flood is not answered name by name).
        func isQuiet(about error: any Error) -> Bool {
            !pressed && Views.toldAlready(error)
        }

        mutating func say(_ text: String) {
            replies.append(.send(text: HTML.fitting(text)))
        }

        mutating func answer(_ queryID: String, _ text: String? = nil) {
            replies.append(.answer(callbackQueryID: queryID, text: text))
        }

        /// Drops an edit of the pressed message to what it shows already (a view pressed again,
        /// a refresh that changed nothing): Telegram would refuse it as «message is not modified»,
        /// a call wasted. The press is then answered «Уже показано», unless its answer says something.
        mutating func leaveAsShown(_ shown: ShownMessage?, messageID: Int?, queryID: String) {
            guard let shown, let messageID else { return }
            let count = replies.count
            replies.removeAll { reply in
                guard case .edit(.id(let edited), let text, let keyboard) = reply, edited == messageID else { return false }
                return shown.shows(text, keyboard: keyboard)
            }
            guard replies.count < count,
                let index = replies.firstIndex(where: { if case .answer(queryID, nil, _) = $0 { true } else { false } })
            else { return }
            replies[index] = .answer(callbackQueryID: queryID, text: texts.alreadyShown)
        }
    }

    // MARK: Dispatch

    private func handle(_ incoming: Incoming, _ context: inout Context) async {
        switch incoming.intent {
        case .command(let command):
            await handle(command, &context)
        case .location(let latitude, let longitude):
            await startLocating(latitude: latitude, longitude: longitude, updateID: incoming.updateID, &context)
        case .typedPoint(let latitude, let longitude, let source):
            await startLocating(latitude: latitude, longitude: longitude, updateID: incoming.updateID, sent: source, &context)
        case .shortMapLink(let link):
            await startLocating(link: link, updateID: incoming.updateID, &context)
        case .text(let text):
            await freeText(text, &context)
        case .coordinatesOutOfRange:
            context.say(context.texts.coordinatesOutOfRange)
        case .chatter:
            if context.isGroup {
                // A plain message after it would not reach the bot: the hint asks for a reply.
                context.replies.append(.send(text: context.texts.shortHintInGroup, markup: .forceReply(context.question)))
            } else {
                context.say(context.texts.shortHint)
            }
        case .button(let action):
            guard let queryID = incoming.callbackQueryID else { return }
            guard let action else {
                context.answer(queryID, context.texts.unknownButton)
                return
            }
            await press(action, queryID: queryID, messageID: incoming.messageID, &context)
            context.leaveAsShown(incoming.shown, messageID: incoming.messageID, queryID: queryID)
        case .unsupported:
            context.say(context.texts.unsupported)
        case .ignored:
            break
        }
    }

    private func handle(_ command: Command, _ context: inout Context) async {
        switch command {
        case .start:
            context.state = .idle
            if context.chat.currentPlace != nil {
                await showWeather(.now, of: .current, &context)
            } else if context.isGroup {
                // A location button is for private chats only; the group answers the greeting by reply.
                _ = context.nextQuestion()
                context.state = .awaitingCityName(.setCity)
                context.replies.append(.send(text: context.texts.groupGreeting, markup: .forceReply(context.question)))
            } else {
                context.replies.append(Views.greeting(context.texts))
            }
        case .startAt(.city) where !context.isGroup:
            // From the button above inline results: the question, and the location button beside it.
            askCityName(for: .setCity, offeringLocation: true, &context)
        case .startAt(.search) where !context.isGroup:
            askCityName(for: .browse, &context)
        case .startAt:
            await handle(.start, &context)
        case .help:
            var help = context.texts.help
            if miniApp != nil && !context.isGroup { help += "\n" + context.texts.appHelp }
            context.say(help + (context.botUsername.map { "\n\n" + context.texts.inlineHelp($0) } ?? ""))
        case .weather:
            await showWeather(.now, of: context.chat.currentPlace == nil ? .defaultCity : .current, &context)
        case .weatherIn(let text):
            await freeText(text, lookingUp: true, &context)
        case .search(let query?):
            await search(query, for: .browse, &context)
        case .search(nil):
            askCityName(for: .browse, &context)
        case .chooseCity, .city(nil):
            guard await mayChangeCity(&context) else { return refuseMember(nil, &context) }
            askCityName(for: .setCity, &context)
        case .city(let name?):
            guard await mayChangeCity(&context) else { return refuseMember(nil, &context) }
            await search(name, for: .setCity, &context)
        case .chart(let argument):
            // `/chart Tokyo` is Tokyo's chart, `/chart week` the week's of the chat's place.
            await freeText(argument ?? "", lookingUp: true, chart: true, &context)
        case .favorites:
            await showFavorites(.list, editing: nil, &context)
        case .delete(let argument):
            await deleteCommand(argument, &context)
        case .move(let argument):
            await moveCommand(argument, &context)
        case .reset:
            guard await mayChangeShared(&context) else { return refuseMember(nil, &context) }
            askReset(&context)
        case .daily(let argument):
            await dailyCommand(argument, &context)
        case .alerts(let argument):
            await alertsCommand(argument, &context)
        case .settings:
            settingsCommand(&context)
        case .unknown(let name) where name.isEmpty:
            context.say(context.texts.unsupported)
        case .unknown(let name):
            context.say(context.texts.unknownCommand(HTML.escape(HTML.truncate(name, maximumCharacters: 32))))
        }
    }

    private func handle(_ followUp: FollowUp, _ context: inout Context) async {
        switch followUp {
        case .resolveLocation(let latitude, let longitude, let tag, let language, let inGroup, let sent, let byMember):
            context.language = language
            context.isGroup = inGroup ?? false
            await resolveLocation(
                latitude: latitude, longitude: longitude, statusTag: tag, sent: sent ?? .location, byMember: byMember ?? false, &context)
        case .resolveMapLink(let link, let tag, let language, let inGroup, let byMember):
            context.language = language
            context.isGroup = inGroup
            await resolveMapLink(link, statusTag: tag, byMember: byMember ?? false, &context)
        case .app(let action, let language):
            // As a message of the user: the chat's own language when it chose one.
            context.telegramLanguage = language
            context.language = context.chat.settings.language ?? language
            context.chat.language = context.language
            await handle(action, &context)
        }
    }

    // MARK: Buttons

    func press(_ action: CallbackAction, queryID: String, messageID: Int?, _ context: inout Context) async {
        guard let action = settle(action, context) else { return stale(queryID, &context) }
        let current = context.chat.questionSeq
        switch action {
        case .confirmCity(let question):
            guard question == current, case .confirmingCity(let place, let then) = context.state else {
                return stale(queryID, &context)
            }
            guard await mayChangeCity(&context) else { return refuseMember(queryID, &context) }
            context.answer(queryID)
            context.state = .idle
            await adopt(place, answering: messageID, then: WeatherView(then), &context)
        case .rejectCity(let question):
            guard question == current, case .confirmingCity(let place, _) = context.state else {
                return stale(queryID, &context)
            }
            guard await mayChangeCity(&context) else { return refuseMember(queryID, &context) }
            context.answer(queryID)
            if let messageID {
                // The question keeps what it asked and shows what was answered.
                let asked = Views.cityQuestion(place, question: question, context.texts).text
                context.replies.append(.edit(.id(messageID), text: asked + "\n\n<i>" + context.texts.answeredNo + "</i>"))
            }
            askCityName(for: .setCity, rejected: place, &context)
        case .justWeather(let question):
            guard question == current, case .confirmingCity(let place, _) = context.state else {
                return stale(queryID, &context)
            }
            context.answer(queryID)
            context.state = .idle
            if let messageID {
                // The question keeps what it asked and shows what was answered.
                let asked = Views.cityQuestion(place, question: question, context.texts).text
                context.replies.append(.edit(.id(messageID), text: asked + "\n\n<i>" + context.texts.answeredJustWeather + "</i>"))
            }
            let id = context.chat.remember(place)
            await showWeather(.now, of: .recent(id), &context)
        case .retryMapLink(let link):
            context.answer(queryID)
            // A status of its own: the press's id makes its tag, as an update's id does a sent link's.
            await startLocating(link: link, tag: "\(MessageTags.shortLivedPrefix)q\(queryID)", &context)
        case .chooseManually:
            guard await mayChangeCity(&context) else { return refuseMember(queryID, &context) }
            context.answer(queryID)
            askCityName(for: .setCity, &context)
        case .retrySearch(let question, let retried):
            let query: String, alternatives: [String], purpose: SearchPurpose
            if question == current, case .searchFailed(let failed, let others, let asked) = context.state {
                (query, alternatives, purpose) = (failed, others, asked)
            } else if let retried {
                // The chat has moved on since; the button still knows its search.
                (query, alternatives, purpose) = (retried.query, TypedQuery.nominatives(of: retried.query), retried.purpose)
            } else {
                return stale(queryID, &context)
            }
            context.answer(queryID)
            if let messageID { context.replies.append(.editKeyboard(.id(messageID), keyboard: nil)) }
            await search(query, alternatives: alternatives, for: purpose, &context)
        case .pickPlace(let question, let index):
            guard question == current, case .choosingPlace(let places, let purpose, let then) = context.state, places.indices.contains(index) else {
                return stale(queryID, &context)
            }
            if purpose == .setCity, !(await mayChangeCity(&context)) { return refuseMember(queryID, &context) }
            context.answer(queryID)
            context.state = .idle
            let place = places[index]
            switch purpose {
            case .setCity:
                guard context.chat.currentPlace == nil, let messageID else {
                    return await adopt(place, answering: messageID, then: WeatherView(then), &context)
                }
                // The first city: «📍 Ваш город» comes as a message of its own, so the list, its
                // buttons gone, says what was picked instead of still asking.
                let picked = context.texts.picked(Views.buttonLabel(of: place, context.texts))
                let text = Views.placeChoicePrompt(for: .setCity, context.texts) + "\n\n<i>" + HTML.escape(picked) + "</i>"
                context.replies.append(.edit(.id(messageID), text: text))
                await adopt(place, answering: nil, then: WeatherView(then), &context)
            case .browse:
                let id = context.chat.remember(place)
                await showWeather(.now, of: .recent(id), &context)
            }
        case .view(let view, let reference), .refresh(let view, let reference):
            guard await resolve(reference, &context) != nil else { return stale(queryID, &context) }
            var refresh = false
            if case .refresh = action { refresh = true }
            let answerAt = context.replies.count
            let shown = await showWeather(view, of: reference, refresh: refresh, editing: messageID, &context)
            // A refresh often changes nothing visible; the notice says whether it happened.
            var notice: String?
            if refresh {
                switch shown {
                case .fresh(let fetchedAt)?:
                    // Data fetched a moment ago was not fetched again: say how old it is, not «Обновлено».
                    let age = clock.date.timeIntervalSince(fetchedAt)
                    notice = age < 5 ? context.texts.refreshed : context.texts.alreadyFresh(minutes: Int(age / 60))
                case .stale?: notice = context.texts.refreshFailed
                case .failed(let error)?: notice = context.texts.retryFailed(Views.whenAgain(error, context.texts))
                case nil: notice = context.texts.retryFailed(context.texts.aLittleLater)
                }
            }
            context.replies.insert(.answer(callbackQueryID: queryID, text: notice), at: answerAt)
        case .openView(let view, let reference):
            guard await resolve(reference, &context) != nil else { return stale(queryID, &context) }
            context.answer(queryID)
            await showWeather(view, of: reference, &context)
        case .open(let reference):
            guard await resolve(reference, &context) != nil else { return stale(queryID, &context) }
            context.answer(queryID)
            await showWeather(.now, of: reference, &context)
        case .chart(let view, let reference):
            await showChart(view, of: reference, queryID: queryID, editing: nil, &context)
        case .chartView(let view, let reference):
            await showChart(view, of: reference, queryID: queryID, editing: messageID, &context)
        case .addFavorite(let view, let reference, let saving):
            await toggleFavorite(reference, view: view, saving: saving, queryID: queryID, messageID: messageID, &context)
        case .makeCity(let view, let reference):
            await makeCity(reference, view: view, queryID: queryID, messageID: messageID, &context)
        case .favoritesMode(let mode):
            if mode != .list, !(await mayChangeShared(&context)) { return refuseMember(queryID, &context) }
            context.answer(queryID)
            await showFavorites(mode, editing: messageID, &context)
        case .deleteFavorite(let id, let owner):
            await deleteFavorite(id: id, by: owner, queryID: queryID, messageID: messageID, &context)
        case .moveFavorite(let id, let up):
            await moveFavorite(id: id, up: up, queryID: queryID, messageID: messageID, &context)
        case .cancelDaily(let id, let owner):
            await cancelDaily(id: id, by: owner, queryID: queryID, messageID: messageID, &context)
        case .notices(let which, let on):
            await pressNotices(which, on: on, queryID: queryID, messageID: messageID, &context)
        case .setting(let choice, let epoch):
            await pressSetting(choice, epoch: epoch, queryID: queryID, messageID: messageID, &context)
        case .dailyOff(let confirmed, let question):
            guard question == current, case .confirmingDailyOff = context.state else {
                return stale(queryID, &context)
            }
            guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
            context.answer(queryID)
            await confirmDailyOff(confirmed, messageID: messageID, &context)
        case .reset(let confirmed, let question):
            guard question == current, case .confirmingReset = context.state else {
                return stale(queryID, &context)
            }
            guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
            context.answer(queryID)
            confirmReset(confirmed, messageID: messageID, &context)
        }
    }

    func stale(_ queryID: String, _ context: inout Context) {
        context.answer(queryID, context.texts.staleButton)
    }

    /// Whether whoever acts may change what the chat shares (its city once set, favorites, daily
    /// forecasts, notices, settings, /reset): anyone in a private chat; in a group, its
    /// administrators and creator only, also when they write anonymously as the group.
    func mayChangeShared(_ context: inout Context) async -> Bool {
        guard context.isGroup, !context.bySelf else { return true }
        guard let sender = context.senderID else { return false }
        return await membership?.isAdministrator(sender, of: context.chat.id) ?? false
    }

    /// Whether whoever acts may choose the chat's city: anyone while it has none (so a group of
    /// friends gets going), then as ``mayChangeShared(_:)``.
    func mayChangeCity(_ context: inout Context) async -> Bool {
        context.chat.currentPlace == nil ? true : await mayChangeShared(&context)
    }

    /// Refuses a member's change of what the group shares, saying who may: an alert over a pressed
    /// button, or a reply to a command.
    func refuseMember(_ queryID: String?, _ context: inout Context) {
        if let queryID {
            context.replies.append(.answer(callbackQueryID: queryID, text: context.texts.administratorsOnly, showAlert: true))
        } else {
            context.say(context.texts.administratorsOnly)
        }
    }

}
