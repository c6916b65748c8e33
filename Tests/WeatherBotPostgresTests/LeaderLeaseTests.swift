import Foundation
import PostgresNIO
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBotPostgres

/// The lease that makes one replica active, on a real PostgreSQL (`TEST_DATABASE_URL`).
@Suite(.enabled(if: Engine.serverURL != nil, "TEST_DATABASE_URL names no server")) struct LeaderLeaseTests {
    @Test func oneReplicaHoldsTheLeaseAndAnotherTakesItWhenItRunsOut() async throws {
        try await Engine.postgres.withStore { store in
            let postgres = try #require(store as? PostgresStore)
            let lease = LeaderLease(client: postgres.client, duration: .milliseconds(400), logger: Engine.logger)
            #expect(try await lease.standing() == nil)
            let first = try #require(try await lease.acquire(as: "replica-a"))
            #expect(first.epoch == 1)
            #expect(try await lease.acquire(as: "replica-b") == nil, "held: the standby waits")
            #expect(try await lease.renew(first))
            let standing = try #require(try await lease.standing())
            #expect(standing.holder == "replica-a" && standing.isCurrent)

            // replica-a stops renewing (killed, frozen, cut off): the lease runs out and b takes it.
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await lease.standing()?.isCurrent == false)
            let second = try #require(try await lease.acquire(as: "replica-b"))
            #expect(second.epoch == 2)
            #expect(try await !lease.renew(first), "a's lease is gone for good")
            try await lease.release(second)
            #expect(try await lease.acquire(as: "replica-a")?.epoch == 3, "released: taken at once")
        }
    }

    /// A replica that froze past its lease and wakes up writes nothing, whether the write is a
    /// statement of its own (a poll's answer, a plain step, a sent reply) or a transaction (a
    /// step that saves a favorite); the one holding the lease writes as usual.
    @Test func writesUnderALeaseNoLongerHeldAreRefused() async throws {
        try await Engine.postgres.withStore { store in
            let postgres = try #require(store as? PostgresStore)
            // Long enough for the new holder's writes to fall within its lease on a loaded machine.
            let lease = LeaderLease(client: postgres.client, duration: .seconds(2), logger: Engine.logger)
            let first = try #require(try await lease.acquire(as: "replica-a"))
            postgres.fence(with: first)
            let received = try await postgres.receive([(1, 1, Data("{}".utf8)), (2, 2, Data("{}".utf8))], lastUpdateID: 2, rebasing: false, at: Date())
            #expect(received.count == 2)
            let chat = ChatRecord(id: 1, language: .ru, state: .idle, currentPlace: nil, createdAt: Date(), updatedAt: Date())
            let step = try await postgres.commitStep(
                chat: chat, handled: try #require(received[0].seq), changes: [], replies: [.sendMessage(chatID: 1, text: "a")], followUps: [], at: Date())

            try await Task.sleep(for: .milliseconds(2_200))
            let taken = try #require(try await lease.acquire(as: "replica-b"))
            await #expect(throws: NotLeading.self) {
                try await postgres.receive([(3, 1, Data("{}".utf8))], lastUpdateID: 3, rebasing: false, at: Date())
            }
            var moved = chat
            moved.id = 2
            moved.questionSeq = 9
            await #expect(throws: NotLeading.self) {
                try await postgres.commitStep(
                    chat: moved, handled: try #require(received[1].seq), changes: [], replies: [.sendMessage(chatID: 2, text: "b")], followUps: [],
                    at: Date())
            }
            await #expect(throws: NotLeading.self) {
                try await postgres.commitStep(
                    chat: moved, handled: try #require(received[1].seq), changes: [.addFavorite(StoreContractTests.kazan, limit: 20)],
                    replies: [], followUps: [], at: Date())
            }
            await #expect(throws: NotLeading.self) {
                try await postgres.completeOutbox(id: try #require(step.replyIDs.first), chatID: 1, tag: nil, messageID: 5, at: Date())
            }
            #expect(postgres.isDamage(NotLeading(lease: first)), "a replica that lost the lease stops")
            #expect(try await postgres.lastUpdateID() == 2)
            #expect(try await postgres.pendingInbox().map(\.updateID) == [2], "the refused step handled nothing")
            #expect(try await postgres.chat(2) == nil)
            #expect(try await postgres.favorites(chatID: 2).isEmpty)
            #expect(try await postgres.outboxBacklog() == 1, "the refused completion removed nothing")
            // The same store fenced by the new holder's lease writes again.
            postgres.fence(with: taken)
            #expect(try await postgres.receive([(3, 1, Data("{}".utf8))], lastUpdateID: 3, rebasing: false, at: Date()).count == 1)
            try await postgres.completeOutbox(id: try #require(step.replyIDs.first), chatID: 1, tag: nil, messageID: 5, at: Date())
            #expect(try await postgres.outboxBacklog() == 0)
        }
    }
}
