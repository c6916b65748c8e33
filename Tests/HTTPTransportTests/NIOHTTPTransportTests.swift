import Foundation
import NIOSSL
import Testing
@testable import HTTPTransport
import WeatherBotTesting

@Suite struct NIOHTTPTransportTests {
    @Test func carriesMethodHeadersAndBodyBothWays() async throws {
        let server = try await LoopbackServer { request in
            LoopbackResponse(status: 201, headers: ["X-Echo": request.headers["x-probe"] ?? ""], body: request.body)
        }
        defer { Task { await server.shutdown() } }
        let transport = NIOHTTPTransport()
        let response = try await transport.send(TransportRequest(
            method: .post, url: server.url.appendingPathComponent("echo"), headers: ["X-Probe": "42"], body: Data("привет".utf8)))
        #expect(response.status == 201)
        #expect(response.headers["x-echo"] == "42")
        #expect(String(decoding: response.body, as: UTF8.self) == "привет")
        #expect(server.requests.first?.method == "POST")
    }

    @Test func aRefusedConnectionNamesTheHostButNotThePath() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Data()) }
        let url = server.url.appendingPathComponent("bot123:secret/getMe")
        await server.shutdown()
        let error = await #expect(throws: TransportError.self) {
            try await NIOHTTPTransport().send(TransportRequest(url: url, timeout: .seconds(2)))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.description.contains("127.0.0.1") == true)
        #expect(error?.description.contains("secret") == false)
    }

    @Test func aSilentServerTimesOutAndTheNextRequestStillWorks() async throws {
        let server = try await LoopbackServer { request in
            if request.path == "/hang" { try? await Task.sleep(for: .seconds(20)) }
            return LoopbackResponse(body: Data("ok".utf8))
        }
        let transport = NIOHTTPTransport()
        let started = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(TransportRequest(url: server.url.appendingPathComponent("hang"), timeout: .milliseconds(300)))
        }
        #expect(error?.code == .timedOut)
        // Far sooner than the server answers, with room for a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(8))
        let response = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("fine")))
        #expect(response.body == Data("ok".utf8))
        await server.shutdown()
    }

    @Test func connectionsAreReusedAndOnesTheServerClosesAreReplaced() async throws {
        let server = try await LoopbackServer { request in
            // Every third answer asks to close the connection.
            let close = request.path.hasSuffix("3") || request.path.hasSuffix("6") || request.path.hasSuffix("9")
            return LoopbackResponse(headers: close ? ["Connection": "close"] : [:], body: Data(request.path.utf8))
        }
        let transport = NIOHTTPTransport()
        for index in 1...10 {
            let response = try await transport.send(TransportRequest(method: .post, url: server.url.appendingPathComponent("r\(index)"), body: Data("x".utf8)))
            #expect(response.body == Data("/r\(index)".utf8))
        }
        // Concurrent requests each get their own connection and their own answer.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let response = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("c\(index)")))
                    #expect(response.body == Data("/c\(index)".utf8))
                }
            }
            try await group.waitForAll()
        }
        await server.shutdown()
    }

    @Test func moreRequestsThanConnectionsToAHostWaitTheirTurnAndAllAreAnswered() async throws {
        let server = try await LoopbackServer { request in
            try? await Task.sleep(for: .milliseconds(20))
            return LoopbackResponse(body: Data(request.path.utf8))
        }
        let transport = NIOHTTPTransport()
        // Twice the connections one host may have: the second half waits for the first.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let response = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("w\(index)")))
                    #expect(response.body == Data("/w\(index)".utf8))
                }
            }
            try await group.waitForAll()
        }
        try await transport.shutdown()
        await server.shutdown()
    }

    @Test func aCancelledRequestEndsAtOnceAndTheNextOneIsAnswered() async throws {
        let server = try await LoopbackServer { request in
            if request.path == "/hang" { try? await Task.sleep(for: .seconds(20)) }
            return LoopbackResponse(body: Data("ok".utf8))
        }
        let transport = NIOHTTPTransport()
        let waiting = Task { try await transport.send(TransportRequest(url: server.url.appendingPathComponent("hang"), timeout: .seconds(30))) }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        waiting.cancel()
        let error = await #expect(throws: TransportError.self) { try await waiting.value }
        #expect(error?.code == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(5))
        let response = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("fine")))
        #expect(response.body == Data("ok".utf8))
        try await transport.shutdown()
        await server.shutdown()
    }

    @Test func onlyTheHeadIsReadWhenTheBodyIsNotWanted() async throws {
        let server = try await LoopbackServer { _ in
            LoopbackResponse(status: 302, headers: ["Location": "https://example.org/maps?q=55.75,37.62"], body: Data(repeating: 65, count: 50_000))
        }
        let transport = NIOHTTPTransport(maximumBodySize: 1_000)
        let response = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("short"), readsBody: false))
        #expect(response.status == 302)
        #expect(response.headers["location"] == "https://example.org/maps?q=55.75,37.62")
        #expect(response.body.isEmpty)
        // The unread body does not spill into the next answer.
        let next = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("again"), readsBody: false))
        #expect(next.status == 302)
        try await transport.shutdown()
        await server.shutdown()
    }

    @Test func theRequestTargetKeepsItsPercentEncodingAndQuery() async throws {
        let server = try await LoopbackServer { request in
            LoopbackResponse(body: Data((request.path + "?" + (request.query["q"] ?? "")).utf8))
        }
        let transport = NIOHTTPTransport()
        let url = URL(string: "\(server.url.absoluteString)/geo/1.0/direct?q=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C&limit=5")!
        let response = try await transport.send(TransportRequest(url: url))
        #expect(String(decoding: response.body, as: UTF8.self) == "/geo/1.0/direct?Казань")
        #expect(server.requests.first?.headers["host"] == "127.0.0.1:\(server.port)")
        try await transport.shutdown()
        await server.shutdown()
    }

    @Test func anOversizedAnswerFailsInsteadOfFillingMemoryAndARequestMaySetItsOwnLimit() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Data(repeating: 65, count: 100_000)) }
        let transport = NIOHTTPTransport(maximumBodySize: 10_000)
        let error = await #expect(throws: TransportError.self) { try await transport.send(TransportRequest(url: server.url)) }
        #expect(error?.code == .tooLarge)
        // Its first bytes are kept to tell what it was, never printed.
        #expect(error?.bodyStart?.prefix(3) == Data("AAA".utf8))
        #expect(error.map { !"\($0)".contains("AAA") } == true)
        let larger = try await transport.send(TransportRequest(url: server.url, maximumBodySize: 200_000))
        #expect(larger.body.count == 100_000)
        await server.shutdown()
    }
}

