import BotClock
import Foundation
import HTTPTransport
import Logging
import OpenWeather
import Prometheus
import Synchronization
import Testing
import WeatherBot
import WeatherBotHTTP
import WeatherBotService
import WeatherBotStore
import WeatherBotSQLite
import WeatherBotTesting

/// The shared OpenWeather service against a loopback OpenWeather that fails.
@Suite struct WeatherServiceTests {
    @Test func anInvalidKeyIsOneClearLogLineAndPlainWordsForTheUser() async throws {
        let server = try await LoopbackServer { _ in
            LoopbackResponse(status: 401, body: Data(#"{"cod":401,"message":"Invalid API key. Please see the FAQ."}"#.utf8))
        }
        defer { Task { await server.shutdown() } }
        let log = CapturedLog()
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: "wrong-key-123", apiURL: server.url, transport: NIOHTTPTransport()), logger: log.logger())
        let folder = try TemporaryFolder()
        let conversation = Conversation(geocoder: service, weather: service, store: try BotDatabase.open(path: folder.databasePath), activity: TypingLog())
        let step = await conversation.handle(.incoming(Incoming(updateID: 1, chatID: 1, language: .ru, intent: .command(.weather))), chat: nil)
        #expect(step.replies.first?.text?.contains("сервис погоды не принял ключ доступа бота") == true)
        // The card's air failing the same way is a debug line only.
        let logged = log.lines.filter { !$0.hasPrefix("debug") }
        #expect(logged.count == 1, "\(log.lines)")
        #expect(logged.first?.hasPrefix("error OpenWeather rejected the API key (401): check OPEN_WEATHER_API_KEY") == true)
        #expect(logged.allSatisfy { !$0.contains("wrong-key-123") })
    }

    /// After a 429 the client refuses calls itself for a while: /metrics tells the requests
    /// OpenWeather got from the calls that never left.
    @Test func callsRefusedAfterA429AreCountedApartFromRequestsSent() async throws {
        let requests = Locked(0)
        let server = try await LoopbackServer { _ in
            requests.withLock { $0 += 1 }
            return LoopbackResponse(status: 429, body: Data(#"{"cod":429,"message":"Your account is temporary blocked due to exceeding of requests limitation of your subscription type."}"#.utf8))
        }
        defer { Task { await server.shutdown() } }
        let registry = PrometheusCollectorRegistry()
        let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: "k", apiURL: server.url, transport: CountingTransport(NIOHTTPTransport(), metrics: metrics, openWeather: true)),
            logger: CapturedLog().logger(), metrics: metrics)
        for name in ["Казань", "Уфа", "Пермь"] { _ = try? await service.places(named: name, language: .ru, for: .chat(5)) }
        _ = try? await service.weather(at: Place(name: "Ufa", localNames: ["ru": "Уфа"], country: "RU", latitude: 54.73, longitude: 55.96), language: .ru, refresh: false, for: .chat(5))
        let counted = prometheusSamples(registry.emitToString())
        #expect(requests.withLock { $0 } == 1)
        #expect(counted[#"weatherbot_openweather_requests_total{endpoint="geocode"}"#] == 1, "\(counted)")
        #expect(counted[#"weatherbot_openweather_refused_total{endpoint="geocode",reason="paused"}"#] == 2, "\(counted)")
        #expect(counted[#"weatherbot_openweather_refused_total{endpoint="onecall",reason="paused"}"#] == 1, "\(counted)")
        #expect(counted[#"weatherbot_openweather_requests_total{endpoint="onecall"}"#] == nil, "\(counted)")
        #expect(counted[#"weatherbot_openweather_calls_total{endpoint="geocode"}"#] == 3, "\(counted)")
    }

