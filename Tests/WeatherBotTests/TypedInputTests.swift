import Testing
@testable import WeatherBot
import WeatherBotStore

/// Times after /daily, points and map links, and sentences around a city's name, as people type them.
@Suite struct TypedInputTests {
    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    // MARK: Times

    static let times: [(String, Int, Int, String)] = [
        ("7:30", 7, 30, ""), ("07:30", 7, 30, ""), ("7.30", 7, 30, ""), ("7", 7, 0, ""), ("07", 7, 0, ""),
        ("0:05", 0, 5, ""), ("  23:59  ", 23, 59, ""),
        ("20ч", 20, 0, ""), ("20 ч", 20, 0, ""), ("20 час", 20, 0, ""), ("20 часов", 20, 0, ""), ("20 Ч.", 20, 0, ""),
        ("8ч30", 8, 30, ""), ("8 утра", 8, 0, ""), ("8 вечера", 20, 0, ""), ("8 Вечера", 20, 0, ""), ("12 ночи", 0, 0, ""),
        ("2 часа ночи", 2, 0, ""), ("11 ночи", 23, 0, ""), ("3 дня", 15, 0, ""), ("12 дня", 12, 0, ""),
        ("7 часов вечера", 19, 0, ""), ("8:00 утра", 8, 0, ""),
        ("7:30 am", 7, 30, ""), ("7:30am", 7, 30, ""), ("7:30 AM", 7, 30, ""), ("7 pm", 19, 0, ""), ("7pm", 19, 0, ""),
        ("7PM", 19, 0, ""), ("12 am", 0, 0, ""), ("12 pm", 12, 0, ""), ("12:30 am", 0, 30, ""), ("7:30 a.m.", 7, 30, ""),
        ("7 p.m.", 19, 0, ""), ("11:59 P.M.", 23, 59, ""),
        // What follows the time is the rest: a favorite's number.
        ("7:30 am 2", 7, 30, "2"), ("8 утра 3", 8, 0, "3"), ("20 ч. 1", 20, 0, "1"), ("9 2", 9, 0, "2"), ("21:15  4 ", 21, 15, "4"),
        ("7 Москва", 7, 0, "Москва"),
        // A preposition before it, and the hours people name by a word.
        ("в 8", 8, 0, ""), ("В 8:30 2", 8, 30, "2"), ("во 2 часа ночи", 2, 0, ""), ("at 7 pm", 19, 0, ""),
        ("noon", 12, 0, ""), ("Полдень", 12, 0, ""), ("в полдень 2", 12, 0, "2"), ("midnight", 0, 0, ""), ("полночь", 0, 0, ""),
        ("midday, 3", 12, 0, "3"),
    ]

    @Test(arguments: times)
    func timesAreReadInTheUsualForms(text: String, hour: Int, minute: Int, rest: String) {
        let time = TypedTime.leading(text)
        #expect(time?.hour == hour, "«\(text)»")
        #expect(time?.minute == minute, "«\(text)»")
        #expect(time?.rest == rest, "«\(text)»")
    }

    @Test(arguments: [
        "24:00", "7:60", "13 pm", "0 am", "25:00", "7:75", "99 pm", "20 утра", "15 pm", "7 ночи", "24", "-1:00", "8:0", "8:000",
        "730", "7-30", "7abc", "８:00", "1\u{301}:00", "7:30:00", "", "   ", "Москва", "pm", String(repeating: "9", count: 10_000),
        "noonday", "в", "в Москве", "at", "полдня",
    ])
    func whatIsNotATime(text: String) {
        #expect(TypedTime.leading(text) == nil, "«\(text.prefix(20))»")
    }

    @Test(arguments: ["24:00", "7:60", "13 pm", "0 am", "25:00", "7:75", "99 pm", "7:30", "8 утра", "20ч", "7pm", "30 часов", "8ч70", "в 25:00", "at 13 pm"])
    func attemptsAtATimeAreTimeLike(text: String) {
        #expect(TypedTime.isTimeLike(text), "«\(text)»")
    }

    @Test(arguments: ["2", "25", "Москва", "", "1 2", "2 Москва", ":30", "7 hours", String(repeating: "1", count: 10_000)])
    func numbersAndWordsAreNotTimeLike(text: String) {
        #expect(!TypedTime.isTimeLike(text), "«\(text.prefix(20))»")
    }

