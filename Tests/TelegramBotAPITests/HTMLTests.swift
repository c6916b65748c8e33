import Testing
@testable import TelegramBotAPI

@Suite struct HTMLTests {
    @Test func escapesTheFourSpecialCharacters() {
        #expect(HTML.escape(#"<b>"Tom & Jerry"</b>"#) == "&lt;b&gt;&quot;Tom &amp; Jerry&quot;&lt;/b&gt;")
        #expect(HTML.escape("Москва 🌧 \u{200F}") == "Москва 🌧 \u{200F}")
    }

    @Test func fittingDropsWholeLinesToStayWithinTheLimit() {
        let line = "<b>" + String(repeating: "я", count: 90) + "</b>"
        let text = Array(repeating: line, count: 100).joined(separator: "\n")
        let fitted = HTML.fitting(text)
        #expect(fitted.utf16.count <= HTML.maximumMessageLength)
        #expect(fitted.hasSuffix("…"))
        for kept in fitted.split(separator: "\n").dropLast() {
            #expect(kept == line[...])
        }
        #expect(HTML.fitting("short") == "short")
    }

    @Test func aSingleHugeLineIsCutOutsideTagsAndEntities() {
        let text = "<b>" + String(repeating: "&amp;🙂", count: 2000) + "</b>"
        let fitted = HTML.fitting(text)
        #expect(fitted.utf16.count <= HTML.maximumMessageLength)
        #expect(!fitted.contains("<b>"))
        #expect(fitted.hasSuffix("&amp;🙂…") || fitted.hasSuffix(";…") || fitted.hasSuffix("🙂…"))
    }

    @Test func truncateKeepsPlainTextShort() {
        #expect(HTML.truncate("Санкт-Петербург", maximumCharacters: 5) == "Санк…")
        #expect(HTML.truncate("Уфа", maximumCharacters: 5) == "Уфа")
    }
}
