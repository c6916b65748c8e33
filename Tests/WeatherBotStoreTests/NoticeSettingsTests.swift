import Foundation
import Testing
import WeatherBotStore

@Suite struct NoticeSettingsTests {
    /// Settings written before pollen was a notice read with it off; written now, they read back whole.
    @Test func settingsWrittenBeforePollenReadWithItOff() throws {
        let before = Data(#"{"rain":true,"warnings":false,"quiet":{"off":{}},"setBy":42}"#.utf8)
        #expect(try JSONDecoder().decode(NoticeSettings.self, from: before) == NoticeSettings(rain: true, quiet: .off, setBy: 42))
        let now = NoticeSettings(warnings: true, pollen: true, quiet: .hours(.night))
        #expect(try JSONDecoder().decode(NoticeSettings.self, from: JSONEncoder().encode(now)) == now)
    }

    /// Pollen alone is a notice on: the chat's notices are watched, and a group's turned on by someone.
    @Test func pollenAloneIsANoticeOn() {
        #expect(NoticeSettings(pollen: true).isOn)
        #expect(!NoticeSettings.off.isOn)
    }
}