    // MARK: Coordinates

    static let dms: Double = 55 + 45.0 / 60 + 30.0 / 3600
    static let dmsEast: Double = east37 + 10.0 / 3600
    static let east37: Double = 37 + 37.0 / 60
    static let north45half: Double = 55 + 45.5 / 60

    static let points: [(String, Double, Double)] = [
        // What the router reads today.
        ("55.75, 37.62", 55.75, 37.62), ("55.75 37.62", 55.75, 37.62), ("55,75 37,62", 55.75, 37.62),
        ("55,75; 37,62", 55.75, 37.62), ("55.75,37.62", 55.75, 37.62), ("55,75, 37,62", 55.75, 37.62), ("55,37", 55, 37),
        ("-33.86, 151.21", -33.86, 151.21), ("+55.75 +37.62", 55.75, 37.62), ("−33.86 −70.65", -33.86, -70.65),
        ("(55.75, 37.62)", 55.75, 37.62),
        // Hemispheres.
        ("55.75N 37.62E", 55.75, 37.62), ("55.75 N, 37.62 E", 55.75, 37.62), ("55.75° N, 37.62° E", 55.75, 37.62),
        ("55.75°N 37.62°E", 55.75, 37.62), ("55.75n 37.62e", 55.75, 37.62), ("33.86S 151.21E", -33.86, 151.21),
        ("40.71N 74.01W", 40.71, -74.01), ("37.62E 55.75N", 55.75, 37.62), ("N55.75 E37.62", 55.75, 37.62),
        ("S 33.86, W 70.65", -33.86, -70.65), ("55.75N37.62E", 55.75, 37.62),
        // Degrees, minutes, seconds.
        ("55°45′N 37°37′E", 55.75, east37), ("55°45'30\"N 37°37'10\"E", dms, dmsEast),
        ("55°45’30”N 37°37’10”E", dms, dmsEast), ("55° 45′ 30″ N, 37° 37′ 10″ E", dms, dmsEast),
        ("55°45'30''N 37°37'10''E", dms, dmsEast), ("55°45.5'N 37°37'E", north45half, east37),
        ("55° 37°", 55, 37),
        // Russian hemispheres.
        ("55.75 с.ш. 37.62 в.д.", 55.75, 37.62), ("55.75 ю.ш. 37.62 з.д.", -55.75, -37.62),
        ("55°45′ с. ш., 37°37′ в. д.", 55.75, east37), ("55.75 С.Ш., 37.62 В.Д.", 55.75, 37.62),
        // geo: addresses.
        ("geo:55.75,37.62", 55.75, 37.62), ("geo:55.75,37.62?z=10", 55.75, 37.62), ("geo:55.75,37.62;u=35", 55.75, 37.62),
        ("geo:55.75,37.62,150", 55.75, 37.62), ("geo:0,0?q=55.75,37.62(Red Square)", 55.75, 37.62), ("GEO:-33.86,151.21", -33.86, 151.21),
        // Google.
        ("https://www.google.com/maps/@55.7558,37.6173,12z", 55.7558, 37.6173),
        ("https://maps.google.com/?q=55.75,37.62", 55.75, 37.62),
        ("https://www.google.com/maps/place/Red+Square/@55.75,37.62,15z/data=!3m1!4b1", 55.75, 37.62),
        ("https://www.google.com/maps/place/Red+Square/@55.7539,37.6208,17z/data=!4m6!3m5!1s0x0:0x0!8m2!3d55.754!4d37.6204", 55.754, 37.6204),
        ("https://www.google.com/maps/search/?api=1&query=55.75,37.62", 55.75, 37.62),
        ("https://www.google.ru/maps/place/55%C2%B045'30.0%22N+37%C2%B037'10.0%22E/@55.7,37.6,17z", dms, dmsEast),
        ("https://www.google.co.uk/maps/search/51.5007,+-0.1246", 51.5007, -0.1246),
        ("google.com/maps/@55.7558,37.6173,12z", 55.7558, 37.6173),
        // Yandex: the longitude first.
        ("https://yandex.ru/maps/?ll=37.62,55.75&z=10", 55.75, 37.62),
        ("https://yandex.ru/maps/?pt=37.62,55.75&z=12&l=map", 55.75, 37.62),
        ("https://yandex.ru/maps/?ll=37.5,55.5&pt=37.62,55.75,pm2rdm&z=12", 55.75, 37.62),
        ("https://yandex.ru/maps/?whatshere%5Bpoint%5D=37.62%2C55.75&whatshere%5Bzoom%5D=17", 55.75, 37.62),
        ("https://yandex.com/maps/?whatshere[point]=37.62,55.75&whatshere[zoom]=17", 55.75, 37.62),
        ("https://yandex.kz/maps/162/almaty/?ll=76.95,43.24&z=12", 43.24, 76.95),
        ("yandex.ru/maps/?ll=37.62,55.75&z=10", 55.75, 37.62),
        // Apple.
        ("https://maps.apple.com/?ll=55.75,37.62", 55.75, 37.62),
        ("https://maps.apple.com/?q=Red%20Square&sll=55.75,37.62", 55.75, 37.62),
        ("https://maps.apple.com/?address=Red%20Square,%20Moscow&ll=55.75,37.62&q=Red%20Square", 55.75, 37.62),
        ("https://maps.apple.com/?q=55.75,37.62", 55.75, 37.62),
        // OpenStreetMap.
        ("https://www.openstreetmap.org/#map=12/55.7558/37.6173", 55.7558, 37.6173),
        ("https://www.openstreetmap.org/?mlat=55.75&mlon=37.62#map=12/55.70/37.60", 55.75, 37.62),
        ("https://www.openstreetmap.org/#map=12/55.7558/37.6173&layers=C", 55.7558, 37.6173),
        // A link among words.
        ("смотри https://www.google.com/maps/@55.7558,37.6173,12z спасибо", 55.7558, 37.6173),
        ("look here (https://maps.apple.com/?ll=55.75,37.62) thanks", 55.75, 37.62),
        ("Красная площадь\nhttps://yandex.ru/maps/?pt=37.62,55.75.", 55.75, 37.62),
        (String(repeating: "очень длинный текст ", count: 40) + "https://www.openstreetmap.org/#map=12/55.7558/37.6173", 55.7558, 37.6173),
    ]

