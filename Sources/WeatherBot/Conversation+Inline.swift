import BotClock
import Foundation
import OpenWeather
public import TelegramBotAPI
public import WeatherBotStore

/// What the bot offers for an inline query.
public struct InlineOutcome: Sendable {
    /// Nil for a query not worth an answer (one letter: the user is still typing).
    public var answer: AnswerInlineQuery?
    /// Every look-up answered. False when one failed or was not made (`cachedOnly`):
    /// the answer is partial, and worth making again with calls.
    public var complete: Bool
}

/// What a press under a message sent from an inline result does: the message's new text and
/// buttons (nil: left as it is) and the short notice the presser sees.
public struct InlinePress: Sendable {
    /// The message's new text and buttons; nil leaves the message as it is.
    public var edit: WeatherViews.Rendered?
    /// The short text the presser sees at the top of the chat; nil shows none.
    public var notice: String?
    /// The notice shows as an alert the presser closes.
    public var showAlert = false
}

/// Inline mode: `@bot Казань` in any chat. It reads the sender's private chat (their city and
/// favorites) and writes nothing: a user who only uses inline mode has no chat row.
extension Conversation {
    /// How long Telegram may answer the same query from its own cache: a place's weather for
    /// two minutes; the sender's own list, which follows their city, for half a minute; a partial
    /// or failed answer, and the list of a sender with no city (who is offered to choose one),
    /// not at all.
    static let inlineCacheTime = (place: 120, personal: 30, partial: 0)
    /// The most results an empty query lists: the sender's city (or location) and favorites.
    static let inlinePersonalResults = 10
    /// The most places a name lists, as /search.
    static let inlinePlaces = 5

    /// Whether a query is worth answering: the empty one (the sender's own places), or at least
    /// two characters. Clients send a query at every keystroke; «К» finds nothing worth a call.
    public static func answersInline(_ query: String) -> Bool {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text.count >= 2
    }

    /// The results for an inline query, in the sender's language and units: those of their
    /// private chat with the bot when it has settings. Its OpenWeather calls are the sender's,
    /// counted against what one chat may spend; a refusal is not told in an inline answer (the
    /// place is left out), so it silences nothing. `cachedOnly`: only what the caches keep, or
    /// a look-up under way, answers (``CallContext/cachedOnly``), and no call is made.
    public func answer(_ query: InlineQuery, cachedOnly: Bool = false) async -> InlineOutcome {
        var calls = CallContext.chat(query.from.id)
        calls.refusalsShown = false
        calls.cachedOnly = cachedOnly
        let settings = (try? await store.chat(query.from.id))?.settings ?? .defaults
        let language = settings.language ?? Language(telegramCode: query.from.languageCode)
        let texts = Texts.for(language, settings: settings)
        let text = query.query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.answersInline(text) else { return InlineOutcome(answer: nil, complete: true) }
        var complete = true
        let view = Self.askedView(text)
        // Words with no place in them («погода», «завтра»): the sender's own places, as in a private chat.
        var offer = await namedOffer(text, view: view, query.from.id, texts, calls, complete: &complete)
        if offer == nil { offer = await personalOffer(query, view: view, texts, calls, complete: &complete) }
        guard let offer else { return InlineOutcome(answer: nil, complete: complete) }
        let results = await results(of: offer, texts, calls, complete: &complete)
        let cacheTime =
            !complete || offer.button != nil
            ? Self.inlineCacheTime.partial : offer.isPersonal ? Self.inlineCacheTime.personal : Self.inlineCacheTime.place
        var button = offer.button
        if results.isEmpty && button == nil {
            button = complete
                ? InlineQueryResultsButton(text: texts.inlineNothingFound(HTML.truncate(text, maximumCharacters: 40)), startParameter: StartParameter.search.rawValue)
                : InlineQueryResultsButton(text: texts.inlineFailed, startParameter: StartParameter.search.rawValue)
        }
        // Always personal: the results are in the sender's language.
        return InlineOutcome(
            answer: AnswerInlineQuery(inlineQueryID: query.id, results: results, cacheTime: cacheTime, isPersonal: true, button: button),
            complete: complete)
    }

    /// The view free text asks for, named as its button is: «по часам» the hours, «завтра» the
    /// hours of tomorrow, «неделя» the seven days; a chart, which no inline message shows, its card.
    static func askedView(_ text: String) -> WeatherView {
        TypedQuery.asked(text).weatherView ?? (TypedQuery.asksForWeek(text) ? .daily : .now)
    }

    /// How a result's title marks its place.
    enum InlineMark {
        /// Where the sender stands: «📍 Здесь: …».
        case here
        /// A point typed or linked: «📍 …».
        case point
        /// The sender's city: «🏠 …».
        case home
        /// One of the sender's favorites: «⭐ …».
        case favorite
        /// The default city, for a sender with none: «… — город по умолчанию».
        case defaultCity
        /// A place of the name asked for.
        case found
    }

