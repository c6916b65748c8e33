public import WeatherBot
public import WeatherBotStore

/// The conversation reads a chat's favorites and forecasts from the bot's store.
struct StoreChats: ChatStore {
    let store: any BotStore

    func favorites(of chatID: Int64) async throws -> [Favorite] {
        try await store.favorites(chatID: chatID)
    }

    func subscriptions(of chatID: Int64) async throws -> [Subscription] {
        try await store.subscriptions(chatID: chatID)
    }
}

extension BotDatabase: ChatStore {
    public func favorites(of chatID: Int64) async throws -> [Favorite] {
        try favorites(chatID: chatID)
    }

    public func subscriptions(of chatID: Int64) async throws -> [Subscription] {
        try subscriptions(chatID: chatID)
    }
}
