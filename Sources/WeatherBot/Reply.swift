public import TelegramBotAPI
public import WeatherBotStore

/// One thing to say to Telegram, committed to the outbox before anything is sent.
public enum Reply: Sendable, Hashable {
    /// A new message; `tag` names it for later edits.
    case send(text: String, markup: ReplyMarkup? = nil, tag: String? = nil)
    /// New text (and buttons) for an earlier message; sent as a new message if that one is gone.
    case edit(MessageTarget, text: String, keyboard: InlineKeyboardMarkup? = nil)
    /// New buttons for an earlier message, its text unchanged.
    case editKeyboard(MessageTarget, keyboard: InlineKeyboardMarkup?)
    /// The answer every button press gets; `text` shows as a short notice, or as an alert.
    case answer(callbackQueryID: String, text: String? = nil, showAlert: Bool = false)
    /// A chart as a photo with its caption and buttons.
    case chart(ChartRequest, caption: String, keyboard: InlineKeyboardMarkup?)
    /// Another chart in place of an earlier chart's photo; sent as a new photo if that one is gone.
    case editChart(MessageTarget, ChartRequest, caption: String, keyboard: InlineKeyboardMarkup?)

    /// The text of a message, kept within Telegram's limit.
    public var text: String? {
        switch self {
        case .send(let text, _, _), .edit(_, let text, _): text
        case .answer(_, let text, _): text
        case .chart(_, let caption, _), .editChart(_, _, let caption, _): caption
        case .editKeyboard: nil
        }
    }
}

/// Work the conversation schedules for itself after committing a step, such as determining the
/// city of a location once «Определяем город…» is on its way.
public enum FollowUp: Codable, Sendable, Hashable {
    /// `inGroup` nil in follow-ups stored before it was kept: a private chat's words. `sent`: how
    /// the point came, which a failure's answer names; nil in those stored before: a location.
    /// `byMember`: in a group with a city, sent by a member who may not change it (nil before it was kept).
    case resolveLocation(
        latitude: Double, longitude: Double, statusTag: String, language: Language, inGroup: Bool? = nil, sent: PointSource? = nil,
        byMember: Bool? = nil)
    /// A short map link to follow to its point, then as ``resolveLocation(latitude:longitude:statusTag:language:inGroup:sent:byMember:)``.
    case resolveMapLink(link: String, statusTag: String, language: Language, inGroup: Bool, byMember: Bool? = nil)
    /// A change the user made in the Mini App, a step of their private chat like the command
    /// that makes it there; `language` is the user's in Telegram, as a message carries it.
    case app(AppAction, language: Language)
}
