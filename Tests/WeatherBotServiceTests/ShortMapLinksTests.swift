import BotClock
import Foundation
import HTTPTransport
import Logging
import OpenWeather
import Synchronization
import Testing
import WeatherBot
import WeatherBotService
import WeatherBotTesting

extension LoopbackTests {
    /// Short map links followed one redirect over loopback HTTP, and a user who pastes one.
    @Suite struct ShortMapLinksTests {
        let logger = Logger(label: "weatherbot.tests.maps")

        @Test func theRedirectIsTheAnswerAndItsBodyIsNeverRead() async throws {
            // A body far over the transport's limit: reading it would fail the request.
            let server = try await LoopbackServer { request in
                guard request.path == "/Xk3bTq9wZp2" else { return LoopbackResponse(status: 404, body: Data()) }
                return LoopbackResponse(
                    status: 302, headers: ["Location": "https://www.google.com/maps/place/54.18,45.17/@54.18,45.17,17z", "Content-Type": "text/html"],
                    body: Data(repeating: 0x20, count: 2 << 20))
            }
            let transport = NIOHTTPTransport(maximumBodySize: 1024)
            let links = ShortMapLinks(transport: transport, server: server.url, logger: logger)
            #expect(await links.follow("https://maps.app.goo.gl/Xk3bTq9wZp2") == .redirect(to: "https://www.google.com/maps/place/54.18,45.17/@54.18,45.17,17z"))
            // Not a redirect: no target.
            #expect(await links.follow("https://maps.app.goo.gl/NotThere1") == .noRedirect)
            #expect(server.requests.map(\.path) == ["/Xk3bTq9wZp2", "/NotThere1"])
            // Anything but a map app's short link is never asked for.
            for link in ["https://example.com/maps/-/CCUqMKR3", "https://bit.ly/abcd", "http://127.0.0.1/Xk3bTq9wZp2"] {
                #expect(await links.follow(link) == .noRedirect)
                #expect(await links.lookUp(link, for: 1, cachedOnly: false) == .nowhere)
            }
            #expect(server.requests.count == 2)
            try await transport.shutdown()
            await server.shutdown()
        }

        @Test func aRelativeRedirectIsReadAgainstTheLink() async throws {
            let server = try await LoopbackServer { _ in
                LoopbackResponse(status: 301, headers: ["Location": "/maps/?ll=37.62,55.75&z=10"], body: Data())
            }
            let transport = NIOHTTPTransport()
            let links = ShortMapLinks(transport: transport, server: server.url, logger: logger)
            #expect(await links.follow("https://yandex.ru/maps/-/CCUqMKR3") == .redirect(to: "https://yandex.ru/maps/?ll=37.62,55.75&z=10"))
            try await transport.shutdown()
            await server.shutdown()
        }

        @Test func aHostThatDoesNotAnswerInTimeFails() async throws {
            let server = try await LoopbackServer { _ in
                try? await Task.sleep(for: .milliseconds(1500))
                return LoopbackResponse(status: 302, headers: ["Location": "https://yandex.ru/maps/?ll=37.62,55.75"], body: Data())
            }
            let transport = NIOHTTPTransport()
            let links = ShortMapLinks(transport: transport, timeout: .milliseconds(200), server: server.url, logger: logger)
            #expect(await links.follow("https://yandex.ru/maps/-/CCUqMKR3") == .failed)
            #expect(await links.lookUp("https://yandex.ru/maps/-/CCUqMKR3", for: 1, cachedOnly: false) == .unreachable)
            try await transport.shutdown()
            await server.shutdown()
        }

        /// Where the loopback maps host sends every link: a point in Saransk.
        static let saransk = LoopbackResponse(
            status: 302, headers: ["Location": "https://www.google.com/maps/place/54.18,45.17/@54.18,45.17,17z"], body: Data())

        /// What the links above lead to.
        static let point = MapLinkLookup.point(latitude: 54.18, longitude: 45.17)

