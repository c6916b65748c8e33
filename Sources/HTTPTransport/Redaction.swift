extension String {
    /// The text with every occurrence of `secret` replaced by `<redacted>`, whether the secret
    /// stands in it as is or percent-encoded, wholly or in part and in either case of hex digits,
    /// as a URL that holds it may be quoted back by a server (`123%3AABC`, `123%3aABC`).
    public func redacting(_ secret: String) -> String {
        let secret = Array(secret.utf8)
        let text = Array(utf8)
        guard !secret.isEmpty, text.count >= secret.count else { return self }
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = 0
        var found = false
        while index < text.count {
            if let end = Self.match(secret, in: text, at: index) {
                output += Array("<redacted>".utf8)
                index = end
                found = true
            } else {
                output.append(text[index])
                index += 1
            }
        }
        return found ? String(decoding: output, as: UTF8.self) : self
    }

    /// Where a match of `secret` starting at `start` ends, if one does.
    private static func match(_ secret: [UInt8], in text: [UInt8], at start: Int) -> Int? {
        var position = start
        for byte in secret {
            guard position < text.count else { return nil }
            if text[position] == byte {
                position += 1
            } else if text[position] == UInt8(ascii: "%"), position + 2 < text.count,
                let high = hexValue(text[position + 1]), let low = hexValue(text[position + 2]), high << 4 | low == byte
            {
                position += 3
            } else {
                return nil
            }
        }
        return position
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
