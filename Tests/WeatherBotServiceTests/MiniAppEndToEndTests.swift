import Foundation
import HTTPTransport
import Testing
import TelegramBotAPI
import WeatherBotHTTP
import WeatherBotTesting

extension LoopbackTests {
    /// The Mini App of the real executable: its menu button and card button, its page, and its
    /// screens read over HTTP with launch parameters signed as Telegram signs them.
    @Suite(.serialized) struct MiniAppEndToEndTests {
        /// The bot with an app, on both store engines; the app's address is the server's own.
        struct Running {
            let loopback: Loopback
            let process: Process
            let app: URL

            /// In webhook mode the app is served beside the webhook, on the same server.
            init(_ engine: StoreEngine, intake: Intake = .polling) async throws {
                loopback = try await Loopback(engine: engine, intake: intake)
                var port = loopback.webhookPort ?? 0
                if port == 0 { port = try await LoopbackServer.freePort() }
                app = URL(string: "http://127.0.0.1:\(port)/app")!
                var settings = ["HTTP_LISTEN": "127.0.0.1:\(port)", "MINI_APP_URL": app.absoluteString]
                if intake == .webhook { settings["TELEGRAM_WEBHOOK_URL"] = "http://127.0.0.1:\(port)\(Intake.path)" }
                process = try CrashRecoveryTests.start(
                    loopback, database: loopback.postgres.map { ["DATABASE_URL": $0.url] } ?? ["DATABASE_PATH": loopback.folder.databasePath],
                    settings: settings)
            }

            func stop() async {
                process.terminate()
                process.waitUntilExit()
                await loopback.shutdown()
            }

            /// A GET of `path` under the server, with `initData` as the app sends it; waits for the
            /// server to listen.
            func get(_ path: String, initData: String? = nil) async throws -> TransportResponse {
                let url = URL(string: app.absoluteString.replacingOccurrences(of: "/app", with: "") + path)!
                let request = TransportRequest(url: url, headers: initData.map { ["Authorization": "tma \($0)"] } ?? [:])
                let transport = NIOHTTPTransport()
                defer { Task { try? await transport.shutdown() } }
                // The server listens once the bot has started.
                try await waitUntil("the server") { (try? await transport.send(TransportRequest(url: app))) != nil }
                return try await transport.send(request)
            }
        }

        static func signed(_ user: Int64, language: String = "ru", at date: Date = Date()) -> String {
            MiniAppAuthenticator.sign(user: (user, "Анна", language), authDate: date, botToken: FakeTelegram.token)
        }

        func header(_ name: String, of response: TransportResponse) -> String? {
            response.headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        /// A card's lines as the app shows them: HTML, one line each, the local time left out
        /// (a minute may turn between two reads).
        static func lines(_ html: String) -> [String] {
            html.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("🕒") }
        }

