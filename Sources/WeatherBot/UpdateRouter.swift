import Foundation
public import TelegramBotAPI
import WeatherBotStore

/// Turns an ``Update`` into an ``Incoming`` intent. Pure: no I/O, never fails.
public enum UpdateRouter {
    /// - Parameter botUsername: this bot's username; commands addressed to another bot
    ///   (`/start@other_bot`, in groups) are ignored.
    public static func route(_ update: Update, botUsername: String? = nil) -> Incoming? {
        var incoming = routed(update, botUsername: botUsername)
        incoming?.botUsername = botUsername
        return incoming
    }

    private static func routed(_ update: Update, botUsername: String?) -> Incoming? {
        if let query = update.callbackQuery {
            let chatID = query.message?.chat.id ?? query.from.id
            let action = query.data.flatMap(CallbackAction.init(encoded:))
            let messageID = query.message.flatMap { $0.date == 0 && $0.messageID == 0 ? nil : $0.messageID }
            var incoming = Incoming(
                updateID: update.updateID, chatID: chatID, language: Language(telegramCode: query.from.languageCode),
                intent: .button(action), callbackQueryID: query.id, messageID: messageID,
                isGroup: query.message.map { $0.chat.type != .private } ?? false, senderID: query.from.id)
            // An inaccessible message (date 0) shows nothing Telegram tells; a keyboard that did not read is not compared.
            if let message = query.message, message.date != 0, let text = message.text, message.keyboard == nil || message.keyboard?.markup != nil {
                incoming.shown = ShownMessage(text: text, keyboard: message.keyboard?.markup)
            }
            return incoming
        }
        if let message = update.message {
            return Incoming(
                updateID: update.updateID, chatID: message.chat.id,
                language: Language(telegramCode: message.from?.languageCode),
                intent: intent(of: message, botUsername: botUsername),
                isGroup: message.chat.type != .private, senderID: message.from?.id, userMessageID: message.messageID,
                bySelf: message.senderChat?.id == message.chat.id, repliedPlace: repliedPlace(of: message, botUsername: botUsername))
        }
        if let edited = update.editedMessage {
            // A corrected typo is read again; a live location moving is not a new request.
            let intent: Intent = edited.location == nil ? intent(of: edited, botUsername: botUsername) : .ignored
            return Incoming(
                updateID: update.updateID, chatID: edited.chat.id,
                language: Language(telegramCode: edited.from?.languageCode), intent: intent,
                isGroup: edited.chat.type != .private, senderID: edited.from?.id, userMessageID: edited.messageID, isEdit: true,
                bySelf: edited.senderChat?.id == edited.chat.id, repliedPlace: repliedPlace(of: edited, botUsername: botUsername))
        }
        return nil
    }

    static func intent(of message: Message, botUsername: String? = nil) -> Intent {
        // In a group the bot reads commands, locations, and text addressed to it (a reply to one
        // of its messages, or a mention); elsewhere, anything it cannot read gets a hint.
        let isPrivate = message.chat.type == .private
        // A card sent from this bot's inline results (into its own chat too) is not a request.
        if let via = message.viaBot, via.isBot, botUsername == nil || via.username?.lowercased() == botUsername?.lowercased() {
            return .ignored
        }
        if let location = message.location {
            guard location.latitude.isFinite, location.longitude.isFinite,
                abs(location.latitude) <= 90, abs(location.longitude) <= 180
            else { return isPrivate ? .unsupported : .ignored }
            return .location(latitude: location.latitude, longitude: location.longitude)
        }
        guard var text = message.text?.trimmingWhitespace, !text.isEmpty else {
            return isPrivate ? .unsupported : .ignored
        }
        if text.hasPrefix("/") {
            if let botUsername, let addressee = text.prefix(while: { !$0.isWhitespace }).split(separator: "@", maxSplits: 1).dropFirst().first,
                addressee.lowercased() != botUsername.lowercased()
            {
                return .ignored
            }
            return .command(command(text))
        }
        if !isPrivate {
            guard let addressed = addressed(text, in: message, botUsername: botUsername) else { return .ignored }
            guard !addressed.isEmpty else { return .chatter }
            text = addressed
        }
        if Texts.manualChoiceButtons.contains(text) {
            return .command(.chooseCity)
        }
        switch TypedCoordinates.read(text) {
        case .point(let latitude, let longitude)?:
            return .typedPoint(latitude: latitude, longitude: longitude, source: TypedLinks.first(in: text) == nil ? .coordinates : .link)
        case .outOfRange?: return .coordinatesOutOfRange
        case nil: break
        }
        if let link = TypedLinks.shortLink(in: text) { return .shortMapLink(link) }
        if TypedQuery.isChatter(text) { return .chatter }
        return .text(text)
    }

