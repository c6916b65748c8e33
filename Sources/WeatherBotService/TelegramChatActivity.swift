import Logging
import TelegramBotAPI
import WeatherBot

/// Shows «typing…» in a chat, without making the conversation wait for it.
public struct TelegramChatActivity: ChatActivity {
    let client: TelegramClient
    let logger: Logger

    public init(client: TelegramClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func typing(in chatID: Int64) async {
        let client = client
        let logger = logger
        Task {
            do {
                try await client.sendChatAction(chatID: chatID, action: .typing)
            } catch {
                logger.debug("typing indicator not shown", metadata: ["chat.id": "\(chatID)", "error": "\(error)"])
            }
        }
    }
}
