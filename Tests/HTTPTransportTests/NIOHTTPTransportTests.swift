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

    @Test func durationsConvertToSeconds() {
        #expect(Duration.milliseconds(1500).timeInterval == 1.5)
    }
}
