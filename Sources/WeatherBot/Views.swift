import Foundation
import OpenWeather
import TelegramBotAPI
import WeatherBotStore

/// Texts and keyboards of every message the bot sends. Pure functions of their inputs; every piece
/// of user or place text is escaped here, and every message is kept within Telegram's limit.
public enum Views {
    /// Place names and user queries are cut to this many characters before they are shown.
    static let maximumNameLength = 100

    // MARK: Onboarding

    static func greeting(_ texts: Texts) -> Reply {
        .send(text: texts.greeting, markup: locationKeyboard(texts))
    }

    /// The keyboard that shares the user's location, or chooses a city by name.
    static func locationKeyboard(_ texts: Texts) -> ReplyMarkup {
        .keyboard(
            ReplyKeyboardMarkup(
                keyboard: [
                    [KeyboardButton(text: texts.shareLocationButton, requestLocation: true)],
                    [KeyboardButton(text: texts.chooseManuallyKeyboardButton)],
                ],
                resizeKeyboard: true,
                inputFieldPlaceholder: texts.inputPlaceholder))
    }

    // MARK: The city dialogue

    /// «Это ваш город?» about `place`; with `justWeather` (a point shared by a chat that has a
    /// city already) also «🌦 Только погода здесь».
    /// - Parameter forAdministrators: asked of a group's administrators about a member's location.
    static func cityQuestion(
        _ place: Place, question: Int, _ texts: Texts, justWeather: Bool = false, forAdministrators: Bool = false
    ) -> (text: String, keyboard: InlineKeyboardMarkup) {
        let asked = forAdministrators ? texts.cityForAdministrators : texts.isThisYourCity
        let text = "\(asked)\n\n📍 <b>\(name(of: place, texts.language))</b>\(details(of: place, texts.language))"
        var rows = [
            [InlineKeyboardButton(text: texts.yesButton, callbackData: CallbackAction.confirmCity(question: question).encoded)],
            [InlineKeyboardButton(text: texts.noButton, callbackData: CallbackAction.rejectCity(question: question).encoded)],
        ]
        if justWeather {
            rows.append([InlineKeyboardButton(text: texts.justWeatherButton, callbackData: CallbackAction.justWeather(question: question).encoded)])
        }
        return (HTML.fitting(text), InlineKeyboardMarkup(inlineKeyboard: rows))
    }

    /// A point as a name, where none could be found: «55.79, 49.12», about a kilometre's precision.
    static func coordinates(latitude: Double, longitude: Double) -> String {
        String(format: "%.2f, %.2f", latitude, longitude)
    }

    /// No city at the point (the open sea), or, with a `reason`, the lookup itself failed.
    /// - Parameter mapLink: how a short map link failed, when the point was to come from one.
    /// - Parameter sent: how the point came, which the failure asks for again.
    static func locationFailed(
        _ texts: Texts, error: (any Error)? = nil, mapLink: MapLinkLookup? = nil, link: String? = nil, sent: PointSource = .location
    ) -> (text: String, keyboard: InlineKeyboardMarkup) {
        let text: String
        if let error {
            text = "<b>\(texts.locationLookupFailed(reason(error, texts), texts.sendAgain(sent, whenAgain(error, texts))))</b>"
        } else {
            switch mapLink {
            case nil, .point?: text = "<b>\(texts.locationFailed)</b>\n\n\(texts.locationFailedExplanation)"
            case .nowhere?: text = "<b>\(texts.mapLinkFailed)</b>\n\n\(texts.mapLinkFailedExplanation)"
            case .unreachable?, .notCached?: text = "<b>\(texts.mapLinkFailed)</b>\n\n\(texts.mapLinkUnreachableExplanation)"
            case .tooMany?: text = "<b>\(texts.mapLinksTooMany)</b>"
            }
        }
        var rows = [[InlineKeyboardButton(text: texts.chooseManuallyButton, callbackData: CallbackAction.chooseManually.encoded)]]
        // A site that did not answer may answer later: the link is offered again, as an outage's
        // weather is, when the button can carry it.
        if case .unreachable? = mapLink, let link, CallbackAction(encoded: CallbackAction.retryMapLink(link).encoded) != nil {
            rows.insert([InlineKeyboardButton(text: texts.retryButton, callbackData: CallbackAction.retryMapLink(link).encoded)], at: 0)
        }
        return (text, InlineKeyboardMarkup(inlineKeyboard: rows))
    }