    @Test(arguments: points)
    func pointsInEveryNotation(text: String, latitude: Double, longitude: Double) {
        guard case .point(let lat, let lon)? = TypedCoordinates.read(text) else {
            Issue.record("«\(text.suffix(80))» is \(String(describing: TypedCoordinates.read(text)))")
            return
        }
        #expect(Self.close(lat, latitude), "«\(text.suffix(80))»: \(lat)")
        #expect(Self.close(lon, longitude), "«\(text.suffix(80))»: \(lon)")
    }

    @Test(arguments: [
        "91.5, 37.62", "55.75, 181.2", "-90.01 0.5", "95°N 37°E", "55.75 N 200 E", "55°75′N 37°37′E", "55°45′75″N 37°37′E",
        "95 с.ш. 37 в.д.", "geo:91,37", "https://www.google.com/maps/@95.1,37.6,12z", "https://yandex.ru/maps/?ll=37.62,95.75",
        "https://www.openstreetmap.org/#map=12/55.75/237.62", "https://maps.apple.com/?ll=-100.5,37.62",
        "91, 200", "-95, 10", "100 200", "(95; 37)",
    ])
    func pointsOffTheGlobeAreSaidToBe(text: String) {
        #expect(TypedCoordinates.read(text) == .outOfRange, "«\(text)»")
    }

    @Test(arguments: [
        "Нижний Новгород", "New York", "1 2 3", "Москва 2", "", "   ", "\n\t", "Москва", "55.75", "1,2,3",
        "NaN NaN", "inf, inf", "1e308 1e308", "nan, 37", "0x1p3 5", "55.75N 37.62N", "37.62E 55.75W", "-55.75S 37.62E",
        "55.75-37.62", "55.5°30′N 37°E", "look here thanks", "https://example.com/55.75,37.62",
        "https://goo.gl/maps/abc", "https://maps.app.goo.gl/xyz", "https://www.google.com/maps/place/Moscow",
        "https://yandex.ru/maps/-/CCUqMKR3", "https://osm.org/go/0sFb~", "geo:nan,inf", "geo:55.75", "geo:1e5,1",
        "https://maps.apple.com/?q=Moscow", "N E", "Weather 55", String(repeating: "7", count: 10_000),
        String(repeating: "55.75, 37.62 ", count: 30), "８８.5 37.5", "1\u{301}.5 2.5",
    ])
    func whatIsNotAPoint(text: String) {
        #expect(TypedCoordinates.read(text) == nil, "«\(text.prefix(40))»")
    }

