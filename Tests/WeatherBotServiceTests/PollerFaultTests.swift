import Foundation
import Testing
import WeatherBotStore
import WeatherBotTesting

extension LoopbackTests {
    /// Long polling through Telegram's failures: every update is handled exactly once.
    @Suite(.serialized) struct PollerFaultTests {
        @Test(arguments: StoreEngine.available) func serverErrorsConflictsAndStalledPollsLoseNothingAndRepeatNothing(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let error = { (code: Int, description: String) -> LoopbackResponse in
                .json(["ok": false, "error_code": code, "description": description], status: code)
            }
            telegram.state.withLock { state in
                state.failures["getUpdates"] = [
                    error(502, "Bad Gateway"), error(409, "Conflict: terminated by other getUpdates request"), error(500, "Internal Server Error"),
                ]
                state.stalledPolls = 1
            }
            for round in 0..<5 {
                for chat in 1...6 { telegram.sendText("/help", from: Int64(chat)) }
                if round == 2 { telegram.state.withLock { $0.failures["getUpdates", default: []].append(error(502, "Bad Gateway")) } }
            }
            let bot = try await loopback.startBot()
            try await telegram.waitUntil(timeout: .seconds(90), "every update answered") { $0.sent.count >= 30 }
            try await Task.sleep(for: .seconds(1))
            try await bot.stop()
            let state = telegram.state.withLock { $0 }
            #expect(state.sent.count == 30)  // each update answered once
            for chat in 1...6 { #expect(state.sent.filter { $0.chatID == Int64(chat) }.count == 5) }
            #expect(try await bot.database.pendingInbox().isEmpty)
            #expect(try await bot.database.lastUpdateID() == 1029)
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func aShutdownWhilePollingBacksOffAfterAConflictIsGraceful(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let conflict = LoopbackResponse.json(
                ["ok": false, "error_code": 409, "description": "Conflict: terminated by other getUpdates request"], status: 409)
            telegram.state.withLock { $0.failures["getUpdates"] = Array(repeating: conflict, count: 5) }
            let bot = try await loopback.startBot()
            try await telegram.waitUntil("the first conflict") { ($0.failures["getUpdates"]?.count ?? 0) < 5 }
            try await Task.sleep(for: .milliseconds(200))
            // Backing off for seconds now: the stop ends the wait, and the group ends without an error.
            let stopping = ContinuousClock.now
            try await bot.stop()
            #expect(ContinuousClock.now - stopping < .seconds(3))
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func aBatchOfTheLargestUpdatesIsTakenWhole(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            // 100 messages of 4,096 Cyrillic characters replying to as long a message: about
            // 5 MB as Telegram writes them, every character a 6-byte escape.
            let words = String(repeating: "Погода в Казани завтра ", count: 200)
            let text = String(("/help " + words).prefix(4096))
            for chat in 1...100 { telegram.sendLongReply(text, replyingTo: String(words.prefix(4096)), from: Int64(chat)) }
            let size = telegram.state.withLock { $0.pendingUpdateBytes }
            #expect(size > 4 << 20)
            let bot = try await loopback.startBot()
            try await telegram.waitUntil(timeout: .seconds(60), "every chat answered") { Set($0.sent.map(\.chatID)).count == 100 }
            try await bot.stop()
            #expect(try await bot.database.lastUpdateID() == 1099)
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func anUpdateThatCannotBeReadIsSkippedAndTheOthersHandled(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            telegram.sendText("/help", from: 1)
            telegram.enqueueRaw { id in #"{"update_id":\#(id),"message":{"message_id":3,"chat":{"id":2,"type":"pri"# }
            telegram.sendText("/help", from: 3)
            let bot = try await loopback.startBot()
            try await telegram.waitUntil(timeout: .seconds(30), "both others answered") { Set($0.sent.map(\.chatID)) == [1, 3] }
            #expect(try await bot.database.lastUpdateID() == 1002)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func anUpdateIdAtTheTopOfTheRangeCrashesNothing(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            telegram.rebaseUpdateIDs(to: Int.max - 1)
            telegram.sendText("/help", from: 1)
            telegram.sendText("/help", from: 2)
            let bot = try await loopback.startBot()
            try await telegram.waitUntil(timeout: .seconds(10), "both answered") { Set($0.sent.map(\.chatID)) == [1, 2] }
            #expect(try await bot.database.lastUpdateID() == .max)
            // No offset confirms the last id: it comes back, is not handled again, and is not
            // asked for in a tight loop (at most one poll a second, and a long poll's worth).
            let before = telegram.state.withLock { $0.delivered.filter { $0 == .max }.count }
            try await Task.sleep(for: .seconds(3))
            let state = telegram.state.withLock { $0 }
            #expect(state.sent.count == 2)
            #expect(state.delivered.filter { $0 == .max }.count - before <= 5)
            try await bot.stop()
            await loopback.shutdown()
        }

        @Test(arguments: StoreEngine.available) func updateIdsThatStartAnewLowerAfterAQuietWeekAreHandled(_ engine: StoreEngine) async throws {
            let loopback = try await Loopback(engine: engine)
            let telegram = loopback.telegram
            let bot = try await loopback.startBot()
            telegram.sendText("/help", from: 1)
            try await telegram.waitUntil("the first answer") { $0.sent.count == 1 }
            #expect(try await bot.database.lastUpdateID() == 1000)

            // A week later Telegram numbers updates from a new, lower id.
            telegram.rebaseUpdateIDs(to: 17)
            telegram.sendText("/help", from: 2)
            telegram.sendText("/help", from: 3)
            try await telegram.waitUntil(timeout: .seconds(10), "the answers after the new ids") { $0.sent.count == 3 }
            telegram.sendText("/help", from: 4)
            try await telegram.waitUntil(timeout: .seconds(10), "the next answer") { $0.sent.count == 4 }
            try await Task.sleep(for: .milliseconds(500))
            let state = telegram.state.withLock { $0 }
            #expect(state.sent.map(\.chatID).sorted() == [1, 2, 3, 4])  // each once
            #expect(try await bot.database.lastUpdateID() == 19)
            // No tight loop: the new ids are confirmed, not handed out again and again.
            #expect(state.delivered.filter { $0 < 1000 } == [17, 18, 19])
            try await bot.stop()
            await loopback.shutdown()
        }
    }
}