    /// The places an answer lists, each with how its title begins, and the button above them.
    struct InlineOffer {
        var places: [(place: Place, mark: InlineMark)] = []
        var view: WeatherView
        var button: InlineQueryResultsButton?
        var isPersonal = false
    }

    /// The empty query: where the sender stands (when Telegram gives it), their city, their
    /// favorites; the default city and «Выбрать свой город» for a sender with no city.
    private func personalOffer(_ query: InlineQuery, view: WeatherView, _ texts: Texts, _ calls: CallContext, complete: inout Bool) async -> InlineOffer {
        var offer = InlineOffer(view: view, isPersonal: true)
        if let location = query.location, TypedCoordinates.reading(latitude: location.latitude, longitude: location.longitude) != nil {
            offer.places.append((await place(atLatitude: location.latitude, longitude: location.longitude, texts.language, calls, complete: &complete), .here))
        }
        let chat: ChatRecord?
        let favorites: [Favorite]
        do {
            // Only a private chat is the sender's: a group's id is never a user's.
            chat = try await store.chat(query.from.id)
            favorites = chat == nil ? [] : try await store.favorites(chatID: query.from.id)
        } catch {
            complete = false
            return offer
        }
        // Each city once: standing at home, «📍 Здесь» is home.
        if let city = chat?.currentPlace, !offer.places.contains(where: { $0.place.isSameCity(as: city) }) {
            offer.places.append((city, .home))
        } else if chat?.currentPlace == nil && offer.places.isEmpty {
            offer.places.append((defaultPlace, .defaultCity))
        }
        if chat?.currentPlace == nil {
            offer.button = InlineQueryResultsButton(text: texts.inlineChooseCityButton, startParameter: StartParameter.city.rawValue)
        }
        for favorite in favorites where !offer.places.contains(where: { $0.place.isSameCity(as: favorite.place) }) {
            offer.places.append((favorite.place, .favorite))
        }
        offer.places = Array(offer.places.prefix(Self.inlinePersonalResults))
        return offer
    }

    /// A name, free text, coordinates or a map link: the places it names, as a private chat finds
    /// them; the sender's own places of that name first (a card shared from their chat names its
    /// place, and «Париж» shared from Paris, Texas is that Paris). Nil for text that names no
    /// place («погода завтра»), or none at all.
    private func namedOffer(
        _ text: String, view: WeatherView, _ sender: Int64, _ texts: Texts, _ calls: CallContext, complete: inout Bool
    ) async -> InlineOffer? {
        guard !text.isEmpty else { return nil }
        var offer = InlineOffer(view: view)
        var point: (latitude: Double, longitude: Double)?
        switch TypedCoordinates.read(text) {
        case .point(let latitude, let longitude)?: point = (latitude, longitude)
        case .outOfRange?: return offer
        case nil: break
        }
        if point == nil, let link = TypedLinks.shortLink(in: text) {
            // Followed only once the user stops typing (the pass with calls), unless remembered.
            switch await mapLinks?.lookUp(link, for: sender, cachedOnly: calls.cachedOnly) ?? .nowhere {
            case .point(let latitude, let longitude): point = (latitude, longitude)
            case .nowhere: return offer
            case .unreachable, .notCached:
                complete = false
                return offer
            case .tooMany:
                offer.button = InlineQueryResultsButton(text: texts.mapLinksTooMany, startParameter: StartParameter.search.rawValue)
                return offer
            }
        }
        if let point {
            offer.places = [(await place(atLatitude: point.latitude, longitude: point.longitude, texts.language, calls, complete: &complete), .point)]
            return offer
        }
        guard let reading = TypedQuery.read(text) else { return nil }
        guard reading.query.count <= Self.longestName else { return offer }
        do {
            let places = try await geocode(reading.query, alternatives: reading.alternatives, texts.language, for: calls)
            // The sender's city, then favorites, then the places shown to them, newest first.
            let own = await ownPlaces(of: sender)
            let rank = places.map { place in own.firstIndex { $0.isSamePlace(as: place) } ?? own.count }
            let sorted = places.indices.sorted { (rank[$0], $0) < (rank[$1], $1) }.map { places[$0] }
            offer.places = sorted.prefix(Self.inlinePlaces).map { ($0, .found) }
        } catch {
            complete = false
        }
        return offer
    }

    /// The places of the sender's private chat: its city, favorites and places recently shown.
    private func ownPlaces(of sender: Int64) async -> [Place] {
        guard let chat = try? await store.chat(sender) else { return [] }
        let favorites = (try? await store.favorites(chatID: sender)) ?? []
        return (chat.currentPlace.map { [$0] } ?? []) + favorites.map(\.place) + chat.recentPlaces.reversed().map(\.place)
    }

