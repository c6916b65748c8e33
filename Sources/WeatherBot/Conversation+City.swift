import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// Finding the chat's city: from a location, typed coordinates or a name.
extension Conversation {
    /// A location: «Определяем город…» at once, and the city there looked up after the step.
    /// - Parameter sent: how the point came, which a failure's answer names.
    func startLocating(latitude: Double, longitude: Double, updateID: Int64, sent: PointSource = .location, _ context: inout Context) async {
        let tag = "\(MessageTags.shortLivedPrefix)\(updateID)"
        let byMember = await isMemberOfAGroupWithACity(&context)
        context.state = .locating
        context.replies.append(.send(text: context.texts.locating, tag: tag))
        context.followUps.append(
            .resolveLocation(
                latitude: latitude, longitude: longitude, statusTag: tag, language: context.language, inGroup: context.isGroup ? true : nil,
                sent: sent == .location ? nil : sent, byMember: byMember ? true : nil))
    }

    /// A short map link: «Определяем город…» at once, and the link followed after the step.
    func startLocating(link: String, updateID: Int64, _ context: inout Context) async {
        await startLocating(link: link, tag: "\(MessageTags.shortLivedPrefix)\(updateID)", &context)
    }

    /// The same under the status message's own `tag`.
    func startLocating(link: String, tag: String, _ context: inout Context) async {
        let byMember = await isMemberOfAGroupWithACity(&context)
        context.state = .locating
        context.replies.append(.send(text: context.texts.locating, tag: tag))
        context.followUps.append(
            .resolveMapLink(link: link, statusTag: tag, language: context.language, inGroup: context.isGroup, byMember: byMember ? true : nil))
    }

    /// Whether whoever sent a location may not make it the chat's city: a member of a group that has one.
    private func isMemberOfAGroupWithACity(_ context: inout Context) async -> Bool {
        guard context.isGroup else { return false }
        return !(await mayChangeCity(&context))
    }

    /// Follows a short map link to the point of the address it redirects to (remembered links
    /// free, new ones within the chat's share a minute) and reads it as a shared location; a link
    /// that leads nowhere readable, or cannot be followed now, is said so, with the other ways.
    func resolveMapLink(_ link: String, statusTag: String, byMember: Bool = false, _ context: inout Context) async {
        await activity.typing(in: context.chat.id)
        let lookup = await mapLinks?.lookUp(link, for: context.chat.id, cachedOnly: false) ?? .nowhere
        guard case .point(let latitude, let longitude) = lookup else {
            if case .locating = context.state { context.state = .idle }
            let view = Views.locationFailed(context.texts, mapLink: lookup, link: link)
            context.replies.append(.edit(.tag(statusTag), text: view.text, keyboard: view.keyboard))
            return
        }
        await resolveLocation(latitude: latitude, longitude: longitude, statusTag: statusTag, sent: .link, byMember: byMember, &context)
    }

