import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot

/// What the weather views say, said right: «likely» from one threshold, the days the button
/// opens, precipitation in the chat's unit, the air's own sign, one 12-hour style, a settings
/// example of one pressure, and a range of one number said naturally.
@Suite struct ReportWordsTests {
    let ru = Texts.for(.ru)
    let en = Texts.for(.en)
    let now = ISO8601DateFormatter().date(from: "2023-11-14T22:13:20Z")!

    func day(chance: Double, precipitation: Double, icon: String = "10d") -> DailyForecast {
        var day = Forecast.sample.daily[1]
        day.precipitationChance = chance
        day.precipitation = precipitation
        day.condition = Condition(description: "дождь", icon: icon)
        return day
    }

    // MARK: Likely precipitation

    @Test func theUmbrellaIsAdvisedOnlyFromTheLikelyChance() {
        let below = DailyForecastView.summary(day(chance: 0.49, precipitation: 3), ru)
        #expect(!below.contains("зонт") && below.hasSuffix("Осадки возможны, но маловероятны."), "\(below)")
        let at = DailyForecastView.summary(day(chance: 0.5, precipitation: 0.2), ru)
        #expect(at.hasSuffix("Возьмите зонт — осадки вероятны."), "\(at)")
        let dry = DailyForecastView.summary(day(chance: 0, precipitation: 0), en)
        #expect(dry.hasSuffix("No precipitation expected."), "\(dry)")
        #expect(WeatherViews.likelyPrecipitation == 50)
    }

    @Test func theHoursAndTheDaysShowALikelyChanceInBoldFromTheSameThreshold() {
        var hour = Forecast.sample.hourly[1]
        hour.precipitationChance = 0.49
        #expect(WeatherViews.hourLine(hour, .gmt, ru).hasSuffix("☔49%"))
        hour.precipitationChance = 0.5
        #expect(WeatherViews.hourLine(hour, .gmt, ru).hasSuffix("☔<b>50%</b>"))
        let page = WeatherViews.hourlyPages(.moscow, .sample, ru, now: now)[0]
        #expect(page.contains("вероятность осадков (от 50% — вероятны, жирным)"), "\(page)")
        // The sample's third day: 1,25 mm at 60%.
        let days = WeatherViews.daily(.moscow, .sample, ru)
        #expect(days.contains("☔ 1,2 мм (<b>60%</b>)"), "\(days)")
    }

    @Test func theCardSaysFromWhenPrecipitationIsLikely() {
        var forecast = Forecast.sample
        #expect(!WeatherViews.card(.moscow, forecast, ru, now: now).contains("Вероятны осадки"))
        forecast.hourly[3].precipitationChance = 0.49
        #expect(!WeatherViews.card(.moscow, forecast, ru, now: now).contains("Вероятны осадки"))
        forecast.hourly[4].precipitationChance = 0.6
        // 02:00 UTC is 05:00 in Moscow.
        let card = WeatherViews.card(.moscow, forecast, ru, now: now)
        #expect(card.contains("☔ Вероятны осадки: с 05:00, 60%"), "\(card)")
        #expect(WeatherViews.card(.moscow, forecast, en, now: now).contains("☔ Precipitation likely from 05:00, 60%"))
    }

    // MARK: The days there are

    @Test func theSevenDaysButtonSaysTheDaysThereAre() {
        var forecast = Forecast.sample
        forecast.daily = Array(forecast.daily.prefix(6))
        let report = WeatherReport(forecast: forecast, fetchedAt: now)
        let shown = WeatherViews.render(.now, place: .moscow, reference: .current, report: report, texts: ru, now: now)
        let labels = shown.keyboard.inlineKeyboard.joined().map(\.text)
        #expect(labels.contains("На 6 дней") && !labels.contains("На 7 дней"), "\(labels)")
        let days = WeatherViews.render(.daily, place: .moscow, reference: .current, report: report, texts: ru, now: now)
        #expect(days.text.contains("— на 6 дней") && days.keyboard.inlineKeyboard.joined().contains { $0.text == "· На 6 дней ·" })
        let full = WeatherViews.render(.now, place: .moscow, reference: .current, report: WeatherReport(forecast: .sample, fetchedAt: now), texts: en, now: now)
        #expect(full.keyboard.inlineKeyboard.joined().contains { $0.text == "7 days" })
        let daily = DailyForecastView.keyboard(subscriptionID: 1, texts: ru, forecast: forecast)
        #expect(daily.inlineKeyboard.joined().map(\.text) == ["По часам", "На 6 дней"])
    }

