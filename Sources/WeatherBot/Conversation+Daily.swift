import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// Daily forecasts: /daily HH:MM [N] [chart], /daily off, and /daily alone with its cancel buttons.
extension Conversation {
    func dailyCommand(_ argument: String?, _ context: inout Context) async {
        guard let argument else { return await showSubscriptions(editing: nil, &context) }
        guard await mayChangeShared(&context) else { return refuseMember(nil, &context) }
        let words = argument.split(separator: " ").map(String.init)
        if words.count == 1, ["off", "выкл", "отмена", "stop"].contains(words[0].lowercased()) {
            return await askDailyOff(&context)
        }
        // «chart» or «без графика» anywhere; then «7:30», «7.30», «7 pm», «8 утра», «20ч», then
        // perhaps a favorite's number.
        let (timeAndPlace, chart) = Self.chartOption(argument)
        guard let (hour, minute, rest) = TypedTime.leading(timeAndPlace) else {
            guard TypedTime.isTimeLike(timeAndPlace), let first = timeAndPlace.split(separator: " ").first else {
                // «/daily завтра», «/daily Казань»: what was not understood, then how it goes.
                let said = HTML.escape(HTML.truncate(argument, maximumCharacters: 40))
                return context.say(context.texts.dailyNotUnderstood(said) + "\n\n" + context.texts.dailyUsage)
            }
            return context.say(context.texts.badTime(HTML.escape(HTML.truncate(first, maximumCharacters: 20))))
        }
        let withChart = chart ?? false
        // The place: the chat's city, or favorite N.
        let place: Place
        if !rest.isEmpty {
            let favorites = (try? await favorites(&context)) ?? []
            guard let number = Self.position(rest) else { return context.say(context.texts.dailyUsage) }
            guard favorites.indices.contains(number - 1) else {
                return context.say(context.texts.validRange(favorites.count, usage: "/daily \(Self.clock(hour, minute)) 1"))
            }
            place = favorites[number - 1].place
        } else {
            guard let city = context.chat.currentPlace else { return context.say(context.texts.dailyNeedsCity) }
            place = city
        }
        let existing = (try? await store.subscriptions(chatID: context.chat.id)) ?? []
        if let same = existing.first(where: { $0.place.isSamePlace(as: place) && $0.hour == hour && $0.minute == minute }) {
            // Asked for with or without the chart, it changes, keeping its schedule; asked for as it
            // is (or without saying), it stays, and the answer says how to change it.
            guard let chart, same.withChart != chart, let id = same.id else {
                let time = Self.clock(hour, minute)
                return context.say(same.withChart ? context.texts.dailyDuplicateWithChart(time) : context.texts.dailyDuplicate)
            }
            context.changes.append(.setChart(subscriptionID: id, withChart))
            let named = await dailyName(of: same.place, &context)
            let name = "<b>\(named)</b>"
            return context.say(context.texts.dailyChartChanged(name, context.texts.time(hour: hour, minute: minute), withChart: withChart))
        }
        guard existing.count < maximumSubscriptions else { return context.say(context.texts.dailyLimit(maximumSubscriptions)) }
        // The zone comes with the weather: One Call names it, the free plan gives an offset.
        let zone: String
        if let known = place.timeZone, PlaceTimeZone(stored: known) != nil {
            zone = known
        } else {
            await activity.typing(in: context.chat.id)
            do {
                zone = try await weather.weather(at: place, language: context.language, refresh: false, for: context.calls).forecast.timeZone.stored
            } catch {
                return context.say("⚠️ " + context.texts.weatherFailed(Views.reason(error, context.texts)))
            }
        }
        let timeZone = PlaceTimeZone(stored: zone)?.timeZone ?? TimeZone(secondsFromGMT: 0)!
        let next = DailySchedule.nextSend(after: clock.date, hour: hour, minute: minute, in: timeZone)
        var stored = place
        stored.timeZone = zone
        context.changes.append(.subscribe(
            Subscription(
                chatID: context.chat.id, place: stored, timeZone: zone, hour: hour, minute: minute, nextSendAt: next.date, createdAt: clock.date,
                withChart: withChart),
            limit: maximumSubscriptions))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let name = await dailyName(of: place, &context)
        var said = context.texts.subscribed(
            "<b>\(name)</b>", context.texts.time(hour: hour, minute: minute),
            context.texts.time(clock.date, in: timeZone), calendar.isDate(next.date, inSameDayAs: clock.date))
        if withChart { said += "\n" + context.texts.dailyWithChart }
        context.say(said)
    }

    /// /daily off: all of the chat's daily forecasts go only after a «Да», as /reset's data does.
    func askDailyOff(_ context: inout Context) async {
        let count = ((try? await store.subscriptions(chatID: context.chat.id)) ?? []).count
        guard count > 0 else { return context.say(context.texts.noDaily) }
        let question = context.nextQuestion()
        context.state = .confirmingDailyOff(askedBy: context.owner)
        let keyboard = InlineKeyboardMarkup(inlineKeyboard: [
            [InlineKeyboardButton(text: context.texts.dailyOffConfirmButton, callbackData: CallbackAction.dailyOff(confirmed: true, question: question).encoded)],
            [InlineKeyboardButton(text: context.texts.dailyOffCancelButton, callbackData: CallbackAction.dailyOff(confirmed: false, question: question).encoded)],
        ])
        context.replies.append(.send(text: context.texts.dailyOffQuestion(count), markup: .inline(keyboard)))
    }

