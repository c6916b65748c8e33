import Foundation
import Testing
@testable import WeatherBot

@Suite struct TrimmingTests {
    /// The router trims every message in plain Swift: the same as Foundation's trimming.
    @Test(arguments: [
        "", " ", "Казань", "  /help  ", "\n\t/weather Москва\r\n", "\u{00A0}Париж\u{3000}", "\u{2028}a b\u{2029}", "\u{200B}x\u{200B}",
        "👍🏽 ", " \u{1F1F7}\u{1F1FA}", "a\u{0085}", "\u{180E}y\u{180E}", "\u{200B}\u{00A0}\u{200B}",
    ])
    func trimsAsFoundationDoes(text: String) {
        #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text[...].trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
