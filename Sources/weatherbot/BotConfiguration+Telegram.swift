import Foundation

extension BotConfiguration {
    /// The Bot API: the token, where the API is and through which proxy, and webhook mode.
    struct Telegram: Sendable {
        var botToken: String
        var apiURL: URL
        /// Where requests to the Bot API go through.
        var proxy: ProxyChoice
        /// Webhook mode instead of polling: Telegram posts updates to this URL, which the reverse
        /// proxy in front passes to `http.listen`.
        var webhook: Webhook?

        init(reader: ConfigurationReader, environment: [String: String]) {
            botToken = reader.string("botToken", unset: nil, isSecret: true, help: "the bot's token from @BotFather") ?? ""
            if botToken.isEmpty {
                reader.refuse(
                    "error: the Telegram bot token is not set. Set TELEGRAM_BOT_TOKEN (from @BotFather), or telegram.botToken in the --config file.")
            }
            apiURL = reader.httpURL(
                "apiURL", default: "https://api.telegram.org", help: "base URL of the Bot API (a Bot API server of one's own, a test fake)")
            proxy = reader.proxy(
                "proxy", for: apiURL, environment: environment,
                help: "the proxy for the Bot API: http://[user:password@]host:port or socks5://host:port; direct for none")
            webhook = Webhook(reader: reader, apiURL: apiURL)
        }
    }

    /// How Telegram reaches the bot in webhook mode.
    struct Webhook: Sendable {
        /// The public URL; its path is the one the HTTP server takes updates on.
        var url: URL
        /// `TELEGRAM_WEBHOOK_SECRET`; nil for one generated once and kept in the database.
        var secret: String?
        var maxConnections: Int

        /// The webhook's keys of the `telegram` section; nil when `webhookURL` is unset (polling)
        /// or refused.
        init?(reader: ConfigurationReader, apiURL: URL) {
            let text = reader.string(
                "webhookURL", unset: "none: polling",
                help: "the public https URL Telegram posts updates to, instead of polling; the reverse proxy passes it on to HTTP_LISTEN")
            let secret = reader.string(
                "webhookSecret", unset: "generated, kept in the database", isSecret: true,
                help: "the secret Telegram sends with each post, 1 to 256 of A-Z a-z 0-9 _ -")
            if let secret, !Self.isValidSecret(secret) {
                reader.refuse("error: TELEGRAM_WEBHOOK_SECRET must be 1 to 256 of the characters A-Z, a-z, 0-9, _ and -, as Telegram requires.")
            }
            let maxConnections = reader.int("webhookMaxConnections", default: 40, help: "requests Telegram makes at once, 1 to 100")
            if !(1...100).contains(maxConnections) {
                reader.refuse("error: TELEGRAM_WEBHOOK_MAX_CONNECTIONS must be between 1 and 100, not \(maxConnections).")
            }
            guard let text else {
                reader.show("webhookSecret", "(not used)")
                reader.show("webhookMaxConnections", "(not used)")
                return nil
            }
            // Telegram posts to https only; a Bot API server of one's own (TELEGRAM_API_URL) also to http.
            let schemes = apiURL.host == "api.telegram.org" ? ["https"] : ["https", "http"]
            // And only to these ports.
            let ports = apiURL.host == "api.telegram.org" ? [443, 80, 88, 8443] : nil
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme), url.host != nil else {
                reader.refuse(
                    "error: TELEGRAM_WEBHOOK_URL must be the public \(schemes.joined(separator: " or ")) URL Telegram posts to, such as https://bot.example.com/telegram; not \(text.debugDescription).")
                return nil
            }
            if let ports, let port = url.port, !ports.contains(port) {
                reader.refuse(
                    "error: TELEGRAM_WEBHOOK_URL must use a port Telegram posts to (443, 80, 88 or 8443), not \(port); the reverse proxy passes it on to HTTP_LISTEN.")
            }
            reader.show("webhookURL", BotConfiguration.shown(url))
            if secret == nil { reader.show("webhookSecret", "(generated, kept in the database)") }
            self.url = url
            self.secret = secret.flatMap { Self.isValidSecret($0) ? $0 : nil }
            self.maxConnections = maxConnections
        }

        /// The path Telegram's requests come to.
        var path: String { url.path.isEmpty ? "/" : url.path }

        /// What Telegram allows in a secret token.
        static func isValidSecret(_ text: String) -> Bool {
            (1...256).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }
}