    @Test(arguments: [
        ("https://maps.app.goo.gl/Xk3bTq9wZp2", "https://maps.app.goo.gl/Xk3bTq9wZp2"),
        ("вот тут maps.app.goo.gl/Xk3bTq9wZp2?g_st=ic, ждём", "https://maps.app.goo.gl/Xk3bTq9wZp2?g_st=ic"),
        ("https://goo.gl/maps/AbCd1234", "https://goo.gl/maps/AbCd1234"),
        ("(https://yandex.ru/maps/-/CCUqMKR3)", "https://yandex.ru/maps/-/CCUqMKR3"),
        ("HTTPS://Yandex.KZ/maps/-/CDa7xY", "https://yandex.kz/maps/-/CDa7xY"),
    ])
    func shortMapLinksAreFollowedAsWritten(text: String, link: String) {
        #expect(TypedCoordinates.read(text) == nil)
        #expect(TypedLinks.shortLink(in: text) == link)
        #expect(ShortMapLink.isShort(link))
    }

    /// Only the map apps' short links are followed: no other host, no long link, no bare host.
    @Test(arguments: [
        "https://example.com/maps/-/CCUqMKR3", "https://goo.gl/AbCd1234", "https://maps.app.goo.gl/", "https://maps.app.goo.gl.evil.com/abcd",
        "https://yandex.ru/maps/213/moscow/", "https://yandex.ru/search/-/CCUq", "ftp://maps.app.goo.gl/abcd", "https://bit.ly/abcd",
        "maps.app.goo.gl", "https://evil.com/?u=maps.app.goo.gl/abcd", "https://user@maps.app.goo.gl.evil.com/abcd",
    ])
    func otherLinksAreNotFollowed(text: String) {
        #expect(TypedLinks.shortLink(in: text) == nil, "«\(text)»")
        #expect(!ShortMapLink.isShort(text))
    }

    // MARK: Place searches

    static let searches: [(String, String, Bool)] = [
        ("погода москва", "москва", false), ("Погода в Казани", "Казани", false), ("погода в москве завтра", "москве", true),
        ("Москва завтра", "Москва", true), ("weather in London", "London", false), ("London weather tomorrow", "London", true),
        ("Подскажите пожалуйста какая сегодня будет погода в городе Казань потому что я собираюсь поехать туда на машине вечером с семьёй", "Казань", false),
        ("погода в Казани, потому что завтра еду туда", "Казани", true), ("погода в г. Уфа", "Уфа", false),
        ("weather in London because I fly there tomorrow", "London", true), ("what's the weather in Paris so I know what to wear", "Paris", false),
        ("какая погода в Питере?", "Питере", false), ("what's the weather in Paris", "Paris", false),
        ("What’s the weather like in Paris?", "Paris", false), ("weather in the Hague", "the Hague", false),
        ("The Hague weather", "The Hague", false), ("Нижний Новгород", "Нижний Новгород", false),
        ("погода на завтра в Ростове-на-Дону", "Ростове-на-Дону", true), ("Ростов на Дону", "Ростов на Дону", false),
        ("New York", "New York", false), ("  Казань  ", "Казань", false), ("погода: Москва!", "Москва", false),
        ("Москва, завтра", "Москва", true), ("«Самара»", "Самара", false), ("как там в Сочи", "Сочи", false),
        ("Погода завтра в Москве", "Москве", true), ("weather tomorrow in Rio de Janeiro", "Rio de Janeiro", true),
        ("what will the weather be like in Paris tomorrow?", "Paris", true), ("Москва 2", "Москва 2", false),
    ]

    @Test(arguments: searches)
    func placesWithoutTheWordsAround(text: String, query: String, tomorrow: Bool) {
        let reading = TypedQuery.read(text)
        #expect(reading?.query == query, "«\(text)»")
        #expect(reading?.tomorrow == tomorrow, "«\(text)»")
    }

