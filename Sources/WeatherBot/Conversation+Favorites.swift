import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// Favorites: ⭐, /fav with its delete and reorder modes, /del, /move, and /reset.
extension Conversation {
    /// The chat's favorites as they will be once this step's changes are committed, without the
    /// chat's own city, which /fav lists first anyway. Numbers the user sees and types (/del N,
    /// /move N M, /daily HH:MM N) count in this list.
    func favorites(_ context: inout Context) async throws -> [Favorite] {
        let pending = try await allFavorites(&context)
        guard let city = context.chat.currentPlace else { return pending }
        return pending.filter { !$0.place.isSameCity(as: city) }
    }

    /// Every favorite as it will be after this step, the city's too: what the limit counts.
    func allFavorites(_ context: inout Context) async throws -> [Favorite] {
        let stored = try await store.favorites(chatID: context.chat.id)
        return context.changes.reduce(stored) { list, change in FavoriteList.applying(change, to: list, chatID: context.chat.id) }
    }

    /// The star under a view: saves the place, or removes it when it is saved already; the message
    /// is shown again so the star tells the truth.
    func toggleFavorite(
        _ reference: PlaceReference, view: WeatherView, saving: Bool?, queryID: String, messageID: Int?, _ context: inout Context
    ) async {
        guard let place = await resolve(reference, &context), let list = try? await allFavorites(&context) else {
            return stale(queryID, &context)
        }
        guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
        var shownAs = reference
        let saved = list.first(where: { $0.place.isSamePlace(as: place) })
        // Done already what the button asks (the second press of a double tap, or a card older
        // than a /del): said so, and the card shown again so that its star tells the truth.
        switch (saved, saving) {
        case (_?, true?), (nil, false?):
            context.answer(queryID, saved == nil ? context.texts.alreadyNotFavorite : context.texts.alreadyFavorite)
            if messageID != nil { await showWeather(view, of: shownAs, editing: messageID, &context) }
            return
        default:
            break
        }
        if let saved, let id = saved.id {
            context.changes.append(.deleteFavorite(id: id))
            let notice = await deletionNotice(context.texts.favoriteRemoved, of: place, &context)
            context.replies.append(.answer(callbackQueryID: queryID, text: notice.text, showAlert: notice.saysMore))
            // A view of the favorite itself would point at nothing: it goes on as a place recently shown.
            if case .favorite = reference { shownAs = .recent(context.chat.remember(place)) }
        } else if context.chat.currentPlace?.isSameCity(as: place) == true {
            return context.answer(queryID, context.texts.ownCityIsFirst)
        } else if list.count >= maximumFavorites {
            return context.replies.append(.answer(callbackQueryID: queryID, text: context.texts.favoritesFull(maximumFavorites), showAlert: true))
        } else {
            context.changes.append(.addFavorite(place, limit: maximumFavorites))
            context.answer(queryID, context.texts.favoriteAdded)
        }
        guard messageID != nil else { return }
        await showWeather(view, of: shownAs, editing: messageID, &context)
    }

