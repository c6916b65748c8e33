public import Foundation
public import TelegramBotAPI

/// A daily forecast a chat asked for: a place, a local time there, and when it is next due.
public struct Subscription: Codable, Sendable, Hashable {
    /// The row's id, which the /daily list's buttons name; nil until the store inserts it.
    public var id: Int64?
    /// The Telegram chat the forecast goes to.
    public var chatID: Int64
    /// Where the forecast is for.
    public var place: Place
    /// The place's zone in the stored form (`Europe/Moscow`, or `UTC+05:45` for a fixed offset).
    public var timeZone: String
    /// The local hour it is sent at, 0…23, in `timeZone`.
    public var hour: Int
    /// The minute of that hour, 0…59.
    public var minute: Int
    /// The next moment it is due, computed from the local date and time in its zone.
    public var nextSendAt: Date
    /// The local date (`yyyy-MM-dd` in the place's zone) of the last forecast sent, so each date gets one.
    public var lastSentDay: String?
    /// False while the chat has blocked the bot.
    public var isActive: Bool
    /// When the chat asked for it.
    public var createdAt: Date
    /// Whether the forecast comes with the 48-hour chart (`/daily 8:00 chart`).
    public var withChart: Bool

    /// A daily forecast to store or as read; `id` stays nil until the store gives one.
    public init(
        id: Int64? = nil, chatID: Int64, place: Place, timeZone: String, hour: Int, minute: Int, nextSendAt: Date,
        lastSentDay: String? = nil, isActive: Bool = true, createdAt: Date = Date(), withChart: Bool = false
    ) {
        self.id = id
        self.chatID = chatID
        self.place = place
        self.timeZone = timeZone
        self.hour = hour
        self.minute = minute
        self.nextSendAt = nextSendAt
        self.lastSentDay = lastSentDay
        self.isActive = isActive
        self.createdAt = createdAt
        self.withChart = withChart
    }
}

/// A subscription that is due, with the language and settings of its chat.
public struct DueSubscription: Sendable, Hashable {
    /// The subscription as stored.
    public var subscription: Subscription
    /// The language its chat is spoken to in, for the forecast's words.
    public var language: Language
    /// Its chat's units and clock.
    public var settings: ChatSettings

    /// A due subscription with its chat's language and settings, as the store reads them.
    public init(subscription: Subscription, language: Language, settings: ChatSettings = .defaults) {
        self.subscription = subscription
        self.language = language
        self.settings = settings
    }
}

/// What the scheduler decided for one due subscription, committed with the others of its batch.
public struct DailyDelivery: Sendable, Hashable {
    /// The subscription decided for.
    public var subscriptionID: Int64
    /// The Telegram chat it belongs to.
    public var chatID: Int64
    /// The local date the forecast is for.
    public var day: String
    /// The forecast's messages (its text, and its chart when asked for); none when the day was
    /// skipped (missed for too long).
    public var requests: [BotRequest]
    /// When the subscription is due next.
    public var nextSendAt: Date

    /// A decision to commit: the day it covers, what to send, and when it is due next.
    public init(subscriptionID: Int64, chatID: Int64, day: String, requests: [BotRequest], nextSendAt: Date) {
        self.subscriptionID = subscriptionID
        self.chatID = chatID
        self.day = day
        self.requests = requests
        self.nextSendAt = nextSendAt
    }
}