    // MARK: Units

    static let imperial = ChatSettings(temperature: .fahrenheit, windSpeed: .milesPerHour, pressure: .inchesOfMercury, clock: .twelveHour)

    @Test func precipitationIsInInchesUnderImperialUnitsEverywhere() {
        let texts = Texts.for(.en, settings: Self.imperial)
        var forecast = Forecast.sample
        forecast.current.rain = 2.54
        let card = WeatherViews.card(.moscow, forecast, texts, now: now)
        #expect(card.contains("🌧 Precipitation: 0.10 in/h"), "\(card)")
        let days = WeatherViews.daily(.moscow, .sample, texts)
        #expect(days.contains("☔ 0.05 in (<b>60%</b>)") && !days.contains(" mm"), "\(days)")
        let daily = DailyForecastView.text(place: .moscow, forecast: .sample, day: "2023-11-16", texts: texts)
        #expect(daily.contains("Precipitation: 0.05 in, 60% chance"), "\(daily)")
        let row = FavoritesViews.line(.init(place: .moscow, reference: .current, report: WeatherReport(forecast: forecast, fetchedAt: now)), texts)
        #expect(row.hasSuffix("🌧 0.10 in/h"), "\(row)")
        #expect(texts.chartMillimetres == "in" && texts.chartMillimetresPerUnit == 25.4)
        // Metric stays in millimetres.
        #expect(WeatherViews.card(.moscow, forecast, en, now: now).contains("🌧 Precipitation: 2.5 mm/h"))
        #expect(en.chartMillimetres == "mm" && en.chartMillimetresPerUnit == 1)
    }

    @Test func theChartsHoursAreNamedInTheTextsTwelveHourStyle() {
        let twelve = Texts.for(.en, settings: ChatSettings(clock: .twelveHour))
        #expect(twelve.time(hour: 22, minute: 17) == "10:17 PM")
        #expect(twelve.chartHours[0] == "12 AM" && twelve.chartHours[15] == "3 PM" && twelve.chartHours[22] == "10 PM")
        #expect(ru.chartHours[0] == "00" && ru.chartHours[15] == "15")
    }

    @Test func theSettingsExampleIsOnePressureInEveryUnit() {
        let conversation = Conversation(geocoder: FakeGeocoder(), weather: FakeWeather(), store: FakeFavorites(), activity: FakeActivity())
        let millimetres = conversation.settingsMessage(ru, epoch: 0).text
        #expect(millimetres.contains("760 мм рт. ст."), "\(millimetres)")
        let inches = conversation.settingsMessage(.for(.ru, settings: ChatSettings(pressure: .inchesOfMercury)), epoch: 0).text
        #expect(inches.contains("29,92 inHg"), "\(inches)")
        let hectopascals = conversation.settingsMessage(en, epoch: 0).text
        #expect(hectopascals.contains("1013 hPa") && hectopascals.contains("☔ 2.5 mm"), "\(hectopascals)")
        let imperial = conversation.settingsMessage(.for(.en, settings: Self.imperial), epoch: 0).text
        #expect(imperial.contains("29.92 inHg") && imperial.contains("☔ 0.10 in"), "\(imperial)")
    }

    // MARK: Signs

    @Test func fogAndTheAirHaveSignsOfTheirOwn() {
        var forecast = Forecast.sample
        forecast.current.condition = Condition(description: "туман", icon: "50d")
        let card = WeatherViews.card(.moscow, forecast, ru, now: now, air: AirQuality(index: 3, pm25: 38, time: now))
        #expect(card.contains("🌫 <b>-3°C</b>, туман"), "\(card)")
        #expect(card.contains("🍃 Воздух: умеренный, PM2.5 38 мкг/м³"), "\(card)")
        #expect(card.components(separatedBy: "🌫").count == 2, "\(card)")
    }
}

/// A list of one place is said so, not «от 1 до 1».
@Suite struct OneNumberTests {
    typealias Chat = FavoritesConversationTests.Chat

    @Test func aListOfOneIsNotGivenARangeFromOneToOne() async throws {
        let chat = try Chat()
        try await chat.save(["Казань"])
        let deleted = try await chat.send(.command(.delete("5")))
        #expect(deleted.replies.last?.text == "В списке одно место — его номер 1: /del 1", "\(deleted.replies)")
        #expect(Texts.for(.en).validRange(1, usage: "/del 1") == "There is one place in the list, number 1: /del 1")
        #expect(Texts.for(.en).validRange(3, usage: "/del 1") == "Give a number from 1 to 3, for example: /del 1")
    }
}
