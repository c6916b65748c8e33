public import Foundation
import BotClock
import OpenWeather
import TelegramBotAPI
public import WeatherBotStore

/// A chart the bot sends as a photo: which place, which view, in which language, drawn from the
/// forecast fetched at which moment. It is all the outbox keeps of the picture: the sender draws
/// it from the shared weather cache when it is first sent, and every later request for the same
/// chart (the same encoding) goes by the `file_id` Telegram gave it.
public struct ChartRequest: Codable, Sendable, Hashable {
    /// «48 часов» or «Неделя».
    public enum View: String, Codable, Sendable, Hashable, CaseIterable {
        case hours = "h"
        case week = "w"
    }

    /// Which chart: the next 48 hours or the week.
    public var view: View
    /// The place: its name in ``language`` and its coordinates, all a chart shows of it.
    public var place: Place
    /// The language of the chart's labels and of the place's name.
    public var language: Language
    /// When the forecast drawn was fetched; a newer forecast makes another picture.
    public var forecastTime: Date
    /// The chat's temperature unit and clock, nil at their defaults: a chart in °F or on the
    /// 12-hour clock is another picture, and a chart at the defaults keeps the name it had.
    public var temperature: ChatSettings.Temperature?
    /// The 12-hour clock, or nil for the 24-hour default.
    public var clock: ChatSettings.Clock?

    /// A request for `view` at `place`, its name taken in `language`; only the settings that change the picture are kept.
    public init(view: View, place: Place, language: Language, forecastTime: Date, settings: ChatSettings = .defaults) {
        self.temperature = settings.temperature == .fahrenheit ? .fahrenheit : nil
        self.clock = settings.clock == .twelveHour ? .twelveHour : nil
        self.view = view
        self.place = Place(name: place.name(in: language.rawValue), latitude: place.latitude, longitude: place.longitude)
        self.language = language
        self.forecastTime = forecastTime
    }

    enum CodingKeys: String, CodingKey {
        case view, place, language, forecastTime = "at", temperature = "t", clock = "h"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    /// The request as the outbox stores it (``BotRequest/photo``): the same chart, the same text.
    public var encoded: String {
        // Plain values throughout: encoding cannot fail.
        String(decoding: (try? Self.encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// A stored request; nil for anything else.
    public init?(encoded: String) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let request = try? decoder.decode(Self.self, from: Data(encoded.utf8)) else { return nil }
        self = request
    }

    /// The settings the chart is drawn with.
    public var settings: ChatSettings { ChatSettings(temperature: temperature, clock: clock) }

    /// The place's name as the chart's title shows it (plain text).
    public var title: String { HTML.truncate(place.name, maximumCharacters: 60) }
}

/// The chart messages: the photo's caption and its buttons.
enum ChartViews {
    /// «📍 <b>Москва</b>, Россия 🇷🇺 — 48 часов».
    static func caption(_ view: ChartRequest.View, place: Place, texts: Texts) -> String {
        "\(WeatherViews.header(place, texts)) — \(view == .hours ? texts.chartHoursTitle : texts.chartWeekTitle)"
    }

    /// «48 часов» and «Неделя», the one shown marked; they replace the photo.
    static func keyboard(_ view: ChartRequest.View, _ reference: PlaceReference, _ texts: Texts) -> InlineKeyboardMarkup {
        func button(_ title: String, _ target: ChartRequest.View) -> InlineKeyboardButton {
            InlineKeyboardButton(text: target == view ? "· \(title) ·" : title, callbackData: CallbackAction.chartView(target, reference).encoded)
        }
        return InlineKeyboardMarkup(inlineKeyboard: [[button(texts.chartHoursButton, .hours), button(texts.chartWeekButton, .week)]])
    }

    /// The chart that goes with a weather view: the week's for «На 7 дней», else the 48 hours.
    static func view(for view: WeatherView) -> ChartRequest.View {
        view == .daily ? .week : .hours
    }
}

extension Conversation {
    /// Sends a chart of a place as a photo, or switches the photo under the pressed button to
    /// another view. The weather is read as for the cards (the shared cache); what it cannot get
    /// is said in the button's notice (or a message, for /chart), and the photo stays as it was.
    func showChart(_ view: ChartRequest.View, of reference: PlaceReference, queryID: String?, editing messageID: Int?, _ context: inout Context) async {
        guard var place = await resolve(reference, &context) else {
            if let queryID { stale(queryID, &context) }
            return
        }
        if reference != .current, let city = context.chat.currentPlace, city.isSameCity(as: place) { place = city }
        if case .refused = charts.decide(.interactive, chat: context.chat.id, at: clock.date) {
            let refusal = context.texts.tooManyCharts(charts.limits.perChat)
            if let queryID { return context.replies.append(.answer(callbackQueryID: queryID, text: refusal, showAlert: true)) }
            return charts.isFirstRefusal(of: context.chat.id) ? context.say("⚠️ " + refusal) : ()
        }
        let report: WeatherReport
        do {
            report = try await weather.weather(at: place, language: context.language, refresh: false, for: context.calls)
        } catch {
            let failure = context.texts.weatherFailed(Views.reason(error, context.texts))
            guard let queryID else { return context.isQuiet(about: error) ? () : context.say("⚠️ " + failure) }
            return context.replies.append(.answer(callbackQueryID: queryID, text: failure, showAlert: true))
        }
        if let queryID { context.answer(queryID) }
        let chart = ChartRequest(view: view, place: place, language: context.language, forecastTime: report.fetchedAt, settings: context.chat.settings)
        let caption = ChartViews.caption(view, place: place, texts: context.texts)
        let keyboard = ChartViews.keyboard(view, marked(reference, place), context.texts)
        if let messageID {
            context.replies.append(.editChart(.id(messageID), chart, caption: caption, keyboard: keyboard))
        } else {
            context.replies.append(.chart(chart, caption: caption, keyboard: keyboard))
        }
    }
}
