import Foundation
import WeatherBotTesting

/// The two weather sources through the weatherbot executable, on the real clock, each phase a
/// number of chats asking the card of a place of their own (`/search Place N`, a name nobody
/// asked before, so each costs its look-up and its forecast):
/// - **OpenWeather answers**: every card from it, none labelled, Open-Meteo not asked;
/// - **OpenWeather down** (its forecasts answer 503): every card still comes, labelled
///   «Данные: Open-Meteo», none says to try later, and OpenWeather is asked once per while away
///   (the chats ask ten a second), not once per card;
/// - **OpenWeather back**, after the first while away (30 s): the cards are OpenWeather's again;
/// - **no key at all**: chats share their locations at points of their own (Nominatim, at most
///   one a second) and ask their cards: all from Open-Meteo, OpenWeather never asked.
/// The calls each source got, phase by phase, are the figures.
struct SourcesScenario {
    var quick: Bool
    var executable: String

    /// What one phase asked and got.
    struct Phase {
        var cards = 0
        var labelled = 0
        var refused = 0
        var openWeather = 0
        var openMeteo = 0
        var nominatim = 0
    }

    func run() async throws -> [Result] {
        // FakeOpenWeather's «Place N» lies at 40 + N degrees north: three phases of places nobody
        // asked before fit under the pole.
        let chats = quick ? 10 : 15
        let weather = try await FakeOpenWeather(recording: false, logging: true)
        let openMeteo = try await FakeOpenMeteo()
        let nominatim = try await FakeNominatim()
        defer { Task { await weather.shutdown(); await openMeteo.shutdown(); await nominatim.shutdown() } }
        let secondSource = [
            "OPEN_METEO_FALLBACK": "true", "OPEN_METEO_API_URL": openMeteo.url.absoluteString, "OPEN_METEO_GEOCODING_URL": openMeteo.url.absoluteString,
            "OPEN_METEO_AIR_QUALITY_URL": openMeteo.url.absoluteString, "NOMINATIM_URL": nominatim.url.absoluteString,
            "OPEN_METEO_CALLS_PER_MINUTE": "0", "OPEN_METEO_CALLS_PER_CHAT_PER_MINUTE": "0",
        ]
        func counts() -> (Int, Int, Int) { (weather.forecastCalls, openMeteo.forecastCalls, nominatim.arrivals.count) }

        // Both sources: healthy, down, back.
        var phases: [(String, Phase)] = []
        try await withWorker(weather: weather, environment: secondSource) { telegram in
            var next = 1
            func ask(_ label: String) async throws {
                let before = counts()
                var phase = try await cards(telegram, chats: Int64(next)...Int64(next + chats - 1)) { chat in
                    telegram.sendText("/search Place \(chat)", from: chat)
                }
                let after = counts()
                (phase.openWeather, phase.openMeteo, phase.nominatim) = (after.0 - before.0, after.1 - before.1, after.2 - before.2)
                phases.append((label, phase))
                next += chats
            }
            try await ask("OpenWeather answers")
            weather.failForecasts(true)
            try await ask("OpenWeather down (503)")
            weather.failForecasts(false)
            try await Task.sleep(for: .seconds(31))
            try await ask("OpenWeather back, after 30 s away")
        }
        // No key: Open-Meteo and Nominatim alone.
        try await withWorker(weather: weather, environment: secondSource.merging(["OPEN_WEATHER_API_KEY": ""]) { $1 }) { telegram in
            let before = counts()
            var phase = try await cards(telegram, chats: 10_001...Int64(10_000 + chats)) { chat in
                telegram.sendLocation(latitude: 40 + Double(chat - 10_000) * 0.05, longitude: 30, from: chat)
                try await telegram.waitUntil(timeout: .seconds(Double(chats) * 2 + 30), "the question in \(chat)") { state in
                    state.edits.contains { $0.chatID == chat && $0.text.contains("Это ваш город?") }
                }
                guard let question = telegram.screen(chat).last else { return }
                try telegram.press("Да, всё верно", on: question.messageID, in: chat)
            }
            let after = counts()
            (phase.openWeather, phase.openMeteo, phase.nominatim) = (after.0 - before.0, after.1 - before.1, after.2 - before.2)
            phases.append(("no OpenWeather key", phase))
        }

        var results: [Result] = []
        for (index, (label, phase)) in phases.enumerated() {
            let labelled = index == 1 || index == 3
            results += [
                Result(
                    scenario: "sources", figure: "\(label): cards", value: "\(phase.cards) of \(chats)", target: "all",
                    passed: phase.cards == chats && phase.refused == 0),
                Result(
                    scenario: "sources", figure: "  labelled «Данные: Open-Meteo»", value: "\(phase.labelled)", target: labelled ? "all" : "0",
                    passed: phase.labelled == (labelled ? chats : 0)),
                Result(scenario: "sources", figure: "  OpenWeather forecast calls", value: "\(phase.openWeather)", target: "", passed: nil),
                Result(scenario: "sources", figure: "  Open-Meteo forecast calls", value: "\(phase.openMeteo)", target: "", passed: nil),
                Result(scenario: "sources", figure: "  Nominatim calls", value: "\(phase.nominatim)", target: "", passed: nil),
            ]
        }
        return results
    }

    /// A worker on a database of its own against a fresh fake Telegram, for `body`.
    private func withWorker(weather: FakeOpenWeather, environment: [String: String], _ body: (FakeTelegram) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-bench-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let telegram = try await FakeTelegram()
        let worker = try Worker.start(
            executable, telegram: telegram.url, weather: weather.url, databasePath: folder.appendingPathComponent("bot.sqlite").path,
            environment: environment.merging(["TELEGRAM_MESSAGES_PER_SECOND": "1000", "TELEGRAM_MESSAGES_PER_SECOND_PER_CHAT": "100"]) { $1 })
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        do {
            try await body(telegram)
        } catch {
            await Worker.stop(worker, timeout: 5)
            await telegram.shutdown()
            throw error
        }
        await Worker.stop(worker, timeout: 5)
        await telegram.shutdown()
    }

    /// Each chat of `chats` asks as `ask` does; then the cards they got.
    private func cards(_ telegram: FakeTelegram, chats: ClosedRange<Int64>, _ ask: (Int64) async throws -> Void) async throws -> Phase {
        // Ten a second, as people come: the first failure turns the switch before the next asks.
        for chat in chats {
            try await ask(chat)
            try await Task.sleep(for: .milliseconds(100))
        }
        try? await telegram.waitUntil(timeout: .seconds(60), "every card") { state in
            chats.allSatisfy { chat in state.sent.contains { $0.chatID == chat && (Self.isCard($0.text) || Self.isRefusal($0.text)) } }
        }
        var phase = Phase()
        let sent = telegram.state.withLock { $0.sent.filter { chats.contains($0.chatID) } }
        for chat in chats {
            let theirs = sent.filter { $0.chatID == chat }
            if let card = theirs.last(where: { Self.isCard($0.text) }) {
                phase.cards += 1
                if card.text.contains("Данные: Open-Meteo") { phase.labelled += 1 }
            }
            if theirs.contains(where: { Self.isRefusal($0.text) }) { phase.refused += 1 }
        }
        return phase
    }

    static func isCard(_ text: String) -> Bool { text.contains("Ощущается как") }
    static func isRefusal(_ text: String) -> Bool { text.contains("попробуйте") || text.contains("Не удалось") }
}
