public import Foundation
public import TelegramBotAPI

/// A daily forecast a chat asked for: a place, a local time there, and when it is next due.
public struct Subscription: Codable, Sendable, Hashable {
    public var id: Int64?
    public var chatId: Int64
    public var place: Place
    /// The place's zone in the stored form (`Europe/Moscow`, or `UTC+05:45` for a fixed offset).
    public var timeZone: String
    public var hour: Int
    public var minute: Int
    /// The next moment it is due, computed from the local date and time in its zone.
    public var nextSendAt: Date
    /// The local date (`yyyy-MM-dd` in the place's zone) of the last forecast sent, so each date gets one.
    public var lastSentDay: String?
    /// False while the chat has blocked the bot.
    public var isActive: Bool
    public var createdAt: Date
    /// Whether the forecast comes with the 48-hour chart (`/daily 8:00 chart`).
    public var withChart: Bool

    public init(
        id: Int64? = nil, chatId: Int64, place: Place, timeZone: String, hour: Int, minute: Int, nextSendAt: Date,
        lastSentDay: String? = nil, isActive: Bool = true, createdAt: Date = Date(), withChart: Bool = false
    ) {
        self.id = id
        self.chatId = chatId
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
    public var subscription: Subscription
    public var language: Language
    public var settings: ChatSettings

    public init(subscription: Subscription, language: Language, settings: ChatSettings = .defaults) {
        self.subscription = subscription
        self.language = language
        self.settings = settings
    }
}

/// What the scheduler decided for one due subscription, committed with the others of its batch.
public struct DailyDelivery: Sendable, Hashable {
    public var subscriptionID: Int64
    public var chatID: Int64
    /// The local date the forecast is for.
    public var day: String
    /// The forecast's messages (its text, and its chart when asked for); none when the day was
    /// skipped (missed for too long).
    public var requests: [BotRequest]
    /// When the subscription is due next.
    public var nextSendAt: Date

    public init(subscriptionID: Int64, chatID: Int64, day: String, requests: [BotRequest], nextSendAt: Date) {
        self.subscriptionID = subscriptionID
        self.chatID = chatID
        self.day = day
        self.requests = requests
        self.nextSendAt = nextSendAt
    }
}
