extension OutboxSender {
    /// How fast and how much the sender sends; each default is here and only here.
    public struct Configuration: Sendable {
        /// Telegram's limits the outbox keeps to: messages a second overall (about 30; up to 1000
        /// with paid broadcasts) and per chat.
        public var messagesPerSecond: Double
        /// Messages a second to one chat, on average (Telegram allows about one).
        public var messagesPerSecondPerChat: Double
        /// The share of `messagesPerSecond` bulk messages (daily forecasts) keep while chats take the rest.
        public var bulkShare: Double
        /// Requests under way at once; a crash repeats at most these (one message per chat).
        public var maximumMessagesInFlight: Int
        /// Answers to button presses dropped in a flood sent at once; they share the connections with the messages.
        public var maximumAnswersInFlight: Int
        /// Attempts at one reply before it is dropped.
        public var maximumAttempts: Int
        /// How long a graceful shutdown keeps sending.
        public var drainTimeout: Duration
        /// The most replies of each lane held in memory; the rest wait in the table.
        public var window: Int
        /// The most replies of one chat held in memory per lane: one chat's flood never fills the
        /// window; the rest of its replies wait in the table.
        public var chatShare: Int
        /// How long a delivered reply's removal may wait for another commit (a chat's step) to
        /// share, when no reply waits for it: on a quiet day one transaction and one sync less
        /// per reply. The slot it frees stays taken meanwhile, so a crash still repeats no more.
        public var completionLinger: Duration

        /// Each default keeps to Telegram's limits without paid broadcasts: 30 messages a second overall, one per chat.
        public init(
            messagesPerSecond: Double = 30,
            messagesPerSecondPerChat: Double = 1,
            bulkShare: Double = 0.2,
            maximumMessagesInFlight: Int = 32,
            maximumAnswersInFlight: Int = 16,
            maximumAttempts: Int = 10,
            drainTimeout: Duration = .seconds(10),
            window: Int = 10_000,
            chatShare: Int = 100,
            completionLinger: Duration = .milliseconds(250)
        ) {
            self.messagesPerSecond = messagesPerSecond
            self.messagesPerSecondPerChat = messagesPerSecondPerChat
            self.bulkShare = bulkShare
            self.maximumMessagesInFlight = maximumMessagesInFlight
            self.maximumAnswersInFlight = maximumAnswersInFlight
            self.maximumAttempts = maximumAttempts
            self.drainTimeout = drainTimeout
            self.window = window
            self.chatShare = chatShare
            self.completionLinger = completionLinger
        }
    }
}