    /// The answer to /daily off's question, on the message that asked.
    func confirmDailyOff(_ confirmed: Bool, messageID: Int?, _ context: inout Context) async {
        context.state = .idle
        var text = context.texts.dailyOffKept
        if confirmed {
            let count = ((try? await store.subscriptions(chatID: context.chat.id)) ?? []).count
            context.changes.append(.unsubscribeAll)
            text = context.texts.dailyCancelled(count)
        }
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: text))
        } else {
            context.say(text)
        }
    }

    /// The list of the chat's daily forecasts with a cancel button each, and the usage hint.
    /// - Parameter owner: in a group, the member the cancel buttons belong to; by default whoever asked.
    /// - Parameter usage: /daily's help under the list; the app, which has a field of its own, leaves it out.
    func showSubscriptions(editing messageID: Int?, owner: Int64? = nil, usage: Bool = true, _ context: inout Context) async {
        let stored = (try? await store.subscriptions(chatID: context.chat.id)) ?? []
        let subscriptions = context.changes.reduce(stored) { list, change in
            if case .unsubscribe(let id) = change { return list.filter { $0.id != id } }
            return list
        }.sorted { ($0.hour, $0.minute, $0.id ?? 0) < ($1.hour, $1.minute, $1.id ?? 0) }
        let places = await namedPlaces(subscriptions: subscriptions, &context)
        let names = subscriptions.map { Views.distinctName(of: $0.place, among: places, context.texts) }
        var lines = [context.texts.dailyListTitle, ""]
        lines += subscriptions.isEmpty
            ? [context.texts.noDaily]
            : zip(subscriptions, names).map { subscription, name in
                "⏰ \(context.texts.time(hour: subscription.hour, minute: subscription.minute)) — <b>\(HTML.escape(name))</b>"
                    + (subscription.withChart ? " · \(context.texts.withChartMark)" : "")
            }
        if usage { lines += ["", context.texts.dailyUsage] }
        let keyboard = InlineKeyboardMarkup(inlineKeyboard: zip(subscriptions, names).compactMap { subscription, name in
            subscription.id.map { id in
                let label = "\(context.texts.cancelButton) \(context.texts.time(hour: subscription.hour, minute: subscription.minute)) \(HTML.truncate(name, maximumCharacters: 30))"
                return [InlineKeyboardButton(text: label, callbackData: CallbackAction.cancelDaily(id: id, by: owner ?? context.owner).encoded)]
            }
        })
        let text = HTML.fitting(lines.joined(separator: "\n"))
        // No forecasts, no buttons: not an empty keyboard.
        let buttons = keyboard.inlineKeyboard.isEmpty ? nil : keyboard
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: text, keyboard: buttons))
        } else {
            context.replies.append(.send(text: text, markup: buttons.map(ReplyMarkup.inline)))
        }
    }

    func cancelDaily(id: Int64, by owner: Int64?, queryID: String, messageID: Int?, _ context: inout Context) async {
        guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
        let subscriptions = (try? await store.subscriptions(chatID: context.chat.id)) ?? []
        guard subscriptions.contains(where: { $0.id == id }) else { return stale(queryID, &context) }
        context.changes.append(.unsubscribe(id: id))
        context.answer(queryID, context.texts.dailyCancelledOne)
        await showSubscriptions(editing: messageID, owner: owner, &context)
    }

    /// The places a chat's daily forecast is told apart from: its city, its favorites and the
    /// places of its daily forecasts, as /fav and /del tell them apart.
    /// - Parameter subscriptions: the chat's daily forecasts as this step leaves them; by default as stored.
    func namedPlaces(subscriptions: [Subscription]? = nil, _ context: inout Context) async -> [Place] {
        let favorites = (try? await allFavorites(&context)) ?? []
        var subscriptions = subscriptions ?? []
        if subscriptions.isEmpty { subscriptions = (try? await store.subscriptions(chatID: context.chat.id)) ?? [] }
        return [context.chat.currentPlace].compactMap { $0 } + favorites.map(\.place) + subscriptions.map(\.place)
    }

    /// A daily forecast's place as /fav and /del name it: «Москва, Россия» beside another Moscow
    /// among the chat's places, «Москва» alone; escaped.
    func dailyName(of place: Place, _ context: inout Context) async -> String {
        HTML.escape(Views.distinctName(of: place, among: await namedPlaces(&context), context.texts))
    }

    /// The arguments with the chart's words taken out, and what they asked: with the chart
    /// («chart», «график», «с графиком», «with chart»), without it («без графика», «without
    /// chart», «no chart»), or nothing said (nil).
    static func chartOption(_ text: String) -> (rest: String, withChart: Bool?) {
        let words = text.split(whereSeparator: \.isWhitespace)
        let keys = words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        guard keys.contains(where: chartWords.contains) else { return (text, nil) }
        var kept: [Substring] = []
        var withChart: Bool?
        var index = 0
        while index < words.count {
            if chartWords.contains(keys[index]) {
                // «без графика», «without chart», «no chart»: the word before says no.
                let negated = index > 0 && chartNegations.contains(keys[index - 1])
                if negated, let last = kept.last, chartNegations.contains(last.lowercased()) { kept.removeLast() }
                withChart = withChart ?? !negated
            } else {
                kept.append(words[index])
            }
            index += 1
        }
        kept.removeAll { chartJoiners.contains($0.lowercased()) }
        return (kept.joined(separator: " "), withChart)
    }

    static let chartWords: Set<String> = ["chart", "график", "графиком", "графика", "📈"]
    /// Words that only join the chart to the rest: «с графиком», «with chart», «+ chart».
    static let chartJoiners: Set<String> = ["с", "with", "+", "and", "и"]
    static let chartNegations: Set<String> = ["без", "without", "no"]

    /// «08:00», as a command is typed (a chat's 12-hour clock shows times otherwise).
    static func clock(_ hour: Int, _ minute: Int) -> String {
        String(format: "%02d:%02d", hour, minute)
    }
}