        @Test(
            .enabled(if: FileManager.default.isExecutableFile(atPath: CrashRecoveryTests.executable.path)), arguments: StoreEngine.available,
            Intake.allCases)
        func theAppShowsTheChatsCardAndRefusesAnyoneNotSigned(_ engine: StoreEngine, _ intake: Intake) async throws {
            let bot = try await Running(engine, intake: intake)
            let telegram = bot.loopback.telegram
            // The menu button opens the app.
            try await telegram.waitUntil("the menu button") { $0.menuButton?.url == bot.app.absoluteString }

            // A city chosen in the chat: its card offers the app.
            telegram.sendText("Казань", from: 7)
            try await telegram.waitUntil("the question") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("Это ваш город?") } }
            telegram.pressRaw(data: "cy:1", on: nil, in: 7)
            try await telegram.waitUntil("the card") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("Ощущается как") } }
            let card = try #require(telegram.state.withLock { $0.sent.last { $0.chatID == 7 && $0.text.contains("Ощущается как") } })
            let markup = try #require(card.markup.flatMap { try? JSONDecoder().decode(InlineKeyboardMarkup.self, from: Data($0.utf8)) })
            let open = try #require(markup.inlineKeyboard.last?.first)
            #expect(open.text == "📱 Открыть приложение" && open.webApp?.url == bot.app.absoluteString, "\(markup)")
            telegram.sendText("/help", from: 7)
            try await telegram.waitUntil("the help") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("открывают приложение") } }

            // The page, with its policy.
            let page = try await bot.get("/app")
            #expect(page.status == 200)
            #expect(header("Content-Security-Policy", of: page)?.contains("default-src 'none'") == true)
            #expect(String(decoding: page.body, as: UTF8.self).contains("app/app.js"))

            // The screen of the signed user's chat: the card's lines, word for word.
            let screen = try await bot.get("/app/api/screen/weather", initData: Self.signed(7))
            #expect(screen.status == 200)
            let html = String(decoding: screen.body, as: UTF8.self)
            for line in Self.lines(card.text) {
                #expect(html.contains(line), "the app lacks the card's «\(line)»")
            }
            #expect(header("Content-Language", of: screen) == "ru")

            // Refused: no launch parameters, another bot's, altered, a day old.
            #expect(try await bot.get("/app/api/screen/weather").status == 401)
            let otherBot = MiniAppAuthenticator.sign(user: (7, "Анна", "ru"), authDate: Date(), botToken: "123:another-bot")
            #expect(try await bot.get("/app/api/screen/weather", initData: otherBot).status == 401)
            let altered = Self.signed(7).replacingOccurrences(of: "%22id%22%3A7", with: "%22id%22%3A8")
            #expect(altered != Self.signed(7))
            #expect(try await bot.get("/app/api/screen/weather", initData: altered).status == 401)
            let old = Self.signed(7, at: Date().addingTimeInterval(-86_401))
            #expect(try await bot.get("/app/api/screen/weather", initData: old).status == 401)

            // °F pressed on the settings screen: the chat's next card is in °F.
            let settings = String(decoding: try await bot.get("/app/api/screen/settings", initData: Self.signed(7)).body, as: UTF8.self)
            let fahrenheit = try #require(
                settings.components(separatedBy: "data-press=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }.first { $0.hasPrefix("st:t:f:") },
                "\(settings)")
            let pressed = try await Self.post(bot, #"{"action":"press","data":"\#(fahrenheit)","screen":"settings"}"#, initData: Self.signed(7))
            #expect(pressed.status == 200)
            #expect(String(decoding: pressed.body, as: UTF8.self).contains("aria-pressed=\"true\">✓ °F"))
            telegram.sendText("/weather", from: 7)
            try await telegram.waitUntil("a card in °F") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("Ощущается как") && $0.text.contains("°F") } }
            await bot.stop()
        }

        /// A post of `body` as the app makes a change.
        static func post(_ bot: Running, _ body: String, initData: String) async throws -> TransportResponse {
            let url = URL(string: bot.app.absoluteString + "/api/action")!
            let transport = NIOHTTPTransport()
            defer { Task { try? await transport.shutdown() } }
            return try await transport.send(
                TransportRequest(method: .post, url: url, headers: ["Authorization": "tma \(initData)", "Content-Type": "application/json"], body: Data(body.utf8)))
        }

        @Test(
            .enabled(if: FileManager.default.isExecutableFile(atPath: CrashRecoveryTests.executable.path)), arguments: StoreEngine.available)
        func favoritesMovedAndDeletedInTheAppAreTheChatsAndTheChatIsTold(_ engine: StoreEngine) async throws {
            let bot = try await Running(engine)
            let telegram = bot.loopback.telegram
            try await telegram.waitUntil("the menu button") { $0.menuButton != nil }
            for name in ["Казань", "Уфа", "Саранск"] {
                telegram.sendText("/search \(name)", from: 7)
                try await telegram.waitUntil("the card of \(name)") { state in
                    state.sent.contains { $0.chatID == 7 && $0.text.contains("Ощущается как") && $0.text.contains(name) }
                }
                let card = try #require(telegram.state.withLock { $0.sent.last { $0.chatID == 7 && $0.text.contains(name) } })
                try telegram.press("В избранное", on: card.messageID, in: 7)
                try await telegram.waitUntil("\(name) saved") { state in
                    state.edits.contains { $0.messageID == card.messageID && $0.markup?.contains("В избранном") == true }
                }
            }
            let screen = try await bot.get("/app/api/screen/favorites", initData: Self.signed(7))
            let html = String(decoding: screen.body, as: UTF8.self)
            let ids = html.components(separatedBy: "data-id=\"").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
            let unique = ids.reduce(into: [Int64]()) { if !$0.contains($1) { $0.append($1) } }
            try #require(unique.count == 3, "\(html)")

            // Saransk dragged to the top: the chat is told as after /move 3 1, and /fav agrees.
            let moved = try await Self.post(bot, #"{"action":"move","id":\#(unique[2]),"to":1,"screen":"favorites"}"#, initData: Self.signed(7))
            #expect(moved.status == 200)
            let after = String(decoding: moved.body, as: UTF8.self)
            #expect((after.range(of: "Саранск")?.lowerBound ?? after.endIndex) < (after.range(of: "Казань")?.lowerBound ?? after.startIndex))
            try await telegram.waitUntil("the move told") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("теперь №1") } }
            // Kazan deleted: told as after /del.
            let deleted = try await Self.post(bot, #"{"action":"delete","id":\#(unique[0]),"screen":"favorites"}"#, initData: Self.signed(7))
            #expect(deleted.status == 200)
            #expect(!String(decoding: deleted.body, as: UTF8.self).contains("Казань"))
            try await telegram.waitUntil("the deletion told") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("🗑 Удалено: Казань") } }
            telegram.sendText("/fav", from: 7)
            try await telegram.waitUntil("/fav") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("Избранное") } }
            let list = try #require(telegram.state.withLock { $0.sent.last { $0.chatID == 7 && $0.text.contains("Избранное") } })
            #expect(list.text.contains("1. <b>Саранск</b>") && list.text.contains("2. <b>Уфа</b>") && !list.text.contains("Казань"), "\(list.text)")

            // Another user cannot touch this chat's favorites: the id is not among theirs.
            let stranger = try await Self.post(bot, #"{"action":"delete","id":\#(unique[1]),"screen":"favorites"}"#, initData: Self.signed(8))
            #expect(stranger.status == 200)
            #expect(!String(decoding: stranger.body, as: UTF8.self).contains("Уфа"))
            let still = try await bot.get("/app/api/screen/favorites", initData: Self.signed(7))
            #expect(String(decoding: still.body, as: UTF8.self).contains("Уфа"))
            // Kazan found again in the app and saved with its star: the chat is told, /fav has it.
            let found = try await bot.get("/app/api/screen/search?q=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C", initData: Self.signed(7))
            #expect(String(decoding: found.body, as: UTF8.self).contains("data-query=\"q=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C&amp;pick=0\""))
            let added = try await Self.post(
                bot, #"{"action":"add","place":"q=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C&pick=0","screen":"place","query":"q=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C&pick=0"}"#,
                initData: Self.signed(7))
            #expect(added.status == 200)
            #expect(String(decoding: added.body, as: UTF8.self).contains("★ В избранном"))
            try await telegram.waitUntil("the star told") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("⭐ Добавлено в избранное: <b>Казань</b>") } }
            // Kazan made the city from the app: the weather tab is Kazan's, and the chat is told.
            let city = try await Self.post(
                bot, #"{"action":"city","place":"q=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C&pick=0","screen":"weather"}"#, initData: Self.signed(7))
            #expect(city.status == 200 && String(decoding: city.body, as: UTF8.self).contains("📍 <b>Казань</b>"))
            try await telegram.waitUntil("the city told") { state in state.sent.filter { $0.chatID == 7 }.last?.text.contains("Казань") == true }
            // «My location»: the place at the point, found as a shared location is.
            let here = String(decoding: try await bot.get("/app/api/screen/place?lat=54.18&lon=45.17", initData: Self.signed(7)).body, as: UTF8.self)
            #expect(here.contains("Саранск") && here.contains("Ощущается как"), "\(here)")
            let sea = try await bot.get("/app/api/screen/place?lat=95&lon=45", initData: Self.signed(7))
            #expect(sea.status == 200 && String(decoding: sea.body, as: UTF8.self).contains("class=\"failure\""))
            // Nonsense is refused.
            #expect(try await Self.post(bot, #"{"action":"delete","id":1,"screen":"nowhere"}"#, initData: Self.signed(7)).status == 400)
            #expect(try await Self.post(bot, #"{"action":"rename","id":1,"screen":"favorites"}"#, initData: Self.signed(7)).status == 400)
            #expect(try await Self.post(bot, "not json", initData: Self.signed(7)).status == 400)
            #expect(try await Self.post(bot, #"{"action":"delete","id":1,"screen":"favorites"}"#, initData: "hash=0").status == 401)
            await bot.stop()
        }
    }
}