    @Test(arguments: ["погода", "Погода?", "weather tomorrow", "погода на завтра", "what's the weather", "", "  ", "?!", "в"])
    func nothingLeftMeansTheChatsOwnWeather(text: String) {
        #expect(TypedQuery.read(text) == nil, "«\(text)»")
    }

    static let guesses: [(String, String)] = [
        ("Казани", "Казань"), ("москве", "москва"), ("Питере", "Питер"), ("Самаре", "Самара"), ("Перми", "Пермь"),
        ("Твери", "Тверь"), ("Омске", "Омск"), ("Екатеринбурге", "Екатеринбург"), ("Ярославле", "Ярославль"),
        ("Италии", "Италия"), ("Химках", "Химки"), ("Чебоксарах", "Чебоксары"), ("Калуге", "Калуга"), ("МОСКВЕ", "МОСКВА"),
        ("Нижнем Новгороде", "Нижний Новгород"), ("Великом Новгороде", "Великий Новгород"),
        ("Ростове-на-Дону", "Ростов-на-Дону"), ("Санкт-Петербурге", "Санкт-Петербург"),
        ("Петропавловске-Камчатском", "Петропавловск-Камчатский"), ("Набережных Челнах", "Набережные Челны"),
        ("Красной Поляне", "Красная Поляна"),
    ]

    @Test(arguments: guesses)
    func nominativeGuessesComeFirst(place: String, guess: String) {
        let alternatives = TypedQuery.read("погода в \(place)")?.alternatives ?? []
        #expect(alternatives.first == guess, "«\(place)»: \(alternatives)")
        #expect(Set(alternatives).count == alternatives.count)
        #expect(!alternatives.contains(place))
    }

    @Test func theSecondGuessIsKept() {
        #expect(TypedQuery.read("в Краснодаре")?.alternatives == ["Краснодара", "Краснодар"])
        #expect(TypedQuery.read("в Питере")?.alternatives == ["Питер", "Питера"])
        #expect(TypedQuery.read("в москве")?.alternatives == ["москва"])
    }

    @Test(arguments: ["Москва", "London", "Сочи", "Казань", "Пермь", "New York", "Ростов-на-Дону", "Paris 2", "Кемерово", "Нижний Новгород"])
    func namesAsWrittenHaveNoGuesses(place: String) {
        #expect(TypedQuery.read(place)?.alternatives == [], "«\(place)»")
    }

    // MARK: Chatter

    @Test(arguments: [
        "привет", "Привет!", "здравствуйте", "Здравствуйте.", "спасибо", "Спасибо!!!", "спасибо большое", "Спасибо 👍", "hi",
        "Hello", "thanks", "thank you", "Thank you!", "ok", "OK", "ок", "Ок 👌", "добрый день", "👍", "👍🏽", "🇷🇺", "👨‍👩‍👧",
        "🏳️‍🌈", "❤️", "1️⃣", "?!", "...", "—", "", "  ", "🙂🙂🙂",
        "🔎 Выбрать город вручную", "🔎 Choose city manually",
    ])
    func chatterIsNotAPlace(text: String) {
        #expect(TypedQuery.isChatter(text), "«\(text)»")
    }

    @Test func theKeyboardsOwnButtonsAreChatter() {
        for language in Language.allCases {
            #expect(TypedQuery.isChatter(Texts.for(language).shareLocationButton))
            #expect(TypedQuery.isChatter(Texts.for(language).chooseManuallyKeyboardButton))
        }
    }

    @Test(arguments: ["Москва", "London", "Казань 👍", "погода", "2", "Привет Москва", "Hi Paris", "Ok Москва", "ОКА", "Hillo"])
    func placesAreNotChatter(text: String) {
        #expect(!TypedQuery.isChatter(text), "«\(text)»")
    }

    // MARK: Any input

