import Foundation
import TelegramBotAPI

/// Turns an ``Update`` into an ``Incoming`` intent. Pure: no I/O, never fails.
public enum Router {
    /// - Parameter botUsername: this bot's username; commands addressed to another bot
    ///   (`/start@other_bot`, in groups) are ignored.
    public static func route(_ update: Update, botUsername: String? = nil) -> Incoming? {
        if let query = update.callbackQuery {
            let chatID = query.message?.chat.id ?? query.from.id
            let action = query.data.flatMap(CallbackAction.init(encoded:))
            let messageID = query.message.flatMap { $0.date == 0 && $0.messageId == 0 ? nil : $0.messageId }
            return Incoming(
                updateID: update.updateId, chatID: chatID, language: Language(telegramCode: query.from.languageCode),
                intent: .button(action), callbackQueryID: query.id, messageID: messageID,
                isGroup: query.message.map { $0.chat.type != .private } ?? false, senderID: query.from.id)
        }
        if let message = update.message {
            return Incoming(
                updateID: update.updateId, chatID: message.chat.id,
                language: Language(telegramCode: message.from?.languageCode),
                intent: intent(of: message, botUsername: botUsername),
                isGroup: message.chat.type != .private, senderID: message.from?.id, userMessageID: message.messageId)
        }
        if let edited = update.editedMessage {
            return Incoming(
                updateID: update.updateId, chatID: edited.chat.id,
                language: Language(telegramCode: edited.from?.languageCode), intent: .ignored)
        }
        return nil
    }

    static func intent(of message: Message, botUsername: String? = nil) -> Intent {
        // In a group the bot reads commands, locations, and text addressed to it (a reply to one
        // of its messages, or a mention); elsewhere, anything it cannot read gets a hint.
        let isPrivate = message.chat.type == .private
        if let location = message.location {
            guard location.latitude.isFinite, location.longitude.isFinite,
                abs(location.latitude) <= 90, abs(location.longitude) <= 180
            else { return isPrivate ? .unsupported : .ignored }
            return .location(latitude: location.latitude, longitude: location.longitude)
        }
        guard var text = message.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
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
        case .point(let latitude, let longitude)?: return .location(latitude: latitude, longitude: longitude)
        case .outOfRange?: return .coordinatesOutOfRange
        case nil: break
        }
        if TypedQuery.isChatter(text) { return .chatter }
        return .text(text)
    }

    /// Group text meant for the bot, its mention taken out: a reply to one of the bot's messages,
    /// or a message that mentions it. Nil for the group's other chatter.
    static func addressed(_ text: String, in message: Message, botUsername: String?) -> String? {
        guard let botUsername, !botUsername.isEmpty else { return nil }
        if let author = message.replyToMessage?.from, author.isBot, author.username?.lowercased() == botUsername.lowercased() {
            return text
        }
        guard let mention = text.range(of: "@" + botUsername, options: .caseInsensitive) else { return nil }
        var rest = text
        rest.removeSubrange(mention)
        return rest.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
    }

    /// Parses `/name[@bot] arguments`.
    static func command(_ text: String) -> Command {
        let body = text.dropFirst()
        let head = body.prefix { !$0.isWhitespace }
        let arguments = body.dropFirst(head.count).trimmingCharacters(in: .whitespacesAndNewlines)
        let name = head.split(separator: "@", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        switch name {
        case "start": return .start
        case "help": return .help
        case "weather": return .weather
        case "search": return .search(arguments.isEmpty ? nil : arguments)
        case "fav", "favorites": return .favorites
        case "del", "delete": return .delete(arguments.isEmpty ? nil : arguments)
        case "move": return .move(arguments.isEmpty ? nil : arguments)
        case "reset": return .reset
        case "daily": return .daily(arguments.isEmpty ? nil : arguments)
        case "city": return .city(arguments.isEmpty ? nil : arguments)
        default: return .unknown(String(head))
        }
    }
}