extension LoopbackTests {
    /// The Mini App's page in a real browser (headless Chromium), opened as Telegram opens it:
    /// the launch parameters signed and in the fragment, the theme's colours beside them. The
    /// screenshots in docs/ are these tests' (`UPDATE_SCREENSHOTS=1` writes them again).
    @Suite(
        .serialized, .enabled(if: HeadlessBrowser.available, "needs Chromium (CI installs it)"),
        .enabled(if: FileManager.default.isExecutableFile(atPath: CrashRecoveryTests.executable.path)))
    struct MiniAppBrowserTests {
        typealias Running = MiniAppEndToEndTests.Running

        /// Telegram's own colours of its light and dark themes, as it passes them to an app.
        static let themes: [HeadlessBrowser.ColorScheme: [String: String]] = [
            .light: [
                "bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999", "link_color": "#2481cc",
                "button_color": "#2481cc", "button_text_color": "#ffffff", "secondary_bg_color": "#efeff3",
            ],
            .dark: [
                "bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499", "link_color": "#6ab3f3",
                "button_color": "#5288c1", "button_text_color": "#ffffff", "secondary_bg_color": "#232e3c",
            ],
        ]

        /// The page as Telegram opens it for `initData`, on the screen `start` names.
        static func launch(_ bot: Running, initData: String, theme: HeadlessBrowser.ColorScheme = .light, start: String? = nil) throws -> URL {
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
            let colours = String(decoding: try JSONSerialization.data(withJSONObject: themes[theme] ?? [:], options: .sortedKeys), as: UTF8.self)
            var fragment = "tgWebAppData=\(encoded(initData))&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop&tgWebAppThemeParams=\(encoded(colours))"
            if let start { fragment += "&tgWebAppStartParam=\(start)" }
            return URL(string: bot.app.absoluteString + "#" + fragment)!
        }