    /// Search results, one button each with what pressing it does.
    static func placeChoice(
        _ choices: [(place: Place, action: CallbackAction)], for purpose: SearchPurpose, _ texts: Texts
    ) -> (text: String, keyboard: InlineKeyboardMarkup) {
        let places = choices.map(\.place)
        let rows = choices.map { choice in
            [InlineKeyboardButton(text: buttonLabel(of: choice.place, among: places, texts), callbackData: choice.action.encoded)]
        }
        return (placeChoicePrompt(for: purpose, texts), InlineKeyboardMarkup(inlineKeyboard: rows))
    }

    static func placeChoicePrompt(for purpose: SearchPurpose, _ texts: Texts) -> String {
        purpose == .setCity ? texts.severalFoundOwnCity : texts.severalFoundPlace
    }

    static func resetQuestion(question: Int, _ texts: Texts) -> InlineKeyboardMarkup {
        InlineKeyboardMarkup(inlineKeyboard: [
            [InlineKeyboardButton(text: texts.resetConfirmButton, callbackData: CallbackAction.reset(confirmed: true, question: question).encoded)],
            [InlineKeyboardButton(text: texts.resetCancelButton, callbackData: CallbackAction.reset(confirmed: false, question: question).encoded)],
        ])
    }

    static func nothingFound(_ query: String, _ texts: Texts) -> String {
        HTML.fitting(texts.nothingFound(HTML.escape(HTML.truncate(query, maximumCharacters: maximumNameLength))))
    }

    /// «📍 Ваш город: …» for a chat's first city, taking away the reply keyboard that offered to
    /// share a location.
    static func firstCity(_ place: Place, _ texts: Texts, inGroup: Bool) -> Reply {
        // A group never got the location keyboard: nothing to take away there.
        .send(text: citySaved(place, texts), markup: inGroup ? nil : .removeKeyboard(ReplyKeyboardRemove()))
    }

    static func citySaved(_ place: Place, _ texts: Texts) -> String {
        texts.citySaved("<b>\(name(of: place, texts.language))</b>\(details(of: place, texts.language))")
    }

    // MARK: Weather failures

    /// A failure told in the user's words.
    static func reason(_ error: any Error, _ texts: Texts) -> String {
        guard let error = error as? OpenWeatherError else { return texts.reasonNetwork }
        switch error.code {
        case .invalidKey, .subscriptionRequired: return texts.reasonInvalidKey
        case .rateLimited: return texts.reasonRateLimited
        case .overBudget(.minute): return texts.reasonOverloaded
        case .overBudget(.chat): return texts.reasonTooManyFromChat
        case .overBudget(.day): return texts.reasonDaySpent
        case .overBudget(.chatDay): return texts.reasonChatDaySpent
        case .server, .unexpectedStatus: return texts.reasonServer
        case .network: return texts.reasonNetwork
        case .undecodable: return texts.reasonUndecodable
        case .notFound: return texts.reasonNotFound
        }
    }

    /// When to try again after `error`: a little later, or once the UTC day's budget starts
    /// again, not «a little later» hours ahead.
    static func whenAgain(_ error: any Error, _ texts: Texts) -> String {
        switch (error as? OpenWeatherError)?.code {
        case .overBudget(.day)?, .overBudget(.chatDay)?: return texts.afterTheDayTurns
        default: break
        }
        return texts.aLittleLater
    }

