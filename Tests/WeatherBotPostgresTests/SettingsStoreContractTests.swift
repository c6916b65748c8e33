import Foundation
import Testing
@testable import WeatherBotPostgres
import WeatherBotStore

/// What every store engine keeps of a chat's `/settings`, run on each (``Engine/available``):
/// stored with the chat, read back by every query that reads a chat's language, and gone with
/// /reset.
@Suite struct SettingsStoreContractTests {
    static let now = StoreContractTests.now
    static let moscow = StoreContractTests.moscow
    static let units = ChatSettings(temperature: .fahrenheit, windSpeed: .milesPerHour, pressure: .inchesOfMercury, language: .en, clock: .twelveHour)

    @Test(arguments: Engine.available)
    func aChatsSettingsAreStoredWithItAndReadWhereverItsLanguageIs(_ engine: Engine) async throws {
        try await engine.withStore { store in
            var chat = ChatRecord(
                id: 1, language: .en, state: .idle, currentPlace: Self.moscow, createdAt: Self.now, updatedAt: Self.now,
                notices: NoticeSettings(rain: true), settings: Self.units)
            try await NoticeStoreContractTests.step(store, chat)
            try await NoticeStoreContractTests.step(store, ChatRecord(id: 2, currentPlace: Self.moscow, notices: NoticeSettings(rain: true)))
            #expect(try await store.chat(1)?.settings == Self.units)
            #expect(try await store.chat(2)?.settings == .defaults)

            // The checker and the scheduler read the rows, not the records kept in memory.
            #expect(try await store.noticeChats(at: Self.now).map(\.chatSettings) == [Self.units, .defaults])
            for id: Int64 in [1, 2] {
                try await NoticeStoreContractTests.step(
                    store, try #require(try await store.chat(id)),
                    changes: [.subscribe(Subscription(chatID: id, place: Self.moscow, timeZone: "Europe/Moscow", hour: 8, minute: 0, nextSendAt: Self.now), limit: 5)])
            }
            let due = try await store.dueSubscriptions(at: Self.now, limit: 10).sorted { $0.subscription.chatID < $1.subscription.chatID }
            #expect(due.map(\.settings) == [Self.units, .defaults])
            #expect(due.map(\.language) == [.en, .ru])

            // One setting back to its default, then all of them (as /reset leaves the chat).
            chat.settings.temperature = nil
            chat.questionSeq = 1
            try await NoticeStoreContractTests.step(store, chat)
            #expect(try await store.chat(1)?.settings.temperature == nil)
            #expect(try await store.chat(1)?.settings.clock == .twelveHour)
            try await NoticeStoreContractTests.step(store, ChatRecord(id: 1, questionSeq: 2, createdAt: Self.now, updatedAt: Self.now), changes: [.forgetChat])
            #expect(try await store.chat(1)?.settings == .defaults)
        }
    }
}

/// What every store engine keeps of the days' temperatures, run on each (``Engine/available``).
@Suite struct DayTemperaturesStoreContractTests {
    @Test(arguments: Engine.available)
    func aCellsDayIsKeptLatestFirstAndOldDaysGo(_ engine: Engine) async throws {
        try await engine.withStore { store in
            try await store.keepDayTemperatures(
                [DayTemperatures(cell: "5576:3762", day: "2026-11-21", minimum: -5, maximum: 3), DayTemperatures(cell: "5579:4912", day: "2026-11-21", minimum: -8, maximum: 0)],
                forgettingBefore: "2026-11-19")
            // The latest forecast for a day replaces the earlier one.
            try await store.keepDayTemperatures([DayTemperatures(cell: "5576:3762", day: "2026-11-21", minimum: -4, maximum: 5)], forgettingBefore: "2026-11-19")
            try await store.keepDayTemperatures([DayTemperatures(cell: "5576:3762", day: "2026-11-22", minimum: 0, maximum: 9)], forgettingBefore: "2026-11-19")
            let day = try await store.dayTemperatures(cells: ["5576:3762", "5579:4912", "0:0"], day: "2026-11-21")
            #expect(day["5576:3762"] == DayTemperatures(cell: "5576:3762", day: "2026-11-21", minimum: -4, maximum: 5))
            #expect(day["5579:4912"]?.maximum == 0)
            #expect(day["0:0"] == nil)
            #expect(try await store.dayTemperatures(cells: [], day: "2026-11-21").isEmpty)
            try await store.keepDayTemperatures([], forgettingBefore: "2026-11-22")
            #expect(try await store.dayTemperatures(cells: ["5576:3762", "5579:4912"], day: "2026-11-21").isEmpty)
            #expect(try await store.dayTemperatures(cells: ["5576:3762"], day: "2026-11-22")["5576:3762"]?.maximum == 9)
        }
    }
}