        /// Runs `body` with links followed to a loopback host that answers with `handler`, on a
        /// manual clock; the host and the transport are closed after.
        func withLinks(
            limits: ShortMapLinks.Limits = .init(), _ handler: @escaping LoopbackServer.Handler,
            _ body: (ShortMapLinks, LoopbackServer, ManualClock) async throws -> Void
        ) async throws {
            let server = try await LoopbackServer(handler: handler)
            let transport = NIOHTTPTransport()
            let clock = ManualClock()
            do {
                try await body(ShortMapLinks(transport: transport, server: server.url, limits: limits, clock: clock, logger: logger), server, clock)
            } catch {
                try await transport.shutdown()
                await server.shutdown()
                throw error
            }
            try await transport.shutdown()
            await server.shutdown()
        }

        /// Twenty askers of one link at once, its host slow: one request, and the answer remembered
        /// for everyone after; before the first request, a look-up from what is remembered only
        /// asks nothing.
        @Test func aLinkAskedByManyIsFollowedOnceAndRemembered() async throws {
            let slow: LoopbackServer.Handler = { _ in
                try? await Task.sleep(for: .milliseconds(300))
                return Self.saransk
            }
            try await withLinks(slow) { links, server, _ in
                let link = "https://maps.app.goo.gl/Xk3bTq9wZp2"
                #expect(await links.lookUp(link, for: 1, cachedOnly: true) == .notCached)
                #expect(server.requests.isEmpty)
                let answers = await withTaskGroup(of: MapLinkLookup.self) { group in
                    for asker in 1...20 { group.addTask { await links.lookUp(link, for: Int64(asker), cachedOnly: false) } }
                    var answers: [MapLinkLookup] = []
                    for await answer in group { answers.append(answer) }
                    return answers
                }
                #expect(answers == Array(repeating: Self.point, count: 20))
                for _ in 1...20 { #expect(await links.lookUp(link, for: 1, cachedOnly: false) == Self.point) }
                #expect(await links.lookUp(link, for: 2, cachedOnly: true) == Self.point)
                #expect(server.requests.count == 1)
            }
        }

        /// One asker has three new links followed a minute; the rest are refused until the minute
        /// has passed, while what is remembered stays free and other askers keep their own share.
        @Test func eachAskerHasThreeNewLinksFollowedAMinute() async throws {
            try await withLinks({ _ in Self.saransk }) { links, server, clock in
                let point = Self.point
                let asked = (1...5).map { "https://maps.app.goo.gl/Link000\($0)" }
                var answers: [MapLinkLookup] = []
                for link in asked { answers.append(await links.lookUp(link, for: 7, cachedOnly: false)) }
                #expect(answers == [point, point, point, .tooMany, .tooMany])
                #expect(server.requests.count == 3)
                #expect(await links.lookUp(asked[0], for: 7, cachedOnly: false) == point)
                #expect(await links.lookUp(asked[3], for: 8, cachedOnly: false) == point)
                #expect(server.requests.count == 4)
                clock.advance(by: .seconds(61))
                #expect(await links.lookUp(asked[4], for: 7, cachedOnly: false) == point)
                #expect(server.requests.map(\.path) == (asked.prefix(5).map { "/" + $0.split(separator: "/").last! }))
            }
        }

        /// A host that refuses the connection, or fails with a server error, says nothing of the
        /// link: the next asker has it followed again. A link that leads nowhere is remembered for
        /// an hour, a point for a day.
        @Test func aFailedHostIsNotRememberedAsLeadingNowhere() async throws {
            let port = try await LoopbackServer.freePort()
            let clock = ManualClock()
            let transport = NIOHTTPTransport()
            let links = ShortMapLinks(transport: transport, server: URL(string: "http://127.0.0.1:\(port)")!, clock: clock, logger: logger)
            let link = "https://maps.app.goo.gl/Xk3bTq9wZp2", nowhere = "https://maps.app.goo.gl/Nowhere1"
            #expect(await links.lookUp(link, for: 1, cachedOnly: false) == .unreachable)
            let served = Mutex(0)
            let server = try await LoopbackServer(port: port) { request in
                if request.path == "/Nowhere1" { return LoopbackResponse(status: 404, body: Data()) }
                let first = served.withLock { count in
                    count += 1
                    return count == 1
                }
                return first ? LoopbackResponse(status: 503, body: Data()) : Self.saransk
            }
            #expect(await links.lookUp(link, for: 2, cachedOnly: false) == .unreachable)
            #expect(await links.lookUp(link, for: 3, cachedOnly: false) == Self.point)
            #expect(await links.lookUp(nowhere, for: 4, cachedOnly: false) == .nowhere)
            #expect(await links.lookUp(nowhere, for: 4, cachedOnly: false) == .nowhere)
            #expect(server.requests.count == 3)
            clock.advance(by: .seconds(3601))
            #expect(await links.lookUp(nowhere, for: 5, cachedOnly: false) == .nowhere)
            #expect(await links.lookUp(link, for: 5, cachedOnly: false) == Self.point)
            #expect(server.requests.count == 4)
            clock.advance(by: .seconds(86_400))
            #expect(await links.lookUp(link, for: 6, cachedOnly: false) == Self.point)
            #expect(server.requests.count == 5)
            try await transport.shutdown()
            await server.shutdown()
        }

        /// Links remembered at most: the one due to be forgotten first makes room.
        @Test func theLinksRememberedAreBounded() async throws {
            try await withLinks(limits: .init(perAskerPerMinute: 100, remembered: 2), { _ in Self.saransk }) { links, server, clock in
                let asked = (1...3).map { "https://maps.app.goo.gl/Link000\($0)" }
                for link in asked {
                    _ = await links.lookUp(link, for: 1, cachedOnly: false)
                    clock.advance(by: .seconds(1))
                }
                #expect(server.requests.count == 3)
                _ = await links.lookUp(asked[2], for: 1, cachedOnly: false)
                _ = await links.lookUp(asked[1], for: 1, cachedOnly: false)
                #expect(server.requests.count == 3)
                _ = await links.lookUp(asked[0], for: 1, cachedOnly: false)
                #expect(server.requests.count == 4)
            }
        }

        /// Inline mode, a link typed letter by letter among words: a hundred queries, the link
        /// followed once, for the last, once the user stopped typing; the same link typed by someone
        /// else is answered from what is remembered. The user's fourth new link in a minute is
        /// answered «too many links».
        @Test func aLinkTypedInInlineModeIsFollowedOnceTheUserStopsTyping() async throws {
            let maps = try await LoopbackServer { _ in Self.saransk }
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot(mapsURL: maps.url)
            try await waitUntil("the bot polling") { telegram.state.withLock { $0.firstPoll != nil } }
            let userID: Int64 = 5_601

            let text = "Я тут: https://maps.app.goo.gl/Xk3bTq9wZp2 — приходи к семи вечера, захвати зонт, обещают дождь весь вечер"
            try #require(text.count >= 100)
            let ids = (1...100).map { telegram.sendInlineQuery(String(text.prefix($0)), from: userID) }
            let answer = try await InlineEndToEndTests.answer(to: ids[99], telegram)
            #expect(answer.results.first?.title == "📍 Саранск, Мордовия, Россия 🇷🇺")
            #expect(maps.requests.map(\.path) == ["/Xk3bTq9wZp2"])
            // The queries before it were not answered: each gave way to the next.
            try await Task.sleep(for: .seconds(1))
            #expect(telegram.state.withLock { state in state.inlineAnswers.map(\.queryID) } == [ids[99]])

            let again = try await InlineEndToEndTests.answer(to: telegram.sendInlineQuery("https://maps.app.goo.gl/Xk3bTq9wZp2", from: userID + 1), telegram)
            #expect(again.results.first?.title == "📍 Саранск, Мордовия, Россия 🇷🇺")
            #expect(maps.requests.count == 1)

            for code in ["Other001", "Other002"] {
                let other = try await InlineEndToEndTests.answer(to: telegram.sendInlineQuery("https://maps.app.goo.gl/\(code)", from: userID), telegram)
                #expect(other.results.count == 1)
            }
            let refused = try await InlineEndToEndTests.answer(to: telegram.sendInlineQuery("https://maps.app.goo.gl/Other003", from: userID), telegram)
            #expect(refused.results.isEmpty && refused.cacheTime == 0)
            #expect(refused.buttonText == "⏳ Слишком много ссылок, попробуйте через минуту")
            #expect(maps.requests.count == 3)
            try await bot.stop()
            await loopback.shutdown()
            await maps.shutdown()
        }

        /// Twenty users send one link in inline mode at once, its host slow: one request.
        @Test func oneLinkSentByTwentyUsersIsFollowedOnce() async throws {
            let maps = try await LoopbackServer { _ in
                try? await Task.sleep(for: .milliseconds(300))
                return Self.saransk
            }
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot(mapsURL: maps.url)
            try await waitUntil("the bot polling") { telegram.state.withLock { $0.firstPoll != nil } }

            let ids = (1...20).map { telegram.sendInlineQuery("https://maps.app.goo.gl/Xk3bTq9wZp2", from: 5_700 + Int64($0)) }
            for id in ids {
                let answer = try await InlineEndToEndTests.answer(to: id, telegram)
                #expect(answer.results.first?.title == "📍 Саранск, Мордовия, Россия 🇷🇺")
            }
            #expect(maps.requests.count == 1)
            try await bot.stop()
            await loopback.shutdown()
            await maps.shutdown()
        }

        /// A private chat sends thirty links: three are followed, the others answered «too many
        /// links, try again in a minute».
        @Test func thirtyLinksFromOneChatHaveThreeFollowedAndTheRestAnsweredWithTheLimit() async throws {
            let maps = try await LoopbackServer { _ in Self.saransk }
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot(outbox: .init(messagesPerSecondPerChat: 30), mapsURL: maps.url)
            let chatID: Int64 = 4343

            for index in 1...30 { telegram.sendText("https://maps.app.goo.gl/Link\(1000 + index)", from: chatID) }
            let limit = "<b>⏳ Слишком много ссылок, попробуйте через минуту</b>"
            try await telegram.waitUntil("every link answered") { state in
                state.edits.filter { $0.chatID == chatID && ($0.text.contains("Это ваш город?") || $0.text == limit) }.count == 30
            }
            let edits = telegram.state.withLock { state in state.edits.filter { $0.chatID == chatID }.map(\.text) }
            #expect(edits.filter { $0.contains("Это ваш город?") }.count == 3)
            #expect(edits.filter { $0 == limit }.count == 27)
            #expect(maps.requests.map(\.path) == ["/Link1001", "/Link1002", "/Link1003"])
            try await bot.stop()
            await loopback.shutdown()
            await maps.shutdown()
        }

        /// A user pastes the link a phone's map app shares, and is asked about the city there.
        @Test func aPastedShortLinkAsksAboutTheCityWhereItPoints() async throws {
            let maps = try await LoopbackServer { _ in
                LoopbackResponse(status: 302, headers: ["Location": "https://yandex.ru/maps/?whatshere%5Bpoint%5D=45.17%2C54.18&z=17"], body: Data("<html>".utf8))
            }
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let bot = try await loopback.startBot(mapsURL: maps.url)
            let chatID: Int64 = 4242

            telegram.sendText("Вот я где: https://yandex.ru/maps/-/CCUqMKR3", from: chatID)
            try await telegram.waitUntil("the question") { state in state.edits.contains { $0.text.contains("Это ваш город?") } }
            #expect(telegram.screen(chatID).last?.text.contains("<b>Саранск</b>") == true)
            #expect(maps.requests.map(\.path) == ["/maps/-/CCUqMKR3"])

            try await bot.stop()
            await loopback.shutdown()
            await maps.shutdown()
        }
    }
}
