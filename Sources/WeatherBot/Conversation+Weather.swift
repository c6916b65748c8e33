import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// Weather messages: the card, «По часам», «На 7 дней», refresh and retry.
extension Conversation {
    /// The place a button names, looked up in this chat only; nil when it is gone.
    func resolve(_ reference: PlaceReference, _ context: inout Context) async -> Place? {
        switch reference {
        case .current:
            return context.chat.currentPlace
        case .city:
            // Settled, it is the city or one of the recent places.
            guard let settled = settle(reference, context) else { return nil }
            return await resolve(settled, &context)
        case .defaultCity:
            return defaultPlace
        case .recent(let id):
            return context.chat.recentPlaces.first { $0.id == id }?.place
        case .favorite(let id):
            return (try? await store.favorites(chatID: context.chat.id))?.first { $0.id == id }?.place
        case .subscription(let id):
            return (try? await store.subscriptions(chatID: context.chat.id))?.first { $0.id == id }?.place
        }
    }

    /// The place a button of the chat's city meant: the city while it still is, else the place it
    /// was, kept among the recent places when the city changed; nil when that is gone too.
    func settle(_ reference: PlaceReference, _ context: Context) -> PlaceReference? {
        guard case .city(let mark) = reference else { return reference }
        if let city = context.chat.currentPlace, city.cityMark == mark { return .current }
        return context.chat.recentPlaces.last { $0.place.cityMark == mark }.map { .recent($0.id) }
    }

    /// An action with its place settled (see ``settle(_:_:)``); nil when its place is gone.
    func settle(_ action: CallbackAction, _ context: Context) -> CallbackAction? {
        switch action {
        case .view(let view, let reference): settle(reference, context).map { .view(view, $0) }
        case .refresh(let view, let reference): settle(reference, context).map { .refresh(view, $0) }
        case .addFavorite(let view, let reference, let saving): settle(reference, context).map { .addFavorite(view, $0, saving: saving) }
        case .makeCity(let view, let reference): settle(reference, context).map { .makeCity(view, $0) }
        case .openView(let view, let reference): settle(reference, context).map { .openView(view, $0) }
        case .open(let reference): settle(reference, context).map { .open($0) }
        case .chart(let view, let reference): settle(reference, context).map { .chart(view, $0) }
        case .chartView(let view, let reference): settle(reference, context).map { .chartView(view, $0) }
        default: action
        }
    }

    /// What a weather message ended up showing.
    enum Shown {
        /// Current data, fetched at this moment (earlier when «Обновить» found it young enough).
        case fresh(fetchedAt: Date)
        /// Older data stood in for a refresh that failed.
        case stale
        /// No data: the message says why.
        case failed(any Error)
    }

    /// Shows a view of a place's weather: as a new message, or by editing the message whose
    /// button asked for it. Failures say why and offer «🔄 Повторить».
    ///
    /// - Returns: what was shown; nil when the place is gone.
    @discardableResult
    func showWeather(
        _ view: WeatherView, of reference: PlaceReference, refresh: Bool = false, editing messageID: Int? = nil,
        _ context: inout Context
    ) async -> Shown? {
        guard var place = await resolve(reference, &context) else { return nil }
        // One city shows one weather: a place that is the chat's city is looked at where the city is.
        if reference != .current, let city = context.chat.currentPlace, city.isSameCity(as: place) { place = city }
        await activity.typing(in: context.chat.id)
        let rendered: WeatherViews.Rendered
        let shown: Shown
        do {
            let report = try await report(view, at: place, language: context.language, refresh: refresh, for: context.calls)
            shown = report.isStale ? .stale : .fresh(fetchedAt: report.fetchedAt)
            if reference == .current, context.chat.currentPlace?.timeZone == nil {
                context.chat.currentPlace?.timeZone = report.forecast.timeZone.stored
            }
            let standing = await standing(of: place, reference, &context)
            var view = WeatherViews.render(
                view, place: place, reference: marked(reference, place), report: report, texts: context.texts, now: clock.date, standing: standing,
                sharing: !context.isGroup, app: context.isGroup ? nil : miniApp)
            if reference == .defaultCity && messageID == nil {
                view.text += "\n\n" + (context.isGroup ? context.texts.defaultCityHintInGroup : context.texts.defaultCityHint)
            }
            rendered = view
        } catch {
            shown = .failed(error)
            if messageID == nil && context.isQuiet(about: error) { return shown }
            rendered = WeatherViews.failure(error, view: view, reference: marked(reference, place), texts: context.texts)
        }
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: rendered.text, keyboard: rendered.keyboard))
        } else {
            context.replies.append(.send(text: rendered.text, markup: .inline(rendered.keyboard)))
        }
        return shown
    }

    /// The weather a view of a place shows, the same wherever it is shown (a chat, an inline
    /// result, a press under one): with the card (`.now`) the air and, where the place has it,
    /// today's pollen, both asked together once the weather is in, so that their calls never
    /// take the minute's slot the weather needed; a reading late or failed leaves its line out.
    func report(_ view: WeatherView, at place: Place, language: Language, refresh: Bool = false, for calls: CallContext) async throws
        -> WeatherReport
    {
        var report = try await weather.weather(at: place, language: language, refresh: refresh, for: calls)
        guard view == .now else { return report }
        async let air = weather.airQuality(at: place, for: calls)
        async let pollen = PollenReading.covers(latitude: place.latitude, longitude: place.longitude) ? weather.pollen(at: place, for: calls) : nil
        report.air = await air
        // Today's level: the scale's levels are for a day's mean, not an hour's count.
        let zone = report.forecast.timeZone.timeZone
        report.pollen = await pollen.flatMap { DailyForecastView.dayPollen($0, day: DailySchedule.day(of: clock.date, in: zone), zone: zone) }
        return report
    }

    /// The reference a message's buttons carry: the chat's city with its mark, so they keep
    /// showing this place after the city changes.
    func marked(_ reference: PlaceReference, _ place: Place) -> PlaceReference {
        reference == .current ? .city(mark: place.cityMark) : reference
    }

    /// Whether a view's place is the chat's own city, or another place saved among its favorites or not.
    func standing(of place: Place, _ reference: PlaceReference, _ context: inout Context) async -> WeatherViews.Standing {
        if reference == .current || context.chat.currentPlace?.isSameCity(as: place) == true { return .ownCity }
        let favorites = (try? await favorites(&context)) ?? []
        return .other(saved: favorites.contains { $0.place.isSamePlace(as: place) })
    }

    /// «📍 Сделать моим городом»: the place becomes the chat's city, and the message is shown again
    /// as the city's, without the button.
    func makeCity(_ reference: PlaceReference, view: WeatherView, queryID: String, messageID: Int?, _ context: inout Context) async {
        guard let place = await resolve(reference, &context) else { return stale(queryID, &context) }
        guard await mayChangeCity(&context) else { return refuseMember(queryID, &context) }
        context.answer(queryID, context.texts.cityMade(Views.name(of: place, context.language)))
        becomeCity(place, &context)
        await showWeather(view, of: .current, editing: messageID, &context)
    }

    /// The place becomes the chat's city as «📍 Сделать моим городом» makes it: a question about
    /// the city still open is answered by this, and a first city is said as the first is.
    func becomeCity(_ place: Place, _ context: inout Context) {
        context.state = .idle
        if context.chat.currentPlace == nil { context.replies.append(Views.firstCity(place, context.texts, inGroup: context.isGroup)) }
        setCity(place, &context)
    }
}
