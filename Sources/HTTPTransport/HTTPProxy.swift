import Foundation

/// A proxy the API clients reach their servers through, as written in the configuration:
/// `http://[user:password@]host:port` or `socks5://host:port`.
///
/// Through an HTTP proxy every request goes in a `CONNECT` tunnel (both APIs are https); through
/// a SOCKS5 proxy the host name is sent to the proxy, which resolves it. SOCKS5 with a user name
/// and password is refused with a clear reason: the HTTP client speaks SOCKS5 without
/// authentication only.
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible {
    /// The protocol spoken to the proxy.
    public enum Kind: String, Sendable, Hashable {
        case http
        case socks5
    }

    /// Why a proxy setting cannot be used; the message is for the operator and never shows the password.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong, worded to follow the setting's name: «has the port 0, outside 1…65535».
        public var description: String
    }

    /// How requests go through the proxy: a `CONNECT` tunnel or SOCKS5.
    public var kind: Kind
    /// The proxy's host name or IP address; an IPv6 address without its square brackets.
    public var host: String
    /// The proxy's TCP port, 1 to 65535.
    public var port: Int
    /// The user name for an HTTP proxy's `Proxy-Authorization`; nil for none.
    public var username: String?
    /// The password that goes with `username`; nil for none. ``description`` never shows it.
    public var password: String?

    /// A proxy from its parts, taken as given; ``init(parsing:)`` is the one that checks them.
    public init(kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// Reads `http://[user:password@]host[:port]` (port 80 when left out) or
    /// `socks5://host[:port]` (`socks5h://` alike; port 1080 when left out).
    public init(parsing text: String) throws(Invalid) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A proxy is often written without its scheme, as curl allows: that means HTTP.
        let written = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: written), let scheme = components.scheme?.lowercased() else {
            throw Invalid(description: "is not a proxy URL such as http://host:3128 or socks5://host:1080")
        }
        guard let host = components.host, !host.isEmpty else {
            throw Invalid(description: "names no host (expected http://host:3128 or socks5://host:1080)")
        }
        let kind: Kind
        switch scheme {
        case "http": kind = .http
        case "socks5", "socks5h": kind = .socks5
        default:
            throw Invalid(description: "uses the scheme \(scheme)://; only http:// and socks5:// proxies are supported")
        }
        let port = components.port ?? (kind == .http ? 80 : 1080)
        guard (1...65_535).contains(port) else { throw Invalid(description: "has the port \(port), outside 1…65535") }
        let path = components.path
        // A `#` or `?` in a password must be percent-encoded, or the rest reads as something else.
        guard path.isEmpty || path == "/", components.query == nil, components.fragment == nil else {
            throw Invalid(description: "must be only a scheme, a host and a port, with no path or query")
        }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        let password = components.password
        if kind == .socks5 && (username != nil || password != nil) {
            throw Invalid(description: "has a user name or password, which SOCKS5 here does not support; use a SOCKS5 proxy without authentication, or an http:// proxy with one")
        }
        // Square brackets belong to the URL, not to the address.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(kind: kind, host: bare, port: port, username: username, password: password)
    }

    /// The proxy as written, its password replaced: safe for the log and `check-config`.
    public var description: String {
        var credentials = ""
        if let username {
            credentials = username + (password == nil ? "" : ":<redacted>") + "@"
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(kind.rawValue)://\(credentials)\(shownHost):\(port)"
    }

    /// Whether `NO_PROXY` (comma-separated host names, `.suffix` domains or `*`) exempts `host`.
    public static func isExempt(_ host: String, noProxy: String) -> Bool {
        let host = host.lowercased()
        for entry in noProxy.split(separator: ",") {
            var pattern = entry.trimmingCharacters(in: .whitespaces).lowercased()
            if pattern == "*" { return true }
            // A port in the entry does not matter for a name match.
            if let colon = pattern.lastIndex(of: ":"), !pattern.contains("]"), pattern.filter({ $0 == ":" }).count == 1 {
                pattern = String(pattern[..<colon])
            }
            if pattern.hasPrefix("*") { pattern.removeFirst() }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            guard !pattern.isEmpty else { continue }
            if host == pattern || host.hasSuffix("." + pattern) { return true }
        }
        return false
    }
}
