import Foundation
import HTTPTransport
import Testing

@Suite struct RedactionTests {
    static let token = "123456:AAF-x_y.z~Q"

    @Test(arguments: [
        "https://api.telegram.org/bot123456:AAF-x_y.z~Q/sendMessage",
        "bot123456%3AAAF-x_y.z~Q",
        "bot123456%3aAAF-x_y.z~Q",
        "bot%31%32%33%34%35%36%3A%41%41%46%2D%78%5F%79%2E%7A%7E%51",
        "bot%31%32%33%34%35%36%3a%41%41%46%2d%78%5f%79%2e%7a%7e%51",
    ])
    func aSecretIsTakenOutRawOrPercentEncoded(text: String) {
        let redacted = "error for \(text) (again: \(text))".redacting(Self.token)
        #expect(!redacted.contains("AAF") && !redacted.contains("%41%41"), "\(redacted)")
        #expect(redacted.components(separatedBy: "<redacted>").count == 3)
        #expect(redacted.hasPrefix("error for "))
    }

    @Test func textWithoutTheSecretIsLeftAsItIs() {
        let text = "Bad Request: chat not found 123456:AAF and %3A and 100 % sure, кириллица 🙂"
        #expect(text.redacting(Self.token) == text)
        #expect(text.redacting("") == text)
        #expect("".redacting(Self.token) == "")
        #expect("1234".redacting(Self.token) == "1234")
    }

    @Test func aTruncatedEscapeAtTheEndDoesNotMatchOrTrap() {
        #expect("bot123456%3".redacting("123456:") == "bot123456%3")
        #expect("%".redacting("%") == "<redacted>")
    }
}
