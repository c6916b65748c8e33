import BotClock
import Foundation
@testable import OpenWeather
import Testing

/// The budget's rules with a hand-driven clock: minutes, priorities, chats, UTC days, restarts.
@Suite struct CallBudgetTests {
    /// 2026-11-27 23:59:00 UTC.
    let lateEvening = Date(timeIntervalSince1970: 1_795_823_940)
    /// Someone waiting, in a chat whose shares these budgets do not limit.
    let person = CallContext.chat(1)

    /// `context` with older weather to show should its call not be made.
    func knowingTheLast(_ context: CallContext) -> CallContext {
        var knowing = context
        knowing.hasLastKnown = true
        return knowing
    }

    /// OpenWeather counts a call when it arrives: the budget counts a minute as 61 seconds, so a
    /// call sent a minute after another never arrives within OpenWeather's minute of it.
    @Test func noMoreThanTheMinutesCallsInAnyMinuteWithASecondToSpare() {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 10, perChat: 0), clock: clock)
        for second in 0..<10 {
            #expect(budget.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(Double(second))) == .go)
        }
        // The eleventh waits until the first leaves the window: 61 seconds after it.
        #expect(budget.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(30)) == .wait(until: lateEvening.addingTimeInterval(61)))
        #expect(budget.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(60.5)) == .wait(until: lateEvening.addingTimeInterval(61)))
        #expect(budget.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(61)) == .go)
        #expect(budget.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(61.5)) == .wait(until: lateEvening.addingTimeInterval(62)))
        clock.set(lateEvening.addingTimeInterval(62))
        #expect(budget.lastMinute == [.other: 9])
    }

    @Test func workThatCanWaitLeavesRoomForPeopleWaiting() {
        let budget = CallBudget(.init(perMinute: 10, perChat: 0), clock: ManualClock(lateEvening))
        // Background work takes half the minute, work due soon eight tenths, people the rest.
        var background = 0
        while budget.decide(.background, chat: nil, at: lateEvening) == .go { background += 1 }
        var soon = 0
        while budget.decide(.soon, chat: nil, at: lateEvening) == .go { soon += 1 }
        var interactive = 0
        while budget.decide(.interactive, chat: nil, at: lateEvening) == .go { interactive += 1 }
        #expect((background, soon, interactive) == (5, 3, 2))
        #expect(budget.decide(.background, chat: nil, at: lateEvening) == .wait(until: lateEvening.addingTimeInterval(61)))
    }

    @Test func aChatOverItsShareIsRefusedWhileOthersGoOn() {
        let budget = CallBudget(.init(perMinute: 100, perChat: 3), clock: ManualClock(lateEvening))
        for _ in 0..<3 { #expect(budget.decide(.interactive, chat: 7, at: lateEvening) == .go) }
        #expect(budget.decide(.interactive, chat: 7, at: lateEvening.addingTimeInterval(10)) == .refused(.chat))
        #expect(budget.decide(.interactive, chat: 8, at: lateEvening.addingTimeInterval(10)) == .go)
        #expect(budget.decide(.soon, chat: nil, at: lateEvening.addingTimeInterval(10)) == .go)
        // A refused call is not counted: a minute after its first calls the chat goes again.
        #expect(budget.decide(.interactive, chat: 7, at: lateEvening.addingTimeInterval(61.5)) == .go)
    }

    /// A chat over its share is told once a minute, not per message; that the service is busy,
    /// every ten seconds at most.
    @Test func aChatRefusedIsToldOnceAMinute() {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 100, perChat: 2), clock: clock)
        #expect(budget.isFirstRefusal(of: 7))
        #expect(!budget.isFirstRefusal(of: 7))
        // Another chat is told for itself; a call for no chat always.
        #expect(budget.isFirstRefusal(of: 8))
        #expect(budget.isFirstRefusal(of: nil) && budget.isFirstRefusal(of: nil))
        clock.set(lateEvening.addingTimeInterval(60.5))
        #expect(!budget.isFirstRefusal(of: 7))
        clock.set(lateEvening.addingTimeInterval(61.5))
        #expect(budget.isFirstRefusal(of: 7))
        // That the service is busy a chat hears at most every ten seconds, whatever it was told of
        // its own share: a person asking once a minute hears it each time.
        clock.set(lateEvening.addingTimeInterval(70))
        #expect(budget.isFirstRefusal(of: 7, for: .minute))
        clock.set(lateEvening.addingTimeInterval(79))
        #expect(!budget.isFirstRefusal(of: 7, for: .minute))
        #expect(!budget.isFirstRefusal(of: 7, for: .day(renews: lateEvening)))
        #expect(!budget.isFirstRefusal(of: 7, for: .chat))
        clock.set(lateEvening.addingTimeInterval(80))
        #expect(budget.isFirstRefusal(of: 7, for: .minute))
    }

    /// A refusal says whether the chat was told of one like it lately; it counts as told only
    /// once shown (``CallBudget/told(_:of:)``), so one that older weather stood in for silences
    /// nothing.
    @Test func refusalsOfOneChatSayWhetherItWasToldAlready() async throws {
        let budget = CallBudget(.init(perMinute: 100, perChat: 1), clock: ManualClock(lateEvening))
        try await budget.acquire(.chat(5))
        await #expect(throws: CallBudget.Refused(refusal: .chat, repeated: false)) { try await budget.acquire(.chat(5)) }
        await #expect(throws: CallBudget.Refused(refusal: .chat, repeated: false)) { try await budget.acquire(.chat(5)) }
        budget.told(5, of: .chat)
        await #expect(throws: CallBudget.Refused(refusal: .chat, repeated: true)) { try await budget.acquire(.chat(5)) }
        #expect(budget.wasTold(5, of: .chat) && !budget.wasTold(5, of: .minute) && !budget.wasTold(6, of: .chat) && !budget.wasTold(nil, of: .chat))
    }

    /// What people asked for in the last minute is left to them, up to half the minute: work due
    /// soon waits for it.
    @Test func whatPeopleAskedForIsLeftToThem() async throws {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 10, perChat: 0), clock: clock)
        for _ in 0..<8 { #expect(budget.decide(.soon, chat: nil, at: lateEvening) == .go) }
        #expect(budget.decide(.soon, chat: nil, at: lateEvening) == .wait(until: lateEvening.addingTimeInterval(61)))
        // A second later five people ask: the two slots left go to them, three are refused.
        clock.set(lateEvening.addingTimeInterval(1))
        var refused = 0
        for _ in 0..<5 {
            do { try await budget.acquire(person) } catch { refused += 1 }
        }
        #expect(refused == 3)
        // The morning's calls leave the minute: the five people asked for are kept for them.
        let later = lateEvening.addingTimeInterval(61.5)
        clock.set(later)
        for _ in 0..<5 { #expect(budget.decide(.soon, chat: nil, at: later) == .go) }
        #expect(budget.decide(.soon, chat: nil, at: later) == .wait(until: later.addingTimeInterval(61)))
        for _ in 0..<3 { try await budget.acquire(person) }
        #expect(budget.lastMinute.values.reduce(0, +) == 10)
    }

    /// However many people ask, work due soon keeps half the minute.
    @Test func aCrowdLeavesWorkDueSoonHalfTheMinute() async throws {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 10, perChat: 0), clock: clock)
        for _ in 0..<5 { #expect(budget.decide(.soon, chat: nil, at: lateEvening) == .go) }
        // Twelve people ask a second later: five slots for them, seven refused.
        clock.set(lateEvening.addingTimeInterval(1))
        for _ in 0..<12 { try? await budget.acquire(person) }
        #expect(budget.lastMinute.values.reduce(0, +) == 10)
        let later = lateEvening.addingTimeInterval(61.2)
        clock.set(later)
        for _ in 0..<5 { #expect(budget.decide(.soon, chat: nil, at: later) == .go) }
        #expect(budget.decide(.soon, chat: nil, at: later) != .go)
        #expect(budget.callsPerMinute(for: .soon) == 5)
    }

    @Test func eachPrioritysMinuteIsItsShare() {
        let budget = CallBudget(.init(perMinute: 60), clock: ManualClock(lateEvening))
        #expect(CallPriority.allCases.map(budget.callsPerMinute(for:)) == [30, 30, 60])
        #expect(CallBudget(.init(perMinute: 0), clock: ManualClock(lateEvening)).callsPerMinute(for: .soon) == 0)
    }

    @Test func theDayIsAUTCDayAndItsLastTenthIsForWorkDueSoon() {
        let budget = CallBudget(.init(perMinute: 0, perDay: 10, perChat: 0), clock: ManualClock(lateEvening))
        for _ in 0..<9 { #expect(budget.decide(.background, chat: nil, at: lateEvening) == .go) }
        let midnight = Date(timeIntervalSince1970: 1_795_824_000)
        #expect(budget.decide(.background, chat: nil, at: lateEvening) == .refused(.day(renews: midnight)))
        #expect(budget.decide(.interactive, chat: nil, at: lateEvening) == .refused(.day(renews: midnight)))
        #expect(budget.decide(.soon, chat: nil, at: lateEvening) == .go)
        #expect(budget.decide(.soon, chat: nil, at: lateEvening.addingTimeInterval(59)) == .refused(.day(renews: midnight)))
        // 00:00 UTC: a new day, whatever the time zone of the machine.
        #expect(budget.decide(.background, chat: nil, at: midnight) == .go)
        #expect(budget.today == CallBudget.DayCount(day: 20_785, calls: [.other: 1]))
    }

    /// People take four fifths of the day at most, on a chat's behalf whatever the call's
    /// priority: the last fifth is for daily forecasts and notices, the last tenth of all for
    /// forecasts due soon.
    @Test func aFifthOfTheDayIsKeptForScheduledWork() {
        let budget = CallBudget(.init(perMinute: 0, perDay: 100, perChat: 0, perChatDay: 0), clock: ManualClock(lateEvening))
        var people = 0
        while budget.decide(.interactive, chat: Int64(people % 7), at: lateEvening) == .go { people += 1 }
        #expect(people == 80)
        // The air beside a chat's card is background work, but the chat's: people's part.
        #expect(budget.decide(.background, chat: 3, batch: true, at: lateEvening) == .refused(.day(renews: lateEvening.addingTimeInterval(60))))
        var notices = 0
        while budget.decide(.background, chat: nil, at: lateEvening) == .go { notices += 1 }
        var forecasts = 0
        while budget.decide(.soon, chat: nil, at: lateEvening) == .go { forecasts += 1 }
        #expect((notices, forecasts) == (10, 10))
    }

    /// A forecast fetched ahead that a person joins (``SharedPriority``) keeps the part of the day
    /// kept for scheduled work: people having spent theirs does not stale the morning.
    @Test func scheduledWorkAPersonJoinsKeepsItsPartOfTheDay() {
        let budget = CallBudget(.init(perMinute: 0, perDay: 100, perChat: 0, perChatDay: 0), clock: ManualClock(lateEvening))
        for _ in 0..<80 { #expect(budget.decide(.interactive, chat: nil, at: lateEvening) == .go) }
        #expect(budget.decide(.interactive, chat: nil, at: lateEvening) == .refused(.day(renews: lateEvening.addingTimeInterval(60))))
        #expect(budget.decide(.interactive, chat: nil, scheduled: .soon, at: lateEvening) == .go)
    }

    /// One chat typing made-up names all day spends its own share of the day, a twentieth of it
    /// (at least ten), not everyone's; the others go on, and a new UTC day gives it back.
    @Test func aChatSpendsItsShareOfTheDayNotEveryones() {
        #expect(CallBudget.Limits(perDay: 1_000).perChatDay == 50)
        #expect(CallBudget.Limits(perDay: 60).perChatDay == 10)
        #expect(CallBudget.Limits(perDay: 5).perChatDay == 4)
        #expect(CallBudget.Limits(perDay: 0).perChatDay == 0)
        let budget = CallBudget(.init(perMinute: 0, perDay: 60, perChat: 0), clock: ManualClock(lateEvening))
        let midnight = Date(timeIntervalSince1970: 1_795_824_000)
        var flood = 0
        for second in 0..<200 where budget.decide(.interactive, chat: 7, at: lateEvening.addingTimeInterval(Double(second) * 0.25)) == .go {
            flood += 1
        }
        #expect(flood == 10)
        #expect(budget.decide(.interactive, chat: 7, at: lateEvening.addingTimeInterval(55)) == .refused(.chatDay(renews: midnight)))
        // A batch for the chat's list is its share too.
        #expect(budget.decide(.interactive, chat: 7, batch: true, at: lateEvening.addingTimeInterval(55)) == .refused(.chatDay(renews: midnight)))
        for chat in 8..<18 { #expect(budget.decide(.interactive, chat: Int64(chat), at: lateEvening.addingTimeInterval(56)) == .go) }
        #expect(budget.decide(.soon, chat: nil, at: lateEvening.addingTimeInterval(56)) == .go)
        #expect(budget.decide(.interactive, chat: 7, at: midnight) == .go)
    }

    /// A list's short weather and a card's air are a batch: counted in the chat's day, not in its
    /// minute, so a list of twenty on a cold cache leaves the chat its minute.
    @Test func aBatchCountsInTheChatsDayButNotItsMinute() {
        let budget = CallBudget(.init(perMinute: 0, perDay: 1_000, perChat: 3), clock: ManualClock(lateEvening))
        for _ in 0..<20 { #expect(budget.decide(.interactive, chat: 7, batch: true, at: lateEvening) == .go) }
        for _ in 0..<3 { #expect(budget.decide(.interactive, chat: 7, at: lateEvening) == .go) }
        #expect(budget.decide(.interactive, chat: 7, at: lateEvening) == .refused(.chat))
        for _ in 0..<27 { #expect(budget.decide(.interactive, chat: 7, batch: true, at: lateEvening) == .go) }
        #expect(budget.decide(.interactive, chat: 7, batch: true, at: lateEvening) == .refused(.chatDay(renews: lateEvening.addingTimeInterval(60))))
    }

    /// A chat whose share of the day is spent is told once while it floods (refused less than a
    /// minute apart), again half an hour on; a person asking now and then hears it every ten
    /// minutes.
    @Test func aChatOverItsDayIsToldOnceWhileItFloods() async throws {
        let clock = ManualClock(lateEvening.addingTimeInterval(-7_200))
        let budget = CallBudget(.init(perMinute: 0, perDay: 60, perChat: 0), clock: clock)
        let renews = Date(timeIntervalSince1970: 1_795_824_000)
        func ask() async -> CallBudget.Refused? {
            do {
                try await budget.acquire(.chat(7))
                return nil
            } catch {
                return error as? CallBudget.Refused
            }
        }
        let told = CallBudget.Refused(refusal: .chatDay(renews: renews), repeated: false)
        let silent = CallBudget.Refused(refusal: .chatDay(renews: renews), repeated: true)
        for _ in 0..<10 { #expect(await ask() == nil) }
        #expect(await ask() == told)
        budget.told(7, of: .chatDay(renews: renews))
        // A flood: every 30 seconds for 29 minutes, never told again.
        for _ in 0..<58 {
            clock.advance(by: .seconds(30))
            #expect(await ask() == silent)
        }
        clock.advance(by: .seconds(61))
        #expect(await ask() == told)
        budget.told(7, of: .chatDay(renews: renews))
        // Now and then: five minutes on not yet, ten minutes on again.
        clock.advance(by: .seconds(300))
        #expect(await ask() == silent)
        clock.advance(by: .seconds(301))
        #expect(await ask() == told)
    }

    @Test func theDaysCountSurvivesARestartButNotTheDay() {
        let clock = ManualClock(lateEvening)
        let first = CallBudget(.init(perMinute: 0, perDay: 5, perChat: 0), clock: clock)
        for _ in 0..<4 { _ = first.decide(.soon, chat: nil, at: lateEvening) }
        let stored = first.today
        #expect(stored.total == 4)
        let restarted = CallBudget(.init(perMinute: 0, perDay: 5, perChat: 0), clock: clock, restored: stored)
        #expect(restarted.decide(.soon, chat: nil, at: lateEvening) == .go)
        #expect(restarted.decide(.soon, chat: nil, at: lateEvening) == .refused(.day(renews: Date(timeIntervalSince1970: 1_795_824_000))))
        // Yesterday's count is not today's.
        clock.set(lateEvening.addingTimeInterval(120))
        let nextDay = CallBudget(.init(perMinute: 0, perDay: 5, perChat: 0), clock: clock, restored: stored)
        #expect(nextDay.today.total == 0)
    }

    @Test func theLastMinutesCallsSurviveARestart() {
        let clock = ManualClock(lateEvening)
        let first = CallBudget(.init(perMinute: 4, perChat: 0), clock: clock)
        _ = first.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(-70))
        for _ in 0..<2 { _ = first.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(-30.5)) }
        _ = first.decide(.interactive, chat: nil, at: lateEvening.addingTimeInterval(-1))
        // Seconds rounded up: forgotten no sooner than OpenWeather forgets them.
        let kept = first.recentCalls
        let second = Int(lateEvening.timeIntervalSince1970)
        #expect(kept == [second - 30: 2, second - 1: 1])
        let restarted = CallBudget(.init(perMinute: 4, perChat: 0), clock: clock, lastMinute: kept.merging([second - 600: 5]) { $0 + $1 })
        #expect(restarted.decide(.interactive, chat: nil, at: lateEvening) == .go)
        #expect(restarted.decide(.interactive, chat: nil, at: lateEvening) == .wait(until: lateEvening.addingTimeInterval(31)))
        #expect(restarted.today.total == 1)
    }

    @Test func aCallWaitsForItsSlotWithinItsPatienceAndIsRefusedBeyond() async throws {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 2, perChat: 0), clock: clock)
        try await budget.acquire(person)
        try await budget.acquire(person)
        // Someone waiting waits three seconds at most; the slot is a minute away.
        await #expect(throws: CallBudget.Refused(refusal: .minute)) { try await budget.acquire(person) }
        // Work due soon waits for it, on the clock.
        clock.set(lateEvening.addingTimeInterval(30))
        try await budget.acquire(.soon)
        #expect(clock.date == lateEvening.addingTimeInterval(61))
        // A chat's share is refused at once, without waiting.
        let shared = CallBudget(.init(perMinute: 100, perChat: 1), clock: clock)
        try await shared.acquire(.chat(5))
        await #expect(throws: CallBudget.Refused(refusal: .chat)) { try await shared.acquire(.chat(5)) }
    }

    /// Someone who has the last known weather to show waits half a second for a slot, not three:
    /// the older weather, with its age, is a better answer than fresher weather seconds later.
    @Test func aPersonWithOlderWeatherToShowWaitsHalfASecondForASlot() async throws {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 1, perChat: 0), clock: clock)
        try await budget.acquire(person)
        // The next slot is a minute and a second after the call, 1.4 s from now.
        clock.set(lateEvening.addingTimeInterval(59.6))
        await #expect(throws: CallBudget.Refused(refusal: .minute)) { try await budget.acquire(knowingTheLast(person)) }
        #expect(clock.date == lateEvening.addingTimeInterval(59.6))
        // Work due soon waits as long as ever.
        try await budget.acquire(knowingTheLast(.soon))
        #expect(clock.date == lateEvening.addingTimeInterval(61))
        // 0.4 s from its slot, it waits for it.
        clock.set(lateEvening.addingTimeInterval(121.6))
        try await budget.acquire(knowingTheLast(person))
        #expect(clock.date == lateEvening.addingTimeInterval(122))
        // With nothing to show, a person waits up to three seconds.
        clock.set(lateEvening.addingTimeInterval(181.6))
        try await budget.acquire(person)
        #expect(clock.date == lateEvening.addingTimeInterval(183))
    }

    /// What is stored is taken once; what could not be stored is counted again; the stored sum of
    /// every worker becomes the day's count, with the calls made meanwhile.
    @Test func theCallsAreTakenForTheStoreAndItsSumIsAdopted() {
        let clock = ManualClock(lateEvening)
        let budget = CallBudget(.init(perMinute: 0, perDay: 100, perChat: 0), clock: clock)
        for endpoint in [OpenWeatherEndpoint.geocode, .geocode, .onecall] { _ = budget.decide(.interactive, chat: nil, endpoint: endpoint, at: lateEvening) }
        let taken = budget.takeUnsaved()
        #expect(taken == CallBudget.DayCount(day: 20_784, calls: [.geocode: 2, .onecall: 1]))
        #expect(budget.takeUnsaved().total == 0)
        budget.giveBack(taken)
        let again = budget.takeUnsaved()
        #expect(again.calls == [.geocode: 2, .onecall: 1])
        _ = budget.decide(.interactive, chat: nil, endpoint: .reverse, at: lateEvening)
        // Another worker had made 40 calls today.
        budget.adopt(CallBudget.DayCount(day: 20_784, calls: [.geocode: 22, .onecall: 21]))
        #expect(budget.today.calls == [.geocode: 22, .onecall: 21, .reverse: 1])
        #expect(budget.lastMinute == [.geocode: 2, .onecall: 1, .reverse: 1])
        // A count of another day changes nothing.
        budget.adopt(CallBudget.DayCount(day: 20_783, calls: [.onecall: 90]))
        #expect(budget.today.total == 44)
        // After midnight the unsaved calls of yesterday are not today's.
        clock.set(lateEvening.addingTimeInterval(120))
        #expect(budget.takeUnsaved() == CallBudget.DayCount(day: 20_785, calls: [:]))
    }
}