@Suite struct TransportSeamTests {
    /// A request written on a kept-alive connection that then closes without an answer is not sent
    /// again: the server sees it once, and the caller learns the connection failed.
    @Test func aRequestIsNeverWrittenTwiceWhenItsConnectionClosesBeforeTheAnswer() async throws {
        let server = try await LoopbackServer { request in
            request.path == "/sendMessage" ? .noAnswer : LoopbackResponse(body: Data("ok".utf8))
        }
        let transport = NIOHTTPTransport()
        // The first answer leaves a kept-alive connection in the pool; the second request reuses it.
        _ = try await transport.send(TransportRequest(url: server.url.appendingPathComponent("getMe")))
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(TransportRequest(method: .post, url: server.url.appendingPathComponent("sendMessage"), body: Data("{}".utf8)))
        }
        #expect(error?.code == .connectionFailed)
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.requests.map(\.path) == ["/getMe", "/sendMessage"])
        try await transport.shutdown()
        await server.shutdown()
    }

    @Test func httpsReachesAnIPAddressAndAnUntrustedCertificateIsRefused() async throws {
        let server = try await LoopbackServer(tls: true) { _ in LoopbackResponse(body: Data("secure".utf8)) }
        #expect(server.url.absoluteString.hasPrefix("https://127.0.0.1:"))
        let trusting = NIOHTTPTransport(tls: try LoopbackTLS.clientConfiguration())
        let response = try await trusting.send(TransportRequest(url: server.url.appendingPathComponent("getMe")))
        #expect(response.body == Data("secure".utf8))
        // With the system's roots the self-signed certificate is not trusted.
        let strict = NIOHTTPTransport()
        let error = await #expect(throws: TransportError.self) {
            try await strict.send(TransportRequest(url: server.url.appendingPathComponent("getMe"), timeout: .seconds(5)))
        }
        #expect(error?.code == .certificateRejected)
        #expect(error?.reason.hasPrefix("NIOSSLError") == true, "\(error?.reason ?? "")")
        try await trusting.shutdown()
        try await strict.shutdown()
        await server.shutdown()
    }

    @Test func anHTTPProxyTunnelsToANameOnlyItCanResolveWithItsCredentials() async throws {
        let server = try await LoopbackServer(tls: true) { request in LoopbackResponse(body: Data(request.path.utf8)) }
        let proxy = try await LoopbackProxy(.http(username: "bot", password: "p@ss word"), names: ["api.telegram.invalid"])
        let url = URL(string: "https://api.telegram.invalid:\(server.port)/bot1:secret/getMe")!
        var tls = try LoopbackTLS.clientConfiguration()
        // The certificate names 127.0.0.1, not the made-up host.
        tls.certificateVerification = .noHostnameVerification
        let transport = NIOHTTPTransport(
            proxy: try HTTPProxy(parsing: proxy.url(username: "bot", password: "p@ss word", scheme: "http")), tls: tls)
        let response = try await transport.send(TransportRequest(url: url))
        #expect(response.body == Data("/bot1:secret/getMe".utf8))
        #expect(proxy.targets == ["api.telegram.invalid:\(server.port)"])

        let wrong = NIOHTTPTransport(proxy: try HTTPProxy(parsing: proxy.url(username: "bot", password: "guess", scheme: "http")), tls: tls)
        let error = await #expect(throws: TransportError.self) { try await wrong.send(TransportRequest(url: url, timeout: .seconds(5))) }
        #expect(error?.code == .connectionFailed)
        // The log says why: the proxy wanted other credentials.
        #expect(error?.reason == "the proxy asks for other credentials (407)")
        #expect(error.map { !"\($0)".contains("secret") && !"\($0)".contains("guess") } == true)
        #expect(proxy.refusals == 1)
        try await transport.shutdown()
        try await wrong.shutdown()
        await proxy.shutdown()
        await server.shutdown()
    }

    @Test func aSOCKS5ProxyIsGivenTheHostNameToResolve() async throws {
        let server = try await LoopbackServer { request in LoopbackResponse(body: Data(request.path.utf8)) }
        let proxy = try await LoopbackProxy(.socks5, names: ["api.openweathermap.invalid"])
        let transport = NIOHTTPTransport(proxy: try HTTPProxy(parsing: proxy.url(scheme: "socks5")))
        let response = try await transport.send(TransportRequest(url: URL(string: "http://api.openweathermap.invalid:\(server.port)/data/2.5/weather")!))
        #expect(response.body == Data("/data/2.5/weather".utf8))
        #expect(proxy.targets == ["api.openweathermap.invalid:\(server.port)"])
        // A name the proxy cannot resolve fails as a connection failure, not a hang.
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(TransportRequest(url: URL(string: "http://elsewhere.invalid:\(server.port)/")!, timeout: .seconds(5)))
        }
        #expect(error?.code == .connectionFailed)
        try await transport.shutdown()
        await proxy.shutdown()
        await server.shutdown()
    }
}