    /// Sends the favorites message, or edits it into another mode. Each row's weather is fetched
    /// concurrently through the shared cache; a row whose weather fails says so instead.
    /// - Parameter owner: in a group, the member the delete buttons belong to when they are
    ///   redrawn after a press; by default whoever asked for this message.
    func showFavorites(_ mode: FavoritesMode, editing messageID: Int?, owner: Int64? = nil, _ context: inout Context) async {
        let list: [Favorite]
        do {
            list = try await favorites(&context)
        } catch {
            context.say(context.texts.weatherFailed(context.texts.reasonServer))
            return
        }
        if mode == .list && (!list.isEmpty || context.chat.currentPlace != nil) { await activity.typing(in: context.chat.id) }
        let (current, rows) = await favoriteRows(list, withWeather: mode == .list, &context)
        let rendered = FavoritesViews.render(current: current, favorites: rows, mode: mode, texts: context.texts, owner: owner ?? context.owner)
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: rendered.text, keyboard: rendered.keyboard))
        } else {
            context.replies.append(.send(text: rendered.text, markup: .inline(rendered.keyboard)))
        }
    }

    /// /fav's rows: the chat's city, then `list` numbered, each with its weather when `withWeather`.
    func favoriteRows(_ list: [Favorite], withWeather: Bool, _ context: inout Context) async -> (current: FavoritesViews.Row?, rows: [FavoritesViews.Row]) {
        var current = context.chat.currentPlace.map { FavoritesViews.Row(place: $0, reference: .current) }
        var rows = list.enumerated().compactMap { index, favorite in
            favorite.id.map { FavoritesViews.Row(place: favorite.place, reference: .favorite($0), number: index + 1) }
        }
        guard withWeather else { return (current, rows) }
        let places = [current?.place].compactMap { $0 } + rows.map(\.place)
        let weathers = await weatherReports(of: places, language: context.language, for: context.calls)
        if current != nil { current?.report = weathers[0] }
        let offset = current == nil ? 0 : 1
        for index in rows.indices { rows[index].report = weathers[index + offset] }
        return (current, rows)
    }

    /// The weather at each place, in order, fetched concurrently; nil where it failed.
    /// Counted in the chat's share of the day's OpenWeather calls, as a batch: not in its share
    /// of the minute, which a list of twenty on a cold cache would spend at once.
    private func weatherReports(of places: [Place], language: Language, for chat: CallContext) async -> [WeatherReport?] {
        var list = chat
        list.batch = true
        // A row without its weather tells no refusal.
        list.refusalsShown = false
        return await withTaskGroup(of: (Int, WeatherReport?).self) { [list] group in
            for (index, place) in places.enumerated() {
                group.addTask {
                    (index, try? await weather.weather(at: place, language: language, refresh: false, for: list))
                }
            }
            var results = [WeatherReport?](repeating: nil, count: places.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    func deleteFavorite(id: Int64, by owner: Int64?, queryID: String, messageID: Int?, _ context: inout Context) async {
        guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
        guard let list = try? await favorites(&context), let favorite = list.first(where: { $0.id == id }) else {
            return stale(queryID, &context)
        }
        context.changes.append(.deleteFavorite(id: id))
        let name = Views.distinctName(of: favorite.place, among: list.map(\.place), context.texts)
        let notice = await deletionNotice(context.texts.deleted(name), of: favorite.place, &context)
        context.replies.append(.answer(callbackQueryID: queryID, text: notice.text, showAlert: notice.saysMore))
        await showFavorites(.delete, editing: messageID, owner: owner, &context)
    }

    func moveFavorite(id: Int64, up: Bool, queryID: String, messageID: Int?, _ context: inout Context) async {
        guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
        guard let list = try? await favorites(&context), let favorite = list.first(where: { $0.id == id }) else {
            return stale(queryID, &context)
        }
        let index = list.firstIndex { $0.id == id } ?? 0
        let neighbour = up ? index - 1 : index + 1
        guard list.indices.contains(neighbour) else {
            context.answer(queryID, up ? context.texts.alreadyFirst : context.texts.alreadyLast)
            return
        }
        // Positions are stored over every favorite; the neighbour's is where this one goes.
        context.changes.append(.moveFavorite(id: id, to: list[neighbour].position))
        context.answer(queryID, context.texts.moved(Views.distinctName(of: favorite.place, among: list.map(\.place), context.texts), neighbour + 1))
        await showFavorites(.move, editing: messageID, &context)
    }

    /// `/del N`: deletes favorite N; `/del` alone shows the delete buttons.
    func deleteCommand(_ argument: String?, _ context: inout Context) async {
        let list = (try? await favorites(&context)) ?? []
        if list.isEmpty { return context.say(context.texts.noFavoritesToChange) }
        guard await mayChangeShared(&context) else { return refuseMember(nil, &context) }
        guard let argument else { return await showFavorites(.delete, editing: nil, &context) }
        guard let number = Self.position(argument), list.indices.contains(number - 1), let id = list[number - 1].id else {
            return context.say(context.texts.validRange(list.count, usage: "/del 1"))
        }
        context.changes.append(.deleteFavorite(id: id))
        let place = list[number - 1].place
        let name = HTML.escape(Views.distinctName(of: place, among: list.map(\.place), context.texts))
        context.say(await deletionNotice(context.texts.deleted(name), of: place, &context).text)
    }

    /// What a deleted favorite's notice says: `headline`, and that its daily forecasts stay (and
    /// /daily cancels them) when it has any, which is worth an alert rather than a passing notice.
    private func deletionNotice(_ headline: String, of place: Place, _ context: inout Context) async -> (text: String, saysMore: Bool) {
        let times = ((try? await store.subscriptions(chatID: context.chat.id)) ?? [])
            .filter { $0.place.isSamePlace(as: place) }
            .sorted { ($0.hour, $0.minute) < ($1.hour, $1.minute) }
            .map { context.texts.time(hour: $0.hour, minute: $0.minute) }
        guard !times.isEmpty else { return (headline, false) }
        return (headline + "\n" + context.texts.dailyStays(times.joined(separator: ", ")), true)
    }

    /// `/move FROM TO`: moves one favorite; `/move` alone shows the up and down buttons.
    func moveCommand(_ argument: String?, _ context: inout Context) async {
        let list = (try? await favorites(&context)) ?? []
        if list.isEmpty { return context.say(context.texts.noFavoritesToChange) }
        guard await mayChangeShared(&context) else { return refuseMember(nil, &context) }
        guard let argument else { return await showFavorites(.move, editing: nil, &context) }
        // One favorite has nowhere to go, whatever the numbers: neither «и так №1» for a №2 that
        // is not there, nor «от 1 до 1».
        if list.count == 1 { return context.say(context.texts.onlyOneFavorite(Views.name(of: list[0].place, context.language))) }
        // Any two whole numbers are read as such, so that «/move 0 5» is told the valid range.
        let numbers = argument.split(whereSeparator: { $0 == " " || $0 == "," }).map { Self.position(String($0)) ?? Int($0) }
        guard numbers.count == 2, let from = numbers[0], let to = numbers[1] else {
            return context.say(context.texts.moveUsage("/move \(list.count) 1"))
        }
        guard list.indices.contains(from - 1), list.indices.contains(to - 1), let id = list[from - 1].id else {
            return context.say(context.texts.validRange(list.count, usage: "/move \(list.count) 1"))
        }
        if from == to { return context.say(context.texts.notMoved(HTML.escape(Views.distinctName(of: list[from - 1].place, among: list.map(\.place), context.texts)), from)) }
        context.changes.append(.moveFavorite(id: id, to: list[to - 1].position))
        context.say(context.texts.moved(HTML.escape(Views.distinctName(of: list[from - 1].place, among: list.map(\.place), context.texts)), to))
    }

    /// A number as a user types it («2», «№2», «#2»); nil for anything else.
    static func position(_ text: String) -> Int? {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        if digits.first == "№" || digits.first == "#" { digits = digits.dropFirst() }
        guard let number = CallbackAction.number(digits), number > 0 else { return nil }
        return number
    }

    // MARK: Reset

    func askReset(_ context: inout Context) {
        let question = context.nextQuestion()
        context.state = .confirmingReset(askedBy: context.owner)
        context.replies.append(.send(text: context.texts.resetQuestion, markup: .inline(Views.resetQuestion(question: question, context.texts))))
    }

    /// Forgets the chat: favorites, city, state and replies not yet sent; the next /start is a first run.
    func confirmReset(_ confirmed: Bool, messageID: Int?, _ context: inout Context) {
        context.state = .idle
        let text = confirmed ? context.texts.resetDone : context.texts.resetCancelled
        if confirmed {
            context.changes.append(.forgetChat)
            let now = clock.date
            // Question numbers keep counting, so buttons from before the reset stay stale.
            context.chat = ChatRecord(
                id: context.chat.id, language: context.language, state: .idle,
                questionSeq: context.chat.questionSeq + 1, createdAt: now, updatedAt: now)
        }
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: text))
        } else {
            context.say(text)
        }
    }
}
