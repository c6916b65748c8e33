public import Logging
public import ServiceLifecycle
import Synchronization
public import TelegramBotAPI
public import WeatherBot
import WeatherBotStore

/// Inline mode: `@bot Казань` typed in any chat, and presses under the messages sent from its
/// results. Neither is a message, neither belongs to a chat, and an answer after a restart would
/// come too late to be seen: the intake hands them here as it reads them, before it stores the
/// rest, and they are never stored, queued behind chats' steps or paced with messages.
///
/// Clients send a query at every keystroke («Ка», «Каз», …, «Казань»). Each is answered at once
/// from the caches when they hold all it needs. One that needs a call waits ``settle`` for the
/// user's next keystroke first, and goes only while it is still the user's newest: typing a
/// name costs the calls of the name typed, not of every prefix.
///
/// A press under an inline message is answered at once; the message's new view goes through the
/// outbox's pacing (``OutboxSender/sendUnstored(key:_:)``), one edit of a message at a time, and
/// presses made while one is on its way leave only their latest view to send: a storm of presses
/// costs a few edits at the pace of a chat's messages, not one edit each.
public final class InlineResponder: Service, Sendable {
    let client: TelegramClient
    let outbox: OutboxSender
    let conversation: Conversation
    let logger: Logger
    let metrics: BotMetrics
    /// How long a query that needs OpenWeather waits for a newer one from the same user.
    let settle: Duration
    /// Queries and presses handled at once at most; more are dropped (Telegram shows nothing, and
    /// the user types again) rather than queued behind each other.
    let maximumInFlight: Int

    private let work: AsyncStream<Update>
    private let intake: AsyncStream<Update>.Continuation
    /// Each user's newest query, by the user.
    private let newest = Mutex<[Int64: String]>([:])
    private let inFlight = Mutex(0)
    /// The inline messages pressed: the newest press, and whether an edit is on its way with the
    /// view of a newer press waiting.
    private let editing = Mutex<[String: Editing]>([:])

    private struct Editing {
        /// The update id of the newest press whose view was offered: presses are handled at once,
        /// so an older one may come to its view after a newer one did.
        var newest: Int64
        var sending = false
        var waiting: EditInlineMessageText?
    }

    /// A responder answering through `client` and sending its edits through `outbox`'s pacing: a query that needs a call waits `settle`
    /// (half a second) for a newer one; past `maximumInFlight` at once, updates are dropped.
    public init(
        client: TelegramClient, outbox: OutboxSender, conversation: Conversation, logger: Logger = Logger(label: "weatherbot.inline"),
        metrics: BotMetrics = BotMetrics(), settle: Duration = .milliseconds(500), maximumInFlight: Int = 256
    ) {
        self.client = client
        self.outbox = outbox
        self.conversation = conversation
        self.logger = logger
        self.metrics = metrics
        self.settle = settle
        self.maximumInFlight = maximumInFlight
        (work, intake) = AsyncStream.makeStream(of: Update.self)
    }

    /// Takes an inline update (``Update/isInline``) to answer; returns at once.
    public func take(_ update: Update) {
        guard update.isInline else { return }
        let admitted = inFlight.withLock { count in
            guard count < maximumInFlight else { return false }
            count += 1
            return true
        }
        guard admitted else {
            metrics.inline("dropped")
            logger.warning("too many inline queries at once; one dropped")
            // A press is answered all the same: its button would spin.
            if let press = update.callbackQuery {
                let text = Texts.for(Language(telegramCode: press.from.languageCode)).tooManyPresses
                outbox.answerUnhandled([OutboxSender.UnhandledPress(queryID: press.id, text: text)])
            }
            return
        }
        if let query = update.inlineQuery {
            newest.withLock { $0[query.from.id] = query.id }
        }
        intake.yield(update)
    }

