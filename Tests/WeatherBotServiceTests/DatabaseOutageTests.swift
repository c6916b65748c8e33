import Foundation
import HTTPTransport
import Testing
import WeatherBotPostgres
import WeatherBotTesting

extension LoopbackTests {
    /// PostgreSQL out of reach under running replicas, each reaching it through a forwarder the
    /// test cuts as if the server had stopped: the outage is said when it begins, `/healthz` is
    /// unhealthy during it, and its end is said too; the active replica whose lease runs out
    /// meanwhile exits for its supervisor, and the standby takes over.
    @Suite(.serialized) struct DatabaseOutageTests {
        static var executable: URL { CrashRecoveryTests.executable }
        static var serverURL: String? { FailoverTests.serverURL }

        /// A replica on `database`, reached through `forwarder`, with its endpoints on `port`.
        func start(_ loopback: Loopback, _ database: ScratchDatabase, through forwarder: LoopbackForwarder, port: Int, output: StartUpTests.Output) throws -> Process {
            var url = try #require(URLComponents(string: database.url))
            url.port = forwarder.port
            return try CrashRecoveryTests.start(
                loopback, database: ["DATABASE_URL": try #require(url.string)],
                settings: ["HTTP_LISTEN": "127.0.0.1:\(port)", "LOG_LEVEL": "notice"], errors: output.pipe)
        }

        /// `/healthz` on `port`: its status and body, nil while it does not answer.
        func health(_ port: Int, _ transport: NIOHTTPTransport) async -> (status: Int, body: String)? {
            guard let answer = try? await loopbackGET(URL(string: "http://127.0.0.1:\(port)/healthz")!, through: transport) else { return nil }
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }

        @Test(.enabled(if: serverURL != nil && FileManager.default.isExecutableFile(atPath: executable.path)))
        func anOutageIsSaidWhenItBeginsAndEndsAndTheHealthCheckFailsMeanwhile() async throws {
            let loopback = try await Loopback()
            let telegram = loopback.telegram
            let database = try await ScratchDatabase.create(on: try #require(Self.serverURL), prefix: "weatherbot_outage")
            let serverPort = try #require(URLComponents(string: database.url)?.port)
            let forwarders = [try await LoopbackForwarder(to: serverPort), try await LoopbackForwarder(to: serverPort)]
            let ports = [try await LoopbackServer.freePort(), try await LoopbackServer.freePort()]
            let outputs = [StartUpTests.Output(), StartUpTests.Output()]
            let transport = NIOHTTPTransport()

            let active = try start(loopback, database, through: forwarders[0], port: ports[0], output: outputs[0])
            try await CrashRecoveryTests.waitUntilActive(active, on: database)
            let standby = try start(loopback, database, through: forwarders[1], port: ports[1], output: outputs[1])
            try await waitUntil(timeout: .seconds(20), "the standby's /healthz") { await health(ports[1], transport)?.body == #"{"status":"standby"}"# }
            telegram.sendText("/help", from: 1)
            try await telegram.waitUntil(timeout: .seconds(20), "the active replica's answer") { $0.sent.count == 1 }
            #expect(await health(ports[0], transport)?.status == 200)

            // The standby's database goes away for a while, and comes back.
            forwarders[1].cut()
            try await outputs[1].wait(for: "the database does not answer")
            #expect(outputs[1].said.contains("error"), "\(outputs[1].said)")
            let during = try #require(await health(ports[1], transport))
            #expect(during.status == 503)
            #expect(during.body.contains("the database has not answered for"), "\(during.body)")
            forwarders[1].restore()
            try await outputs[1].wait(for: "the database answers again")
            #expect(outputs[1].said.contains("the database answers again"), "\(outputs[1].said)")
            try await waitUntil(timeout: .seconds(10), "the standby healthy again") { await health(ports[1], transport)?.status == 200 }

            // The active replica's goes away for good: it says so at once, is unhealthy, and once
            // its lease has run out it exits 1; the standby takes over.
            forwarders[0].cut()
            try await outputs[0].wait(for: "the database does not answer")
            #expect(outputs[0].said.contains("the database does not answer; this replica stops unless its lease is renewed within"), "\(outputs[0].said)")
            let unhealthy = await health(ports[0], transport)
            #expect(unhealthy?.status == 503, "\(String(describing: unhealthy))")
            #expect(try await StartUpTests.ends(active, within: .seconds(15)))
            #expect(active.terminationStatus == 1)
            #expect(outputs[0].said.contains("the lease could not be renewed before it ran out"), "\(outputs[0].said)")
            // A renewal is due every 2 s and waits 2 s for its answer: the outage is said before the 6 s lease runs out.
            let said = outputs[0].said
            #expect(said.range(of: "the database does not answer").map { $0.lowerBound < (said.range(of: "the lease could not be renewed")?.lowerBound ?? said.startIndex) } == true)
            #expect(!outputs[0].said.contains("damaged"), "\(outputs[0].said)")
            try await CrashRecoveryTests.waitUntilActive(standby, on: database)
            telegram.sendText("/help", from: 2)
            try await telegram.waitUntil(timeout: .seconds(20), "the new active replica's answer") { $0.sent.count == 2 }

            standby.terminate()
            standby.waitUntilExit()
            for forwarder in forwarders { await forwarder.shutdown() }
            try await transport.shutdown()
            await database.drop()
        }
    }
}
