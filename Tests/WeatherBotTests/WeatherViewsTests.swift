import Foundation
import OpenWeather
import TelegramBotAPI
import Testing
import WeatherBotStore
@testable import WeatherBot

@Suite struct WeatherViewsTests {
    let ru = Texts.for(.ru)
    let en = Texts.for(.en)

    /// A forecast with hourly steps from `start` (UTC), `count` of them, `step` hours apart.
    func forecast(zone: PlaceTimeZone, start: Date, count: Int = 48, step: Int = 1, description: String = "пасмурно") -> Forecast {
        var forecast = Forecast.sample
        forecast.timeZone = zone
        forecast.source = step == 1 ? .oneCall : .freePlan
        forecast.hourly = (0..<count).map { index in
            HourlyForecast(
                time: start.addingTimeInterval(Double(index * step) * 3600), temperature: 10, clouds: 40, humidity: 60,
                pressure: 1013, windSpeed: 3, windDegrees: 90, precipitationChance: 0.25, precipitation: 0,
                condition: Condition(description: description, icon: "03d"))
        }
        return forecast
    }

    func utc(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test func theCardShowsEverythingTheSeedAsksFor() {
        var forecast = Forecast.sample
        forecast.current.snow = 0.84
        forecast.alerts = [WeatherAlert(sender: "Росгидромет", event: "Гололёд", start: utc("2023-11-14T21:00:00Z"), end: utc("2023-11-15T12:00:00Z"), description: "")]
        let card = WeatherViews.card(.moscow, forecast, ru, now: utc("2023-11-14T22:13:20Z"))
        for expected in [
            "📍 <b>Москва</b>, Россия 🇷🇺", "🕒 Местное время: 01:13", "☁️ <b>-3°C</b>, облачно с прояснениями",
            "Ощущается как: -8°C", "Облачность: 75%", "💨 Ветер: 4 м/с, ЮЮЗ (порывы до 9 м/с)", "💧 Влажность: 80%",
            "🌡 Давление: 759 мм рт. ст.", "🌨 Осадки: 0,8 мм/ч", "🌅 Восход: 07:35", "🌇 Закат: 15:50",
            "⚠️ <b>Гололёд</b>: 15 ноября 00:00–15:00 (Росгидромет)",
        ] {
            #expect(card.contains(expected), "missing «\(expected)» in\n\(card)")
        }
        let english = WeatherViews.card(.moscow, Forecast.sample, en, now: utc("2023-11-14T22:13:20Z"))
        #expect(english.contains("<b>Moscow</b>, Russia"))
        #expect(english.contains("Pressure: 1012 hPa"))
        #expect(english.contains("Wind: 4 m/s, SSW"))
        #expect(!english.contains("Precipitation"))  // none now
    }

    /// The sample's sun is up from 07:35 to 15:50 in Moscow on 14 November.
    static let uvCases: [(index: Double?, line: String?)] = [
        (nil, nil), (2.49, nil), (2.5, "🔆 УФ 3, умеренный: в полдень лучше в тени"), (5.49, "🔆 УФ 5, умеренный: в полдень лучше в тени"),
        (5.5, "🔆 УФ 6, высокий: нужен крем и головной убор"), (7.49, "🔆 УФ 7, высокий: нужен крем и головной убор"),
        (7.5, "🔆 УФ 8, очень высокий: крем SPF 30+, в полдень избегайте солнца"),
        (10.49, "🔆 УФ 10, очень высокий: крем SPF 30+, в полдень избегайте солнца"),
        (10.5, "🔆 УФ 11, экстремальный: оставайтесь в тени, крем SPF 50+"), (.infinity, nil),
    ]

    @Test(arguments: uvCases)
    func theCardShowsTheUVIndexByDayFromModerateUp(_ index: Double?, _ line: String?) {
        var forecast = Forecast.sample
        forecast.current.uvIndex = index
        let noon = WeatherViews.card(.moscow, forecast, ru, now: utc("2023-11-14T09:00:00Z"))
        let uvLines = noon.split(separator: "\n").filter { $0.hasPrefix("🔆") }.map(String.init)
        #expect(uvLines == (line.map { [$0] } ?? []), "\(noon)")
        // At night, whatever One Call says, no UV line.
        let night = WeatherViews.card(.moscow, forecast, ru, now: utc("2023-11-14T20:00:00Z"))
        #expect(!night.contains("🔆"))
    }

    @Test func theCardSaysHowTheAirIsAndItsParticlesOnlyWhenTheyMatter() {
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        func line(_ air: AirQuality?, _ texts: Texts) -> String? {
            WeatherViews.card(.moscow, .sample, texts, now: at, air: air).split(separator: "\n").first { $0.hasPrefix("🍃") }.map(String.init)
        }
        #expect(line(AirQuality(index: 1, pm25: 5.36, time: at), ru) == "🍃 Воздух: хороший")
        #expect(line(AirQuality(index: 2, pm25: 12, time: at), en) == "🍃 Air: fair")
        #expect(line(AirQuality(index: 3, pm25: 37.6, time: at), ru) == "🍃 Воздух: умеренный, PM2.5 38 мкг/м³")
        #expect(line(AirQuality(index: 4, pm25: 62, time: at), en) == "🍃 Air: poor, PM2.5 62 µg/m³")
        #expect(line(AirQuality(index: 5, time: at), ru) == "🍃 Воздух: очень плохой")
        // No reading (the API failed or was late), or an index that is not one of the five: no line.
        #expect(line(nil, ru) == nil)
        #expect(line(AirQuality(index: 6, time: at), ru) == nil)
    }

    @Test func theCardNamesEachKindOfPollenAboveNoneInWordsTheHighestFirst() {
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        func line(_ pollen: PollenReading?, _ texts: Texts) -> String? {
            let card = WeatherViews.card(.moscow, .sample, texts, now: at, air: AirQuality(index: 1, time: at), pollen: pollen)
            let lines = card.split(separator: "\n").map(String.init)
            let index = lines.firstIndex { $0.hasPrefix("🌼") }
            // Right after the air's line.
            if let index { #expect(lines[index - 1].hasPrefix("🍃"), "\(card)") }
            return index.map { lines[$0] }
        }
        let reading = PollenReading(time: at, grains: [.grass: 2, .birch: 120, .alder: 0, .mugwort: 12])
        #expect(line(reading, ru) == "🌼 Пыльца: берёза — высокий уровень, полынь — умеренный, злаки — низкий")
        #expect(line(reading, en) == "🌼 Pollen: birch — high, mugwort — moderate, grass — low")
        #expect(line(PollenReading(time: at, grains: [.ragweed: 600]), ru) == "🌼 Пыльца: амброзия — очень высокий уровень")
        #expect(line(PollenReading(time: at, grains: [.olive: 20, .alder: 20]), en) == "🌼 Pollen: alder — moderate, olive — moderate")
        // Every kind at none (out of season): no line; no reading (outside the data, or late): none either.
        #expect(line(PollenReading(time: at, grains: [.birch: 0.4, .grass: 0]), ru) == nil)
        #expect(line(nil, ru) == nil)
        #expect(line(nil, en) == nil)
    }

    @Test func theDailyForecastGivesTheDaysMeanPollenOfItsOwnDayOnly() {
        let forecast = Forecast.sample
        let zone = forecast.timeZone.timeZone
        let day = DailySchedule.day(of: forecast.daily[0].time, in: zone)
        let noon = DailySchedule.noon(of: day, in: zone)!
        func text(_ hours: [(offset: Double, birch: Double, grass: Double)]?, _ texts: Texts) -> String {
            DailyForecastView.text(
                place: .moscow, forecast: forecast, day: day, texts: texts,
                pollen: hours?.map { PollenReading(time: noon.addingTimeInterval($0.offset * 3600), grains: [.birch: $0.birch, .grass: $0.grass]) })
        }
        // Each kind at its day's mean, the count the levels are for: birch (150 + 100 + 20) / 3 =
        // 90, grass (20 + 30 + 25) / 3 = 25, both high; the morning's 150 alone is not the day's.
        let hours: [(offset: Double, birch: Double, grass: Double)] = [(-5, 150, 20), (0, 100, 30), (6, 20, 25)]
        #expect(text(hours, ru).contains("\n🌼 Пыльца: берёза — высокий уровень, злаки — высокий\n"))
        #expect(text(hours, en).contains("\n🌼 Pollen: birch — high, grass — high\n"))
        // Tomorrow's pollen is tomorrow's forecast's to tell; a day at none says nothing.
        #expect(!text([(0, 0, 0), (24, 500, 50)], ru).contains("🌼"))
        #expect(!text(nil, ru).contains("🌼"))
    }

    @Test func theDailyForecastWarnsOfPoorAirOnlyForItsOwnDay() {
        let forecast = Forecast.sample
        let zone = forecast.timeZone.timeZone
        let day = DailySchedule.day(of: forecast.daily[0].time, in: zone)
        let noon = DailySchedule.noon(of: day, in: zone)!
        func text(_ hours: [(offset: Double, index: Int)]?, _ texts: Texts) -> String {
            DailyForecastView.text(
                place: .moscow, forecast: forecast, day: day, texts: texts,
                air: hours?.map { AirQuality(index: $0.index, time: noon.addingTimeInterval($0.offset * 3600)) })
        }
        #expect(text([(0, 2), (3, 4), (6, 3)], ru).contains("😷 Воздух сегодня будет плохим"))
        #expect(text([(0, 5)], en).contains("😷 The air will be very poor today"))
        #expect(!text([(0, 3), (5, 2)], ru).contains("😷"))
        // Tomorrow's poor air is tomorrow's forecast's to tell.
        #expect(!text([(0, 2), (24, 5)], ru).contains("😷"))
        #expect(!text(nil, ru).contains("😷"))
    }

    @Test func theDailyForecastSaysHowTodayComparesWithYesterdayOnlyWhenItKnowsAndItMatters() {
        let forecast = Forecast.sample
        let today = forecast.daily[0]
        let day = DailySchedule.day(of: today.time, in: forecast.timeZone.timeZone)
        func text(_ maximum: Double, _ minimum: Double, _ texts: Texts) -> String {
            let yesterday = DayTemperatures(cell: "c", day: "d", minimum: today.minimumTemperature - minimum, maximum: today.maximumTemperature - maximum)
            return DailyForecastView.text(place: .moscow, forecast: forecast, day: day, texts: texts, yesterday: yesterday)
        }
        #expect(text(4, 0, ru).contains("🌡 Днём на 4 градуса теплее, чем вчера"))
        #expect(text(-5, 0, ru).contains("🌡 Днём на 5 градусов холоднее, чем вчера"))
        #expect(text(21, 0, ru).contains("🌡 Днём на 21 градус теплее, чем вчера"))
        #expect(text(4, 0, en).contains("🌡 4 degrees warmer than yesterday this afternoon"))
        // Under 2° by day, the night speaks if it differs; under 2° both, nothing is said.
        #expect(text(1.4, -3, ru).contains("🌡 Ночью на 3 градуса холоднее, чем вчера"))
        #expect(text(1.4, -3, en).contains("🌡 3 degrees colder than last night"))
        #expect(!text(1.4, 1.4, ru).contains("🌡 "))
        #expect(!text(-1.49, 0, ru).contains("🌡 "))
        #expect(text(1.5, 0, ru).contains("на 2 градуса теплее"))
        // In °F the difference is in Fahrenheit degrees (2 °C is 4 °F), the threshold the same.
        #expect(text(2, 0, .for(.en, settings: ChatSettings(temperature: .fahrenheit))).contains("🌡 4 degrees warmer than yesterday this afternoon"))
        // Yesterday unknown: nothing.
        #expect(!DailyForecastView.text(place: .moscow, forecast: forecast, day: day, texts: ru).contains("🌡 "))
    }

    @Test func theDailyForecastGivesTheDaysHighestUVInBothLanguages() {
        var forecast = Forecast.sample
        forecast.daily[0].uvIndex = 6.2
        let day = DailySchedule.day(of: forecast.daily[0].time, in: forecast.timeZone.timeZone)
        let russian = DailyForecastView.text(place: .moscow, forecast: forecast, day: day, texts: ru)
        #expect(russian.contains("🔆 УФ днём до 6, высокий: нужен крем и головной убор"), "\(russian)")
        let english = DailyForecastView.text(place: .moscow, forecast: forecast, day: day, texts: en)
        #expect(english.contains("🔆 UV up to 6 today, high: sunscreen and a hat needed"), "\(english)")
        // Low, or unknown on the free plan: no line.
        forecast.daily[0].uvIndex = 1
        #expect(!DailyForecastView.text(place: .moscow, forecast: forecast, day: day, texts: ru).contains("УФ"))
        forecast.daily[0].uvIndex = nil
        #expect(!DailyForecastView.text(place: .moscow, forecast: forecast, day: day, texts: ru).contains("УФ"))
    }

    @Test func pressureIsInMillimetresOfMercuryForRussian() {
        #expect(ru.pressure(1013.25) == "760")
        #expect(ru.pressure(1000) == "750")
        #expect(en.pressure(1013.25) == "1013")
    }

    static let compass: [(Double, String, String)] = [
        (0.0, "С", "N"), (11.2, "С", "N"), (11.3, "ССВ", "NNE"), (22.5, "ССВ", "NNE"), (45, "СВ", "NE"), (67.5, "ВСВ", "ENE"),
        (90, "В", "E"), (112.5, "ВЮВ", "ESE"), (135, "ЮВ", "SE"), (157.5, "ЮЮВ", "SSE"), (180, "Ю", "S"), (202.5, "ЮЮЗ", "SSW"),
        (225, "ЮЗ", "SW"), (247.5, "ЗЮЗ", "WSW"), (270, "З", "W"), (292.5, "ЗСЗ", "WNW"), (315, "СЗ", "NW"), (337.5, "ССЗ", "NNW"),
        (348.7, "ССЗ", "NNW"), (348.8, "С", "N"), (360, "С", "N"), (-90, "З", "W"), (810, "В", "E"),
    ]

    @Test(arguments: compass)
    func windDirectionsUseSixteenPoints(degrees: Double, russian: String, english: String) {
        #expect(WeatherViews.windPoint(degrees, ru) == russian)
        #expect(WeatherViews.windPoint(degrees, en) == english)
    }

    @Test func hoursInKathmanduRunFromTheNextHourToTheEndOfTomorrow() {
        // 10:20 local (+5:45) on 21 November; hourly data on the UTC hour, so local times end in :45.
        let now = utc("2026-11-21T04:35:00Z")
        let forecast = forecast(zone: .identifier("Asia/Kathmandu"), start: utc("2026-11-21T03:00:00Z"))
        let days = WeatherViews.hourlyDays(forecast, now: now)
        #expect(days.count == 2)
        let zone = TimeZone(identifier: "Asia/Kathmandu")!
        // Not 09:45, the hour under way, whose forecast would stand beside the card's measured now.
        #expect(days[0].hours.map { ru.time($0.time, in: zone) }.first == "10:45")
        #expect(days[0].hours.count == 14)  // 10:45 … 23:45
        #expect(days[1].hours.count == 24)
        #expect(ru.time(days[1].hours.last!.time, in: zone) == "23:45")
        let page = WeatherViews.hourlyPages(.moscow, forecast, ru, now: now).joined()
        #expect(page.contains("<b>Сегодня — сб, 21 ноября</b>"))
        #expect(page.contains("<b>Завтра — вс, 22 ноября</b>"))
        #expect(page.contains("10:45 🌥 <b>+10°C</b> · 💨3 В · 760 · 💧60% · обл. 40% · ☔25%"))
    }

    /// Paris at 20:27, −7°C now: the hours start at 21:00, not at «20:00 −6°C» beside it; an
    /// hour that starts right now is its own forecast and is shown.
    @Test func theHoursStartAfterTheCardsNow() {
        let forecast = forecast(zone: .identifier("UTC"), start: utc("2026-11-21T20:00:00Z"))
        let zone = TimeZone(identifier: "UTC")!
        let first = { (now: String) in WeatherViews.hourlyDays(forecast, now: utc(now)).first?.hours.first.map { ru.time($0.time, in: zone) } }
        #expect(first("2026-11-21T20:27:00Z") == "21:00")
        #expect(first("2026-11-21T20:00:00Z") == "20:00")
        #expect(first("2026-11-21T20:00:01Z") == "21:00")
    }

    @Test func theMarchChangeInLondonGivesTomorrowTwentyThreeHours() {
        // Saturday 28 March 2026, 22:30 GMT; clocks go forward at 01:00 GMT on Sunday.
        let now = utc("2026-03-28T22:30:00Z")
        let forecast = forecast(zone: .identifier("Europe/London"), start: utc("2026-03-28T22:00:00Z"))
        let days = WeatherViews.hourlyDays(forecast, now: now)
        let zone = TimeZone(identifier: "Europe/London")!
        #expect(days.map { $0.hours.count } == [1, 23])  // 23:00, then a day without 01:00
        let tomorrow = days[1].hours.map { ru.time($0.time, in: zone) }
        #expect(tomorrow.prefix(3) == ["00:00", "02:00", "03:00"])
        #expect(!tomorrow.contains("01:00"))
        #expect(tomorrow.last == "23:00")
    }

    @Test func theFreePlanSaysItsStepsAreThreeHours() {
        let now = utc("2026-11-21T09:10:00Z")
        let forecast = forecast(zone: .offset(seconds: 14400), start: utc("2026-11-21T09:00:00Z"), count: 40, step: 3)
        let text = WeatherViews.hourlyPages(.moscow, forecast, ru, now: now).joined()
        #expect(text.contains("(каждые 3 ч)"))
        let days = WeatherViews.hourlyDays(forecast, now: now)
        #expect(days.map { $0.hours.count } == [3, 8])  // 16:00 … 22:00 local (13:00 is under way at 13:10), then a whole day
    }

    @Test func theCloudsAreNamedOnceAndTheSunOnlyForAClearSky() {
        #expect(WeatherViews.skyDescription("небольшая облачность", clouds: 81, ru) == "небольшая облачность (81%)")
        #expect(WeatherViews.skyDescription("ясно", clouds: 0, ru) == "ясно, облачность 0%")
        #expect(WeatherViews.skyDescription("few clouds", clouds: 20, en) == "few clouds (20%)")
        #expect(WeatherViews.skyDescription("light rain", clouds: 90, en) == "light rain, clouds 90%")
        #expect(WeatherViews.emoji(forIcon: "01d", clouds: 0) == "☀️")
        #expect(WeatherViews.emoji(forIcon: "02d", clouds: 81) == "🌥")
        #expect(WeatherViews.emoji(forIcon: "01d", clouds: 30) == "🌤")
        #expect(WeatherViews.emoji(forIcon: "02d", clouds: 95) == "☁️")
        // At night few clouds are not drawn darker than scattered ones.
        #expect(WeatherViews.emoji(forIcon: "02n", clouds: 23) == "🌙")
        #expect(WeatherViews.emoji(forIcon: "03n", clouds: 46) == "🌥")
    }

    @Test func sevenDaysShowDateWeekdayCloudsDayAndNightAndPrecipitation() {
        let text = WeatherViews.daily(.moscow, Forecast.sample, ru)
        let dayLines = text.split(separator: "\n").filter { $0.hasPrefix("<b>") }
        #expect(dayLines.count == 7)
        #expect(dayLines[0].hasPrefix("<b>Вт, 14 ноября</b> ☁️ днём <b>-1°C</b>, ночью -6°C"))
        #expect(dayLines[1].hasPrefix("<b>Ср, 15 ноября</b>"))
        #expect(text.contains("☔ 1,2 мм (<b>60%</b>)"))
        #expect(text.contains("💨 5 м/с, В"))
        // The clouds are named once.
        #expect(text.contains("облачно с прояснениями (60%)"))
        // One emoji, one meaning on a line: the sky is the condition's emoji only.
        #expect(!dayLines.contains { $0.components(separatedBy: "☁️").count > 2 })

        var short = Forecast.sample
        short.daily = Array(short.daily.prefix(5))
        // Titled for the days it has, with no vendor's plan named.
        let five = WeatherViews.daily(.moscow, short, en)
        #expect(five.contains("— for 5 days") && five.contains("There is no forecast beyond 5 days for this place now."))
        #expect(!five.lowercased().contains("plan") && !five.contains("OpenWeather"))
        #expect(WeatherViews.daily(.moscow, short, ru).contains("— на 5 дней"))
    }

    @Test func theDailyForecastSaysADryDayOnceAndAWetDayWithItsAmount() {
        let zone = Forecast.sample.timeZone.timeZone
        func text(dayIndex: Int) -> String {
            let day = DailySchedule.day(of: Forecast.sample.daily[dayIndex].time, in: zone)
            return DailyForecastView.text(place: .moscow, forecast: .sample, day: day, texts: ru)
        }
        let dry = text(dayIndex: 0)
        #expect(!dry.contains("☔"), "\(dry)")
        #expect(dry.contains("Осадков не ожидается."))
        let wet = text(dayIndex: 2)
        #expect(wet.contains("☔ Осадки: 1,2 мм, вероятность 60%"), "\(wet)")
        #expect(wet.contains("Возьмите зонт"))
    }

    @Test func aDailyForecastOfTheLastKnownWeatherSaysSoWithItsTimeAndAge() {
        let zone = Forecast.sample.timeZone.timeZone
        let day = DailySchedule.day(of: Forecast.sample.daily[0].time, in: zone)
        let fetched = utc("2023-11-14T20:05:00Z")  // 23:05 in Moscow
        func text(_ texts: Texts, after seconds: TimeInterval) -> String {
            DailyForecastView.text(place: .moscow, forecast: .sample, day: day, texts: texts, lastKnown: (fetched, fetched.addingTimeInterval(seconds)))
        }
        let hours = text(ru, after: 3 * 3600 + 59 * 60)
        #expect(hours.hasSuffix("\n\n⚠️ Сервис погоды сейчас не отвечает, поэтому это последний известный прогноз: от 14 ноября 23:05, 3 ч назад"), "\(hours)")
        #expect(text(en, after: 40 * 60).hasSuffix("⚠️ The weather service is not answering now, so this is the last known forecast: from 14 Nov 23:05, 40 min ago"))
        // Under a minute is still said as a minute, never «0 мин».
        #expect(text(ru, after: 20).hasSuffix("1 мин назад"))
        #expect(!DailyForecastView.text(place: .moscow, forecast: .sample, day: day, texts: ru).contains("OpenWeather"))
    }

    /// The feed lists a warning once per language (as OpenWeather's Moscow sample in the
    /// reference: «Rain» and «Дождь» with the same sender, times and tags): the card shows it once,
    /// in the reader's language. Warnings without tags are not merged, whatever their times.
    @Test func aWarningListedInBothLanguagesIsShownOnceInTheReadersLanguage() {
        let start = utc("2023-11-14T21:00:00Z"), end = utc("2023-11-15T04:00:00Z"), storm = utc("2023-11-15T03:00:00Z")
        var forecast = Forecast.sample
        forecast.alerts = [
            WeatherAlert(sender: "", event: "Rain", start: start, end: end, description: "", tags: ["Rain"]),
            WeatherAlert(sender: "", event: "Дождь", start: start, end: end, description: "сильный дождь", tags: ["Rain"]),
            WeatherAlert(sender: "", event: "Thunderstorms", start: start, end: storm, description: "", tags: ["Thunderstorm"]),
            WeatherAlert(sender: "", event: "Гроза", start: start, end: storm, description: "гроза", tags: ["Thunderstorm"]),
            WeatherAlert(sender: "", event: "Туман", start: start, end: end, description: ""),
            WeatherAlert(sender: "", event: "Гололёд", start: start, end: end, description: ""),
        ]
        let now = utc("2023-11-14T22:13:20Z")
        let russian = WeatherViews.card(.moscow, forecast, ru, now: now)
        #expect(russian.components(separatedBy: "⚠️").count == 4, "\(russian)")
        for expected in ["⚠️ <b>Дождь</b>", "⚠️ <b>Гроза</b>", "⚠️ <b>Туман</b>", "…и ещё 1 предупреждение"] {
            #expect(russian.contains(expected), "missing «\(expected)» in\n\(russian)")
        }
        #expect(!russian.contains("Rain") && !russian.contains("Thunderstorms"))
        let english = WeatherViews.card(.moscow, forecast, en, now: now)
        #expect(english.contains("⚠️ <b>Rain</b>") && english.contains("⚠️ <b>Thunderstorms</b>"), "\(english)")
        #expect(!english.contains("Дождь") && !english.contains("Гроза"))
        // A warning the feed has in one language only is shown in it.
        #expect(WeatherViews.warnings([forecast.alerts[1]], in: .en).map(\.event) == ["Дождь"])
    }

    @Test func moreThanThreeAlertsAreCountedNotListed() {
        var forecast = Forecast.sample
        forecast.alerts = (0..<5).map { WeatherAlert(sender: "", event: "Ветер \($0)", start: .distantPast, end: .distantFuture, description: "") }
        let card = WeatherViews.card(.moscow, forecast, ru, now: utc("2023-11-14T22:13:20Z"))
        #expect(card.components(separatedBy: "⚠️").count == 4)
        #expect(card.hasSuffix("…и ещё 2 предупреждения"))
    }

    @Test func russianPluralsFollowTheNumber() {
        let forms = [1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map { ru.favoritesFull($0).split(separator: " ")[4] }
        #expect(forms == ["место", "места", "места", "мест", "мест", "мест", "мест", "место", "места", "мест", "место", "мест"])
    }

    @Test func aStaleReportSaysWhenItsDataIsFrom() {
        let report = WeatherReport(forecast: .sample, fetchedAt: utc("2023-11-14T20:05:00Z"), isStale: true)
        let rendered = WeatherViews.render(.now, place: .moscow, reference: .current, report: report, texts: ru, now: utc("2023-11-14T22:13:20Z"))
        #expect(rendered.text.hasSuffix("⏱ данные на 23:05"))
    }

    @Test func buttonsSwitchViewsAndRefreshTheShownOne() {
        let report = WeatherReport(forecast: .sample, fetchedAt: Date())
        let rendered = WeatherViews.render(.daily, place: .moscow, reference: .defaultCity, report: report, texts: ru, now: utc("2023-11-14T22:13:20Z"))
        let buttons = rendered.keyboard.inlineKeyboard
        #expect(buttons[0].map(\.text) == ["Сейчас", "По часам", "· На 7 дней ·"])
        #expect(buttons[0].map(\.callbackData) == ["v:n:m", "v:h0:m", "v:d:m"])
        // The chart of the view shown: the week's under «На 7 дней».
        #expect(buttons[1] == [InlineKeyboardButton(text: "📈 График", callbackData: "ch:w:m")])
        #expect(buttons[2] == [InlineKeyboardButton(text: "🔄 Обновить", callbackData: "r:d:m")])
    }

    @Test func everyViewFitsInOneMessageWhateverTheNamesAndDescriptions() {
        let hugeName = String(repeating: "Щ<&>", count: 500)
        let place = Place(name: hugeName, localNames: ["ru": hugeName], region: hugeName, country: "RU", latitude: 1, longitude: 2)
        var forecast = forecast(zone: .identifier("Europe/Moscow"), start: utc("2026-11-20T21:00:00Z"), description: String(repeating: "дождь со снегом ", count: 40))
        forecast.daily = forecast.daily.map { day in
            var day = day
            day.condition.description = String(repeating: "ливень ", count: 300)
            return day
        }
        forecast.alerts = Array(repeating: WeatherAlert(sender: hugeName, event: hugeName, start: .distantPast, end: .distantFuture, description: hugeName), count: 10)
        let report = WeatherReport(forecast: forecast, fetchedAt: Date(), isStale: true)
        for texts in [ru, en] {
            for view in [WeatherView.now, .hourly(page: 0), .hourly(page: 1), .daily] {
                let rendered = WeatherViews.render(view, place: place, reference: .current, report: report, texts: texts, now: utc("2026-11-20T21:30:00Z"))
                #expect(rendered.text.utf16.count <= HTML.maximumMessageLength, "\(view) in \(texts.language)")
                #expect(!rendered.text.contains("Щ<&>"))
                for button in rendered.keyboard.inlineKeyboard.joined() {
                    #expect((button.callbackData ?? "").utf8.count <= 64)
                }
            }
        }
    }

    @Test func hourlyForecastsThatDoNotFitArePagedByDay() {
        let forecast = forecast(zone: .identifier("Europe/Moscow"), start: utc("2026-11-20T21:00:00Z"))
        let now = utc("2026-11-20T21:30:00Z")
        let whole = WeatherViews.hourlyPages(.moscow, forecast, ru, now: now)
        #expect(whole.count == 1)
        #expect(whole[0].utf16.count <= HTML.maximumMessageLength)
        let pages = WeatherViews.hourlyPages(.moscow, forecast, ru, now: now, limit: 2000)
        #expect(pages.count == 2)
        #expect(pages[0].contains("Сегодня") && !pages[0].contains("Завтра"))
        #expect(pages[1].contains("Завтра") && !pages[1].contains("Сегодня"))
        #expect(pages.allSatisfy { $0.contains("по часам") })
    }

    /// «Погода завтра» opens on tomorrow's hours, with the way back to today, even when both days
    /// would fit in one message; the hours button shows both.
    @Test func tomorrowsHoursComeAloneWhenTomorrowWasAskedFor() {
        let forecast = forecast(zone: .identifier("Europe/Moscow"), start: utc("2026-11-20T21:00:00Z"))
        let report = WeatherReport(forecast: forecast, fetchedAt: Date())
        let now = utc("2026-11-21T09:30:00Z")
        let tomorrow = WeatherViews.render(.hourly(page: 1), place: .moscow, reference: .current, report: report, texts: ru, now: now)
        #expect(tomorrow.text.contains("<b>Завтра — ") && !tomorrow.text.contains("<b>Сегодня — "), "\(tomorrow.text)")
        #expect(tomorrow.keyboard.inlineKeyboard[1] == [InlineKeyboardButton(text: ru.previousDayButton, callbackData: "v:h0:c")])
        let both = WeatherViews.render(.hourly(page: 0), place: .moscow, reference: .current, report: report, texts: ru, now: now)
        #expect(both.text.contains("<b>Сегодня — ") && both.text.contains("<b>Завтра — "))
        #expect(!both.keyboard.inlineKeyboard.joined().contains { $0.text == ru.nextDayButton })
    }
}

/// Weather that is not fresh carries one mark, «⏱ данные на …», in every view that shows it.
@Suite struct StaleMarkTests {
    let ru = Texts.for(.ru)
    let now = ISO8601DateFormatter().date(from: "2023-11-14T22:13:20Z")!

    /// Hours that fill a message almost to its end: the mark still shows, within the limit, where
    /// it was once cut off with the last lines.
    @Test func theHoursOfOldWeatherSayHowOldTheyAreEvenWhenTheyFillTheMessage() {
        let texts = Texts.for(.en, settings: ChatSettings(temperature: .fahrenheit, windSpeed: .milesPerHour, pressure: .inchesOfMercury, clock: .twelveHour))
        // A minute past midnight in Moscow: 47 hours to the end of tomorrow.
        let now = ISO8601DateFormatter().date(from: "2023-11-14T21:01:00Z")!
        var forecast = Forecast.sample
        forecast.hourly = (0..<50).map { index in
            var hour = Forecast.sample.hourly[index % 48]
            hour.time = Date(timeIntervalSince1970: 1_699_995_600 + Double(index) * 3600)
            // The longest figures: +104°F, 45 mph, 100%.
            (hour.precipitationChance, hour.temperature, hour.windSpeed, hour.humidity, hour.clouds) = (0.6, 40, 20, 100, 100)
            return hour
        }
        var filled = 0
        for length in 1...100 {
            let place = Place(
                name: String(repeating: "W", count: length), region: String(repeating: "R", count: 100), country: "US", latitude: 55, longitude: 37)
            let fresh = WeatherViews.hourlyPages(place, forecast, texts, now: now)
            let stale = WeatherReport(forecast: forecast, fetchedAt: now.addingTimeInterval(-3600), isStale: true)
            let shown = WeatherViews.text(.hourly(page: 0), place: place, report: stale, texts: texts, now: now).text
            #expect(shown.hasSuffix("⏱ data as of 11:01 PM"), "\(length): …\(shown.suffix(80))")
            #expect(shown.utf16.count <= HTML.maximumMessageLength && !shown.contains("\n…"), "\(length)")
            // One page that the mark would have pushed over the limit.
            if fresh.count == 1, fresh[0].utf16.count + "\n\n⏱ data as of 11:01 PM".utf16.count > HTML.maximumMessageLength { filled += 1 }
        }
        #expect(filled > 0, "no page near the limit: the test says nothing")
    }

    @Test func favoritesRowsOfOldWeatherSayHowOldTheyAre() {
        let stale = WeatherReport(forecast: .sample, fetchedAt: now.addingTimeInterval(-3600), isStale: true)
        let fresh = WeatherReport(forecast: .sample, fetchedAt: now)
        let old = FavoritesViews.line(.init(place: .moscow, reference: .current, report: stale), ru)
        #expect(old == "📍 <b>Москва</b>, Россия 🇷🇺 — ☁️ -3°C, без осадков · ⏱ данные на 00:13", "\(old)")
        let new = FavoritesViews.line(.init(place: .moscow, reference: .current, report: fresh), ru)
        #expect(!new.contains("⏱"), "\(new)")
    }
}

/// /fav during an outage: each row's weather that is not fresh says how old it is.
@Suite struct StaleFavoritesTests {
    @Test func favoritesDuringAnOutageMarkTheirOldWeather() async throws {
        let chat = try FavoritesConversationTests.Chat(weather: FakeWeather(isStale: true))
        try await chat.save(["Казань"])
        let list = try await chat.send(.command(.favorites))
        let text = list.replies.last?.text ?? ""
        #expect(text.contains("1. <b>Казань</b>") && text.hasSuffix("· ⏱ данные на 01:13"), "\(text)")
    }
}