    /// Answers the updates ``take(_:)`` hands over, each in its own task, until graceful shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await update in self.work {
                    group.addTask {
                        var edit: EditInlineMessageText?
                        if let query = update.inlineQuery {
                            await self.answer(query)
                        } else if let press = update.callbackQuery, let message = press.inlineMessageID {
                            edit = await self.press(press, inlineMessageID: message)
                        }
                        // The edit waits for its pace outside the queries' and presses' room.
                        self.inFlight.withLock { $0 -= 1 }
                        if let edit { await self.show(edit, pressed: update.updateID) }
                    }
                }
            }
        }
    }

    /// Whether `query` is still its user's newest.
    private func isNewest(_ query: InlineQuery) -> Bool {
        newest.withLock { $0[query.from.id] == query.id }
    }

    /// Forgets the user's newest query once it is answered or dropped, unless a newer came.
    private func done(_ query: InlineQuery) {
        newest.withLock { if $0[query.from.id] == query.id { $0[query.from.id] = nil } }
    }

    func answer(_ query: InlineQuery) async {
        defer { done(query) }
        let started = ContinuousClock.now
        guard Conversation.answersInline(query.query) else { return metrics.inline("ignored") }
        // On the sender's behalf: their calls count against what one chat may spend (the
        // conversation pays them with the sender's id). First from the caches alone.
        var outcome = await conversation.answer(query, cachedOnly: true)
        if !outcome.complete {
            try? await Task.sleep(for: settle)
            guard isNewest(query) else { return metrics.inline("superseded") }
            outcome = await conversation.answer(query, cachedOnly: false)
        }
        guard let answer = outcome.answer else { return metrics.inline("ignored") }
        guard isNewest(query) else { return metrics.inline("superseded") }
        do throws(TelegramError) {
            try await client.answerInlineQuery(answer)
            metrics.inline(outcome.complete ? "answered" : "partial", took: ContinuousClock.now - started)
        } catch {
            metrics.inline("failed")
            if error.isQueryTooOld {
                logger.debug("inline query too old to answer")
            } else {
                logger.warning("could not answer an inline query", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Answers a press; returns the message's new view, to show.
    func press(_ press: CallbackQuery, inlineMessageID: String) async -> EditInlineMessageText? {
        let outcome = await conversation.pressInline(press.data, presserLanguage: Language(telegramCode: press.from.languageCode), presser: press.from.id)
        do throws(TelegramError) {
            _ = try await client.perform(.answerCallbackQuery(id: press.id, text: outcome.notice, showAlert: outcome.showAlert))
        } catch where error.isQueryTooOld {
            logger.debug("callback query too old to answer")
        } catch {
            logger.warning("could not answer a press of an inline message", metadata: ["error": "\(error)"])
        }
        metrics.inline("pressed")
        return outcome.edit.map { EditInlineMessageText(inlineMessageID: inlineMessageID, html: $0.text, replyMarkup: $0.keyboard) }
    }

    /// Shows `edit`, the view of the press in update `pressed`, unless a newer press's view was
    /// offered already; while an edit of the message is on its way it is left to that edit's
    /// sender, which sends the newest view left until none is.
    private func show(_ edit: EditInlineMessageText, pressed: Int64) async {
        let message = edit.inlineMessageID
        let sends = editing.withLock { editing in
            var entry = editing[message] ?? Editing(newest: pressed)
            guard pressed >= entry.newest else { return false }
            entry.newest = pressed
            if entry.sending {
                entry.waiting = edit
                editing[message] = entry
                return false
            }
            entry.sending = true
            editing[message] = entry
            // The newest presses of messages left alone are forgotten when many were pressed.
            if editing.count > 10_000 { editing = editing.filter(\.value.sending) }
            return true
        }
        guard sends else { return metrics.inline("merged") }
        var next: EditInlineMessageText? = edit
        while let view = next {
            await send(view)
            next = editing.withLock { editing in
                let waiting = editing[message]?.waiting
                editing[message]?.waiting = nil
                editing[message]?.sending = waiting != nil
                return waiting
            }
        }
    }

    /// Edits the message within the outbox's pacing; after a 429, the same view once Telegram's
    /// wait is over (a newer view pressed meanwhile is sent after it), three times at most.
    private func send(_ view: EditInlineMessageText) async {
        for attempt in 1...3 {
            do throws(TelegramError) {
                try await outbox.sendUnstored(key: view.inlineMessageID) { [client] () async throws(TelegramError) in
                    try await client.editInlineMessageText(view)
                }
                return
            } catch where error.isMessageNotModified {
                // The same view pressed again: nothing to change.
                return
            } catch where error.isRateLimited && attempt < 3 {
                continue
            } catch {
                logger.warning("could not edit an inline message", metadata: ["error": "\(error)"])
                return
            }
        }
    }
}