    /// The place of the weather message `message` replies to, as that message's buttons name it:
    /// only a message this bot sent into this chat (Telegram's `reply_to_message` is always of the
    /// same chat, and no one else can send as the bot), and the reference is resolved later in
    /// this chat's own records, so another chat's places cannot be reached through it. Nil for a
    /// reply to anything else.
    static func repliedPlace(of message: Message, botUsername: String?) -> PlaceReference? {
        guard let replied = message.replyToMessage, let author = replied.from, author.isBot else { return nil }
        if let botUsername {
            guard author.username?.lowercased() == botUsername.lowercased() else { return nil }
        } else if message.chat.type != .private {
            // Without this bot's name, another bot's message in a group cannot be told from its own.
            return nil
        }
        var places: [PlaceReference] = []
        for data in replied.callbackData {
            switch CallbackAction(encoded: data) {
            case .view(_, let place)?, .refresh(_, let place)?, .openView(_, let place)?, .open(let place)?, .chart(_, let place)?,
                .chartView(_, let place)?, .addFavorite(_, let place, _)?, .makeCity(_, let place)?:
                if !places.contains(place) { places.append(place) }
            default:
                continue
            }
        }
        // A card's or a chart's buttons all name its place; a list of places (/fav, namesakes) names several, and is none.
        return places.count == 1 ? places[0] : nil
    }

    /// Group text meant for the bot, its mention taken out: a reply to one of the bot's messages,
    /// or a message that mentions it. Nil for the group's other chatter.
    static func addressed(_ text: String, in message: Message, botUsername: String?) -> String? {
        guard let botUsername, !botUsername.isEmpty else { return nil }
        let isReply = message.replyToMessage?.from.map { $0.isBot && $0.username?.lowercased() == botUsername.lowercased() } ?? false
        // «@weather_bot» as a word of its own: «@weather_bot_dev» is another bot.
        var rest = text
        var mentioned = false
        var searchFrom = rest.startIndex
        while let mention = rest.range(of: "@" + botUsername, options: .caseInsensitive, range: searchFrom..<rest.endIndex) {
            let next = rest[mention.upperBound...].first
            if let next, next.isLetter || next.isNumber || next == "_" {
                searchFrom = mention.upperBound
                continue
            }
            // The mention and a comma or colon right after it («@weather_bot, Казань»).
            var end = mention.upperBound
            if let next, next == "," || next == ":" { end = rest.index(after: end) }
            rest.removeSubrange(mention.lowerBound..<end)
            mentioned = true
            searchFrom = mention.lowerBound
        }
        guard isReply || mentioned else { return nil }
        // What the mention leaves at the end («Погода в Казани, @weather_bot?»), never a sign.
        var trimmed = rest.trimmingCharacters(in: .whitespacesAndNewlines)
        while let last = trimmed.last, ",;:?!".contains(last) || last.isWhitespace { trimmed.removeLast() }
        return trimmed
    }

    /// Parses `/name[@bot] arguments`.
    static func command(_ text: String) -> Command {
        let body = text.dropFirst()
        let head = body.prefix { !$0.isWhitespace }
        let arguments = body.dropFirst(head.count).trimmingWhitespace
        let name = head.split(separator: "@", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        switch name {
        case "start": return StartParameter(rawValue: arguments).map(Command.startAt) ?? .start
        case "help": return .help
        case "weather": return arguments.isEmpty ? .weather : .weatherIn(arguments)
        case "search": return .search(arguments.isEmpty ? nil : arguments)
        case "fav", "favorites": return .favorites
        case "del", "delete": return .delete(arguments.isEmpty ? nil : arguments)
        case "move": return .move(arguments.isEmpty ? nil : arguments)
        case "reset": return .reset
        case "daily": return .daily(arguments.isEmpty ? nil : arguments)
        case "city": return .city(arguments.isEmpty ? nil : arguments)
        case "chart", "график": return .chart(arguments.isEmpty ? nil : arguments)
        case "alerts", "notices": return .alerts(arguments.isEmpty ? nil : arguments)
        case "settings", "units", "language": return .settings
        default: return .unknown(String(head))
        }
    }
}