@Suite struct HTTPProxyTests {
    @Test func readsHTTPAndSOCKS5ProxiesWithTheirDefaults() throws {
        let plain = try HTTPProxy(parsing: "http://proxy.example:3128")
        #expect(plain == HTTPProxy(kind: .http, host: "proxy.example", port: 3128))
        let bare = try HTTPProxy(parsing: "proxy.example")
        #expect(bare == HTTPProxy(kind: .http, host: "proxy.example", port: 80))
        let authenticated = try HTTPProxy(parsing: "http://bot:p%40ss@10.0.0.1:8080/")
        #expect(authenticated.username == "bot")
        #expect(authenticated.password == "p@ss")
        #expect(try HTTPProxy(parsing: "socks5://127.0.0.1") == HTTPProxy(kind: .socks5, host: "127.0.0.1", port: 1080))
        #expect(try HTTPProxy(parsing: "SOCKS5H://[::1]:9050") == HTTPProxy(kind: .socks5, host: "::1", port: 9050))
    }

    @Test func thePasswordNeverShows() throws {
        let proxy = try HTTPProxy(parsing: "http://bot:hunter2@proxy.example:3128")
        #expect(proxy.description == "http://bot:<redacted>@proxy.example:3128")
    }

    @Test(arguments: [
        ("https://proxy.example:443", "scheme https://"),
        ("ftp://proxy.example", "scheme ftp://"),
        ("socks5://user:secret@proxy.example:1080", "SOCKS5"),
        ("http://proxy.example:0", "port 0"),
        ("http://proxy.example:3128/path", "no path"),
        ("http://:3128", "no host"),
        ("http://bot:se#cret@proxy.example:3128", "not a proxy URL"),
    ])
    func anUnusableProxyIsRefusedWithTheReason(text: String, reason: String) {
        let error = #expect(throws: HTTPProxy.Invalid.self) { try HTTPProxy(parsing: text) }
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
        #expect(error.map { !$0.description.contains("secret") } == true)
    }

    @Test func noProxyExemptsNamesAndTheirSubdomains() {
        #expect(HTTPProxy.isExempt("api.telegram.org", noProxy: "localhost, .telegram.org"))
        #expect(HTTPProxy.isExempt("api.telegram.org", noProxy: "api.telegram.org:443"))
        #expect(HTTPProxy.isExempt("anything", noProxy: "*"))
        #expect(!HTTPProxy.isExempt("api.telegram.org", noProxy: "gram.org,openweathermap.org"))
        #expect(!HTTPProxy.isExempt("api.telegram.org", noProxy: ""))
    }
}
