import Foundation

/// Character-level reading shared by the parsers above.
enum TypedScan {
    /// Only ASCII digits: «８» and «1́» are not numbers here.
    static func isDigit(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (48...57).contains(ascii)
    }

    static func digitRun(_ characters: [Character], from index: Int) -> Int {
        guard index >= 0 else { return 0 }
        var end = index
        while end < characters.count, isDigit(characters[end]) { end += 1 }
        return end - index
    }

    /// The number written in a run of at most a few digits.
    static func value(_ characters: [Character], _ range: Range<Int>) -> Int {
        characters[range].reduce(0) { $0 * 10 + Int($1.asciiValue ?? 48) - 48 }
    }

    static func skipSpaces(_ characters: [Character], from index: Int) -> Int {
        var end = index
        while end < characters.count, characters[end].isWhitespace { end += 1 }
        return end
    }

    /// Whether `word` (lowercase) is written at `index`, in any case.
    static func matches(_ characters: [Character], at index: Int, _ word: String) -> Bool {
        guard index >= 0, index + word.count <= characters.count else { return false }
        for (offset, letter) in word.enumerated() where characters[index + offset].lowercased() != String(letter) {
            return false
        }
        return true
    }
}
