import Foundation

/// Telegram's HTML parse mode, and the limits of a message.
public enum HTML {
    /// The `parse_mode` of text written in it.
    public static let parseMode = "HTML"
    /// The longest text of a message, in UTF-16 units.
    public static let maximumMessageLength = 4096
    /// Telegram's limit for a photo's caption.
    public static let maximumCaptionLength = 1024

    /// Escapes text for HTML parse mode: `&`, `<`, `>` and `"` become entities.
    public static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A caption kept within ``maximumCaptionLength`` the same way as ``fitting(_:limit:)``.
    public static func fittingCaption(_ text: String) -> String { fitting(text, limit: maximumCaptionLength) }

    /// Keeps an HTML message within `limit` (``maximumMessageLength`` unless told otherwise) by
    /// dropping whole lines from its end, marked by a last line of «…».
    ///
    /// Views never open a tag on one line and close it on another, so cutting at a line keeps the
    /// markup valid. A single line too long on its own is cut at a character outside any tag or entity.
    public static func fitting(_ text: String, limit: Int = maximumMessageLength) -> String {
        guard text.utf16.count > limit else { return text }
        let ellipsis = "\n…"
        let budget = limit - ellipsis.utf16.count
        var kept: [Substring] = []
        var used = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cost = line.utf16.count + (kept.isEmpty ? 0 : 1)
            if used + cost > budget { break }
            kept.append(line)
            used += cost
        }
        if kept.isEmpty {
            return plainPrefix(of: text, utf16Budget: limit - 1) + "…"
        }
        return kept.joined(separator: "\n") + ellipsis
    }

    /// The longest prefix of `text` within `utf16Budget` with every tag removed (so none is left
    /// open) and no entity cut in half.
    static func plainPrefix(of text: String, utf16Budget: Int) -> String {
        var result = ""
        var used = 0
        var safeEnd = result.endIndex
        var inTag = false
        var inEntity = false
        for character in text {
            if inTag {
                if character == ">" { inTag = false }
                continue
            }
            if character == "<" {
                inTag = true
                continue
            }
            let width = character.utf16.count
            if used + width > utf16Budget { break }
            result.append(character)
            used += width
            if character == "&" { inEntity = true } else if character == ";" { inEntity = false }
            if !inEntity { safeEnd = result.endIndex }
        }
        return String(result[..<safeEnd])
    }

    /// The text Telegram shows for `html`: every tag removed, the entities this module writes
    /// (and numeric ones) read back, and the whitespace around it trimmed, as Telegram trims a
    /// message. What a message's `text` says after it was sent in this parse mode.
    public static func plainText(of html: String) -> String {
        var plain = ""
        plain.reserveCapacity(html.utf8.count)
        var inTag = false
        var entity: String?
        for character in html {
            if inTag {
                if character == ">" { inTag = false }
                continue
            }
            if var name = entity {
                if character == ";" {
                    entity = nil
                    plain += read(entity: name) ?? "&\(name);"
                } else if name.count < 10 {
                    name.append(character)
                    entity = name
                } else {
                    plain += "&" + name + String(character)
                    entity = nil
                }
                continue
            }
            switch character {
            case "<": inTag = true
            case "&": entity = ""
            default: plain.append(character)
            }
        }
        if let entity { plain += "&" + entity }
        return plain.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func read(entity name: String) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }

    /// Cuts plain (not yet escaped) text to at most `maximumCharacters` characters, with an ellipsis.
    public static func truncate(_ text: some StringProtocol, maximumCharacters: Int) -> String {
        guard text.count > maximumCharacters else { return String(text) }
        return String(text.prefix(max(0, maximumCharacters - 1))) + "…"
    }
}
