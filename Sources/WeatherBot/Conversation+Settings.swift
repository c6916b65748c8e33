import Foundation
import TelegramBotAPI
public import WeatherBotStore

/// One choice of the /settings message, as its button carries it.
public typealias SettingChoice = ChatSettings.Choice

extension ChatSettings.Choice {
    /// «t:f», «w:kmh», «p:inhg», «l:en» («l:tg» as in Telegram), «h:12»: the pair a button carries.
    var code: String { "\(key):\(value)" }

    /// What a chat's /settings buttons carry to tell a message drawn before a /reset: the
    /// millisecond its record was made (a reset makes it anew).
    static func epoch(of chat: ChatRecord) -> Int {
        Int((chat.createdAt.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Whether `settings` shows this choice as made (a default counts as its value).
    func isChosen(in settings: ChatSettings, _ language: Language) -> Bool {
        switch self {
        case .temperature(let value): (settings.temperature ?? .celsius) == value
        case .windSpeed(let value): (settings.windSpeed ?? .metresPerSecond) == value
        case .pressure(let value): settings.pressure(in: language) == value
        case .language(let value): settings.language == value
        case .clock(let value): (settings.clock ?? .twentyFourHour) == value
        }
    }
}

/// `/settings`: units, language and clock, one message of toggles that each press redraws.
extension Conversation {
    func settingsCommand(_ context: inout Context) {
        let message = settingsMessage(context.texts, epoch: SettingChoice.epoch(of: context.chat))
        context.replies.append(.send(text: message.text, markup: .inline(message.keyboard)))
    }

    /// A button of the /settings message: in a group an administrator's; the chat's settings
    /// change, and the message is drawn again in them (in the language just chosen, too). A
    /// choice made already changes nothing; a message from before a /reset is stale, and is
    /// drawn again as the settings are now.
    func pressSetting(_ choice: SettingChoice, epoch: Int, queryID: String, messageID: Int?, _ context: inout Context) async {
        let current = SettingChoice.epoch(of: context.chat)
        // A millisecond either way: the store keeps times to the millisecond, rounded.
        guard abs(epoch - current) <= 1 else {
            stale(queryID, &context)
            if let messageID {
                let message = settingsMessage(context.texts, epoch: current)
                context.replies.append(.edit(.id(messageID), text: message.text, keyboard: message.keyboard))
            }
            return
        }
        guard await mayChangeShared(&context) else { return refuseMember(queryID, &context) }
        guard !choice.isChosen(in: context.chat.settings, context.language) else { return context.answer(queryID) }
        var settings = choice.applied(to: context.chat.settings)
        // Another language keeps the pressure unit the chat reads now, not the new language's default.
        if case .language = choice, settings.pressure == nil { settings.pressure = context.chat.settings.pressure(in: context.language) }
        context.chat.settings = settings
        context.language = settings.language ?? context.telegramLanguage
        context.chat.language = context.language
        context.answer(queryID, context.texts.settingsSaved)
        let message = settingsMessage(context.texts, epoch: current)
        if let messageID {
            context.replies.append(.edit(.id(messageID), text: message.text, keyboard: message.keyboard))
        } else {
            context.replies.append(.send(text: message.text, markup: .inline(message.keyboard)))
        }
    }

    /// The example's pressure in hectopascals: the standard atmosphere, a round figure in each unit.
    static let examplePressure = 1013.25

    /// The settings as they stand, an example in them, and a row of choices for each.
    func settingsMessage(_ texts: Texts, epoch: Int) -> (text: String, keyboard: InlineKeyboardMarkup) {
        let settings = texts.settings
        let languageName = settings.language.map { texts.languageNames[$0] ?? $0.rawValue } ?? texts.settingsAsInTelegram
        // One weather in every unit: the standard atmosphere, 1013.25 hPa, is 760 mm Hg and
        // 29.92 inHg; 2.54 mm of rain is 0.10 in.
        let example = [
            texts.temperature(5), "\(texts.speed(4)) \(texts.speedUnit)", "\(texts.pressure(Self.examplePressure)) \(texts.pressureUnit)",
            "☔ \(texts.precipitation(2.54)) \(texts.precipitationUnit)", texts.time(hour: 14, minute: 5),
        ]
        let lines = [
            texts.settingsTitle, "",
            "🌡 \(texts.settingsTemperature): \(texts.temperatureUnit)",
            "💨 \(texts.settingsWind): \(texts.speedUnit)",
            "🧭 \(texts.settingsPressure): \(texts.pressureUnit)",
            "🗣 \(texts.settingsLanguage): \(languageName)",
            "🕒 \(texts.settingsClock): \(texts.clockNames[settings.clock ?? .twentyFourHour] ?? "")",
            "",
            texts.settingsExample(example.joined(separator: " · ")),
        ]
        func button(_ title: String, _ choice: SettingChoice) -> InlineKeyboardButton {
            InlineKeyboardButton(
                text: choice.isChosen(in: settings, texts.language) ? "✓ \(title)" : title, callbackData: CallbackAction.setting(choice, epoch: epoch).encoded)
        }
        let rows: [[InlineKeyboardButton]] = [
            [button("°C", .temperature(.celsius)), button("°F", .temperature(.fahrenheit))],
            ChatSettings.WindSpeed.allCases.map { button(texts.speedUnits[$0] ?? $0.rawValue, .windSpeed($0)) },
            ChatSettings.Pressure.allCases.map { button(texts.pressureUnits[$0] ?? $0.rawValue, .pressure($0)) },
            [button(texts.settingsAsInTelegram, .language(nil))] + Language.allCases.map { button(texts.languageNames[$0] ?? $0.rawValue, .language($0)) },
            ChatSettings.Clock.allCases.map { button(texts.clockNames[$0] ?? $0.rawValue, .clock($0)) },
        ]
        return (lines.joined(separator: "\n"), InlineKeyboardMarkup(inlineKeyboard: rows))
    }
}
