import Foundation
import TelegramBotAPI
import WeatherBotStore

extension Conversation {
    // MARK: /alerts

    /// `/alerts`: the chat's notices with their switches; `/alerts on`, `/alerts off`,
    /// `/alerts quiet 23:00-07:00`, `/alerts quiet off`.
    func alertsCommand(_ argument: String?, _ context: inout Context) async {
        guard context.chat.currentPlace != nil else { return context.say(needCity(context)) }
        guard let argument else { return context.replies.append(alertsMessage(context)) }
        let words = argument.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        var settings = context.chat.notices
        let said: String
        switch words.first {
        case "on", "вкл", "включить":
            // Rain and warnings where the source tells them: pollen is for those who ask for it,
            // by its own switch.
            (settings.rain, settings.warnings) = (true, weather.hasWarnings)
            said = weather.hasWarnings ? context.texts.alertsAllOn : context.texts.alertsRainOn
        case "off", "выкл", "выключить":
            (settings.rain, settings.warnings, settings.pollen) = (false, false, false)
            said = context.texts.alertsAllOff
        case "quiet", "тихие", "тишина":
            let rest = words.dropFirst().joined(separator: " ")
            // Alone: the quiet hours as they are, and how to change them.
            if rest.isEmpty { return context.replies.append(alertsMessage(context)) }
            if ["off", "выкл", "нет"].contains(rest) {
                settings.pauseQuietHours()
                said = context.texts.alertsQuietOff
            } else if ["on", "вкл", "да"].contains(rest) {
                settings.resumeQuietHours()
                said = settings.quietHours(default: defaultQuietHours).map { context.texts.alertsQuietSet(Self.span($0, context.texts)) } ?? context.texts.alertsQuietOff
            } else if let hours = QuietHours(typed: rest) {
                settings.quiet = .hours(hours)
                said = context.texts.alertsQuietSet(Self.span(hours, context.texts))
            } else if let span = QuietHours.typedSpan(rest), span.start == span.end {
                // «23:00-23:00»: read, but no hours between; quiet hours off is said another way.
                return context.say(context.texts.alertsQuietEmpty(context.texts.time(hour: span.start / 60, minute: span.start % 60)))
            } else {
                return context.say(context.texts.alertsBadQuiet(HTML.escape(HTML.truncate(rest, maximumCharacters: 32))))
            }
        default:
            let word = HTML.escape(HTML.truncate(argument, maximumCharacters: 32))
            return context.say(context.texts.alertsUnknown(word) + " " + alertsUsage(context.texts))
        }
        guard await mayChangeShared(&context) else { return refuseMember(nil, &context) }
        change(to: settings, &context)
        context.replies.append(alertsMessage(context, saying: said))
    }

    /// A switch of the /alerts message: sets what it says and draws the message again.
    func pressNotices(_ which: NoticeSwitch, on: Bool, queryID: String, messageID: Int?, _ context: inout Context) async {
        guard context.chat.currentPlace != nil else {
            // The chat was reset since: the old message says so instead of showing switches that were.
            context.answer(queryID, context.texts.alertsNeedCity)
            if let messageID { context.replies.append(.edit(.id(messageID), text: context.texts.alertsNeedCity)) }
            return
        }
        guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
        var settings = context.chat.notices
        switch which {
        case .rain: settings.rain = on
        case .warnings: if weather.hasWarnings { settings.warnings = on }
        // A switch drawn while the city had pollen data, pressed after it moved out of it: the
        // message is drawn again, without it, and nothing changes.
        case .pollen: if hasPollen(context.chat.currentPlace) { settings.pollen = on }
        // Quiet hours come back as the chat had them, or the default.
        case .quiet: if on { settings.resumeQuietHours() } else { settings.pauseQuietHours() }
        }
        change(to: settings, &context)
        context.answer(queryID)
        let message = alertsMessage(context)
        if let messageID, case .send(let text, .inline(let keyboard)?, _) = message {
            context.replies.append(.edit(.id(messageID), text: text, keyboard: keyboard))
        } else {
            context.replies.append(message)
        }
    }

    /// What a chat without a city is told: to answer the question about its city when one is open
    /// (it just typed /city, and «Это ваш город?» waits), else how to choose one.
    private func needCity(_ context: Context) -> String {
        switch context.chat.state {
        case .confirmingCity, .choosingPlace: context.texts.alertsAnswerCity
        default: context.texts.alertsNeedCity
        }
    }

