import HTTPTransport
import Synchronization
import WeatherBotStore

/// A batch the intake took and has not stored yet, on a quiet day: its items go to their chats at
/// once, and the steps made of them before the batch is stored are committed with it, in one
/// transaction (``ReceivesSteps``) instead of one for the batch and one for each step.
///
/// The intake waits a moment for the steps (``waitForSteps(atMost:)``), then stores the batch
/// with the steps that came (``close()``, then ``end(_:)``). A step that comes later is told the
/// inbox item its update was stored as, and commits as any step does; one whose batch could not
/// be stored is dropped with nothing sent, since its update was not confirmed and comes again.
final class PendingReceipt: Sendable {
    /// What became of a step offered to the batch.
    enum Outcome: Sendable {
        /// Committed with the batch.
        case committed(CommittedStep)
        /// The batch was stored before the step came: its update is the inbox item `seq`.
        case stored(seq: Int64)
        /// Not stored: the batch failed, or the update had been taken before.
        case dropped
    }

    private struct State {
        /// Updates whose step has not come and that were not skipped.
        var waiting: Set<Int64>
        var steps: [ReceivedStep] = []
        var answers: [Int64: CheckedContinuation<Outcome, Never>] = [:]
        var skipped: Set<Int64> = []
        /// Set by ``close()``: steps that come from then on wait for ``end(_:)``.
        var closed = false
        /// Set by ``end(_:)``.
        var receipt: Receipt?
        var failed = false
        var late: [Int64: CheckedContinuation<Outcome, Never>] = [:]
        /// The intake, waiting for the last step.
        var intake: CheckedContinuation<Void, Never>?

        mutating func takeIntake() -> CheckedContinuation<Void, Never>? {
            defer { intake = nil }
            return intake
        }
    }

    private let state: Mutex<State>

    init(updateIDs: some Sequence<Int64>) {
        state = Mutex(State(waiting: Set(updateIDs)))
    }

    /// Offers the step of one of the batch's updates; returns once the batch is stored or failed.
    func offer(_ step: ReceivedStep) async -> Outcome {
        await withCheckedContinuation { continuation in
            let (outcome, intake) = state.withLock { state -> (Outcome?, CheckedContinuation<Void, Never>?) in
                if state.receipt != nil || state.failed { return (Self.outcome(of: step.updateID, state), nil) }
                if state.closed {
                    state.late[step.updateID] = continuation
                    return (nil, nil)
                }
                state.steps.append(step)
                state.answers[step.updateID] = continuation
                state.waiting.remove(step.updateID)
                return (nil, state.waiting.isEmpty ? state.takeIntake() : nil)
            }
            intake?.resume()
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// One of the batch's updates has no step to offer (nothing in it to handle, or its chat's
    /// flood dropped it): the batch is stored without it. Returns the inbox item it became when
    /// the batch was stored before, for the caller to remove; nil when there is none.
    func skip(_ updateID: Int64) async -> Int64? {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let (outcome, intake) = state.withLock { state -> (Outcome?, CheckedContinuation<Void, Never>?) in
                if state.receipt != nil || state.failed { return (Self.outcome(of: updateID, state), nil) }
                if state.closed {
                    state.late[updateID] = continuation
                    return (nil, nil)
                }
                state.skipped.insert(updateID)
                state.waiting.remove(updateID)
                return (.dropped, state.waiting.isEmpty ? state.takeIntake() : nil)
            }
            intake?.resume()
            if let outcome { continuation.resume(returning: outcome) }
        }
        if case .stored(let seq) = outcome { return seq }
        return nil
    }

    /// The batch does not wait for the step of this update (it waits behind others): the update
    /// is stored as an inbox item, and its step commits when its turn comes.
    func release(_ updateID: Int64) {
        let intake = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.waiting.remove(updateID) != nil else { return nil }
            return state.waiting.isEmpty ? state.takeIntake() : nil
        }
        intake?.resume()
    }

    /// Waits until every update's step came or was skipped, or for `wait` at most (on the
    /// loop's own timer).
    func waitForSteps(atMost wait: Duration) async {
        let timer = Mutex<LoopTimer?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.waiting.isEmpty || state.closed { return true }
                state.intake = continuation
                return false
            }
            if now { return continuation.resume() }
            timer.withLock {
                $0 = LoopExecutor.shared.schedule(after: wait) { self.state.withLock { $0.takeIntake() }?.resume() }
            }
        }
        timer.withLock { $0 }?.cancel()
    }

    /// Takes the steps offered so far and the updates skipped, to store with the batch; steps that
    /// come from now on wait for the outcome.
    func close() -> (steps: [ReceivedStep], skipping: Set<Int64>) {
        let (steps, skipped, intake) = state.withLock { state in
            state.closed = true
            return (state.steps, state.skipped, state.takeIntake())
        }
        intake?.resume()
        return (steps, skipped)
    }

    /// The batch was stored (`receipt`) or could not be (nil): every step waiting is told.
    func end(_ receipt: Receipt?) {
        let answers = state.withLock { state -> [(CheckedContinuation<Outcome, Never>, Outcome)] in
            state.closed = true
            if let receipt { state.receipt = receipt } else { state.failed = true }
            let all = state.answers.merging(state.late) { first, _ in first }
            state.answers = [:]
            state.late = [:]
            return all.map { ($0.value, Self.outcome(of: $0.key, state)) }
        }
        for (continuation, outcome) in answers { continuation.resume(returning: outcome) }
    }

    private static func outcome(of updateID: Int64, _ state: State) -> Outcome {
        guard let receipt = state.receipt else { return .dropped }
        if let committed = receipt.steps[updateID] { return .committed(committed) }
        if let seq = receipt.items.first(where: { $0.updateID == updateID })?.seq { return .stored(seq: seq) }
        return .dropped
    }
}
