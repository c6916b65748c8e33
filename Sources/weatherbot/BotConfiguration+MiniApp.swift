import Foundation

extension BotConfiguration {
    /// The Mini App: the weather screens inside Telegram, served by the bot's HTTP server at `/app`.
    struct MiniApp: Sendable {
        /// The public address Telegram opens, which reaches this server's `/app`; nil for no app.
        var url: URL?

        init(reader: ConfigurationReader) {
            url = nil
            guard
                let text = reader.string(
                    "url", unset: "none: no app",
                    help: "the public https URL of the bot's /app page, which Telegram opens as its Mini App (http only for a loopback host, in tests)")
            else { return }
            url = Self.address(text)
            if url == nil {
                reader.refuse(
                    "error: MINI_APP_URL must be the public https URL of the bot's /app page, such as https://bot.example.com/app (http only for 127.0.0.1 or localhost); not \(text.debugDescription).")
            }
        }

        /// `text` as the app's address: https with a host, or http to this machine.
        static func address(_ text: String) -> URL? {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
                url.fragment == nil
            else { return nil }
            switch scheme {
            case "https": return url
            case "http": return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) ? url : nil
            default: return nil
            }
        }
    }
}
