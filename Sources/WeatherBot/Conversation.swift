import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// The conversation of one chat: `(chat, event) → (chat, replies, follow-ups)`.
///
/// It reads and writes nothing itself: it is given the chat's record and returns the new one with
/// the replies to commit. Geocoding and weather come through the protocols it is given, so every
/// transition can be tested without I/O.
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
        public var chat: ChatRecord
        public var replies: [Reply]
        public var followUps: [FollowUp]
    }

    let geocoder: any Geocoder
    let weather: any WeatherSource
    let activity: any ChatActivity
    /// Shown to chats that have no city yet.
    let defaultPlace: Place
    let clock: @Sendable () -> Date

    public init(
        geocoder: any Geocoder,
        weather: any WeatherSource,
        activity: any ChatActivity,
        defaultPlace: Place = .moscow,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.geocoder = geocoder
        self.weather = weather
        self.activity = activity
        self.defaultPlace = defaultPlace
        self.clock = clock
    }

    /// Handles one event for a chat (`nil` when the chat is new).
    public func handle(_ event: Event, chat existing: ChatRecord?) async -> Step {
        let now = clock()
        var chat = existing ?? ChatRecord(id: event.chatID, language: Language.ru.rawValue, state: ChatState.idle.stored, createdAt: now, updatedAt: now)
        var context = Context(chat: chat, state: ChatState(stored: chat.state))
        switch event {
        case .incoming(let incoming):
            context.language = incoming.language
            chat.language = incoming.language.rawValue
            // A user who writes again (after blocking the bot once) can be written to again.
            chat.isActive = true
            context.chat = chat
            await handle(incoming, &context)
            // Every button press is answered, whatever the branch did.
            if let queryID = incoming.callbackQueryID,
                !context.replies.contains(where: { if case .answer = $0 { true } else { false } })
            {
                context.replies.insert(.answer(callbackQueryID: queryID), at: 0)
            }
        case .followUp(let followUp, _):
            await handle(followUp, &context)
        }
        context.chat.state = context.state.stored
        return Step(chat: context.chat, replies: context.replies, followUps: context.followUps)
    }

    /// The working copy of one step.
    struct Context {
        var chat: ChatRecord
        var state: ChatState
        var replies: [Reply] = []
        var followUps: [FollowUp] = []
        var language: Language

        init(chat: ChatRecord, state: ChatState) {
            self.chat = chat
            self.state = state
            self.language = Language(rawValue: chat.language) ?? .ru
        }

        var texts: Texts { .for(language) }

        /// Starts a new question: older buttons become stale.
        mutating func nextQuestion() -> Int {
            chat.questionSeq += 1
            return chat.questionSeq
        }
    }

    // MARK: Dispatch

    private func handle(_ incoming: Incoming, _ context: inout Context) async {
        switch incoming.intent {
        case .command(let command):
            await handle(command, &context)
        case .location(let latitude, let longitude):
            startLocating(latitude: latitude, longitude: longitude, updateID: incoming.updateID, &context)
        case .text(let text):
            await search(text, &context)
        case .button(let action):
            guard let queryID = incoming.callbackQueryID else { return }
            guard let action else {
                context.replies.append(.answer(callbackQueryID: queryID, text: context.texts.unknownButton))
                return
            }
            await press(action, queryID: queryID, messageID: incoming.messageID, &context)
        case .ignored:
            break
        }
    }

    private func handle(_ command: Command, _ context: inout Context) async {
        switch command {
        case .start:
            if context.chat.currentPlace != nil {
                context.state = .idle
                await showWeather(.now, of: .current, &context)
            } else {
                context.state = .idle
                context.replies.append(Views.greeting(context.texts))
            }
        case .help:
            context.replies.append(.send(text: context.texts.help))
        case .weather:
            await showWeather(.now, of: context.chat.currentPlace == nil ? .defaultCity : .current, &context)
        case .search(let query?):
            await search(query, &context)
        case .search(nil):
            askCityName(&context)
        case .unknown(let name):
            context.replies.append(.send(text: context.texts.unknownCommand(HTML.escape(name))))
        }
    }

    private func handle(_ followUp: FollowUp, _ context: inout Context) async {
        switch followUp {
        case .resolveLocation(let latitude, let longitude, let tag, let language):
            context.language = language
            await resolveLocation(latitude: latitude, longitude: longitude, statusTag: tag, &context)
        }
    }

    // MARK: Buttons

    private func press(_ action: CallbackAction, queryID: String, messageID: Int?, _ context: inout Context) async {
        let current = context.chat.questionSeq
        switch action {
        case .confirmCity(let question):
            guard question == current, case .confirmingCity(let place) = context.state else {
                return stale(queryID, &context)
            }
            context.replies.append(.answer(callbackQueryID: queryID))
            context.state = .idle
            if let messageID {
                context.replies.append(.edit(.id(messageID), text: Views.citySaved(place, context.texts)))
            }
            await adopt(place, &context)
        case .rejectCity(let question):
            guard question == current, case .confirmingCity = context.state else {
                return stale(queryID, &context)
            }
            context.replies.append(.answer(callbackQueryID: queryID))
            askCityName(&context)
        case .chooseManually:
            context.replies.append(.answer(callbackQueryID: queryID))
            askCityName(&context)
        case .pickPlace(let question, let index):
            guard question == current, case .choosingPlace(let places) = context.state, places.indices.contains(index) else {
                return stale(queryID, &context)
            }
            context.replies.append(.answer(callbackQueryID: queryID))
            context.state = .idle
            let place = places[index]
            if let messageID {
                context.replies.append(.edit(.id(messageID), text: Views.citySaved(place, context.texts)))
            }
            await adopt(place, &context)
        case .view(let view, let reference), .refresh(let view, let reference):
            var refresh = false
            if case .refresh = action { refresh = true }
            guard reference != .current || context.chat.currentPlace != nil else {
                return stale(queryID, &context)
            }
            context.replies.append(.answer(callbackQueryID: queryID))
            await showWeather(view, of: reference, refresh: refresh, editing: messageID, &context)
        }
    }

    private func stale(_ queryID: String, _ context: inout Context) {
        context.replies.append(.answer(callbackQueryID: queryID, text: context.texts.staleButton))
    }

    // MARK: Locating

    private func startLocating(latitude: Double, longitude: Double, updateID: Int64, _ context: inout Context) {
        let tag = "locate-\(updateID)"
        context.state = .locating
        context.replies.append(.send(text: context.texts.locating, tag: tag))
        context.followUps.append(.resolveLocation(latitude: latitude, longitude: longitude, statusTag: tag, language: context.language))
    }

    private func resolveLocation(latitude: Double, longitude: Double, statusTag: String, _ context: inout Context) async {
        await activity.typing(in: context.chat.id)
        let found: Place?
        do {
            found = try await geocoder.places(atLatitude: latitude, longitude: longitude, language: context.language).first
        } catch {
            found = nil
        }
        guard var place = found else {
            if case .locating = context.state { context.state = .idle }
            let view = Views.locationFailed(context.texts)
            context.replies.append(.edit(.tag(statusTag), text: view.text, keyboard: view.keyboard))
            return
        }
        // The user's own point is more precise than the city's centre; the name comes from the geocoder.
        place.latitude = latitude
        place.longitude = longitude
        let question = context.nextQuestion()
        context.state = .confirmingCity(place)
        let view = Views.cityQuestion(place, question: question, context.texts)
        context.replies.append(.edit(.tag(statusTag), text: view.text, keyboard: view.keyboard))
    }

    // MARK: Choosing by name

    private func askCityName(_ context: inout Context) {
        _ = context.nextQuestion()
        context.state = .awaitingCityName
        context.replies.append(.send(text: context.texts.askCityName))
    }

    private func search(_ query: String, _ context: inout Context) async {
        await activity.typing(in: context.chat.id)
        let places: [Place]
        do {
            places = try await geocoder.places(named: String(query.prefix(200)), language: context.language)
        } catch {
            context.state = .awaitingCityName
            context.replies.append(.send(text: context.texts.searchFailed(Views.reason(error, context.texts))))
            return
        }
        switch places.count {
        case 0:
            context.state = .awaitingCityName
            context.replies.append(.send(text: Views.nothingFound(query, context.texts)))
        case 1:
            let question = context.nextQuestion()
            context.state = .confirmingCity(places[0])
            let view = Views.cityQuestion(places[0], question: question, context.texts)
            context.replies.append(.send(text: view.text, markup: .inline(view.keyboard)))
        default:
            let question = context.nextQuestion()
            context.state = .choosingPlace(places)
            let view = Views.placeChoice(places, question: question, context.texts)
            context.replies.append(.send(text: view.text, markup: .inline(view.keyboard)))
        }
    }

    // MARK: Weather

    /// Makes `place` the chat's city and shows its weather; the time zone comes with the weather.
    private func adopt(_ place: Place, _ context: inout Context) async {
        context.chat.currentPlace = place
        await showWeather(.now, of: .current, &context)
    }

    /// Shows a view of a place's weather: as a new message, or by editing the message whose
    /// button asked for it. Failures say why and offer «🔄 Повторить».
    private func showWeather(
        _ view: WeatherView, of reference: PlaceReference, refresh: Bool = false, editing messageID: Int? = nil,
        _ context: inout Context
    ) async {
        let place = reference == .current ? (context.chat.currentPlace ?? defaultPlace) : defaultPlace
        await activity.typing(in: context.chat.id)
        let rendered: WeatherViews.Rendered
        do {
            let report = try await weather.weather(at: place, language: context.language, refresh: refresh)
            if reference == .current, context.chat.currentPlace?.timeZone == nil {
                context.chat.currentPlace?.timeZone = report.forecast.timeZone.stored
            }
            var shown = WeatherViews.render(view, place: place, reference: reference, report: report, texts: context.texts, now: clock())
            if reference == .defaultCity && messageID == nil {
                shown.text += "\n\n" + context.texts.defaultCityHint
            }
            rendered = shown
        } catch {
            rendered = WeatherViews.failure(error, view: view, reference: reference, texts: context.texts)
        }
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: rendered.text, keyboard: rendered.keyboard))
        } else {
            context.replies.append(.send(text: rendered.text, markup: .inline(rendered.keyboard)))
        }
    }
}