    /// The city at a point, asked about: «Это ваш город?». A member of a group with a city, who
    /// may not change it (`byMember`), gets the weather there, and the question is left to the
    /// administrators.
    /// - Parameter sent: how the point came: a failure asks for it again the same way.
    func resolveLocation(
        latitude: Double, longitude: Double, statusTag: String, sent: PointSource = .location, byMember: Bool = false, _ context: inout Context
    ) async {
        await activity.typing(in: context.chat.id)
        let found: Place?
        do {
            found = try await geocoder.places(atLatitude: latitude, longitude: longitude, language: context.language, for: context.calls).first
        } catch {
            // An outage is not «no city here»: the user is told why, and how to go on.
            if case .locating = context.state { context.state = .idle }
            let view = Views.locationFailed(context.texts, error: error, sent: sent)
            context.replies.append(.edit(.tag(statusTag), text: view.text, keyboard: view.keyboard))
            // The weather needs no name: the point's own is shown all the same, named by its coordinates.
            let point = Place(
                name: Views.coordinates(latitude: latitude, longitude: longitude), localNames: [:], region: nil, country: nil,
                latitude: latitude, longitude: longitude)
            await showWeather(.now, of: .recent(context.chat.remember(point)), &context)
            return
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
        if byMember && context.chat.currentPlace != nil {
            let view = Views.cityQuestion(place, question: question, context.texts, forAdministrators: true)
            context.replies.append(.edit(.tag(statusTag), text: view.text, keyboard: view.keyboard))
            await showWeather(.now, of: .recent(context.chat.remember(place)), &context)
            return
        }
        // A traveller with a city may only want the weather where they stand.
        let view = Views.cityQuestion(place, question: question, context.texts, justWeather: context.chat.currentPlace != nil)
        context.replies.append(.edit(.tag(statusTag), text: view.text, keyboard: view.keyboard))
    }

    /// Asks for a name: the chat's own city (never suggesting `rejected` as the example), or a
    /// place to look up.
    /// - Parameter offeringLocation: with the keyboard whose button shares the user's location
    ///   (private chats only), for a user who came to choose a city and may be standing in it.
    func askCityName(for purpose: SearchPurpose, rejected: Place? = nil, offeringLocation: Bool = false, _ context: inout Context) {
        _ = context.nextQuestion()
        context.state = .awaitingCityName(purpose)
        let prompt = purpose == .setCity ? context.texts.askOwnCity(notNamed: rejected.map { [$0.name] + $0.localNames.values } ?? []) : context.texts.askPlaceToFind
        // In a group only a reply to the question reaches the bot, so the question asks for one.
        let markup: ReplyMarkup? =
            context.isGroup ? .forceReply(context.question) : offeringLocation ? Views.locationKeyboard(context.texts) : nil
        context.replies.append(.send(text: prompt, markup: markup))
    }

    /// Text that is not a command: the answer to a question about a name, or a place to look up
    /// as people write it («погода в Казани завтра», «weather in London», «график Токио»). The
    /// words that name a view («по часам», «на неделю», «hourly», «график») show it as its button
    /// does; without a place they show the chat's own, or, in a reply to one of the bot's weather
    /// messages, that message's place.
    ///
    /// `lookingUp`: the text came with /weather (or /chart: `chart`), which looks a place up
    /// whatever is asked.
    func freeText(_ text: String, lookingUp: Bool = false, chart: Bool = false, _ context: inout Context) async {
        var asked = TypedQuery.asked(text)
        if chart, asked.weatherView != nil { asked = .chart(asked == .week ? .week : .hours) }
        let view = asked.weatherView ?? .now
        let parsed = TypedQuery.parse(text)
        var purpose: SearchPurpose = context.chat.currentPlace == nil && !lookingUp ? .setCity : .browse
        if !lookingUp {
            switch context.state {
            case .awaitingCityName(let awaited), .searchFailed(_, _, let awaited): purpose = awaited
            default: break
            }
        }
        switch parsed {
        case .sentence:
            // Words that are no place's name are neither sent nor quoted back: the hint says what to
            // type, a paragraph being told it is too long for a name.
            context.state = .awaitingCityName(purpose)
            context.say(text.count > Self.longestName ? context.texts.nameTooLong : context.texts.noPlaceInText)
        case .nothing:
            // Words with no place in them («погода», «по часам», the bot's own examples) ask for
            // the weather as at any other time, and a question stays open for the name that may still come.
            let place = await typedPlace(&context)
            if case .chart(let chartView) = asked { return await showChart(chartView, of: place, queryID: nil, editing: nil, &context) }
            await showWeather(view, of: place, &context)
        case .place(let reading):
            // A chart asked for is a look-up, never the chat's city: one place sends its chart, namesakes each a button to it.
            if case .chart(let chartView) = asked {
                return await search(reading.query, alternatives: reading.alternatives, for: .browse, chart: chartView, &context)
            }
            await search(reading.query, alternatives: reading.alternatives, for: purpose, view: view, &context)
        }
    }

    /// The place typed words without a name mean: the place of the bot's weather message they
    /// reply to, when it is still one of the chat's; else the chat's city (the default one without).
    func typedPlace(_ context: inout Context) async -> PlaceReference {
        if let replied = context.repliedPlace, let settled = settle(replied, context), await resolve(settled, &context) != nil {
            return settled
        }
        return context.chat.currentPlace == nil ? .defaultCity : .current
    }

    /// Geocodes a name, then its `alternatives` (the same name in the nominative: «Казани» →
    /// «Казань») while nothing is found: up to five populated places, duplicates collapsed. For
    /// the chat's own city, one result is asked about; when looking a place up, it shows `view` of
    /// its weather at once.
    ///
    /// `chart`: a chart was asked for («график Токио», `/chart Tokyo`): one place sends it, and
    /// each namesake's button sends that place's.
    func search(
        _ query: String, alternatives: [String] = [], for purpose: SearchPurpose, view: WeatherView = .now, chart: ChartRequest.View? = nil,
        _ context: inout Context
    ) async {
        // No place is called by a paragraph: a text that long is not sent to the geocoder at all.
        guard query.count <= Self.longestName else {
            context.state = .awaitingCityName(purpose)
            return context.say(context.texts.nameTooLong)
        }
        await activity.typing(in: context.chat.id)
        var places: [Place] = []
        do {
            places = try await geocode(query, alternatives: alternatives, context.language, for: context.calls)
        } catch {
            // A chat flooding names was told of a refusal moments ago: not again for each name.
            if context.isQuiet(about: error) { return }
            // The service failed, not the name: the same search can be run again with one press.
            let question = context.nextQuestion()
            context.state = .searchFailed(query: query, alternatives: alternatives, purpose: purpose)
            let retry = InlineKeyboardMarkup(inlineKeyboard: [
                [InlineKeyboardButton(
                    text: context.texts.retryButton,
                    callbackData: CallbackAction.retrySearch(question: question, search: RetriedSearch(query: query, purpose: purpose)).encoded)]
            ])
            context.replies.append(
                .send(text: context.texts.searchFailed(Views.reason(error, context.texts), Views.whenAgain(error, context.texts)), markup: .inline(retry)))
            return
        }
        switch (places.count, purpose) {
        case (0, _):
            context.state = .awaitingCityName(purpose)
            context.say(Views.nothingFound(query, context.texts))
        case (1, .setCity):
            let question = context.nextQuestion()
            context.state = .confirmingCity(places[0], then: view.asked)
            let view = Views.cityQuestion(places[0], question: question, context.texts)
            context.replies.append(.send(text: view.text, markup: .inline(view.keyboard)))
        case (1, .browse):
            context.state = .idle
            let id = context.chat.remember(places[0])
            if let chart { return await showChart(chart, of: .recent(id), queryID: nil, editing: nil, &context) }
            await showWeather(view, of: .recent(id), &context)
        case (_, .setCity):
            let question = context.nextQuestion()
            context.state = .choosingPlace(places, purpose, then: view.asked)
            let choices = places.indices.map { (places[$0], CallbackAction.pickPlace(question: question, index: $0)) }
            let view = Views.placeChoice(choices, for: .setCity, context.texts)
            context.replies.append(.send(text: view.text, markup: .inline(view.keyboard)))
        case (_, .browse):
            // Each result is a place recently shown, so every button of the list keeps working
            // after the first pick, until newer places push it out.
            context.state = .idle
            // «…завтра» carries over: each result opens tomorrow's hours.
            let choices = places.map { place in
                let reference = PlaceReference.recent(context.chat.remember(place))
                if let chart { return (place, CallbackAction.chart(chart, reference)) }
                return (place, view == .now ? CallbackAction.open(reference) : .openView(view, reference))
            }
            let view = Views.placeChoice(choices, for: .browse, context.texts)
            let prompt = chart == nil ? view.text : context.texts.severalFoundForChart
            context.replies.append(.send(text: prompt, markup: .inline(view.keyboard)))
        }
    }

    /// The longest name a search sends: longer than any place's, far shorter than a paragraph.
    static let longestName = 100

    /// The places a name finds: a nickname's city first («Питер»), then the name as written, then
    /// its nominatives. After a comma, a country or region the bot knows («Paris, France»,
    /// «Moscow, Idaho», «Казань, Татарстан») keeps the search to it: its places or none, never
    /// a namesake elsewhere. Other words after a comma are asked as written when the name's
    /// places are not in a region so named («Казань, Вахитовский»). Its calls are paid as `calls` says.
    func geocode(_ query: String, alternatives: [String], _ language: Language, for calls: CallContext) async throws -> [Place] {
        if let (name, by) = TypedQuery.narrowed(query) {
            // One nominative guess: each narrowing asks every name, and OpenWeather counts each.
            let names = Self.searchedNames(name, alternatives: Array(TypedQuery.nominatives(of: name).prefix(1)))
            let narrowings = PlaceWords.narrowings(by)
            for narrowing in narrowings {
                for name in names {
                    let places = try await geocoder.places(named: narrowing.query(for: name), language: language, for: calls).filter(narrowing.admits)
                    if !places.isEmpty { return Self.distinct(places) }
                }
            }
            if !narrowings.isEmpty { return [] }
            let region = TypedQuery.key(Substring(by))
            for name in names {
                let places = try await geocoder.places(named: name, language: language, for: calls)
                if places.isEmpty { continue }
                let kept = places.filter { $0.region.map { TypedQuery.key(Substring($0)) } == region }
                if !kept.isEmpty { return Self.distinct(kept) }
                break
            }
        }
        // «Мск» is Moscow: the one city a nickname means, without its namesakes elsewhere.
        if let city = TypedQuery.nickname(query), let country = TypedQuery.nicknameCountry(query) {
            let places = try await geocoder.places(named: city, language: language, for: calls)
            if let place = places.first(where: { $0.country?.uppercased() == country }) { return [place] }
        }
        for name in Self.searchedNames(query, alternatives: alternatives) {
            let places = Self.distinct(try await geocoder.places(named: name, language: language, for: calls))
            if !places.isEmpty { return places }
        }
        return []
    }

    /// The names a search asks in turn: the city a nickname stands for, the name, three guesses.
    static func searchedNames(_ name: String, alternatives: [String]) -> [String] {
        (TypedQuery.nickname(name).map { [$0] } ?? []) + [name] + alternatives.prefix(3)
    }

    /// Results with the same name, region and country within a few kilometres are one place.
    static func distinct(_ places: [Place]) -> [Place] {
        var kept: [Place] = []
        for place in places.prefix(10) {
            let duplicate = kept.contains { other in
                other.name == place.name && other.region == place.region && other.country == place.country
                    && abs(other.latitude - place.latitude) < 0.05 && abs(other.longitude - place.longitude) < 0.05
            }
            if !duplicate { kept.append(place) }
        }
        return Array(kept.prefix(5))
    }

    /// Makes `place` the chat's city, answered on the message that asked (`messageID`), and shows
    /// its weather; the time zone comes with the weather. A chat that had no city loses the reply
    /// keyboard that offered to share a location.
    func adopt(_ place: Place, answering messageID: Int?, then view: WeatherView = .now, _ context: inout Context) async {
        if context.chat.currentPlace == nil && !context.isGroup {
            // The location keyboard goes with a message of its own: an edit cannot take it away.
            if let messageID { context.replies.append(.editKeyboard(.id(messageID), keyboard: nil)) }
            context.replies.append(Views.firstCity(place, context.texts, inGroup: false))
        } else if let messageID {
            // A group's first city and a later one alike: the question becomes the answer.
            context.replies.append(.edit(.id(messageID), text: Views.citySaved(place, context.texts)))
        } else if context.chat.currentPlace == nil {
            context.replies.append(Views.firstCity(place, context.texts, inGroup: context.isGroup))
        }
        setCity(place, &context)
        await showWeather(view, of: .current, &context)
    }

    /// Makes `place` the chat's city. The city it replaces stays among the recent places as it
    /// was, so the buttons of its weather messages, which name it by ``Place/cityMark``, keep
    /// showing it: also when a place of its name a few hundred metres away is there already (the
    /// city found by name after a location shared in it), or the new city is the same one.
    func setCity(_ place: Place, _ context: inout Context) {
        if let old = context.chat.currentPlace, old.cityMark != place.cityMark,
            !context.chat.recentPlaces.contains(where: { $0.place.cityMark == old.cityMark })
        {
            context.chat.keep(old)
        }
        if let old = context.chat.currentPlace, old.cityMark != place.cityMark, NoticeDecision.tellsAnything(context.chat.notices, at: place) {
            context.say(context.texts.alertsFollowCity)
        }
        context.chat.currentPlace = place
    }
}
