import Foundation
import HTTPTransport
import OpenWeather

/// A GET of one JSON answer over the transport, its failures told as OpenWeather's errors so that
/// the bot words them the same whichever source failed. Both Open-Meteo's and Nominatim's calls
/// go through it.
struct JSONGet: Sendable {
    var transport: any HTTPTransport
    var timeout: Duration
    var headers: [String: String] = ["Accept": "application/json"]

    /// RFC 3986's unreserved characters, the only ones a query value keeps as they are.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes a query value: every byte but the unreserved characters (`+` included,
    /// which servers read as a space).
    static func queryEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// A coordinate to four places (about 11 m), as the OpenWeather client sends it.
    static func coordinate(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    /// The request's URL: `path` under `base` (which may have a path of its own), the query in
    /// the order given.
    static func url(_ base: URL, _ path: String, _ query: KeyValuePairs<String, String>) -> URL? {
        guard var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedQueryItems = query.map { URLQueryItem(name: $0.key, value: queryEncoded($0.value)) }
        return components.url
    }

    /// Gets `path` under `base` and decodes the answer, checking its numbers when it can.
    func get<Body: Decodable>(
        _ base: URL, _ path: String, _ query: KeyValuePairs<String, String>, badRequestIsNotFound: Bool = true
    ) async throws(OpenWeatherError) -> Body {
        guard let url = Self.url(base, path, query) else {
            throw OpenWeatherError(code: .undecodable, endpoint: path, message: "could not build the request")
        }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(url: url, headers: headers, timeout: timeout))
        } catch {
            throw OpenWeatherError(code: .network, endpoint: path, message: error.description)
        }
        guard response.status == 200 else {
            throw Self.error(status: response.status, body: response.body, endpoint: path, badRequestIsNotFound: badRequestIsNotFound)
        }
        return try decodePlausible(from: response.body, endpoint: path)
    }

    /// The error an answer other than 200 means, as OpenWeather's client maps its own: 404 not
    /// found, 429 rate limited, 5xx the server's. Open-Meteo answers 400 to a request it cannot
    /// serve (a latitude out of range, a variable it does not know), its reason in the body: a
    /// wrong request, an unexpected status, except where `badRequestIsNotFound` (a search for a
    /// name it cannot look up, and Nominatim's). The message is the server's reason when it gave
    /// one.
    static func error(status: Int, body: Data, endpoint: String, badRequestIsNotFound: Bool = true) -> OpenWeatherError {
        let message = (try? JSONDecoder().decode(ErrorBody.self, from: body))?.text ?? "HTTP \(status)"
        let code: OpenWeatherError.Code =
            switch status {
            case 400 where !badRequestIsNotFound: .unexpectedStatus(400)
            case 400, 404: .notFound
            case 429: .rateLimited
            case 500...599: .server(status)
            default: .unexpectedStatus(status)
            }
        return OpenWeatherError(code: code, endpoint: endpoint, message: String(message.prefix(200)))
    }
}

extension Optional where Wrapped == CallBudget {
    /// Waits for a slot of `endpoint` in the budget, paid as `context` says; nil admits at once.
    func admit(_ context: CallContext, to endpoint: OpenWeatherEndpoint, path: String) async throws(OpenWeatherError) {
        guard let budget = self else { return }
        do {
            try await budget.acquire(context, for: endpoint)
        } catch {
            throw OpenWeatherError(
                code: .overBudget(error.refusal), endpoint: path, message: "over the bot's budget", refusedLocally: true,
                chatToldAlready: error.repeated)
        }
    }
}
