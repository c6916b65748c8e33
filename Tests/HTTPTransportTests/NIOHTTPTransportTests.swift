import Foundation
import LoopbackHTTP
import Testing
@testable import HTTPTransport

@Suite struct NIOHTTPTransportTests {
    @Test func carriesMethodHeadersAndBodyBothWays() async throws {
        let server = try await LoopbackServer { request in
            LoopbackResponse(status: 201, headers: ["X-Echo": request.headers["x-probe"] ?? ""], body: request.body)
        }
        defer { Task { await server.shutdown() } }
        let transport = NIOHTTPTransport()
        let response = try await transport.send(HTTPRequest(
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
            try await NIOHTTPTransport().send(HTTPRequest(url: url, timeout: .seconds(2)))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.description.contains("127.0.0.1") == true)
        #expect(error?.description.contains("secret") == false)
    }

    @Test func aSilentServerTimesOutAndTheNextRequestStillWorks() async throws {
        let server = try await LoopbackServer { request in
            if request.path == "/hang" { try? await Task.sleep(for: .seconds(5)) }
            return LoopbackResponse(body: Data("ok".utf8))
        }
        let transport = NIOHTTPTransport()
        let started = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(url: server.url.appendingPathComponent("hang"), timeout: .milliseconds(300)))
        }
        #expect(error?.code == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(2))
        let response = try await transport.send(HTTPRequest(url: server.url.appendingPathComponent("fine")))
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
            let response = try await transport.send(HTTPRequest(method: .post, url: server.url.appendingPathComponent("r\(index)"), body: Data("x".utf8)))
            #expect(response.body == Data("/r\(index)".utf8))
        }
        // Concurrent requests each get their own connection and their own answer.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let response = try await transport.send(HTTPRequest(url: server.url.appendingPathComponent("c\(index)")))
                    #expect(response.body == Data("/c\(index)".utf8))
                }
            }
            try await group.waitForAll()
        }
        await server.shutdown()
    }

    @Test func anOversizedAnswerFailsInsteadOfFillingMemoryAndARequestMaySetItsOwnLimit() async throws {
        let server = try await LoopbackServer { _ in LoopbackResponse(body: Data(repeating: 65, count: 100_000)) }
        let transport = NIOHTTPTransport(maximumBodySize: 10_000)
        let error = await #expect(throws: TransportError.self) { try await transport.send(HTTPRequest(url: server.url)) }
        #expect(error?.code == .tooLarge)
        // Its first bytes are kept to tell what it was, never printed.
        #expect(error?.bodyStart?.prefix(3) == Data("AAA".utf8))
        #expect(error.map { !"\($0)".contains("AAA") } == true)
        let larger = try await transport.send(HTTPRequest(url: server.url, maximumBodySize: 200_000))
        #expect(larger.body.count == 100_000)
        await server.shutdown()
    }

    @Test func durationsConvertToSeconds() {
        #expect(Duration.milliseconds(1500).timeInterval == 1.5)
    }
}
