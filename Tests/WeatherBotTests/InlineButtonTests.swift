import Testing
@testable import WeatherBot
import WeatherBotStore

/// The data of buttons under inline messages: all they show, within 64 bytes, read defensively.
@Suite struct InlineButtonTests {
    static let buttons: [InlineButton] = [
        InlineButton(view: .now, language: .ru, latitude: 55.7887, longitude: 49.1221),
        InlineButton(view: .hourly(page: 1), refresh: true, language: .en, latitude: -33.8688, longitude: 151.2093),
        InlineButton(view: .daily, language: .ru, latitude: -90, longitude: -180),
        InlineButton(view: .hourly(page: 0), language: .en, latitude: 0.0001, longitude: -0.0001),
    ]

    @Test(arguments: buttons)
    func encodesWithin64BytesAndDecodesBack(_ button: InlineButton) {
        #expect(button.encoded.utf8.count <= CallbackAction.maximumLength)
        #expect(InlineButton(encoded: button.encoded) == button)
    }

    @Test func aPointIsKeptToFourDecimalsWithAPointAsItsMark() {
        let button = InlineButton(view: .now, language: .ru, latitude: 55.78874999, longitude: -0.12765)
        #expect(button.encoded == "iv:n:ru:55.7887:-0.1277")
        #expect(InlineButton(view: .daily, refresh: true, language: .en, latitude: 5, longitude: 0).encoded == "ir:d:en:5.0000:0.0000")
    }

    @Test(arguments: [
        "", "iv", "iv:n:ru:55.7:49.1:1", "iv:n:de:55.7:49.1", "ix:n:ru:55.7:49.1", "iv:x:ru:55.7:49.1", "iv:n:ru:95:49.1", "iv:n:ru:55.7:181",
        "iv:n:ru:55.77777:49.1", "iv:n:ru:1e2:49.1", "iv:n:ru:nan:49.1", "iv:n:ru:inf:0", "iv:n:ru:+5:0", "iv:n:ru::0", "iv:n:ru:5.:0", "iv:n:ru:.5:0",
        "iv:n:ru:1234:0", "iv:n:ru:--5:0", "iv:n:ru:5 :0", "iv:n:ru:５:0", "v:n:c", "cy:1",
    ])
    func garbageDecodesToNil(_ data: String) {
        #expect(InlineButton(encoded: data) == nil)
    }

    @Test func noChatButtonIsAnInlineOneAndNoInlineOneAChats() {
        for button in Self.buttons { #expect(CallbackAction(encoded: button.encoded) == nil) }
        for action in CallbackActionTests.actions { #expect(InlineButton(encoded: action.encoded) == nil) }
    }
}