        /// A Russian chat in Kazan with Ufa and Saransk among its favorites, an English one in Ufa.
        static func prepare(_ telegram: FakeTelegram) async throws {
            for (chat, city, language) in [(Int64(7), "Казань", "ru"), (8, "Уфа", "en")] {
                telegram.sendText(city, from: chat, language: language)
                try await telegram.waitUntil("the question") { state in state.sent.contains { $0.chatID == chat && $0.markup?.contains("cy:") == true } }
                telegram.pressRaw(data: "cy:1", on: nil, in: chat, language: language)
                try await telegram.waitUntil("the card") { state in state.sent.contains { $0.chatID == chat && $0.markup?.contains("web_app") == true } }
            }
            for name in ["Уфа", "Саранск"] {
                telegram.sendText("/search \(name)", from: 7)
                try await telegram.waitUntil("\(name)") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("📍 <b>\(name)") && $0.text.contains("Ощущается как") } }
                let card = try #require(telegram.state.withLock { $0.sent.last { $0.chatID == 7 && $0.text.contains("📍 <b>\(name)") } })
                try telegram.press("В избранное", on: card.messageID, in: 7)
                try await telegram.waitUntil("\(name) saved") { state in state.edits.contains { $0.messageID == card.messageID && $0.markup?.contains("В избранном") == true } }
            }

        }

        /// Where the screenshots go: docs/screenshots when asked to write them, else a folder thrown away.
        static let screenshots: URL = {
            if ProcessInfo.processInfo.environment["UPDATE_SCREENSHOTS"] != nil {
                return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("docs/screenshots")
            }
            return FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-screens-\(UUID().uuidString)")
        }()

        @Test(arguments: StoreEngine.available)
        func thePageShowsTheChatsCardInItsLanguageAndThemeAndRefusesAForgery(_ engine: StoreEngine) async throws {
            let browser = try #require(HeadlessBrowser.find())
            let bot = try await Running(engine)
            let telegram = bot.loopback.telegram
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            try await telegram.waitUntil("the menu button") { $0.menuButton != nil }
            try await Self.prepare(telegram)

            for (chat, language) in [(Int64(7), "ru"), (8, "en")] {
                let card = try #require(telegram.state.withLock { $0.sent.first { $0.chatID == chat && $0.markup?.contains("web_app") == true } })
                let initData = MiniAppEndToEndTests.signed(chat, language: language)
                let dom = try await browser.dom(of: try Self.launch(bot, initData: initData))
                #expect(dom.contains("data-ready=\"weather\""), "\(dom)")
                #expect(dom.contains("lang=\"\(language)\""))
                for line in MiniAppEndToEndTests.lines(card.text) {
                    #expect(dom.contains(line), "the page lacks the card's «\(line)»")
                }
                #expect(dom.contains("<polyline"), "the chart is drawn")
                for theme in [HeadlessBrowser.ColorScheme.light, .dark] {
                    for screen in ["weather", "favorites", "search", "settings"] {
                        let name = "app-\(screen)-\(language)-\(theme == .light ? "light" : "dark").png"
                        try await browser.screenshot(
                            of: try Self.launch(bot, initData: initData, theme: theme, start: screen), to: Self.screenshots.appendingPathComponent(name),
                            viewport: (420, 900), colorScheme: theme)
                    }
                }
            }
            let favorites = try await browser.dom(of: try Self.launch(bot, initData: MiniAppEndToEndTests.signed(7), start: "favorites"))
            #expect(favorites.contains("data-ready=\"favorites\""))
            #expect(favorites.contains("Уфа") && favorites.contains("Саранск") && favorites.contains("class=\"handle\""))

            // Altered or a day old: the page says to open it from the bot, in the user's language.
            let forged = MiniAppEndToEndTests.signed(7).replacingOccurrences(of: "%22id%22%3A7", with: "%22id%22%3A8")
            let refused = try await browser.dom(of: try Self.launch(bot, initData: forged))
            #expect(refused.contains("data-ready=\"unauthorized\"") && refused.contains("откройте снова кнопкой бота"), "\(refused)")
            let expired = try await browser.dom(of: try Self.launch(bot, initData: MiniAppEndToEndTests.signed(8, language: "en", at: Date().addingTimeInterval(-90_000))))
            #expect(expired.contains("data-ready=\"unauthorized\"") && expired.contains("open it again with the bot’s button"), "\(expired)")
            await bot.stop()
        }

        /// The favorites and settings changed in the page by a real pointer, as a user would:
        /// each is the chat's step (a favorite's change told in the chat), and /fav and the next
        /// card follow.
        @Test(arguments: StoreEngine.available)
        func favoritesDraggedAndDeletedAndUnitsPressedInThePageAreTheChats(_ engine: StoreEngine) async throws {
            let browser = try #require(HeadlessBrowser.find())
            let bot = try await Running(engine)
            let telegram = bot.loopback.telegram
            try await telegram.waitUntil("the menu button") { $0.menuButton != nil }
            try await Self.prepare(telegram)
            let initData = MiniAppEndToEndTests.signed(7)
            try await browser.withSession(of: try Self.launch(bot, initData: initData, start: "favorites")) { page in
                try await page.waitFor("document.documentElement.dataset.ready === 'favorites'")
                let first = "document.querySelector('li.favorite a').textContent"
                // The chart on the city's screen: a touch on it tells that hour's figures.
                try await page.click("a[data-screen='weather']")
                try await page.waitFor("document.documentElement.dataset.ready === 'weather'")
                try await page.click(".chart svg")
                try await page.waitFor("document.querySelector('.readout').textContent.includes('°C')")
                #expect(try await page.evaluate("document.querySelector('.readout').textContent")?.contains("☔") == true)
                try await page.click("a[data-screen='favorites']")
                try await page.waitFor("document.documentElement.dataset.ready === 'favorites'")
                #expect(try await page.evaluate(first)?.contains("Уфа") == true)
                // Saransk dragged by its handle above Ufa.
                try await page.drag(from: ".places li:nth-child(3) .handle", to: ".places li:nth-child(2) .handle")
                try await page.waitFor("\(first).includes('Саранск') && document.querySelectorAll('li.favorite').length === 2")
                try await telegram.waitUntil("the move told") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("↕️ Саранск теперь №1") } }
                // Ufa deleted with its ✕.
                try await page.click(".places li:nth-child(3) .delete")
                try await page.waitFor("document.querySelectorAll('li.favorite').length === 1")
                try await telegram.waitUntil("the deletion told") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("🗑 Удалено: Уфа") } }
                // °F pressed in the settings.
                try await page.click("a[data-screen='settings']")
                try await page.waitFor("document.documentElement.dataset.ready === 'settings'")
                try await page.click("button[data-press^='st:t:f:']")
                try await page.waitFor("document.querySelector(\"button[data-press^='st:t:f:']\").getAttribute('aria-pressed') === 'true'")
            }
            telegram.sendText("/fav", from: 7)
            try await telegram.waitUntil("/fav") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("⭐ <b>Избранное</b>") } }
            let list = try #require(telegram.state.withLock { $0.sent.last { $0.chatID == 7 && $0.text.contains("⭐ <b>Избранное</b>") } })
            #expect(list.text.contains("1. <b>Саранск</b>") && !list.text.contains("Уфа"), "\(list.text)")
            #expect(list.text.contains("°F"), "the list's weather follows the units chosen in the page")
            telegram.sendText("/weather", from: 7)
            try await telegram.waitUntil("a card in °F") { state in state.sent.contains { $0.chatID == 7 && $0.text.contains("Ощущается как") && $0.text.contains("°F") } }
            await bot.stop()
        }
    }
}
