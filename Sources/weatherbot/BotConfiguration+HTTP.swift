import WeatherBotHTTP

extension BotConfiguration {
    /// The operators' HTTP endpoints (`/healthz`, `/metrics`), and the webhook's.
    struct HTTP: Sendable {
        /// Where the server listens; nil for no server.
        var listen: (host: String, port: Int)?
        /// Connections one client address may hold at once.
        var connectionsPerAddress: Int
        /// Seconds a connection may take to send a whole request head.
        var headTimeout: Int

        init(reader: ConfigurationReader) {
            listen = nil
            if let text = reader.string(
                "listen", unset: "none", help: "host:port for /healthz and /metrics (and the webhook), such as 0.0.0.0:8080")
            {
                listen = Self.listenAddress(text)
                if listen == nil {
                    reader.refuse("error: HTTP_LISTEN must be host:port, such as 0.0.0.0:8080 or 127.0.0.1:9090, not \(text.debugDescription).")
                }
            }
            connectionsPerAddress = reader.int(
                "connectionsPerAddress", default: 128,
                help: "connections one client address may hold at once (a reverse proxy's too), more than TELEGRAM_WEBHOOK_MAX_CONNECTIONS")
            if connectionsPerAddress < 1 {
                reader.refuse("error: HTTP_CONNECTIONS_PER_ADDRESS must be at least 1, not \(connectionsPerAddress).")
            }
            headTimeout = reader.int("headTimeout", default: 10, help: "seconds a connection may take to send a whole request head")
            if headTimeout < 1 {
                reader.refuse("error: HTTP_HEAD_TIMEOUT must be at least 1 second, not \(headTimeout).")
            }
            if listen == nil {
                reader.show("connectionsPerAddress", "(not used)")
                reader.show("headTimeout", "(not used)")
            }
        }

        /// What the server lets any one client hold.
        var limits: ServerLimits {
            ServerLimits(headTimeout: .seconds(headTimeout), connectionsPerAddress: connectionsPerAddress)
        }

        /// `host:port` (the host may be an IPv6 address in brackets), or nil when it is not one.
        static func listenAddress(_ text: String) -> (host: String, port: Int)? {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
            return (host, port)
        }
    }
}
