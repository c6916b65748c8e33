import Foundation
import Synchronization
import Testing
import WeatherBotPostgres
import WeatherBotTesting

extension LoopbackTests {
    /// The start while Telegram cannot be talked to: a stop asked meanwhile ends it, also when the
    /// bot is a container's PID 1, which the kernel spares every signal it does not handle; and a
    /// certificate the machine does not trust is said once, for what it is.
    @Suite(.serialized) struct StartUpTests {
        static var executable: URL { CrashRecoveryTests.executable }
        static let unshare = URL(fileURLWithPath: "/usr/bin/unshare")

        /// What a process wrote, gathered as it comes, off the test's threads.
        final class Output: Sendable {
            let pipe = Pipe()
            private let text = Mutex("")

            init() {
                pipe.fileHandleForReading.readabilityHandler = { [self] handle in
                    let data = handle.availableData
                    text.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }

            var said: String { text.withLock { $0 } }

            /// Waits until the process has written `words`, at most 20 s.
            func wait(for words: String) async throws {
                let deadline = ContinuousClock.now + .seconds(20)
                while !said.contains(words), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            }
        }

        /// `weatherbot run`, through `launcher` (a command and its arguments, such as `unshare`'s)
        /// or directly, with the secrets and `settings` as its environment, Telegram out of reach
        /// unless `settings` say otherwise, and its output into `output`.
        static func launch(through launcher: [String] = [], settings: [String: String], output: Output) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: launcher.first ?? executable.path)
            process.arguments = launcher.dropFirst() + (launcher.isEmpty ? [] : [executable.path]) + ["run"]
            process.environment = [
                "TELEGRAM_BOT_TOKEN": FakeTelegram.token, "OPEN_WEATHER_API_KEY": FakeOpenWeather.apiKey,
                "TELEGRAM_API_URL": "http://127.0.0.1:9", "LOG_LEVEL": "info",
            ].merging(settings) { $1 }
            process.standardOutput = output.pipe
            process.standardError = output.pipe
            try process.run()
            return process
        }

        /// The bot on SQLite in `folder`, started through `unshare` with `unshareArguments` (or
        /// directly), with Telegram out of reach or at `telegram`.
        static func start(
            through unshareArguments: [String] = [], folder: TemporaryFolder, output: Output, telegram: String = "http://127.0.0.1:9"
        ) throws -> Process {
            try launch(
                through: unshareArguments.isEmpty ? [] : [unshare.path] + unshareArguments,
                settings: ["TELEGRAM_API_URL": telegram, "DATABASE_PATH": folder.databasePath], output: output)
        }

        /// Waits up to `timeout` for `process` to end; whether it did.
        static func ends(_ process: Process, within timeout: Duration) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            return !process.isRunning
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func sigtermWhileTelegramIsOutOfReachAtTheStartEndsIt() async throws {
            let folder = try TemporaryFolder()
            let output = Output()
            let process = try Self.start(folder: folder, output: output)
            try await output.wait(for: "Telegram is not reachable yet")
            process.terminate()
            let ended = try await Self.ends(process, within: .seconds(10))
            if !ended { process.interrupt(); kill(process.processIdentifier, SIGKILL) }
            #expect(ended)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            try await output.wait(for: "stopped before the start was complete")
            #expect(output.said.contains("stopped before the start was complete"), "\(output.said)")
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path) && getuid() == 0
            && FileManager.default.isExecutableFile(atPath: unshare.path)))
        func asPID1TooASigtermAtTheStartEndsIt() async throws {
            let folder = try TemporaryFolder()
            let output = Output()
            // The bot is the first process of a PID namespace of its own, as in a container.
            let launcher = try Self.start(through: ["--pid", "--fork", "--kill-child"], folder: folder, output: output)
            try await output.wait(for: "Telegram is not reachable yet")
            let children = try String(contentsOfFile: "/proc/\(launcher.processIdentifier)/task/\(launcher.processIdentifier)/children", encoding: .utf8)
            let bot = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
            kill(bot, SIGTERM)
            let ended = try await Self.ends(launcher, within: .seconds(10))
            if !ended { kill(bot, SIGKILL) }
            #expect(ended, "SIGTERM was ignored by the bot as PID 1")
            launcher.waitUntilExit()
            #expect(launcher.terminationStatus == 0)
        }

        /// A replica started on `databaseURL`, with Telegram out of reach.
        static func startReplica(databaseURL: String, output: Output) throws -> Process {
            try launch(settings: ["DATABASE_URL": databaseURL], output: output)
        }

        /// SIGTERM to `process`: it must end within 10 s, with exit 0, having said it stopped
        /// before the start was complete.
        static func stopsCleanly(_ process: Process, _ output: Output) async throws {
            process.terminate()
            let ended = try await ends(process, within: .seconds(10))
            if !ended { kill(process.processIdentifier, SIGKILL) }
            #expect(ended, "SIGTERM did not end the start: \(output.said)")
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(output.said)")
            try await output.wait(for: "stopped before the start was complete")
            #expect(output.said.contains("stopped before the start was complete"), "\(output.said)")
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func aReplicaStoppedWhileItsDatabaseDoesNotAnswerEndsCleanly() async throws {
            // A server that takes connections into its queue and never answers them.
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            #expect(bound == 0 && listen(listener, 16) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
            let port = Int(UInt16(bigEndian: address.sin_port))

            let output = Output()
            let process = try Self.startReplica(databaseURL: "postgres://weatherbot@127.0.0.1:\(port)/weatherbot?sslmode=disable", output: output)
            try await Task.sleep(for: .seconds(1.5))
            #expect(process.isRunning, "\(output.said)")
            try await Self.stopsCleanly(process, output)
        }

        @Test(.enabled(if: FailoverTests.serverURL != nil && FileManager.default.isExecutableFile(atPath: executable.path)))
        func aReplicaStoppedWhileTelegramIsOutOfReachEndsCleanly() async throws {
            let database = try await ScratchDatabase.create(on: try #require(FailoverTests.serverURL), prefix: "weatherbot_start")
            let output = Output()
            let process = try Self.startReplica(databaseURL: database.url, output: output)
            try await output.wait(for: "Telegram is not reachable yet")
            #expect(output.said.contains("active: this replica holds the lease"), "\(output.said)")
            try await Self.stopsCleanly(process, output)
            await database.drop()
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
        func aCertificateTheMachineDoesNotTrustIsSaidOnceAtErrorLevel() async throws {
            // Telegram's address answers TLS with a certificate no CA of the system's signed.
            let server = try await LoopbackServer(tls: true) { _ in LoopbackResponse(body: Data("{}".utf8)) }
            let folder = try TemporaryFolder()
            let output = Output()
            let process = try Self.start(folder: folder, output: output, telegram: server.url.absoluteString)
            try await output.wait(for: "certificate is not trusted")
            // Three attempts: at once, a second later, two more seconds later.
            try await Task.sleep(for: .seconds(3.5))
            process.terminate()
            #expect(try await Self.ends(process, within: .seconds(10)))
            let lines = output.said.split(separator: "\n")
            #expect(lines.filter { $0.contains("certificate is not trusted") }.count == 1, "\(output.said)")
            #expect(lines.first { $0.contains("certificate is not trusted") }?.contains(" error ") == true)
            #expect(!output.said.contains("Telegram is not reachable yet"), "\(output.said)")
            await server.shutdown()
        }
    }
}
