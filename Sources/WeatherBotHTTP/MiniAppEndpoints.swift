import Foundation
import HTTPTypes
import HummingbirdCore
public import Hummingbird
public import Logging
import NIOCore
public import WeatherBot
public import WeatherBotService
public import WeatherBotStore

/// The Mini App on the bot's own server: its page at `/app` (with its script and style), and the
/// screens it asks for at `/app/api/…`. Every API request carries Telegram's signed launch
/// parameters (`Authorization: tma <initData>`), checked before anything is read; a screen is
/// always of the signed user's own private chat, drawn by the chat's conversation.
public struct MiniAppEndpoints: Sendable {
    let authenticator: MiniAppAuthenticator
    let conversation: Conversation
    let store: any ChatStore
    let changes: AppChanges
    let logger: Logger
    /// Each user's pace through the API.
    let limit = MiniAppRequestLimit()

    /// - Parameters:
    ///   - authenticator: checks each request's launch parameters against the bot's token.
    ///   - conversation: draws the screens as the chat's messages are drawn.
    ///   - store: where the user's private chat is read.
    ///   - changes: makes the app's changes as steps of the chat.
    public init(authenticator: MiniAppAuthenticator, conversation: Conversation, store: any ChatStore, changes: AppChanges, logger: Logger) {
        self.authenticator = authenticator
        self.conversation = conversation
        self.store = store
        self.changes = changes
        self.logger = logger
    }

    /// The largest body of a change: a few dozen bytes of JSON.
    static let actionBodyLimit = 4096

    /// The paths the app is served at.
    public func add(to router: Router<BasicRequestContext>) {
        router.get("app") { request, _ in
            // The page's addresses are relative to `…/app`: with a slash after it they would miss.
            if request.uri.path.hasSuffix("/") { return Response(status: .movedPermanently, headers: [.location: "../app"]) }
            return Self.asset(MiniAppPage.html, type: "text/html; charset=utf-8")
        }
        router.get("app/app.js") { _, _ in Self.asset(MiniAppPage.script, type: "text/javascript; charset=utf-8") }
        router.get("app/app.css") { _, _ in Self.asset(MiniAppPage.style, type: "text/css; charset=utf-8") }
        router.get("app/api/screen/:screen") { request, context in
            await screen(request, named: context.parameters.get("screen") ?? "", at: Date())
        }
        router.post("app/api/action") { request, _ in await action(request, at: Date()) }
    }

    /// What the app posts to change the chat, and the screen it shows, to be drawn again after
    /// the change: `{"action": "delete", "id": 12, "screen": "favorites"}`,
    /// `{"action": "move", "id": 12, "to": 1, …}`, `{"action": "add", "place": "q=Казань&pick=0", …}`
    /// (or `"city"`, to make it the chat's city),
    /// a settings button `{"action": "press", "data": "t:f:…", …}`, what a settings field took
    /// `{"action": "daily", "text": "8:00", …}` or `{"action": "quiet", "text": "23-7", …}`;
    /// `query` is the shown screen's query.
    struct Posted: Decodable {
        var action: String
        var id: Int64?
        var to: Int?
        var place: String?
        var data: String?
        var text: String?
        var screen: String
        var query: String?
    }

    /// The longest a typed field is taken: a time and a number, or a span of hours.
    static let typedLimit = 40

    /// A change of the signed user's private chat, made as its step (``AppChanges``); the answer
    /// is the screen the app showed, drawn as the chat holds it after the change. 400 for a change
    /// or a screen there is not.
    func action(_ request: Request, at now: Date) async -> Response {
        let user: MiniAppUser
        switch authenticate(request, at: now) {
        case .success(let found): user = found
        case .failure(let refusal): return refusal.response
        }
        guard let body = try? await request.body.collect(upTo: Self.actionBodyLimit),
            let posted = try? JSONDecoder().decode(Posted.self, from: Data(body.readableBytesView)),
            let screen = Self.screen(named: posted.screen, Self.parameters(posted.query ?? ""))
        else { return Self.json(error: "the body is no change", status: .badRequest) }
        let action: AppAction
        switch (posted.action, posted.id, posted.to, posted.place.map { Self.place(Self.parameters($0)) }) {
        case ("delete", let id?, nil, nil): action = .deleteFavorite(id: id)
        case ("move", let id?, let position?, nil): action = .moveFavorite(id: id, to: position)
        case (let verb, nil, nil, let wanted??) where verb == "add" || verb == "city":
            // The place is found again here, as the screen found it: the app names it, never sends it.
            guard let place = await conversation.appLookUp(wanted, chat: try? await store.chat(user.id), userID: user.id, languageCode: user.languageCode)
            else { return await page(screen, for: user) }
            action = verb == "add" ? .addFavorite(place) : .makeCity(place)
        case ("press", nil, nil, nil) where posted.data.map({ !$0.isEmpty && $0.utf8.count <= 64 }) == true:
            action = .press(posted.data ?? "")
        case ("daily", nil, nil, nil) where Self.isTyped(posted.text):
            action = .daily(posted.text ?? "")
        case ("quiet", nil, nil, nil) where Self.isTyped(posted.text):
            action = .quietHours(posted.text ?? "")
        default: return Self.json(error: "no such change", status: .badRequest)
        }
        do {
            if try await !changes.make(action, chatID: user.id, language: Language(telegramCode: user.languageCode)) {
                logger.warning("an app change was not handled in time; it stays in the chat's inbox", metadata: ["chat.id": "\(user.id)"])
            }
        } catch {
            logger.error("the app could not store a change", metadata: ["chat.id": "\(user.id)", "error": "\(error)"])
            return Self.json(error: "the change could not be stored; try again", status: .serviceUnavailable)
        }
        return await page(screen, for: user)
    }

