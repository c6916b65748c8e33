import Testing
@testable import WeatherBot
import WeatherBotStore

@Suite struct CallbackActionTests {
    static let actions: [CallbackAction] = [
        .confirmCity(question: 0), .confirmCity(question: 999_999_999), .rejectCity(question: 42), .justWeather(question: 5),
        .chooseManually, .retrySearch(question: 3), .retrySearch(question: 4, search: RetriedSearch(query: "Нижний Новгород: центр", purpose: .setCity)), .retrySearch(question: 5, search: RetriedSearch(query: "Paris", purpose: .browse)), .pickPlace(question: 7, index: 4), .view(.now, .current), .view(.hourly(page: 1), .defaultCity),
        .view(.daily, .current), .refresh(.hourly(page: 0), .current), .view(.now, .city(mark: 0)), .refresh(.daily, .city(mark: 9972)), .view(.now, .favorite(999_999_999_999)),
        .addFavorite(.daily, .recent(12)), .addFavorite(.now, .favorite(999_999_999_999), saving: true), .addFavorite(.hourly(page: 1), .city(mark: 9972), saving: false), .makeCity(.hourly(page: 1), .recent(999_999_999_999)), .makeCity(.now, .defaultCity), .open(.favorite(7)), .open(.current), .favoritesMode(.delete), .favoritesMode(.list),
        .deleteFavorite(id: 42), .deleteFavorite(id: 42, by: 4_503_599_627_370_495), .cancelDaily(id: 1, by: 7), .moveFavorite(id: 3, up: true), .moveFavorite(id: 3, up: false),
        .reset(confirmed: true, question: 9), .reset(confirmed: false, question: 0), .dailyOff(confirmed: true, question: 3), .dailyOff(confirmed: false, question: 12),
        .chart(.hours, .city(mark: 12)), .chart(.week, .favorite(999_999_999_999)), .chartView(.week, .subscription(42)), .chartView(.hours, .defaultCity),
        .setting(.temperature(.fahrenheit), epoch: 1_764_288_000_123), .setting(.temperature(.celsius), epoch: 1_764_288_000_123), .setting(.windSpeed(.kilometresPerHour), epoch: 1_764_288_000_123), .setting(.windSpeed(.milesPerHour), epoch: 1_764_288_000_123),
        .setting(.pressure(.inchesOfMercury), epoch: 1_764_288_000_123), .setting(.pressure(.millimetresOfMercury), epoch: 1_764_288_000_123), .setting(.language(nil), epoch: 1_764_288_000_123), .setting(.language(.en), epoch: 1_764_288_000_123),
        .setting(.clock(.twelveHour), epoch: 1_764_288_000_123), .setting(.clock(.twentyFourHour), epoch: 1_764_288_000_123),
    ]

    @Test(arguments: actions)
    func encodesWithin64BytesAndDecodesBack(_ action: CallbackAction) {
        #expect(action.encoded.utf8.count <= CallbackAction.maximumLength)
        #expect(CallbackAction(encoded: action.encoded) == action)
    }

    @Test(arguments: [
        "", ":", "cy", "cy:", "cy:-1", "cy:+1", "cy:1:2", "cy:1e3", "cy: 1", "cy:１", "pk:1", "pk:1:", "pk::1",
        "pk:1:2:3", "man:1", "wx:", "CY:1", "v:n", "v:x:c", "v:h2:c", "v:n:z", "r:n:c:1", "v:h:c", "v:n:f", "v:n:f-1", "v:n:cc", "v:n:c12345", "v:n:c-1", "o:s", "fm:x", "fd:", "fd:1:2:3", "fd:1:-2", "fd:1:12345678901234567", "dc:1:", "fu:1:2",
        "rs:x:1", "rs:y", "fu:-3", "fa:n:", "o:f1.5", "cy:9999999999999", String(repeating: "a", count: 65),
        "cy:1\u{0}", "cw:", "cw:1:2", "rq:1:x:Paris", "rq:1:b:", "rq:1:b", "rq::b:Paris", "rq:1:b:a\u{7}", "ch:x:c", "ch:h", "cv:H:c", "cv:w:c:1", "ch:hw:c", "'; DROP TABLE chat; --", "🙂", "cy:٣",
        "st:", "st:t", "st:t:c", "st:t:k:1", "st:t:F:1", "st:w:kph:1", "st:p:atm:1", "st:l:de:1", "st:l::1", "st:h:13:1", "st:x:c:1", "st:t:c:",
        "st:t:c:-1", "st:t:c:1:2",
    ])
    func garbageDecodesToNil(_ data: String) {
        #expect(CallbackAction(encoded: data) == nil)
    }

    @Test func randomBytesNeverCrashAndRarelyDecode() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("cynmanpkwx:0123456789-ё🙂 ")
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...70, using: &generator)
            let data = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            if let action = CallbackAction(encoded: data) {
                // Whatever decodes is exactly an encoding of ours.
                #expect(action.encoded == data)
            }
        }
    }
}