extension Place {
    /// The default city: Moscow.
    public static let moscow = Place(
        name: "Moscow", localNames: ["ru": "Москва", "en": "Moscow"], region: nil, country: "RU",
        latitude: 55.7558, longitude: 37.6173, timeZone: "Europe/Moscow")
}

extension PlaceTimeZone {
    /// The form kept in the store: an IANA identifier, or `UTC+05:45` for a fixed offset.
    public var stored: String {
        switch self {
        case .identifier(let identifier):
            return identifier
        case .offset(let seconds):
            let sign = seconds < 0 ? "-" : "+"
            let minutes = abs(seconds) / 60
            return String(format: "UTC%@%02d:%02d", sign, minutes / 60, minutes % 60)
        }
    }

    /// Reads the stored form back; nil when it is neither.
    public init?(stored: String) {
        if stored.hasPrefix("UTC"), stored.count == 9 {
            let body = stored.dropFirst(3)
            let sign = body.first == "-" ? -1 : 1
            let digits = body.dropFirst().split(separator: ":")
            guard digits.count == 2, let hours = Int(digits[0]), let minutes = Int(digits[1]) else { return nil }
            self = .offset(seconds: sign * (hours * 3600 + minutes * 60))
        } else if TimeZone(identifier: stored) != nil {
            self = .identifier(stored)
        } else {
            return nil
        }
    }
}