    /// Whether a settings field's text can be taken: some words, not a paragraph.
    static func isTyped(_ text: String?) -> Bool {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines) else { return false }
        return !text.isEmpty && text.count <= typedLimit
    }

    /// A query's parameters, each value decoded (Hummingbird's reading of a URI's query).
    static func parameters(_ uri: URI) -> [String: String] {
        var parameters: [String: String] = [:]
        for (key, value) in uri.queryParameters { parameters[String(key)] = String(value) }
        return parameters
    }

    /// The parameters of a query the page sends in a body (`q=…&pick=…`).
    static func parameters(_ query: String) -> [String: String] {
        parameters(URI("?" + query))
    }

    /// A screen of the signed user's private chat: 200 with its HTML fragment, 401 when the
    /// launch parameters are missing, forged or too old, 404 for a screen there is not.
    func screen(_ request: Request, named name: String, at now: Date) async -> Response {
        let user: MiniAppUser
        switch authenticate(request, at: now) {
        case .success(let found): user = found
        case .failure(let refusal): return refusal.response
        }
        guard let screen = Self.screen(named: name, Self.parameters(request.uri)) else { return Self.json(error: "no such screen", status: .notFound) }
        return await page(screen, for: user)
    }

    /// The screen a path and its query name: `weather` (`favorite=ID` for a favorite's),
    /// `place` (`q=…&pick=N` or `lat=…&lon=…`), `favorites`, `search` (`q=…`); nil for none.
    static func screen(named name: String, _ parameters: [String: String]) -> AppScreen? {
        switch name {
        case "weather":
            guard let favorite = parameters["favorite"] else { return .weather(favorite: nil) }
            return Int64(favorite).map { .weather(favorite: $0) }
        case "place": return place(parameters).map { .place($0) }
        case "favorites": return .favorites
        case "search": return .search(parameters["q"])
        case "settings": return .settings
        default: return nil
        }
    }

    /// A found place as the app asks for it again: `q` and `pick`, or `lat` and `lon`.
    static func place(_ parameters: [String: String]) -> AppPlace? {
        if let query = parameters["q"], let pick = parameters["pick"].flatMap({ Int($0) }), pick >= 0 { return .named(query, pick: pick) }
        if let latitude = parameters["lat"].flatMap({ Double($0) }), let longitude = parameters["lon"].flatMap({ Double($0) }),
            latitude.isFinite, longitude.isFinite
        {
            return .point(latitude: latitude, longitude: longitude)
        }
        return nil
    }

    /// `screen` of the user's private chat as it is stored now.
    private func page(_ screen: AppScreen, for user: MiniAppUser) async -> Response {
        let chat: ChatRecord?
        do {
            chat = try await store.chat(user.id)
        } catch {
            logger.error("the app could not read a chat", metadata: ["chat.id": "\(user.id)", "error": "\(error)"])
            return Self.json(error: "the chat could not be read; try again", status: .serviceUnavailable)
        }
        // A chat the bot stopped answering (it blocked the bot) is drawn as it was left.
        let page = await conversation.appPage(screen, chat: chat, userID: user.id, languageCode: user.languageCode)
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: page.html)))
        response.headers[.contentType] = "text/html; charset=utf-8"
        response.headers[.contentLanguage] = page.language.rawValue
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The user the request's launch parameters sign for, or the refusal that says why not: 401
    /// for launch parameters that do not check, 429 for a user asking faster than a person taps.
    private func authenticate(_ request: Request, at now: Date) -> Result<MiniAppUser, Refused> {
        let header = request.headers[.authorization]
        let initData = header.flatMap { $0.hasPrefix("tma ") ? String($0.dropFirst(4)) : nil }
        let user: MiniAppUser
        do {
            user = try authenticator.check(initData, now: now)
        } catch {
            logger.debug("an app request refused", metadata: ["reason": "\(error)"])
            return .failure(Refused(response: Self.json(error: "\(error)", status: .unauthorized)))
        }
        guard limit.admits(user.id, at: now.timeIntervalSince1970) else {
            return .failure(Refused(response: Self.json(error: "too many requests; wait a little", status: .tooManyRequests)))
        }
        return .success(user)
    }

    /// A refusal as the response that says it.
    struct Refused: Error {
        var response: Response
    }

    private static func asset(_ text: String, type: String) -> Response {
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = type
        response.headers[.cacheControl] = "no-cache"
        for (name, value) in securityHeaders { response.headers[name] = value }
        return response
    }

    /// What every page answer carries: the page's script, style and requests come from this
    /// server only (Telegram's own script aside), and only Telegram may frame it.
    static let securityHeaders: [(HTTPField.Name, String)] = [
        (
            HTTPField.Name("Content-Security-Policy")!,
            "default-src 'none'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors https://web.telegram.org https://*.telegram.org"
        ),
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
    ]

    /// An `{"error": …}` answer, never kept by a cache.
    private static func json(error: String, status: HTTPResponse.Status) -> Response {
        var response = OperatorEndpoints.json(error: error, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
