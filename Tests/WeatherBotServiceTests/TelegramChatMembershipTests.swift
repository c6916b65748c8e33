import Foundation
import HTTPTransport
import Logging
import Synchronization
import Testing
import TelegramBotAPI
@testable import WeatherBotService
import WeatherBotTesting

extension LoopbackTests {
    /// A group's administrators, asked of the Bot API and remembered for a while.
    @Suite struct TelegramChatMembershipTests {
        @Test func anAnswerIsRememberedAndAFailureIsNot() async throws {
            let failing = Mutex(true)
            let server = try await LoopbackServer { request in
                guard request.path.hasSuffix("/getChatMember") else { return .json(["ok": false], status: 404) }
                if failing.withLock({ $0 }) {
                    return .json(["ok": false, "error_code": 500, "description": "Internal Server Error"], status: 500)
                }
                let user = (request.json?["user_id"] as? NSNumber)?.int64Value ?? 0
                return .json(["ok": true, "result": ["status": user == 9 ? "administrator" : "member", "user": ["id": user, "is_bot": false, "first_name": "A"]]])
            }
            let client = TelegramClient(token: "1:T", apiURL: server.url, transport: NIOHTTPTransport())
            let membership = TelegramChatMembership(client: client, logger: Logger(label: "weatherbot.tests.members"), memory: .seconds(60))

            // Unknown is not an administrator, and is asked again next time.
            #expect(await membership.isAdministrator(9, of: -100) == false)
            failing.withLock { $0 = false }
            #expect(await membership.isAdministrator(9, of: -100) == true)
            #expect(await membership.isAdministrator(9, of: -100) == true)
            #expect(await membership.isAdministrator(8, of: -100) == false)
            #expect(await membership.isAdministrator(8, of: -100) == false)
            let asked = server.requests.filter { $0.path.hasSuffix("/getChatMember") }
            #expect(asked.count == 3)
            #expect(asked.last?.json?["chat_id"] as? Int == -100)
            await server.shutdown()
        }
    }
}
