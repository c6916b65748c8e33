import Foundation
import HTTPTransport

extension BotConfiguration {
    /// A proxy and where it came from, for the start-up log and `check-config`.
    struct ProxyChoice: Sendable, Equatable, CustomStringConvertible {
        var proxy: HTTPProxy?
        /// The setting that chose it: `TELEGRAM_PROXY`, `HTTPS_PROXY`, or why there is none.
        var source: String

        var description: String { proxy.map { "\($0) (from \(source))" } ?? "none (\(source))" }
    }

    /// A URL as printed: a password in it is redacted.
    static func shown(_ url: URL) -> String {
        guard let password = url.password(percentEncoded: true), !password.isEmpty else { return url.absoluteString }
        return url.absoluteString.redacting(password.removingPercentEncoding ?? password)
    }
}

extension ConfigurationReader {
    /// An http(s) URL; the default when the value is not one, which is refused.
    func httpURL(_ key: String, default defaultValue: String, help: String) -> URL {
        let text = string(key, default: defaultValue, help: help)
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            refuse("error: \(environment(of: key)) must be an http(s) URL, not \(text.debugDescription).")
            return URL(string: defaultValue)!
        }
        show(key, BotConfiguration.shown(url))
        return url
    }

    /// An API's proxy: its own key; else HTTPS_PROXY (or https_proxy) unless NO_PROXY names the
    /// API's host. `direct` in the API's key means no proxy, whatever HTTPS_PROXY says; empty is unset.
    /// The key is a secret: a proxy's URL may carry its password.
    func proxy(_ key: String, for url: URL, environment: [String: String], help: String) -> BotConfiguration.ProxyChoice {
        let choice = proxyChoice(string(key, unset: "HTTPS_PROXY, unless NO_PROXY names the host", isSecret: true, help: help), key, url, environment)
        show(key, "\(choice)")
        return choice
    }

    private func proxyChoice(_ own: String?, _ key: String, _ url: URL, _ environment: [String: String]) -> BotConfiguration.ProxyChoice {
        func parsed(_ text: String, _ source: String) -> BotConfiguration.ProxyChoice {
            do {
                return .init(proxy: try HTTPProxy(parsing: text), source: source)
            } catch {
                refuse("error: \(source) \(error.description).")
                return .init(proxy: nil, source: source)
            }
        }
        let name = self.environment(of: key)
        if let own {
            if own.lowercased() == "direct" { return .init(proxy: nil, source: "\(name) says direct") }
            return parsed(own, name)
        }
        let variable = ["HTTPS_PROXY", "https_proxy"].first { !(environment[$0] ?? "").isEmpty }
        guard let variable, let shared = environment[variable] else { return .init(proxy: nil, source: "not set") }
        let noProxy = environment["NO_PROXY"] ?? environment["no_proxy"] ?? ""
        if let host = url.host, HTTPProxy.isExempt(host, noProxy: noProxy) {
            return .init(proxy: nil, source: "NO_PROXY exempts \(host)")
        }
        return parsed(shared, variable)
    }
}