    /// A chat refused a call by the budget that was told so moments ago
    /// (``CallBudget/wasTold(_:of:)``): a message it sent is not answered again with a refusal
    /// (a button's press still is: ``Conversation/Context/isQuiet(about:)``).
    static func toldAlready(_ error: any Error) -> Bool {
        (error as? OpenWeatherError)?.chatToldAlready == true
    }

    // MARK: Pieces

    /// The place's name in the chat's language, escaped.
    static func name(of place: Place, _ language: Language) -> String {
        HTML.escape(HTML.truncate(place.name(in: language.rawValue), maximumCharacters: maximumNameLength))
    }

    /// «, region, country 🇫🇷», escaped; empty when neither is known. The words are those of
    /// ``PlaceWords``, the same as on buttons.
    static func details(of place: Place, _ language: Language) -> String {
        let parts = [
            PlaceWords.region(of: place, language).map { HTML.truncate($0, maximumCharacters: maximumNameLength) },
            PlaceWords.country(of: place, .for(language)),
        ].compactMap { $0 }.filter { !$0.isEmpty }
        let flag = place.country.map(flag(ofCountry:)) ?? ""
        guard !parts.isEmpty else { return flag.isEmpty ? "" : " \(flag)" }
        return ", " + HTML.escape(parts.joined(separator: ", ")) + (flag.isEmpty ? "" : " \(flag)")
    }

    /// A button label such as «Париж, Иль-де-Франс, Франция 🇫🇷», plain text (buttons are not HTML);
    /// long country names in their short form («США»), since a button shows some 30 characters.
    /// Among `others` of the same name and country, a region the language has no word for is kept:
    /// it is all that tells them apart.
    static func buttonLabel(of place: Place, among others: [Place] = [], _ texts: Texts) -> String {
        let namesake = others.contains { $0 != place && $0.name == place.name && $0.country == place.country }
        let parts = [place.name(in: texts.language.rawValue), PlaceWords.region(of: place, texts.language, needed: namesake), PlaceWords.country(of: place, texts)]
            .compactMap { $0 }.filter { !$0.isEmpty }
        let label = HTML.truncate(parts.joined(separator: ", "), maximumCharacters: 60)
        let flag = place.country.map(flag(ofCountry:)) ?? ""
        return flag.isEmpty ? label : "\(label) \(flag)"
    }

    /// The place's name, and what tells it apart from places of the same name among `others`:
    /// their country where it differs («Париж, Франция», «Париж, США»), else the region.
    static func distinctName(of place: Place, among others: [Place], _ texts: Texts) -> String {
        let name = HTML.truncate(place.name(in: texts.language.rawValue), maximumCharacters: maximumNameLength)
        let namesakes = others.filter { HTML.truncate($0.name(in: texts.language.rawValue), maximumCharacters: maximumNameLength) == name && !$0.isSamePlace(as: place) }
        guard !namesakes.isEmpty else { return name }
        if namesakes.allSatisfy({ $0.country != place.country }), let country = PlaceWords.country(of: place, texts) {
            return "\(name), \(country)"
        }
        return PlaceWords.region(of: place, texts.language, needed: true).map { "\(name), \($0)" } ?? name
    }

    static func countryName(_ code: String, _ language: Language) -> String {
        guard code.count == 2 else { return code }
        return Locale(identifier: language.rawValue).localizedString(forRegionCode: code.uppercased()) ?? code
    }

    /// 🇫🇷 for `FR`: two regional indicator symbols; empty for anything that is not two letters.
    static func flag(ofCountry code: String) -> String {
        let letters = code.uppercased().unicodeScalars
        guard letters.count == 2, letters.allSatisfy({ ("A"..."Z").contains($0) }) else { return "" }
        var flag = ""
        for letter in letters {
            flag.unicodeScalars.append(Unicode.Scalar(0x1F1E6 + letter.value - 65)!)
        }
        return flag
    }
}
