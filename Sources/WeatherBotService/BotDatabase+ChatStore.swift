public import WeatherBot
public import WeatherBotStore

/// The conversation reads a chat's favorites and forecasts from the bot's database.
extension BotDatabase: ChatStore {
    public func favorites(of chatID: Int64) async throws -> [Favorite] {
        try favorites(chatID: chatID)
    }

    public func subscriptions(of chatID: Int64) async throws -> [Subscription] {
        try subscriptions(chatID: chatID)
    }
}