    /// /metrics tells the budget as it stands: the day's stored calls, the last minute's, the limits.
    @Test func theBudgetIsShownInTheMetrics() async throws {
        let folder = try TemporaryFolder()
        let store = try BotDatabase.open(path: folder.databasePath)
        let registry = PrometheusCollectorRegistry()
        let metrics = BotMetrics(factory: OperatorEndpoints.metricsFactory(registry))
        let budget = CallBudget(.init(perMinute: 60, perDay: 1000, perChat: 10))
        _ = try await store.addOpenWeatherCalls(["geocode": 40], onDay: CivilDate.utcDay(of: Date()))
        for endpoint in [OpenWeatherEndpoint.geocode, .onecall, .onecall] { _ = budget.decide(.interactive, chat: nil, endpoint: endpoint, at: Date()) }
        await OpenWeatherUsage(budget: budget, store: store, metrics: metrics, logger: CapturedLog().logger()).save()
        let counted = prometheusSamples(registry.emitToString())
        #expect(counted[#"weatherbot_openweather_calls_today{endpoint="geocode"}"#] == 41, "\(counted)")
        #expect(counted[#"weatherbot_openweather_calls_today{endpoint="onecall"}"#] == 2)
        #expect(counted[#"weatherbot_openweather_calls_today{endpoint="reverse"}"#] == 0)
        #expect(counted[#"weatherbot_openweather_calls_last_minute{endpoint="onecall"}"#] == 2)
        #expect(counted[#"weatherbot_openweather_calls_last_minute{endpoint="geocode"}"#] == 1)
        #expect(counted["weatherbot_openweather_budget_per_day"] == 1000)
        #expect(counted["weatherbot_openweather_budget_per_minute"] == 60)
    }

    /// The last minute is written when there were calls since the last save, not every ten
    /// seconds of a quiet day; what was kept stays until then.
    @Test func theLastMinuteIsKeptOnlyAfterNewCalls() async throws {
        let folder = try TemporaryFolder()
        let store = try BotDatabase.open(path: folder.databasePath)
        let now = Date()
        let clock = ManualClock(now)
        let budget = CallBudget(.init(perMinute: 60, perChat: 10), clock: clock)
        let usage = OpenWeatherUsage(budget: budget, store: store, logger: CapturedLog().logger())
        _ = budget.decide(.interactive, chat: nil, endpoint: .geocode, at: now)
        await usage.save()
        let second = Int(now.timeIntervalSince1970.rounded(.up))
        #expect(try await store.openWeatherMinute() == [second: 1])
        // Another worker's minute written meanwhile is not overwritten by a save with nothing new.
        try await store.keepOpenWeatherMinute([second + 5: 3])
        clock.advance(by: .seconds(10))
        await usage.save()
        #expect(try await store.openWeatherMinute() == [second + 5: 3])
        _ = budget.decide(.interactive, chat: nil, endpoint: .onecall, at: clock.date)
        await usage.save()
        #expect(try await store.openWeatherMinute() == [second: 1, Int(clock.date.timeIntervalSince1970.rounded(.up)): 1])
    }

