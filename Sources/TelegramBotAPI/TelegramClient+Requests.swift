// The requests of the methods the client makes on its own behalf: identity, the way updates come
// (long polling or a webhook), the command menu, members, and chat actions.

struct GetMe: TelegramRequest {
    static let method = "getMe"
}

struct DeleteWebhook: TelegramRequest {
    static let method = "deleteWebhook"

    var dropPendingUpdates: Bool

    enum CodingKeys: String, CodingKey {
        case dropPendingUpdates = "drop_pending_updates"
    }
}

struct SetWebhook: TelegramRequest {
    static let method = "setWebhook"

    var url: String
    var secretToken: String
    var maxConnections: Int
    var allowedUpdates: [String]

    enum CodingKeys: String, CodingKey {
        case url, secretToken = "secret_token", maxConnections = "max_connections", allowedUpdates = "allowed_updates"
    }
}

struct GetWebhookInfo: TelegramRequest {
    static let method = "getWebhookInfo"
}

struct GetUpdates: TelegramRequest {
    static let method = "getUpdates"

    var offset: Int64?
    var limit: Int
    var timeout: Int
    var allowedUpdates: [String]

    enum CodingKeys: String, CodingKey {
        case offset, limit, timeout, allowedUpdates = "allowed_updates"
    }
}

struct SetMyCommands: TelegramRequest {
    static let method = "setMyCommands"

    var commands: [BotCommand]
    var languageCode: String?

    enum CodingKeys: String, CodingKey {
        case commands, languageCode = "language_code"
    }
}

struct SetChatMenuButton: TelegramRequest {
    static let method = "setChatMenuButton"

    struct MenuButton: Encodable {
        var type = "web_app"
        var text: String
        var webApp: WebAppInfo

        enum CodingKeys: String, CodingKey {
            case type, text, webApp = "web_app"
        }
    }

    var menuButton: MenuButton

    enum CodingKeys: String, CodingKey {
        case menuButton = "menu_button"
    }
}

struct GetChatMember: TelegramRequest {
    static let method = "getChatMember"

    var chatID: Int64
    var userID: Int64

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", userID = "user_id"
    }
}

struct SendChatAction: TelegramRequest {
    static let method = "sendChatAction"

    var chatID: Int64
    var action: String

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", action
    }
}
