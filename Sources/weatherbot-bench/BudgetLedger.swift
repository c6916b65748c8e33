import Foundation
import Synchronization
import WeatherBotTesting

/// What the budget scenario reads from the fake Telegram's side: when each update was handed out,
/// and every reply accepted, in the order the fake accepted them.
final class BudgetLedger: FakeTelegramObserver {
    struct Accepted: Sendable {
        var method: String
        var chat: Int64
        var at: Date
    }

    private struct State {
        var handedOut: [Int: Date] = [:]
        var accepted: [Accepted] = []
    }

    private let state = Mutex(State())

    func handedOut(_ update: HandedOut) {
        state.withLock { $0.handedOut[update.updateID] = update.at }
    }

    func accepted(_ reply: AcceptedReply) {
        state.withLock { $0.accepted.append(Accepted(method: reply.method, chat: reply.chat, at: reply.at)) }
    }

    /// When update `id` came out of getUpdates; nil while it has not.
    func handedOut(id: Int) -> Date? { state.withLock { $0.handedOut[id] } }

    /// The replies accepted from index `start` on.
    func accepted(from start: Int) -> [Accepted] {
        state.withLock { Array($0.accepted[min(start, $0.accepted.count)...]) }
    }
}

/// A reply as its chat saw it: when it was accepted, by which method, and what it said.
struct SeenReply: Sendable {
    var method: String
    var chat: Int64
    var at: Date
    var text: String
    var markup: String?
    var messageID: Int?

    var isMessage: Bool { method != "answerCallbackQuery" && method != "editMessageReplyMarkup" }
}

/// The fake Telegram's transcript joined to the ledger's times. The fake adds a reply to its
/// transcript and tells the ledger in one step under its lock, so the n-th message accepted is the
/// n-th of the transcript's messages, the n-th edit its n-th edit, the n-th answer to a press its
/// n-th answer.
struct Transcript {
    private var read = 0
    private var pending: [BudgetLedger.Accepted] = []
    private var sent: [FakeTelegram.Sent] = []
    private var edits: [FakeTelegram.Edit] = []
    private var answers: [String] = []
    private var taken = (sent: 0, edits: 0, answers: 0)

    /// The replies accepted since the last call, with their texts.
    mutating func advance(_ ledger: BudgetLedger, _ telegram: FakeTelegram) -> [SeenReply] {
        // The ledger first: the transcript is then at least as far.
        let accepted = ledger.accepted(from: read)
        read += accepted.count
        pending += accepted
        let taken = self.taken
        let (newSent, newEdits, newAnswers) = telegram.state.withLock { state in
            (Array(state.sent.dropFirst(taken.sent)), Array(state.edits.dropFirst(taken.edits)), Array(state.answerTexts.dropFirst(taken.answers)))
        }
        self.taken = (taken.sent + newSent.count, taken.edits + newEdits.count, taken.answers + newAnswers.count)
        sent += newSent
        edits += newEdits
        answers += newAnswers
        var seen: [SeenReply] = []
        var used = 0
        for reply in pending {
            guard let next = take(reply) else { break }
            seen.append(next)
            used += 1
        }
        pending.removeFirst(used)
        return seen
    }

    private mutating func take(_ reply: BudgetLedger.Accepted) -> SeenReply? {
        switch reply.method {
        case "sendMessage", "sendPhoto":
            guard !sent.isEmpty else { return nil }
            let message = sent.removeFirst()
            return SeenReply(method: reply.method, chat: reply.chat, at: reply.at, text: message.text, markup: message.markup, messageID: message.messageID)
        case "answerCallbackQuery":
            guard !answers.isEmpty else { return nil }
            return SeenReply(method: reply.method, chat: reply.chat, at: reply.at, text: answers.removeFirst())
        default:
            guard !edits.isEmpty else { return nil }
            let edit = edits.removeFirst()
            return SeenReply(method: reply.method, chat: reply.chat, at: reply.at, text: edit.text, markup: edit.markup, messageID: edit.messageID)
        }
    }
}

/// The bot's texts the scenario reads its answers by, in both languages (Texts+Russian.swift,
/// Texts+English.swift).
enum BotTexts {
    /// A call refused or deferred for the budget: the reasons, and the flood notice.
    static let refusals = [
        "слишком много запросов, попробуйте через минуту", "сервис погоды сейчас перегружен", "слишком много запросов подряд из этого чата",
        "запросы к сервису погоды на сегодня исчерпаны", "Слишком много сообщений подряд",
        "too many requests, try again in a minute", "the weather service is busy right now", "too many requests in a row from this chat",
        "today's requests to the weather service are spent", "Too many messages in a row",
    ] + chatDaySpent
    /// The chat told to slow down: its own share spent, or its messages dropped as a flood.
    static let slowDown = [
        "слишком много запросов подряд из этого чата", "Слишком много сообщений подряд", "too many requests in a row from this chat",
        "Too many messages in a row",
    ]
    static let question = ["Это ваш город?", "Is this your city?"]
    /// Every weather card has it.
    static let card = ["Ощущается как", "Feels like"]
    static let favorites = ["Избранное", "Favorites"]
    static let severalPlaces = ["Нашлось несколько мест", "Several places match"]
    static let citySaved = ["📍 Ваш город", "📍 Your city"]
    static let dailyForecast = ["Прогноз на сегодня", "Today's forecast"]
    /// The chat's share of the day is spent.
    static let chatDaySpent = ["израсходовал свою долю запросов", "used its share of today's requests"]

    static func says(_ text: String, _ any: [String]) -> Bool { any.contains { text.contains($0) } }
}
