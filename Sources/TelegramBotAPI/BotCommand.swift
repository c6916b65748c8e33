/// An entry of the bot's command menu.
public struct BotCommand: Codable, Sendable, Hashable {
    /// The command without its `/`, such as `weather`: 1 to 32 lower-case Latin letters, digits or
    /// underscores.
    public var command: String
    /// What the menu says beside it, 1 to 256 characters, in the menu's language.
    public var description: String

    /// A menu entry; Telegram refuses the whole menu if one breaks the limits above.
    public init(command: String, description: String) {
        self.command = command
        self.description = description
    }
}
