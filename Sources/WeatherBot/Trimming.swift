extension StringProtocol {
    /// The text without the white space and line breaks at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (Unicode's White_Space, and the
    /// zero-width space its tables still count), in plain Swift; on Linux Foundation's goes
    /// through NSString, on the way of every message.
    var trimmingWhitespace: String {
        func isSpace(_ character: Character) -> Bool { character.isWhitespace || character == "\u{200B}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