    static let nasty: [String] = [
        "", " ", "\u{0}", "\u{202E}55.75\u{202C}, 37.62", "🏳️‍🌈🇷🇺👨‍👩‍👧", String(repeating: "ы", count: 10_000),
        String(repeating: "9", count: 10_000), String(repeating: "9.", count: 5_000), String(repeating: ",9", count: 5_000),
        String(repeating: "°", count: 5_000), String(repeating: "1°", count: 5_000), "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
        String(repeating: "1,", count: 140), "https://", "geo:", "geo:,", "https://www.google.com/maps/@", "https://yandex.ru/maps/?ll=",
        "https://www.google.com/maps/data=!3d!4d", "%", "%%%", "https://maps.apple.com/?ll=%ZZ,%", "https://yandex.ru/maps/?pt=~~~",
        String(repeating: "https://www.google.com/maps/place/x ", count: 400), "1e400 1e400", "9" + String(repeating: "0", count: 400) + " 1",
        "12:" + String(repeating: "5", count: 10_000), String(repeating: "погода ", count: 2_000), "-", "+", "−", "N", "с.", "с.ш.",
        "'", "\"", "''", "в-", "-на-", "е", "ии", "\u{301}е",
    ]

    @Test func anyTextGivesAnAnswerWithoutCrashing() {
        let alphabet = Array("0123456789.,;:°′″'\"’” -+−NSEWnsewсшювдзч ampmутравечеранчи/?#&=@!geohttps:%~()[]Яё🙂\u{301}\u{200F}\t")
        var generator = SystemRandomNumberGenerator()
        let random = (0..<3000).map { _ in
            String((0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for text in Self.nasty + random {
            _ = TypedTime.leading(text)
            _ = TypedTime.isTimeLike(text)
            if case .point(let latitude, let longitude)? = TypedCoordinates.read(text) {
                #expect(latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180, "«\(text.prefix(60))»")
            }
            if let time = TypedTime.leading(text) {
                #expect((0...23).contains(time.hour) && (0...59).contains(time.minute), "«\(text.prefix(60))»")
            }
            _ = TypedQuery.read(text)
            _ = TypedQuery.isChatter(text)
        }
    }
}

/// The names people give the views the buttons show: now, the hours, tomorrow, the week, the
/// chart; in both languages, alone or with a place before or after.
@Suite struct TypedViewNamesTests {
    /// A phrasing, the place left of it (nil: none, the chat's own), and the view it asks for.
    static let phrasings: [(String, String?, TypedQuery.Asked)] = [
        // The hours.
        ("по часам", nil, .hours), ("По часам", nil, .hours), ("погода по часам", nil, .hours), ("почасовой прогноз", nil, .hours),
        ("прогноз по часам", nil, .hours), ("почасовая погода", nil, .hours), ("Казань по часам", "Казань", .hours),
        ("по часам Казань", "Казань", .hours), ("погода в Казани по часам", "Казани", .hours), ("почасовой прогноз в Казани", "Казани", .hours),
        ("hourly", nil, .hours), ("Hourly", nil, .hours), ("hourly forecast", nil, .hours), ("weather by the hour", nil, .hours),
        ("hour by hour", nil, .hours), ("London hourly", "London", .hours), ("hourly weather in London", "London", .hours),
        ("hourly forecast for London", "London", .hours), ("London weather by the hour", "London", .hours),
        ("погода вечером", nil, .hours), ("Казань вечером", "Казань", .hours), ("tonight in London", "London", .hours),
        ("завтра утром", nil, .tomorrow), ("Казань на выходные", "Казань", .week), ("London this weekend", "London", .week),
        // Tomorrow.
        ("завтра", nil, .tomorrow), ("погода на завтра", nil, .tomorrow), ("а завтра?", nil, .tomorrow), ("а что завтра?", nil, .tomorrow),
        ("and tomorrow?", nil, .tomorrow), ("what about tomorrow in London", "London", .tomorrow), ("завтра по часам", nil, .tomorrow),
        ("Казань завтра", "Казань", .tomorrow), ("завтра в Казани", "Казани", .tomorrow), ("завтрашняя погода в Казани", "Казани", .tomorrow),
        ("tomorrow", nil, .tomorrow), ("weather tomorrow", nil, .tomorrow), ("London tomorrow", "London", .tomorrow),
        ("tomorrow in London", "London", .tomorrow), ("tomorrow's weather in London", "London", .tomorrow),
        // The week.
        ("на неделю", nil, .week), ("На 7 дней", nil, .week), ("погода на неделю", nil, .week), ("прогноз на 7 дней", nil, .week),
        ("на семь дней", nil, .week), ("Казань на неделю", "Казань", .week), ("на неделю Казань", "Казань", .week),
        ("погода на 7 дней в Казани", "Казани", .week), ("недельный прогноз Казань", "Казань", .week),
        ("weather for the week", nil, .week), ("7 days", nil, .week), ("weekly forecast", nil, .week), ("London weekly forecast", "London", .week),
        ("7-day forecast London", "London", .week), ("weather in London for the next 7 days", "London", .week),
        ("weather for the week in London", "London", .week),
        // Now.
        ("сейчас", nil, .now), ("Сейчас", nil, .now), ("погода сейчас", nil, .now), ("Казань сейчас", "Казань", .now),
        ("какая погода сейчас в Казани", "Казани", .now), ("now", nil, .now), ("weather now", nil, .now), ("London now", "London", .now),
        ("current weather in London", "London", .now), ("London right now", "London", .now), ("температура в Казани", "Казани", .now),
        // The chart.
        ("график", nil, .chart(.hours)), ("📈 График", nil, .chart(.hours)), ("график на неделю", nil, .chart(.week)),
        ("график Казань", "Казань", .chart(.hours)), ("Казань график", "Казань", .chart(.hours)),
        ("график погоды в Казани на неделю", "Казани", .chart(.week)), ("chart", nil, .chart(.hours)), ("📈 Chart", nil, .chart(.hours)),
        ("chart for the week", nil, .chart(.week)), ("chart London", "London", .chart(.hours)), ("London chart", "London", .chart(.hours)),
        ("weekly chart for London", "London", .chart(.week)), ("graph of the weather in London", "London", .chart(.hours)),
    ]

    @Test(arguments: phrasings)
    func aViewsNameIsAViewNotAPlace(text: String, place: String?, asked: TypedQuery.Asked) {
        #expect(TypedQuery.read(text)?.query == place, "«\(text)»")
        #expect(TypedQuery.asked(text) == asked, "«\(text)»")
    }

    /// Inline mode reads a view's name as the chat does: «Казань по часам» sends the hours.
    @Test func inlineModeReadsTheViewsNamesToo() {
        #expect(Conversation.askedView("Казань по часам") == .hourly(page: 0))
        #expect(Conversation.askedView("hourly London") == .hourly(page: 0))
        #expect(Conversation.askedView("Казань завтра") == .hourly(page: 1))
        #expect(Conversation.askedView("London 7 days") == .daily)
        #expect(Conversation.askedView("график Казань на неделю") == .daily)
        #expect(Conversation.askedView("Казань") == .now)
    }

    /// Names with a view's word in them, and a number beside a name, stay names.
    @Test(arguments: [("Часов Яр", "Часов Яр"), ("Москва 2", "Москва 2"), ("погода в Нью-Йорке", "Нью-Йорке")])
    func namesKeepTheirWords(text: String, place: String) {
        #expect(TypedQuery.read(text)?.query == place, "«\(text)»")
        #expect(TypedQuery.asked(text) == .now, "«\(text)»")
    }

    /// A sentence whose words left over are no place's name is none: nothing of it is searched.
    @Test(arguments: [
        "Подскажите пожалуйста какая погода там, где живёт моя бабушка и дедушка и ещё много родственников в городе, который я не помню",
        "где живёт моя бабушка и дедушка и ещё много родственников в городе",
        "погода там где бабушка", "what's the weather where my grandmother and grandfather and all the family live",
    ])
    func aSentenceWithoutANameIsNotRead(text: String) {
        #expect(TypedQuery.parse(text) == .sentence, "«\(text)»")
        #expect(TypedQuery.read(text) == nil)
    }

    /// «Мск» is Moscow in Russia, «NYC» New York in the United States; «Нью Йорк» is a spelling, not one city.
    @Test func aNicknameMeansOneCity() {
        #expect(TypedQuery.nickname("Мск") == "Москва" && TypedQuery.nicknameCountry("Мск") == "RU")
        #expect(TypedQuery.nickname("NYC") == "New York" && TypedQuery.nicknameCountry("nyc") == "US")
        #expect(TypedQuery.nicknameCountry("Питер") == "RU" && TypedQuery.nicknameCountry("екб") == "RU")
        #expect(TypedQuery.nickname("Нью Йорк") == "New York" && TypedQuery.nicknameCountry("Нью Йорк") == nil)
        #expect(TypedQuery.nicknameCountry("Москва") == nil)
    }
}