    /// The place at a point, named as a shared location is; named by its coordinates when the
    /// geocoder fails or finds no name there (the open sea). The point stays the user's own.
    private func place(atLatitude latitude: Double, longitude: Double, _ language: Language, _ calls: CallContext, complete: inout Bool) async -> Place {
        var found: Place?
        do {
            found = try await geocoder.places(atLatitude: latitude, longitude: longitude, language: language, for: calls).first
        } catch {
            complete = false
        }
        var place = found ?? Place(name: Views.coordinates(latitude: latitude, longitude: longitude), latitude: latitude, longitude: longitude)
        place.latitude = latitude
        place.longitude = longitude
        return place
    }

    /// One article per place whose weather is known: its name as /search lists it, the weather
    /// now as its description, and the message the card. A place whose weather fails is left
    /// out (there is nothing to send for it).
    private func results(of offer: InlineOffer, _ texts: Texts, _ calls: CallContext, complete: inout Bool) async -> [InlineQueryResultArticle] {
        let language = texts.language
        let reports = await withTaskGroup(of: (Int, WeatherReport?).self) { group in
            for (index, entry) in offer.places.enumerated() {
                group.addTask { (index, try? await report(offer.view, at: entry.place, language: language, for: calls)) }
            }
            var reports = [WeatherReport?](repeating: nil, count: offer.places.count)
            for await (index, report) in group { reports[index] = report }
            return reports
        }
        let now = clock.date
        let places = offer.places.map(\.place)
        var results: [InlineQueryResultArticle] = []
        for (index, entry) in offer.places.enumerated() {
            guard let report = reports[index] else {
                complete = false
                continue
            }
            let label = Views.buttonLabel(of: entry.place, among: places, texts)
            let title =
                switch entry.mark {
                case .here: texts.inlineHere(label)
                case .point: "📍 \(label)"
                case .home: "🏠 \(label)"
                case .favorite: "⭐ \(label)"
                case .defaultCity: texts.inlineDefaultCity(label)
                case .found: label
                }
            let rendered = WeatherViews.inline(offer.view, place: entry.place, report: report, texts: texts, now: now)
            results.append(
                InlineQueryResultArticle(
                    id: "\(index)", title: title, message: InputTextMessageContent(html: rendered.text), replyMarkup: rendered.keyboard,
                    description: WeatherViews.summary(offer.view, report.forecast, texts, now: now)))
        }
        return results
    }

    /// A press under a message sent from an inline result: the view it asks for, in the message's
    /// language, of the place at its point. Anyone in that chat may press; nothing is stored. Its
    /// OpenWeather calls are the presser's (`presser`, their user id), counted against what one
    /// chat may spend.
    public func pressInline(_ data: String?, presserLanguage: Language, presser: Int64) async -> InlinePress {
        let calls = CallContext.chat(presser)
        // The notice is the presser's to read; the message stays in the language it was sent in.
        let notices = Texts.for(presserLanguage)
        guard let data, let button = InlineButton(encoded: data) else {
            return InlinePress(edit: nil, notice: notices.unknownButton)
        }
        let texts = Texts.for(button.language, settings: button.settings)
        var place: Place
        if let known = await geocoder.knownPlace(atLatitude: button.latitude, longitude: button.longitude, language: button.language) {
            place = known
        } else {
            var complete = true
            place = await self.place(atLatitude: button.latitude, longitude: button.longitude, button.language, calls, complete: &complete)
        }
        // The point the buttons carry, so the next press finds the same place.
        place.latitude = button.latitude
        place.longitude = button.longitude
        do {
            let report = try await report(button.view, at: place, language: button.language, refresh: button.refresh, for: calls)
            let rendered = WeatherViews.inline(button.view, place: place, report: report, texts: texts, now: clock.date)
            var notice: String?
            if button.refresh {
                // As in a private chat: «Обновлено», or how old the data «Обновить» found young enough is.
                let age = clock.date.timeIntervalSince(report.fetchedAt)
                notice = report.isStale ? notices.refreshFailed : age < 5 ? notices.refreshed : notices.alreadyFresh(minutes: Int(age / 60))
            }
            return InlinePress(edit: rendered, notice: notice)
        } catch {
            return InlinePress(edit: nil, notice: notices.weatherFailed(Views.reason(error, notices)), showAlert: true)
        }
    }
}

/// The `/start` parameters the button above inline results opens the private chat with.
public enum StartParameter: String, Sendable {
    /// «Выбрать свой город»: straight to choosing the chat's city.
    case city
    /// Nothing found, or the weather failed: straight to looking a place up.
    case search
}
