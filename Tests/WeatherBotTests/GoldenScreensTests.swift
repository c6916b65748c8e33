import BotClock
import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotService
@testable import WeatherBot
@testable import WeatherBotSQLite
import WeatherBotStore

/// Every screen the bot shows, in Russian and English, walked through as a user would and written
/// out as text: compared with the committed files in `Golden/`, so a wording change is a reviewed
/// diff. `UPDATE_GOLDEN=1 swift test --filter GoldenScreensTests` writes the files anew.
@Suite struct GoldenScreensTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// One chat talking to the conversation, each step committed to a real SQLite file, every
    /// reply written down.
    final class Walk {
        let folder: URL
        let database: BotDatabase
        let conversation: Conversation
        let language: Language
        let chatID: Int64
        var update: Int64 = 0
        var nextMessageID = 100
        var lines: [String] = []
        /// Buttons of the messages sent so far, by message id, newest last.
        var buttons: [(messageID: Int, keyboard: InlineKeyboardMarkup)] = []

        init(
            language: Language, chatID: Int64 = 77, weather: FakeWeather = FakeWeather(), geocoder: FakeGeocoder? = nil,
            membership: (any ChatMembership)? = nil
        ) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-golden-\(UUID().uuidString)")
            database = try BotDatabase.open(path: folder.appendingPathComponent("bot.sqlite").path)
            let geocoder = geocoder ?? FakeGeocoder(
                byName: ["Саранск": [.saransk], "Saransk": [.saransk], "Париж": [.parisFR, .parisUS], "Paris": [.parisFR, .parisUS],
                         "Казань": [.kazan], "Kazan": [.kazan]],
                reverse: [.saransk])
            let now = GoldenScreensTests.now
            conversation = Conversation(
                geocoder: geocoder, weather: weather, store: database, activity: FakeActivity(), membership: membership, clock: ManualClock(now))
            self.language = language
            self.chatID = chatID
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func section(_ title: String) {
            lines += ["", "=== \(title) ==="]
        }

        /// A message as the user types it, through the router.
        /// `replyingTo`: as a reply to the newest message with a button whose label contains it.
        func type(_ text: String, group: Bool = false, replyingToBot: Bool = false, replyingTo label: String? = nil) async throws {
            let bot = User(id: 999, isBot: true, firstName: "Weather", username: "weather_bot")
            var replied = replyingToBot ? RepliedMessage(messageID: 1, from: bot) : nil
            if let label {
                let (messageID, keyboard) = try #require(
                    buttons.last { $0.keyboard.inlineKeyboard.joined().contains { $0.text.contains(label) } }, "no button «\(label)»")
                replied = RepliedMessage(messageID: messageID, from: bot, callbackData: keyboard.inlineKeyboard.joined().compactMap(\.callbackData))
            }
            let message = Message(
                messageID: nextMessageID, from: User(id: 7, firstName: "Anna", languageCode: language.rawValue), date: 1,
                chat: Chat(id: chatID, type: group ? .supergroup : .private), text: text, replyToMessage: replied)
            nextMessageID += 1
            let incoming = try #require(UpdateRouter.route(Update(updateID: update + 1, message: message), botUsername: "weather_bot"))
            lines.append("> \(text)" + (label == nil ? "" : replied.map { " (a reply to #\($0.messageID))" } ?? ""))
            try await handle(incoming)
        }

        func shareLocation(latitude: Double, longitude: Double) async throws {
            lines.append("> 📍 \(latitude), \(longitude)")
            try await handle(Incoming(
                updateID: update + 1, chatID: chatID, language: language, intent: .location(latitude: latitude, longitude: longitude),
                senderID: 7, userMessageID: nextMessageID))
            nextMessageID += 1
        }

        /// Presses the newest button whose label contains `label`; `group`: in a supergroup, by member `member`.
        func press(_ label: String, group: Bool = false, by member: Int64 = 7) async throws {
            let found = buttons.reversed().lazy.compactMap { entry in
                entry.keyboard.inlineKeyboard.joined().first { $0.text.contains(label) }.map { (entry.messageID, $0) }
            }.first
            let (messageID, button) = try #require(found, "no button «\(label)»")
            lines.append("> [\(button.text)] on #\(messageID)" + (member == 7 ? "" : " by member \(member)"))
            try await handle(Incoming(
                updateID: update + 1, chatID: chatID, language: language,
                intent: .button(CallbackAction(encoded: button.callbackData ?? "")), callbackQueryID: "q", messageID: messageID, isGroup: group,
                senderID: member))
        }

        /// The message sent from the last inline result chosen, as its chat shows it now.
        var inlineMessage: WeatherViews.Rendered?

        /// `@weather_bot text` typed by this chat's user in some other chat; `choose`: the result
        /// whose message is then sent there.
        func inline(_ text: String, location: Location? = nil, choose: Int? = nil) async throws {
            lines.append("> @weather_bot \(text)" + (location.map { " (at \($0.latitude), \($0.longitude))" } ?? ""))
            let from = User(id: chatID, firstName: "Anna", languageCode: language.rawValue)
            let outcome = await conversation.answer(InlineQuery(id: "iq", from: from, query: text, location: location))
            guard let answer = outcome.answer else { return lines.append("< (no answer)") }
            if let button = answer.button { lines.append("< above the results: [\(button.text)] → /start \(button.startParameter)") }
            if answer.results.isEmpty { lines.append("< no results") }
            for result in answer.results {
                lines.append("< result: \(result.title) — \(result.description ?? "")")
            }
            if let choose {
                let result = answer.results[choose]
                inlineMessage = WeatherViews.Rendered(text: result.inputMessageContent.messageText, keyboard: result.replyMarkup ?? InlineKeyboardMarkup(inlineKeyboard: []))
                lines.append("< sent: " + result.inputMessageContent.messageText)
                for row in result.replyMarkup?.inlineKeyboard ?? [] { lines.append("  " + row.map { "[\($0.text)]" }.joined(separator: " ")) }
            }
        }

        /// Someone in the chat the inline message went to presses its button `label`.
        func pressInline(_ label: String, presser: Language) async throws {
            let button = try #require(inlineMessage?.keyboard.inlineKeyboard.joined().first { $0.text.contains(label) }, "no button «\(label)»")
            lines.append("> [\(button.text)] on the inline message")
            let press = await conversation.pressInline(button.callbackData, presserLanguage: presser, presser: 41)
            if let edit = press.edit {
                inlineMessage = edit
                lines.append("< edit: " + edit.text)
                for row in edit.keyboard.inlineKeyboard { lines.append("  " + row.map { "[\($0.text)]" }.joined(separator: " ")) }
            }
            lines.append("< answer\(press.showAlert ? " (alert)" : ""): " + (press.notice ?? "—"))
        }

        private func handle(_ incoming: Incoming) async throws {
            let step = await conversation.handle(.incoming(incoming), chat: try database.chat(chatID))
            try await commit(step)
            // Follow-ups (the city of a location) run as the worker runs them, right after.
            for followUp in step.followUps {
                try await commit(await conversation.handle(.followUp(followUp, chatID: chatID), chat: try database.chat(chatID)))
            }
        }

        private func commit(_ step: Conversation.Step) async throws {
            update += 1
            let item = try await database.receive([(updateID: update, chatID: chatID, payload: Data())], lastUpdateID: update)[0]
            try await database.commitStep(chat: step.chat, handled: item.seq!, changes: step.changes, replies: [], followUps: [])
            write(step.replies)
        }

        private func write(_ replies: [Reply]) {
            for reply in replies {
                switch reply {
                case .send(let text, let markup, let tag):
                    let id = nextMessageID
                    nextMessageID += 1
                    if let tag { tags[tag] = id }
                    lines.append("< #\(id): " + text)
                    describe(markup, messageID: id)
                case .edit(let target, let text, let keyboard):
                    let id = messageID(target)
                    lines.append("< edit #\(id): " + text)
                    describe(keyboard.map(ReplyMarkup.inline), messageID: id)
                case .editKeyboard(let target, let keyboard):
                    let id = messageID(target)
                    lines.append("< buttons of #\(id):" + (keyboard == nil ? " removed" : ""))
                    describe(keyboard.map(ReplyMarkup.inline), messageID: id)
                case .answer(_, let text, let showAlert):
                    lines.append("< answer\(showAlert ? " (alert)" : ""): " + (text ?? "—"))
                case .chart(let chart, let caption, let keyboard):
                    let id = nextMessageID
                    nextMessageID += 1
                    lines.append("< #\(id): [chart \(chart.view.rawValue): \(chart.place.name)] " + caption)
                    describe(keyboard.map(ReplyMarkup.inline), messageID: id)
                case .editChart(let target, let chart, let caption, let keyboard):
                    let id = messageID(target)
                    lines.append("< edit #\(id): [chart \(chart.view.rawValue): \(chart.place.name)] " + caption)
                    describe(keyboard.map(ReplyMarkup.inline), messageID: id)
                }
            }
        }

        private var tags: [String: Int] = [:]

        private func messageID(_ target: MessageTarget) -> Int {
            switch target {
            case .id(let id): id
            case .tag(let tag): tags[tag] ?? -1
            }
        }

        private func describe(_ markup: ReplyMarkup?, messageID: Int) {
            switch markup {
            case .inline(let keyboard)?:
                buttons.append((messageID, keyboard))
                for row in keyboard.inlineKeyboard {
                    lines.append("  " + row.map { "[\($0.text)]" }.joined(separator: " "))
                }
            case .keyboard(let keyboard)?:
                for row in keyboard.keyboard {
                    lines.append("  keyboard: " + row.map { "[\($0.text)\($0.requestLocation == true ? " · location" : "")]" }.joined(separator: " "))
                }
            case .removeKeyboard?:
                lines.append("  (the reply keyboard is removed)")
            case .forceReply(let question)?:
                lines.append("  (answer by reply\(question.selective == true ? ", asked of the member" : ""); placeholder «\(question.inputFieldPlaceholder ?? "")»)")
            case nil:
                break
            }
        }
    }

    /// The whole walk in one language.
    static func screens(_ language: Language) async throws -> String {
        let ru = language == .ru
        let walk = try Walk(language: language)
        walk.section("first start")
        try await walk.type("/start")
        try await walk.type("/weather")
        try await walk.type("/help")

        walk.section("the city from a location")
        try await walk.shareLocation(latitude: 54.18, longitude: 45.17)
        try await walk.press(ru ? "Нет" : "No")
        try await walk.type(ru ? "Саранск" : "Saransk")
        try await walk.press(ru ? "Да" : "Yes")

        walk.section("views")
        try await walk.press(ru ? "По часам" : "Hourly")
        try await walk.press(ru ? "На 7 дней" : "7 days")
        try await walk.press(ru ? "Обновить" : "Refresh")
        try await walk.press(ru ? "График" : "Chart")
        try await walk.press(ru ? "48 часов" : "48 hours")
        try await walk.type(ru ? "график на неделю" : "chart for the week")

        walk.section("looking places up")
        try await walk.type(ru ? "/search Париж" : "/search Paris")
        try await walk.press(ru ? "Техас" : "Texas")
        try await walk.press(ru ? "В избранное" : "Add to favorites")
        try await walk.type(ru ? "погода в Казани завтра" : "weather in Kazan tomorrow")
        try await walk.press(ru ? "В избранное" : "Add to favorites")
        try await walk.type(ru ? "/search Атлантида" : "/search Atlantis")
        try await walk.type("/search")

        walk.section("a traveller's location, the city kept")
        try await walk.shareLocation(latitude: 54.19, longitude: 45.18)
        try await walk.press(ru ? "Только погода здесь" : "Just the weather here")

        walk.section("a typo, then the bot's own words")
        try await walk.type("асдфгхжк")
        try await walk.type(ru ? "погода" : "weather")
        try await walk.type("91, 200")

        walk.section("favorites")
        try await walk.type("/fav")
        try await walk.press(ru ? "Переставить" : "Reorder")
        try await walk.press("⬆️")
        try await walk.press(ru ? "Готово" : "Done")
        try await walk.type("/move 1 1")

        walk.section("inline mode")
        try await walk.inline("")
        try await walk.inline("", location: Location(latitude: 54.19, longitude: 45.18))
        try await walk.inline(ru ? "Париж" : "Paris")
        try await walk.inline("К")
        try await walk.inline(ru ? "Атлантида" : "Atlantis")
        try await walk.inline(ru ? "погода в Казани завтра" : "Kazan tomorrow", choose: 0)
        try await walk.pressInline(ru ? "На 7 дней" : "7 days", presser: ru ? .en : .ru)
        try await walk.pressInline(ru ? "Обновить" : "Refresh", presser: language)
        let newcomer = try Walk(language: language, chatID: 78)
        try await newcomer.inline("")
        try await newcomer.type("/start city")
        walk.lines += newcomer.lines

        walk.section("daily forecasts")
        try await walk.type("/daily 8:00")
        try await walk.type(ru ? "/daily 8:00 с графиком" : "/daily 8:00 with chart")
        try await walk.type("/daily 8:00")
        try await walk.type("/daily 7 pm 2")
        try await walk.type("/daily 25:00")
        try await walk.type("/daily")
        try await walk.type("/del 2")
        try await walk.type("/daily off")
        try await walk.press(ru ? "Да, отменить все" : "Yes, cancel them all")
        walk.lines.append("")
        walk.lines.append("< the morning's forecast: " + DailyForecastView.text(
            place: .saransk, forecast: .sample, day: DailySchedule.day(of: Forecast.sample.daily[2].time, in: Forecast.sample.timeZone.timeZone),
            texts: .for(language)))
        let yesterday = DayTemperatures(
            cell: "c", day: "d", minimum: Forecast.sample.daily[2].minimumTemperature, maximum: Forecast.sample.daily[2].maximumTemperature - 4)
        walk.lines.append("")
        walk.lines.append("< the same, yesterday 4° colder by day: " + DailyForecastView.text(
            place: .saransk, forecast: .sample, day: DailySchedule.day(of: Forecast.sample.daily[2].time, in: Forecast.sample.timeZone.timeZone),
            texts: .for(language), yesterday: yesterday))

        walk.section("daily forecasts of two places of one name")
        try await walk.type(ru ? "/search Париж" : "/search Paris")
        try await walk.press(ru ? "Иль-де-Франс" : "Ile-de-France")
        try await walk.press(ru ? "В избранное" : "Add to favorites")
        try await walk.type("/daily 7:00 1")
        try await walk.type("/daily 7:00 2")
        try await walk.type("/daily")
        try await walk.type("/daily off")
        try await walk.press(ru ? "Да, отменить все" : "Yes, cancel them all")
        try await walk.type("/del 2")

        walk.section("notices")
        try await walk.type("/alerts")
        try await walk.press(ru ? "Дождь или снег" : "Rain or snow")
        try await walk.type("/alerts quiet 23:00-07:00")
        try await walk.type("/alerts quiet 25:00")
        try await walk.type("/alerts on")
        var rainy = Forecast.sample
        rainy.minutely = (0..<60).map { MinutePrecipitation(time: now.addingTimeInterval(Double($0 * 60)), precipitation: $0 >= 20 && $0 < 55 ? 3 : 0) }
        var watch = RainWatch()
        if let episode = watch.observe(rainy, cell: "c", at: now) {
            walk.lines.append("")
            walk.lines.append("< the rain notice: " + NoticeViews.rain(episode, place: .saransk, forecast: rainy, now: now, texts: .for(language)))
        }
        let warning = WeatherAlert(
            sender: "Росгидромет", event: ru ? "Сильный ветер" : "Strong wind", start: now.addingTimeInterval(3600), end: now.addingTimeInterval(15 * 3600),
            description: ru ? "Порывы до 25 м/с." : "Gusts up to 25 m/s.", tags: ["Wind"])
        for due in NoticeViews.dueWarnings([warning], cell: "c", language: language, marks: [:], now: now) {
            walk.lines.append("")
            walk.lines.append("< the warning: " + NoticeViews.warning(due, place: .saransk, zone: rainy.timeZone.timeZone, texts: .for(language)))
            var extended = warning
            extended.end = now.addingTimeInterval(20 * 3600)
            for update in NoticeViews.dueWarnings([extended], cell: "c", language: language, marks: [due.mark.key: due.mark.value], now: now) {
                walk.lines.append("")
                walk.lines.append("< its update: " + NoticeViews.warning(update, place: .saransk, zone: rainy.timeZone.timeZone, texts: .for(language)))
            }
        }

        walk.section("settings: °F, mph, inHg, the 12-hour clock")
        try await walk.type("/settings")
        try await walk.press("°F")
        try await walk.press("mph")
        try await walk.press("inHg")
        try await walk.press(ru ? "12 часов" : "12-hour")
        try await walk.type("/weather")
        try await walk.press(ru ? "По часам" : "Hourly")
        try await walk.press(ru ? "На 7 дней" : "7 days")
        try await walk.type("/fav")
        try await walk.type("/daily 7 pm")
        try await walk.type("/alerts")
        try await walk.inline(ru ? "Париж" : "Paris", choose: 0)
        try await walk.pressInline(ru ? "По часам" : "Hourly", presser: ru ? .en : .ru)
        let units = try #require(try walk.database.chat(77)?.settings)
        walk.lines.append("")
        walk.lines.append("< the morning's forecast: " + DailyForecastView.text(
            place: .saransk, forecast: .sample, day: DailySchedule.day(of: Forecast.sample.daily[2].time, in: Forecast.sample.timeZone.timeZone),
            texts: .for(language, settings: units)))
        var unitsWatch = RainWatch()
        if let episode = unitsWatch.observe(rainy, cell: "c", at: now) {
            walk.lines.append("")
            walk.lines.append("< the rain notice: " + NoticeViews.rain(episode, place: .saransk, forecast: rainy, now: now, texts: .for(language, settings: units)))
        }
        try await walk.press(ru ? "English" : "Русский")
        try await walk.type("/weather")
        try await walk.press(ru ? "Telegram" : "Telegram")
        try await walk.press("°C")
        try await walk.press(ru ? "км/ч" : "km/h")
        try await walk.press(ru ? "гПа" : "hPa")
        try await walk.press(ru ? "24 часа" : "24-hour")
        try await walk.type("/weather")

        walk.section("what people type")
        try await walk.type(ru ? "/search Париж, Франция" : "/search Paris, France")
        try await walk.type(ru ? "/daily в полдень" : "/daily at noon")
        try await walk.type(Array(repeating: ru ? "очень длинное сообщение" : "a very long message", count: 10).joined(separator: " "))

        walk.section("what is not a place")
        try await walk.type(ru ? "привет" : "hello")
        try await walk.type("95.5, 37.62")
        try await walk.type("/weather_now")

        walk.section("starting over")
        try await walk.type("/reset")
        try await walk.press(ru ? "Да, удалить" : "Yes, delete")
        try await walk.type("/settings")
        try await walk.type("/del")
        try await walk.type(ru ? "Париж" : "Paris")
        try await walk.press(ru ? "Техас" : "Texas")

        let group = try Walk(language: language, chatID: -100, membership: GoldenMembership(administrators: [7]))
        group.section("a group")
        try await group.type("/start", group: true)
        try await group.type(ru ? "Казань" : "Kazan", group: true)
        try await group.type(ru ? "Казань" : "Kazan", group: true, replyingToBot: true)
        try await group.type(ru ? "/city@weather_bot Саранск" : "/city@weather_bot Saransk", group: true)
        try await group.press(ru ? "Да" : "Yes", group: true)
        try await group.type("/help@weather_bot", group: true)
        try await group.type(ru ? "/search@weather_bot Казань" : "/search@weather_bot Kazan", group: true)
        try await group.press(ru ? "В избранное" : "Add to favorites", group: true, by: 8)
        try await group.type("/settings@weather_bot", group: true)
        try await group.press("°F", group: true, by: 8)
        try await group.press(ru ? "English" : "Русский", group: true)
        try await group.type("/weather@weather_bot", group: true)

        let failing = try Walk(
            language: language, weather: FakeWeather(failure: OpenWeatherError(code: .server(502), endpoint: "/data/3.0/onecall", message: "")))
        failing.section("failures")
        try await failing.type("/weather")
        try await failing.press(ru ? "Повторить" : "Retry")
        let noGeocoder = try Walk(
            language: language, chatID: 79,
            geocoder: FakeGeocoder(failure: OpenWeatherError(code: .server(503), endpoint: "/geo/1.0/reverse", message: "")))
        noGeocoder.section("the geocoder down while locating")
        try await noGeocoder.shareLocation(latitude: 54.19, longitude: 45.18)

        // The free plan: 3-hour steps for five days, at a fixed offset; snow now, and a warning.
        var free = Forecast.sample
        free.source = .freePlan
        free.timeZone = .offset(seconds: 3 * 3600)
        free.hourly = (0..<40).map { index in
            var step = Forecast.sample.hourly[index % 48]
            step.time = Forecast.sample.hourly[0].time.addingTimeInterval(Double(index) * 3 * 3600)
            return step
        }
        free.daily = Array(free.daily.prefix(5))
        free.current.snow = 0.84
        free.alerts = [WeatherAlert(
            sender: "Росгидромет", event: "Гололёд", start: now.addingTimeInterval(-3600), end: now.addingTimeInterval(12 * 3600),
            description: "")]
        let freePlan = try Walk(language: language, weather: FakeWeather(forecast: free))
        freePlan.section("the free plan, snow and a warning")
        try await freePlan.type("/weather")
        try await freePlan.press(ru ? "По часам" : "Hourly")
        try await freePlan.press(ru ? "На 5 дней" : "5 days")

        // A sunny noon in a smoky city: UV high, the air moderate now and poor later today.
        var sunny = Forecast.sample
        sunny.timeZone = .offset(seconds: -10 * 3600)
        sunny.current.uvIndex = 6.2
        sunny.current.sunrise = now.addingTimeInterval(-4 * 3600)
        sunny.current.sunset = now.addingTimeInterval(4 * 3600)
        sunny.daily[0].uvIndex = 7.4
        let airHours = (0..<24).map { AirQuality(index: $0 == 6 ? 4 : 3, pm25: 40, time: sunny.daily[0].time.addingTimeInterval(Double($0 - 6) * 3600)) }
        let smoky = try Walk(
            language: language, chatID: 80, weather: FakeWeather(forecast: sunny, air: AirQuality(index: 3, pm25: 37.6, time: now), airHours: airHours))
        smoky.section("air and UV")
        try await smoky.type(ru ? "Казань" : "Kazan")
        try await smoky.press(ru ? "Да" : "Yes")
        try await smoky.press(ru ? "По часам" : "Hourly")
        try await smoky.press(ru ? "Сейчас" : "Now")
        smoky.lines.append("")
        smoky.lines.append("< the morning's forecast: " + DailyForecastView.text(
            place: .kazan, forecast: sunny, day: DailySchedule.day(of: sunny.daily[0].time, in: sunny.timeZone.timeZone),
            texts: .for(language), air: airHours))

        // Birch pollen in Moscow, high now and through its day; grass low; the rest out of season.
        let hour = Date(timeIntervalSince1970: 1_699_999_200)
        let pollenHours = (-26..<24).map { offset in
            PollenReading(time: hour.addingTimeInterval(Double(offset) * 3600), grains: [.birch: offset % 5 == 0 ? 160 : 100, .grass: 3, .mugwort: 0])
        }
        let pollen = try Walk(
            language: language, chatID: 82, weather: FakeWeather(pollenHours: pollenHours),
            geocoder: FakeGeocoder(byName: ["Москва": [.moscow], "Moscow": [.moscow]]))
        pollen.section("pollen")
        try await pollen.type(ru ? "Москва" : "Moscow")
        try await pollen.press(ru ? "Да" : "Yes")
        try await pollen.type("/alerts")
        try await pollen.press(ru ? "Пыльца" : "Pollen")
        let zone = Forecast.sample.timeZone.timeZone
        let pollenDay = DailySchedule.day(of: Forecast.sample.daily[0].time, in: zone)
        pollen.lines.append("")
        pollen.lines.append("< the morning's forecast: " + DailyForecastView.text(
            place: .moscow, forecast: .sample, day: pollenDay, texts: .for(language), pollen: pollenHours))
        if let peak = NoticeViews.highPollen(pollenHours, day: pollenDay, zone: zone) {
            pollen.lines.append("< the notice that morning: " + NoticeViews.pollen(peak, place: .moscow, texts: .for(language)))
        }

        // A view's name typed, a chart by name, a nickname, a sentence, a reply to a card.
        let typed = try Walk(
            language: language, chatID: 81,
            geocoder: FakeGeocoder(byName: [
                "Саранск": [.saransk], "Saransk": [.saransk], "Париж": [.parisFR, .parisUS], "Paris": [.parisFR, .parisUS],
                "Казань": [.kazan], "Kazan": [.kazan], "Москва": [.moscow, TypedViewConversationTests.idaho], "Moscow": [.moscow, TypedViewConversationTests.idaho],
            ]))
        typed.section("a view typed by its name")
        try await typed.type(ru ? "Саранск" : "Saransk")
        try await typed.press(ru ? "Да" : "Yes")
        try await typed.type(ru ? "по часам" : "hourly")
        try await typed.type(ru ? "погода в Казани на 7 дней" : "Kazan weather for the week")
        try await typed.type(ru ? "а завтра?" : "and tomorrow?", replyingTo: ru ? "На 7 дней" : "7 days")
        try await typed.type(ru ? "график Париж" : "chart Paris")
        try await typed.press(ru ? "Франция" : "France")
        try await typed.type(ru ? "Мск" : "msk")
        try await typed.type(ru ? "погода там, где живёт моя бабушка и дедушка и ещё много родственников" : "the weather where my grandmother and all the family live")
        let typedGroup = try Walk(language: language, chatID: -101, membership: GoldenMembership(administrators: [7]))
        typedGroup.section("a reply to a card in a group")
        try await typedGroup.type(ru ? "/city@weather_bot Саранск" : "/city@weather_bot Saransk", group: true)
        try await typedGroup.press(ru ? "Да" : "Yes", group: true)
        try await typedGroup.type(ru ? "/weather@weather_bot Казань" : "/weather@weather_bot Kazan", group: true)
        try await typedGroup.type(ru ? "а завтра?" : "and tomorrow?", group: true, replyingTo: ru ? "По часам" : "Hourly")
        try await typedGroup.type(ru ? "@weather_bot по часам" : "@weather_bot hourly", group: true)

        return (walk.lines + group.lines + failing.lines + noGeocoder.lines + freePlan.lines + smoky.lines + pollen.lines + typed.lines + typedGroup.lines)
            .joined(separator: "\n") + "\n"
    }

    @Test(arguments: Language.allCases)
    func everyScreenMatchesItsGoldenFile(language: Language) async throws {
        let written = try await Self.screens(language)
        let file = Self.folder.appendingPathComponent("screens-\(language.rawValue).txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try written.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: file, encoding: .utf8)
        if golden != written {
            let old = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let new = written.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
            Issue.record("""
                \(file.lastPathComponent) differs from line \(first + 1):
                  golden: \(first < old.count ? old[first] : "(end)")
                  now:    \(first < new.count ? new[first] : "(end)")
                Review the change, then run UPDATE_GOLDEN=1 swift test --filter GoldenScreensTests.
                """)
        }
    }
}

/// Administrators as a table.
struct GoldenMembership: ChatMembership {
    let administrators: Set<Int64>
    func isAdministrator(_ userID: Int64, of chatID: Int64) async -> Bool { administrators.contains(userID) }
}
