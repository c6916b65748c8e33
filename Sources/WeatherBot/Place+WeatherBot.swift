public import OpenWeather
public import WeatherBotStore

extension Place {
    /// The place cell whose weather the place shares.
    public var cell: PlaceCell { PlaceCell(latitude: latitude, longitude: longitude) }

    /// A short number that tells this city from the chat's other places (0…9972), carried by
    /// the buttons of its weather messages while it is the chat's city.
    var cityMark: Int {
        let latitude = Int(((latitude + 90) * 100).rounded())
        let longitude = Int(((longitude + 180) * 100).rounded())
        return (latitude * 36_001 + longitude) % 9_973
    }

    /// The default city: Moscow.
    public static let moscow = Place(
        name: "Moscow", localNames: ["ru": "Москва", "en": "Moscow"], region: nil, country: "RU",
        latitude: 55.7558, longitude: 37.6173, timeZone: "Europe/Moscow")

    /// A place from a geocoding result, keeping the Russian and English names.
    public init(_ geo: GeoPlace, language: Language) {
        var names: [String: String] = [:]
        for language in Language.allCases {
            let local = geo.name(in: language.rawValue)
            if local != geo.name { names[language.rawValue] = local }
        }
        self.init(name: geo.name, localNames: names, region: geo.state, country: geo.country, latitude: geo.lat, longitude: geo.lon)
    }
}
