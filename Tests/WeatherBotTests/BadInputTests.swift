import Foundation
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot

/// Whatever users type and whatever places are called: no crash, valid Telegram HTML, within limits.
@Suite struct BadInputTests {
    static let nasty: [String] = [
        "", " ", "/", "//", "/start@", "/@bot", "/del -1", "/move 1 1 1", "/daily 8:00 ;DROP TABLE chat;--",
        "'; DROP TABLE favorite; --", "<b>", "</b>", "&amp;", "&", "<a href=\"x\">x</a>", "\u{0}", "\u{7}\u{1b}[31m",
        "\u{202E}evil\u{202C}", "\u{200F}مرحبا\u{200F}", "🏳️‍🌈🇷🇺👨‍👩‍👧", String(repeating: "ы", count: 10_000),
        String(repeating: "<", count: 5000), "55.75, 37.62, 1", "NaN NaN", "inf, inf", "1e308 1e308",
    ]

    /// Random strings from an alphabet that mixes markup, digits, separators, scripts and controls.
    static func randomStrings(count: Int) -> [String] {
        let alphabet = Array("<>&\"';/@:., -_0123456789abcЯжё漢🙂\u{200F}\u{202E}\u{0}\n\t#№")
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            String((0..<Int.random(in: 0...80, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
    }

    /// Whether text is HTML Telegram accepts: only our tags, balanced, and every `&` an entity.
    static func isValidTelegramHTML(_ text: String) -> Bool {
        var stack: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "<" {
                guard let close = text[index...].firstIndex(of: ">") else { return false }
                let tag = String(text[text.index(after: index)..<close])
                if tag.hasPrefix("/") {
                    guard stack.popLast() == String(tag.dropFirst()) else { return false }
                } else {
                    guard ["b", "i", "code"].contains(tag) else { return false }
                    stack.append(tag)
                }
                index = text.index(after: close)
                continue
            }
            if character == ">" { return false }
            if character == "&" {
                let rest = text[index...]
                guard ["&amp;", "&lt;", "&gt;", "&quot;"].contains(where: { rest.hasPrefix($0) }) else { return false }
            }
            index = text.index(after: index)
        }
        return stack.isEmpty
    }

    @Test func theRouterTakesAnyTextWithoutCrashing() {
        for text in Self.nasty + Self.randomStrings(count: 3000) {
            for type in [Chat.Kind.private, .group] {
                let update = Update(updateID: 1, message: Message(messageID: 1, date: 1, chat: Chat(id: 1, type: type), text: text))
                _ = UpdateRouter.route(update, botUsername: "weather_bot")
            }
            _ = CallbackAction(encoded: text)
            _ = TypedTime.leading(text)
            _ = TypedTime.isTimeLike(text)
            _ = TypedCoordinates.read(text)
            _ = TypedQuery.read(text)
            _ = TypedQuery.isChatter(text)
            _ = Conversation.position(text)
        }
    }

    @Test func escapedTextIsAlwaysValidHTML() {
        for text in Self.nasty + Self.randomStrings(count: 3000) {
            #expect(Self.isValidTelegramHTML(HTML.escape(text)), "«\(text)»")
        }
    }

    @Test func anyUserTextOrPlaceNameRendersValidHTMLWithinTheLimit() async {
        let bot = Conversation(
            geocoder: FakeGeocoder(byName: [:], reverse: []), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        for text in Self.nasty + Self.randomStrings(count: 300) {
            // As a typed search, as a command argument, and as the name of a place in every view.
            let events: [Intent] = [.text(text), .command(.search(text)), .command(.delete(text)), .command(.move(text)), .command(.daily(text)), .command(.unknown(text))]
            for intent in events {
                let step = await bot.handle(.incoming(Incoming(updateID: 1, chatID: 1, language: .ru, intent: intent)), chat: nil)
                for reply in step.replies {
                    guard let html = reply.text, case .send = reply else { continue }
                    #expect(html.utf16.count <= HTML.maximumMessageLength)
                    #expect(Self.isValidTelegramHTML(html), "«\(text)» gave «\(html)»")
                }
            }
            let place = Place(name: text, localNames: ["ru": text], region: text, country: String(text.prefix(2)), latitude: 1, longitude: 2)
            let report = WeatherReport(forecast: .sample, fetchedAt: Date(), isStale: true)
            for view in [WeatherView.now, .hourly(page: 0), .daily] {
                let rendered = WeatherViews.render(view, place: place, reference: .recent(1), report: report, texts: .for(.ru), now: Date(timeIntervalSince1970: 1_700_000_000))
                #expect(rendered.text.utf16.count <= HTML.maximumMessageLength)
                #expect(Self.isValidTelegramHTML(rendered.text), "«\(text)»")
                for button in rendered.keyboard.inlineKeyboard.joined() { #expect((button.callbackData ?? "").utf8.count <= 64) }
            }
            let question = Views.cityQuestion(place, question: 1, .for(.en))
            #expect(Self.isValidTelegramHTML(question.text))
            #expect(Views.placeChoice([(place, .pickPlace(question: 1, index: 0))], for: .setCity, .for(.ru)).keyboard.inlineKeyboard[0][0].text.count <= 64)
        }
    }
}
