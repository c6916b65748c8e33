public import Foundation
public import TelegramBotAPI

/// A store that commits a batch of updates together with the steps already made of some of them:
/// one transaction stores the batch, moves the offset and keeps those steps' records, changes,
/// replies and follow-ups, in place of one transaction for the batch and one for each step.
///
/// On a quiet day an update is stepped within microseconds of its arrival, and its receipt and
/// its step would each cost a sync; together they cost one. The guarantees are a receipt's and a
/// step's: the offset moves only with the batch stored (every update of it either in the inbox
/// or stepped), and a step's replies are committed before they are sent.
public protocol ReceivesSteps: BotStore {
    /// Stores a batch as ``BotStore/receive(_:lastUpdateID:rebasing:at:)`` does, but an update
    /// with a step in `steps` goes in as that step (``BotStore/commitStep(chat:handled:changes:replies:followUps:at:)``
    /// without an inbox item), and one in `skipping` not at all (nothing in it to handle). All in
    /// one transaction.
    func receive(
        _ updates: [(updateID: Int64, chatID: Int64?, payload: Data)], steps: [ReceivedStep], skipping: Set<Int64>, lastUpdateID: Int64,
        rebasing: Bool, at now: Date
    ) async throws -> Receipt
}

/// The step of an update whose batch was not stored yet, to be committed with it.
public struct ReceivedStep: Sendable {
    /// The Telegram update the step was made of.
    public var updateID: Int64
    /// The chat's record after the step, as it is to be stored.
    public var chat: ChatRecord
    /// Favorites and daily forecasts the step changed, committed with it.
    public var changes: [ChatChange]
    /// The step's replies, to go into the outbox.
    public var replies: [BotRequest]
    /// Payloads of follow-ups the step scheduled, to go into the inbox.
    public var followUps: [Data]

    /// A step made before its batch was stored, ready to commit with it.
    public init(updateID: Int64, chat: ChatRecord, changes: [ChatChange], replies: [BotRequest], followUps: [Data]) {
        self.updateID = updateID
        self.chat = chat
        self.changes = changes
        self.replies = replies
        self.followUps = followUps
    }
}

/// What a batch's transaction wrote: the inbox items of the updates it stored without a step, in
/// order, and what each step committed, by update id. An update at or below the stored offset
/// (delivered before) is in neither, and its step was not committed.
public struct Receipt: Sendable {
    /// The inbox items of the batch's updates stored without a step, in the order received.
    public var items: [InboxItem]
    /// What each committed step wrote (its replies' outbox ids, its follow-ups), by update id.
    public var steps: [Int64: CommittedStep]

    /// What a batch's transaction wrote, as the store reports it.
    public init(items: [InboxItem], steps: [Int64: CommittedStep]) {
        self.items = items
        self.steps = steps
    }
}