    private func change(to settings: NoticeSettings, _ context: inout Context) {
        var settings = settings
        if context.isGroup && settings.isOn && !context.chat.notices.isOn { settings.setBy = context.senderID }
        if !settings.isOn { settings.setBy = nil }
        context.chat.notices = settings
    }

    /// The /alerts message: the place, each notice on or off, the quiet hours, how to change them;
    /// under `saying`, what a typed command just changed.
    /// - Parameter usage: the commands' help under the switches; the app, which has fields of its
    ///   own, leaves it out.
    func alertsMessage(_ context: Context, saying said: String? = nil, usage: Bool = true) -> Reply {
        let texts = context.texts
        let settings = context.chat.notices
        let place = context.chat.currentPlace.map { "<b>\(Views.name(of: $0, texts.language))</b>" } ?? ""
        let quiet = settings.quietHours(default: defaultQuietHours).map { Self.span($0, texts) }
        func mark(_ on: Bool) -> String { on ? texts.alertsOnMark : texts.alertsOffMark }
        var lines = said.map { [$0, ""] } ?? []
        // Pollen only where the city has its data; elsewhere its setting is kept, unsaid.
        let pollen = hasPollen(context.chat.currentPlace)
        // Warnings only where the source tells them (OpenWeather); the line below says why not.
        let warnings = weather.hasWarnings
        lines += [texts.alertsTitle(place), "", "\(mark(settings.rain)) \(texts.alertsRain)"]
        if warnings { lines.append("\(mark(settings.warnings)) \(texts.alertsWarnings)") }
        if pollen { lines.append("\(mark(settings.pollen)) \(texts.alertsPollen)") }
        lines.append(texts.alertsQuietLine(quiet))
        if !weather.hasMinutes { lines += ["", texts.alertsCoarse] }
        if !warnings { lines += ["", texts.alertsNoWarnings] }
        if usage { lines += ["", alertsUsage(texts)] }
        var rows = [
            [InlineKeyboardButton(text: "\(mark(settings.rain)) \(texts.alertsRain)", callbackData: CallbackAction.notices(.rain, on: !settings.rain).encoded)]
        ]
        if warnings {
            rows.append([
                InlineKeyboardButton(
                    text: "\(mark(settings.warnings)) \(texts.alertsWarnings)", callbackData: CallbackAction.notices(.warnings, on: !settings.warnings).encoded)
            ])
        }
        if pollen {
            rows.append(
                [InlineKeyboardButton(text: "\(mark(settings.pollen)) \(texts.alertsPollen)", callbackData: CallbackAction.notices(.pollen, on: !settings.pollen).encoded)])
        }
        // Off, the button offers the chat's own hours back, or the default; without either there
        // is nothing to offer.
        if let quiet {
            rows.append([InlineKeyboardButton(text: texts.alertsQuietButton(quiet), callbackData: CallbackAction.notices(.quiet, on: false).encoded)])
        } else if let resumable = settings.resumableQuietHours(default: defaultQuietHours) {
            rows.append(
                [InlineKeyboardButton(text: texts.alertsQuietOnButton(Self.span(resumable, texts)), callbackData: CallbackAction.notices(.quiet, on: true).encoded)])
        }
        let keyboard = InlineKeyboardMarkup(inlineKeyboard: rows)
        return .send(text: lines.joined(separator: "\n"), markup: .inline(keyboard))
    }

    /// The commands' help, without warnings where no source tells them.
    func alertsUsage(_ texts: Texts) -> String {
        weather.hasWarnings ? texts.alertsUsage : texts.alertsUsageWithoutWarnings
    }

    /// Whether the chat's city has pollen data (``PollenReading/covers(latitude:longitude:)``)
    /// from a source that tells it.
    func hasPollen(_ place: Place?) -> Bool {
        weather.hasPollen && (place.map(NoticeDecision.hasPollen) ?? false)
    }

    /// «22:00–08:00», or «10:00 PM–8:00 AM» on the chat's 12-hour clock.
    static func span(_ hours: QuietHours, _ texts: Texts) -> String {
        "\(texts.time(hour: hours.start / 60, minute: hours.start % 60))–\(texts.time(hour: hours.end / 60, minute: hours.end % 60))"
    }
}
