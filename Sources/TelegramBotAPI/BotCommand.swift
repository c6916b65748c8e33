/// An entry of the bot's command menu.
public struct BotCommand: Codable, Sendable, Hashable {
    public var command: String
    public var description: String

    public init(command: String, description: String) {
        self.command = command
        self.description = description
    }
}
