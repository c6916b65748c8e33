public import Foundation

/// The names sent messages are remembered by, so that later replies can edit them.
public enum MessageTags {
    /// The start of the tags of messages needed for a moment only: the «🔎 Определяем город…»
    /// status a shared location's answer edits, one per location (`locate-<update id>`).
    public static let shortLivedPrefix = "locate-"

    /// How long a short-lived tag is kept: when a chat's message gets one, the chat's short-lived
    /// tags older than this are forgotten, so a chat keeps at most a day's worth.
    public static let shortLivedFor: TimeInterval = 86_400

    /// Whether `tag` names a short-lived message, forgotten after ``shortLivedFor``.
    public static func isShortLived(_ tag: String) -> Bool { tag.hasPrefix(shortLivedPrefix) }
}
