public import TelegramBotAPI
public import WeatherBotStore

/// A bot command, parsed from `/name arguments`.
public enum Command: Sendable, Hashable {
    case start
    /// `/start city` from the button above inline results: straight to choosing the chat's city
    /// (`/start search`: to looking a place up).
    case startAt(StartParameter)
    case help
    case weather
    /// `/weather NAME`: a place's weather, the name read as in free text («/weather Казань завтра»).
    case weatherIn(String)
    /// `/search NAME`, or `/search` alone (nil) to be asked for a name.
    case search(String?)
    /// «🔎 Выбрать город вручную»: choose the chat's own city by name.
    case chooseCity
    /// `/fav`: the favorites list.
    case favorites
    /// `/del N`, or `/del` alone for the delete buttons.
    case delete(String?)
    /// `/move FROM TO`, or `/move` alone for the reorder buttons.
    case move(String?)
    /// `/reset`: forget everything about the chat, after a confirmation.
    case reset
    /// `/daily HH:MM [N]`, `/daily off`, or `/daily` alone for the list.
    case daily(String?)
    /// `/city NAME`: the chat's city by name, through «Это ваш город?»; `/city` alone asks for it.
    case city(String?)
    /// `/chart`: the chart of the chat's city (`/chart week` the week's); `/chart NAME` looks a place up.
    case chart(String?)
    /// `/alerts`: the chat's notices with their switches; `/alerts on|off`, `/alerts quiet HH:MM-HH:MM|off`.
    case alerts(String?)
    /// `/settings`: units, language and clock.
    case settings
    case unknown(String)
}

/// How a chat sent a point, which its answers name: «отправьте геолокацию ещё раз» only to one
/// that shared its location.
public enum PointSource: String, Codable, Sendable, Hashable {
    /// A location shared with Telegram's button.
    case location
    /// Coordinates typed or pasted.
    case coordinates
    /// A link to a map.
    case link
}

/// What an update means to the conversation.
public enum Intent: Sendable, Hashable {
    case command(Command)
    case location(latitude: Double, longitude: Double)
    /// A point typed or pasted: coordinates, or a link to a map that names one (``PointSource``).
    case typedPoint(latitude: Double, longitude: Double, source: PointSource)
    case text(String)
    /// A short map link (`maps.app.goo.gl/…`): its point is where it redirects to.
    case shortMapLink(String)
    /// Typed coordinates off the globe (a latitude of 95, minutes of 75): answered about the numbers.
    case coordinatesOutOfRange
    /// Greetings, thanks, emoji, the keyboard's own labels: answered with the short hint, not searched.
    case chatter
    /// A pressed inline button; nil when its data is not one of ours.
    case button(CallbackAction?)
    /// Something the bot cannot read in a private chat (a sticker, a photo): answered with a hint.
    case unsupported
    /// Nothing to answer (an edited message, group chatter, another bot's command, an unknown kind of update).
    case ignored
}

/// A message as Telegram shows it: its text without markup, and its buttons.
public struct ShownMessage: Sendable, Hashable {
    /// The text as a message's `text` holds it (``HTML/plainText(of:)`` of what was sent).
    public var text: String
    /// Its buttons; nil for none.
    public var keyboard: InlineKeyboardMarkup?

    /// A message showing `text` and `keyboard`.
    public init(text: String, keyboard: InlineKeyboardMarkup?) {
        self.text = text
        self.keyboard = keyboard
    }

    /// Whether an edit to `html` with `keyboard` would leave the message as it is, which
    /// Telegram refuses («message is not modified»).
    public func shows(_ html: String, keyboard: InlineKeyboardMarkup?) -> Bool {
        keyboard == self.keyboard && HTML.plainText(of: html) == text
    }
}

/// One routed update: who, in which language, and what they want.
public struct Incoming: Sendable, Hashable {
    /// Telegram's id of the update this came from.
    public var updateID: Int64
    /// The chat to answer in: a user's id for a private chat, negative for a group.
    public var chatID: Int64
    /// The language of the writer's Telegram client; a language chosen in the chat's /settings wins over it.
    public var language: Language
    /// What the update asks for.
    public var intent: Intent
    /// Set for button presses: every one is answered.
    public var callbackQueryID: String?
    /// The message the pressed button sits under, when Telegram still gives it.
    public var messageID: Int?
    /// What that message shows as the button is pressed, when Telegram gives it: an edit to the
    /// same is not made.
    public var shown: ShownMessage?
    /// A group or supergroup rather than a private chat: no location button, questions answered by reply.
    public var isGroup: Bool
    /// The member who wrote or pressed.
    public var senderID: Int64?
    /// The member's own message, which a question in a group replies to.
    public var userMessageID: Int?
    /// This bot's username, which /help shows inline mode with.
    public var botUsername: String?
    /// An edit of the message `userMessageID`: handled as the new text only while the chat's
    /// latest reply answered that message.
    public var isEdit: Bool
    /// Written on behalf of the group itself: by one of its anonymous administrators.
    public var bySelf: Bool
    /// Typed as a reply to one of this bot's weather messages: the place its buttons name, which
    /// words without a place («а завтра?», «по часам») mean. Resolved in this chat's own records only.
    public var repliedPlace: PlaceReference?

    /// An update routed; everything past the intent defaults to a private chat's plain message.
    public init(
        updateID: Int64, chatID: Int64, language: Language, intent: Intent, callbackQueryID: String? = nil, messageID: Int? = nil,
        isGroup: Bool = false, senderID: Int64? = nil, userMessageID: Int? = nil, isEdit: Bool = false, botUsername: String? = nil,
        bySelf: Bool = false, repliedPlace: PlaceReference? = nil
    ) {
        self.repliedPlace = repliedPlace
        self.bySelf = bySelf
        self.botUsername = botUsername
        self.updateID = updateID
        self.chatID = chatID
        self.language = language
        self.intent = intent
        self.callbackQueryID = callbackQueryID
        self.messageID = messageID
        self.isGroup = isGroup
        self.senderID = senderID
        self.userMessageID = userMessageID
        self.isEdit = isEdit
    }
}