    /// The air is cached per cell for half an hour and shared; failing, it is nothing (and never a
    /// refusal told to a chat).
    @Test func theAirIsCachedSharedAndNeverTellsAnyone() async throws {
        let openWeather = try await FakeOpenWeather()
        defer { Task { await openWeather.shutdown() } }
        let clock = ManualClock(Date())
        let budget = CallBudget(.init(perMinute: 2, perChat: 0), clock: clock)
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: openWeather.url, transport: NIOHTTPTransport(), budget: budget),
            clock: clock, logger: CapturedLog().logger(), airPatience: .seconds(30))
        let kazan = Place(name: "Kazan", latitude: 55.79, longitude: 49.12)
        let nearby = Place(name: "Kazan, Kremlin", latitude: 55.7912, longitude: 49.1201)
        async let first = service.airQuality(at: kazan, for: .chat(5))
        async let second = service.airQuality(at: nearby, for: .chat(5))
        let (one, other) = await (first, second)
        #expect(one?.index == 2 && other?.index == 2)
        #expect(openWeather.airCalls == 1)
        #expect(await service.airForecast(at: kazan, for: .chat(5))?.count == 96)
        #expect(openWeather.airCalls == 2)
        // Half an hour later, failing: nothing, and no chat told of anything.
        clock.advance(by: .seconds(1801))
        openWeather.setAir(nil)
        #expect(await service.airQuality(at: kazan, for: .chat(5)) == nil)
        #expect(!budget.wasTold(5, of: .minute))
    }

    /// A slow air answer is given up on within the patience, and kept when it comes.
    @Test func aSlowAirAnswerHoldsNothingUpAndIsKeptWhenItComes() async throws {
        let openWeather = try await FakeOpenWeather()
        defer { Task { await openWeather.shutdown() } }
        openWeather.setAir((5, 120), held: true)
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: openWeather.url, transport: NIOHTTPTransport()),
            logger: CapturedLog().logger(), airPatience: .milliseconds(300))
        let kazan = Place(name: "Kazan", latitude: 55.79, longitude: 49.12)
        #expect(await service.airQuality(at: kazan, for: .chat(5)) == nil)
        // Given up on while the answer was still held, not after it came.
        #expect(openWeather.airAnswers == 0)
        // The call went on: once it came, the next look finds it kept, without another call.
        openWeather.releaseAir()
        try await waitUntil("the held answer is kept") { await service.airQuality(at: kazan, for: .chat(5))?.index == 5 }
        #expect(openWeather.airCalls == 1)
    }

    /// A chat counts as told of a refusal only when one reaches it: older weather standing in for
    /// a refused refresh is no refusal, and the chat's next refusal is told, not kept quiet.
    @Test func olderWeatherShownForARefusalIsNotATelling() async throws {
        let openWeather = try await FakeOpenWeather(logging: true)
        defer { Task { await openWeather.shutdown() } }
        let clock = ManualClock(Date())
        let budget = CallBudget(.init(perMinute: 1, perChat: 0), clock: clock)
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: FakeOpenWeather.apiKey, apiURL: openWeather.url, transport: NIOHTTPTransport(), budget: budget),
            clock: clock, logger: CapturedLog().logger())
        let kazan = Place(name: "Kazan", localNames: ["ru": "Казань"], country: "RU", latitude: 55.79, longitude: 49.12)
        let ufa = Place(name: "Ufa", localNames: ["ru": "Уфа"], country: "RU", latitude: 54.73, longitude: 55.96)
        let chat = CallContext.chat(5)
        _ = try await service.weather(at: kazan, language: Language.ru, refresh: false, for: chat)
        clock.advance(by: .seconds(601))
        _ = try await service.weather(at: ufa, language: .ru, refresh: false, for: chat)
        // The minute is spent: Kazan's weather of ten minutes ago stands in, and nothing is told.
        #expect(try await service.weather(at: kazan, language: .ru, refresh: false, for: chat).isStale)
        #expect(!budget.wasTold(5, of: .minute))
        // Nor is a refusal of a look-up whose refusal is not shown (an inline answer's).
        var inline = chat
        inline.refusalsShown = false
        await #expect(throws: OpenWeatherError.self) { try await service.places(named: "Пермь", language: .ru, for: inline) }
        #expect(!budget.wasTold(5, of: .minute))
        // A search has nothing to stand in: its refusal reaches the chat, which is told now.
        await #expect(throws: OpenWeatherError.self) { try await service.places(named: "Пермь", language: .ru, for: chat) }
        #expect(budget.wasTold(5, of: .minute))
        do {
            _ = try await service.places(named: "Самара", language: .ru, for: chat)
            Issue.record("a search over the budget was made")
        } catch let error as OpenWeatherError {
            #expect(error.chatToldAlready)
        }
        #expect(openWeather.log.count == 2)
    }

    @Test func aSlowOpenWeatherTimesOutAndTheUserIsToldWhileTypingShowed() async throws {
        let server = try await LoopbackServer { _ in
            try? await Task.sleep(for: .seconds(30))
            return LoopbackResponse(body: Data("{}".utf8))
        }
        defer { Task { await server.shutdown() } }
        let service = WeatherService(
            client: OpenWeatherClient(apiKey: "k", apiURL: server.url, transport: NIOHTTPTransport(), requestTimeout: .seconds(1)),
            logger: CapturedLog().logger())
        let activity = TypingLog()
        let folder = try TemporaryFolder()
        let conversation = Conversation(geocoder: service, weather: service, store: try BotDatabase.open(path: folder.databasePath), activity: activity)
        let started = ContinuousClock.now
        let step = await conversation.handle(.incoming(Incoming(updateID: 1, chatID: 7, language: .en, intent: .command(.weather))), chat: nil)
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(activity.chats.withLock { $0 } == [7])  // «typing…» while it waited
        #expect(step.replies.first?.text?.contains("the weather service cannot be reached") == true)
    }
}

/// The chats shown «typing…», in order.
final class TypingLog: ChatActivity {
    let chats = Mutex<[Int64]>([])
    func typing(in chatID: Int64) async { chats.withLock { $0.append(chatID) } }
}
