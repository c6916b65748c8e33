import Foundation
import HTTPTransport
import Logging
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
            #expect(await links.target(of: "https://maps.app.goo.gl/Xk3bTq9wZp2") == "https://www.google.com/maps/place/54.18,45.17/@54.18,45.17,17z")
            // Not a redirect: no target.
            #expect(await links.target(of: "https://maps.app.goo.gl/NotThere1") == nil)
            #expect(server.requests.map(\.path) == ["/Xk3bTq9wZp2", "/NotThere1"])
            // Anything but a map app's short link is never asked for.
            for link in ["https://example.com/maps/-/CCUqMKR3", "https://bit.ly/abcd", "http://127.0.0.1/Xk3bTq9wZp2"] {
                #expect(await links.target(of: link) == nil)
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
            #expect(await links.target(of: "https://yandex.ru/maps/-/CCUqMKR3") == "https://yandex.ru/maps/?ll=37.62,55.75&z=10")
            try await transport.shutdown()
            await server.shutdown()
        }

        @Test func aHostThatDoesNotAnswerInTimeLeadsNowhere() async throws {
            let server = try await LoopbackServer { _ in
                try? await Task.sleep(for: .milliseconds(1500))
                return LoopbackResponse(status: 302, headers: ["Location": "https://yandex.ru/maps/?ll=37.62,55.75"], body: Data())
            }
            let transport = NIOHTTPTransport()
            let links = ShortMapLinks(transport: transport, timeout: .milliseconds(200), server: server.url, logger: logger)
            #expect(await links.target(of: "https://yandex.ru/maps/-/CCUqMKR3") == nil)
            try await transport.shutdown()
            await server.shutdown()
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
