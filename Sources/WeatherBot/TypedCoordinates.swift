import Foundation

/// Reads a point typed or pasted in a message: numbers in the usual notations, or a link to a map.
enum TypedCoordinates {
    enum Reading: Equatable {
        case point(latitude: Double, longitude: Double)
        /// Clearly meant as coordinates but off the globe: latitude beyond ±90, longitude beyond
        /// ±180, or minutes or seconds of 60 and more. The bot says so instead of searching.
        case outOfRange
    }

    /// Reads «55.75, 37.62», «55,75 37,62», «55.75N 37.62E», «55°45′30″ с.ш. 37°37′10″ в.д.», a
    /// `geo:` address, or a Google, Yandex, Apple Maps or OpenStreetMap link anywhere in the text.
    /// Nil when the text is not coordinates: a city's name, «1 2 3», a link without a point.
    static func read(_ text: String) -> Reading? {
        // Telegram's messages are at most 4096 characters; anything far longer is not worth a scan.
        guard text.utf8.count <= 16_384 else { return nil }
        if let reading = TypedLinks.first(in: text) { return reading }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 300 else { return nil }
        return plain(trimmed)
    }

    enum Hemisphere {
        case north, south, east, west
        var isLatitude: Bool { self == .north || self == .south }
        var isNegative: Bool { self == .south || self == .west }
    }

    /// One of the two numbers, as written.
    struct Part {
        var magnitude: Double
        var negative: Bool
        var hemisphere: Hemisphere?
        /// Minutes or seconds of 60 and more.
        var badMinutes: Bool
        /// Ends with a sign or a letter, so the next number may follow without a space.
        var endsWithMark: Bool
    }

    /// Reads a text that is nothing but a point. When the text can be read in more than one way
    /// («1,2,3»: 1.2 and 3, or 1 and 2.3) it is not read at all.
    static func plain(_ text: String) -> Reading? {
        var characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !characters.isEmpty, characters.count <= 300 else { return nil }
        if let first = characters.first, let last = characters.last, characters.count >= 2,
            first == "(" && last == ")" || first == "[" && last == "]"
        {
            characters = Array(characters.dropFirst().dropLast())
        }
        let scanner = Scanner(characters: characters)
        let end = characters.count
        var readings: [Reading] = []
        for (first, afterFirst) in scanner.parts(at: scanner.skipSpaces(0)) {
            var next = scanner.skipSpaces(afterFirst)
            var separated = next > afterFirst
            if next < end, characters[next] == "," || characters[next] == ";" {
                next = scanner.skipSpaces(next + 1)
                separated = true
            }
            guard separated || first.endsWithMark, next < end else { continue }
            for (second, afterSecond) in scanner.parts(at: next) where scanner.skipSpaces(afterSecond) == end {
                if let reading = combine(first, second), !readings.contains(reading) {
                    readings.append(reading)
                }
            }
            if readings.count > 1 { return nil }
        }
        return readings.count == 1 ? readings[0] : nil
    }

    /// Latitude first unless the hemispheres say otherwise («37.62E 55.75N»).
    static func combine(_ first: Part, _ second: Part) -> Reading? {
        let latitude: Part
        let longitude: Part
        switch (first.hemisphere?.isLatitude, second.hemisphere?.isLatitude) {
        case (.some(true), .some(true)), (.some(false), .some(false)):
            return nil
        case (.some(false), _), (_, .some(true)):
            (latitude, longitude) = (second, first)
        default:
            (latitude, longitude) = (first, second)
        }
        func value(_ part: Part) -> Double? {
            guard let hemisphere = part.hemisphere else { return part.negative ? -part.magnitude : part.magnitude }
            // «-55.75 S» says the sign twice; which one is meant is anyone's guess.
            guard !part.negative else { return nil }
            return hemisphere.isNegative ? -part.magnitude : part.magnitude
        }
        guard let lat = value(latitude), let lon = value(longitude) else { return nil }
        return TypedCoordinates.reading(latitude: lat, longitude: lon, badMinutes: first.badMinutes || second.badMinutes)
    }

    /// Two numbers read as a point are coordinates whatever their notation: «91, 200» is as far
    /// off the globe as «91.5, 200.0», and is answered so rather than searched as a name.
    static func reading(latitude: Double, longitude: Double, badMinutes: Bool = false) -> Reading? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        if badMinutes || abs(latitude) > 90 || abs(longitude) > 180 { return .outOfRange }
        return .point(latitude: latitude, longitude: longitude)
    }

    static let degreeMarks: Set<Character> = ["°", "º", "˚"]
    static let minuteMarks: Set<Character> = ["′", "'", "’", "‘", "´"]
    static let secondMarks: Set<Character> = ["″", "\"", "”", "“"]

    /// Reads one coordinate at a position, in every way it can be read: a comma after digits may be a
    /// decimal comma or the separator, and the caller keeps the readings that use the whole text.
    struct Scanner {
        let characters: [Character]

        func skipSpaces(_ index: Int) -> Int { TypedScan.skipSpaces(characters, from: index) }

        func numbers(at index: Int) -> [(value: Double, end: Int, decimal: Bool)] {
            let whole = TypedScan.digitRun(characters, from: index)
            guard whole > 0, whole <= 20 else { return [] }
            let wholeEnd = index + whole
            var found: [(value: Double, end: Int, decimal: Bool)] = []
            if wholeEnd < characters.count, characters[wholeEnd] == "." || characters[wholeEnd] == "," {
                let fraction = TypedScan.digitRun(characters, from: wholeEnd + 1)
                if fraction > 0 {
                    guard fraction <= 20 else { return [] }
                    let written = String(characters[index..<wholeEnd]) + "." + String(characters[(wholeEnd + 1)..<(wholeEnd + 1 + fraction)])
                    if let value = Double(written), value.isFinite { found.append((value, wholeEnd + 1 + fraction, true)) }
                    // A dot is always a decimal point; a comma may also separate two numbers.
                    if characters[wholeEnd] == "." { return found }
                }
            }
            if let value = Double(String(characters[index..<wholeEnd])), value.isFinite { found.append((value, wholeEnd, false)) }
            return found
        }

        /// «N», «s», «с.ш.», «ю. ш.», «в.д.», «з.д.»; before the number it must be followed by one.
        func hemisphere(at index: Int, before: Bool) -> (Hemisphere, Int)? {
            guard index < characters.count else { return nil }
            var found: Hemisphere?
            var end = index + 1
            switch characters[index].lowercased() {
            case "n": found = .north
            case "s": found = .south
            case "e": found = .east
            case "w": found = .west
            case "с", "ю", "в", "з":
                let first = characters[index].lowercased()
                var next = end
                if next < characters.count, characters[next] == "." { next += 1 }
                next = skipSpaces(next)
                guard next < characters.count else { return nil }
                switch (first, characters[next].lowercased()) {
                case ("с", "ш"): found = .north
                case ("ю", "ш"): found = .south
                case ("в", "д"): found = .east
                case ("з", "д"): found = .west
                default: return nil
                }
                end = next + 1
                if end < characters.count, characters[end] == "." { end += 1 }
            default: return nil
            }
            guard let found, end >= characters.count || !characters[end].isLetter else { return nil }
            if before {
                let next = skipSpaces(end)
                guard next < characters.count, TypedScan.isDigit(characters[next]) || "+-−".contains(characters[next]) else { return nil }
            }
            return (found, end)
        }

        func parts(at start: Int) -> [(Part, Int)] {
            var index = start
            var prefix: Hemisphere?
            if let (found, end) = hemisphere(at: index, before: true) {
                prefix = found
                index = skipSpaces(end)
            }
            var negative = false
            if index < characters.count, "+-−".contains(characters[index]) {
                negative = characters[index] != "+"
                index += 1
            }
            var bodies: [(magnitude: Double, end: Int, bad: Bool, mark: Bool)] = []
            for degrees in numbers(at: index) {
                bodies.append((degrees.value, degrees.end, false, false))
                let degreeMark = skipSpaces(degrees.end)
                guard degreeMark < characters.count, TypedCoordinates.degreeMarks.contains(characters[degreeMark]) else { continue }
                bodies.append((degrees.value, degreeMark + 1, false, true))
                guard !degrees.decimal else { continue }
                for minutes in numbers(at: skipSpaces(degreeMark + 1)) {
                    let minuteMark = skipSpaces(minutes.end)
                    guard minuteMark < characters.count, TypedCoordinates.minuteMarks.contains(characters[minuteMark]) else { continue }
                    // Two apostrophes are a seconds mark, not minutes.
                    if minuteMark + 1 < characters.count, TypedCoordinates.minuteMarks.contains(characters[minuteMark + 1]) { continue }
                    let badMinutes = minutes.value >= 60
                    bodies.append((degrees.value + minutes.value / 60, minuteMark + 1, badMinutes, true))
                    guard !minutes.decimal else { continue }
                    for seconds in numbers(at: skipSpaces(minuteMark + 1)) {
                        let secondMark = skipSpaces(seconds.end)
                        var end: Int?
                        if secondMark < characters.count, TypedCoordinates.secondMarks.contains(characters[secondMark]) {
                            end = secondMark + 1
                        } else if secondMark + 1 < characters.count, TypedCoordinates.minuteMarks.contains(characters[secondMark]),
                            TypedCoordinates.minuteMarks.contains(characters[secondMark + 1])
                        {
                            end = secondMark + 2
                        }
                        guard let end else { continue }
                        bodies.append((degrees.value + minutes.value / 60 + seconds.value / 3600, end, badMinutes || seconds.value >= 60, true))
                    }
                }
            }
            var found: [(Part, Int)] = []
            for body in bodies {
                let part = Part(
                    magnitude: body.magnitude, negative: negative, hemisphere: prefix, badMinutes: body.bad, endsWithMark: body.mark)
                found.append((part, body.end))
                if prefix == nil, let (hemisphere, end) = self.hemisphere(at: skipSpaces(body.end), before: false) {
                    var marked = part
                    marked.hemisphere = hemisphere
                    marked.endsWithMark = true
                    found.append((marked, end))
                }
            }
            return found
        }
    }
}

/// The short links map apps share: the only addresses the bot follows.
public enum ShortMapLink {
    /// Whether `link` is one, written as ``TypedLinks/shortLink(in:)`` writes it.
    public static func isShort(_ link: String) -> Bool {
        TypedLinks.shortLink(in: link) == link
    }

    /// The point named by the address a short link redirects to; nil when it names none, or one
    /// off the globe.
    public static func point(atTarget target: String) -> (latitude: Double, longitude: Double)? {
        guard case .point(let latitude, let longitude)? = TypedLinks.reading(of: Substring(target)) else { return nil }
        return (latitude, longitude)
    }
}

/// Points in `geo:` addresses and in links to Google, Yandex and Apple Maps and OpenStreetMap. A link
/// counts wherever it stands in the text: people paste one with words around it.
enum TypedLinks {
    /// The point of the first link that has one.
    static func first(in text: String) -> TypedCoordinates.Reading? {
        for token in text.split(whereSeparator: { $0.isWhitespace }) {
            if let reading = reading(of: token) { return reading }
        }
        return nil
    }

    /// The first short link a map app shares, which names no point until followed: Google Maps'
    /// `maps.app.goo.gl/…` and `goo.gl/maps/…`, Yandex Maps' `yandex.ru/maps/-/…`. As an https
    /// address, as written otherwise (the short part is case-sensitive).
    static func shortLink(in text: String) -> String? {
        for token in text.split(whereSeparator: { $0.isWhitespace }) {
            var link = token.drop { !$0.isLetter && !$0.isNumber }
            while let last = link.last, ".,;:!?)]}>»\"'”’".contains(last) { link = link.dropLast() }
            if let scheme = link.range(of: "://") {
                guard ["http", "https"].contains(link[..<scheme.lowerBound].lowercased()) else { continue }
                link = link[scheme.upperBound...]
            }
            let hostEnd = link.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? link.endIndex
            let host = link[..<hostEnd].lowercased()
            let path = link[hostEnd...]
            guard isShortLink(host: host, path: path), path.count <= 200 else { continue }
            return "https://\(host)\(path)"
        }
        return nil
    }

    /// Whether `host` and `path` make one of the short links that ``shortLink(in:)`` reads: the
    /// only addresses the bot follows.
    static func isShortLink(host: String, path: Substring) -> Bool {
        let code = path.split(separator: "/").last.map { $0.count >= 4 } ?? false
        switch host {
        case "maps.app.goo.gl": return code
        case "goo.gl", "www.goo.gl": return path.hasPrefix("/maps/") && code
        case "yandex.ru", "yandex.com", "yandex.kz", "yandex.by", "yandex.uz", "yandex.com.tr":
            return path.hasPrefix("/maps/-/") && code
        default: return false
        }
    }

    static func reading(of token: Substring) -> TypedCoordinates.Reading? {
        var link = Substring(token.lowercased())
        link = link.drop { !$0.isLetter && !$0.isNumber }
        while let last = link.last, ".,;:!?)]}>»\"'”’".contains(last) { link = link.dropLast() }
        if link.hasPrefix("geo:") { return geo(link.dropFirst(4)) }
        let withoutScheme: Substring
        if let scheme = link.range(of: "://") {
            withoutScheme = link[scheme.upperBound...]
        } else {
            // «yandex.ru/maps/?ll=…» pasted without «https://».
            guard link.contains("/") || link.contains("?") else { return nil }
            withoutScheme = link
        }
        let url = Link(withoutScheme)
        let labels = url.host.split(separator: ".")
        let underMaps = url.path.hasPrefix("/maps") || url.host.hasPrefix("maps.")
        if labels.contains("google"), underMaps { return google(url) }
        if labels.contains("yandex"), underMaps { return yandex(url) }
        if url.host == "maps.apple.com" { return apple(url) }
        if url.host == "openstreetmap.org" || url.host.hasSuffix(".openstreetmap.org") || url.host == "osm.org" { return openStreetMap(url) }
        return nil
    }

    /// The parts of a link, lowercased, with the query and fragment decoded.
    struct Link {
        var host = ""
        var path = ""
        var query: [(String, String)] = []
        var fragment: [(String, String)] = []

        init(_ text: Substring) {
            var rest = text
            if let fragmentStart = rest.firstIndex(of: "#") {
                fragment = Link.parameters(rest[rest.index(after: fragmentStart)...])
                rest = rest[..<fragmentStart]
            }
            if let queryStart = rest.firstIndex(of: "?") {
                query = Link.parameters(rest[rest.index(after: queryStart)...])
                rest = rest[..<queryStart]
            }
            let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            var host = rest[..<hostEnd]
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
            if host.hasPrefix("www.") { host = host.dropFirst(4) }
            self.host = String(host)
            path = String(rest[hostEnd...])
        }

        static func parameters(_ text: Substring) -> [(String, String)] {
            text.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
            }
        }

        func value(_ key: String) -> String? { query.first { $0.0 == key }?.1 }
    }

    /// Percent-decoding, with «+» as a space; a broken escape is left as written.
    static func decoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 65...70: byte - 55
            case 97...102: byte - 87
            default: nil
            }
        }
        while index < bytes.count {
            if bytes[index] == 37, index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index] == 43 ? 32 : bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A plain decimal: digits with an optional sign and fraction. No exponents, no «nan», no hex.
    static func decimal(_ text: Substring) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard (1...40).contains(trimmed.count) else { return nil }
        var body = Substring(trimmed)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, !whole.isEmpty, pieces.allSatisfy({ $0.allSatisfy(TypedScan.isDigit) }),
            pieces.count == 1 || !pieces[1].isEmpty
        else { return nil }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// «55.75,37.62» and what follows it («,12z», «,pm2rdm»); Yandex writes the longitude first.
    static func pair(_ text: String, longitudeFirst: Bool = false) -> TypedCoordinates.Reading? {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 2, let first = decimal(fields[0]), let second = decimal(fields[1]) else { return nil }
        return longitudeFirst
            ? TypedCoordinates.reading(latitude: second, longitude: first)
            : TypedCoordinates.reading(latitude: first, longitude: second)
    }

    /// A search box's text, which may hold a point in any notation a person types.
    static func typed(_ text: String) -> TypedCoordinates.Reading? {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("loc:") { text = text.dropFirst(4) }
        guard text.contains(where: TypedScan.isDigit) else { return nil }
        return TypedCoordinates.plain(String(text))
    }

    /// `geo:55.75,37.62`, `geo:55.75,37.62,150;u=35?z=10`, and Android's `geo:0,0?q=55.75,37.62(Label)`.
    static func geo(_ body: Substring) -> TypedCoordinates.Reading? {
        let queryStart = body.firstIndex(of: "?")
        let point = body[..<(queryStart ?? body.endIndex)].split(separator: ";", omittingEmptySubsequences: false).first ?? ""
        let fields = point.split(separator: ",", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), let latitude = decimal(fields[0]), let longitude = decimal(fields[1]) else { return nil }
        if latitude == 0, longitude == 0, let queryStart {
            let query = Link.parameters(body[body.index(after: queryStart)...])
            if let q = query.first(where: { $0.0 == "q" })?.1 {
                let coordinates = q.prefix { $0 != "(" }
                if let reading = pair(String(coordinates)) ?? typed(String(coordinates)) { return reading }
            }
        }
        return TypedCoordinates.reading(latitude: latitude, longitude: longitude)
    }

    /// The place's pin (`!3d…!4d…`), a point in the path (`/place/55.75,37.62`), the search
    /// (`q`, `query`), and only then the middle of the map (`/@55.75,37.62,12z`).
    static func google(_ link: Link) -> TypedCoordinates.Reading? {
        if let pin = link.path.range(of: "!3d") {
            let rest = link.path[pin.upperBound...]
            let latitude = rest.prefix { $0 != "!" }
            if let longitudeStart = rest.range(of: "!4d") {
                let longitude = rest[longitudeStart.upperBound...].prefix { $0 != "!" && $0 != "/" && $0 != "?" }
                if let lat = decimal(latitude), let lon = decimal(longitude) {
                    return TypedCoordinates.reading(latitude: lat, longitude: lon)
                }
            }
        }
        for segment in link.path.split(separator: "/") where !segment.hasPrefix("@") && !segment.hasPrefix("data=") {
            if let reading = typed(decoded(segment)) { return reading }
        }
        for key in ["q", "query", "ll", "center", "destination", "daddr", "sll"] {
            if let value = link.value(key), let reading = pair(value) ?? typed(value) { return reading }
        }
        if let at = link.path.range(of: "/@") {
            let view = link.path[at.upperBound...].prefix { $0 != "/" }
            return pair(String(view))
        }
        return nil
    }

    /// Yandex writes the longitude first: `pt=37.62,55.75`, `ll=37.62,55.75`; `whatshere[point]`
    /// and `pt` are pins, `ll` the middle of the map; `text` is the search as typed.
    static func yandex(_ link: Link) -> TypedCoordinates.Reading? {
        for key in ["whatshere[point]", "pt"] {
            if let value = link.value(key), let first = value.split(separator: "~").first,
                let reading = pair(String(first), longitudeFirst: true)
            {
                return reading
            }
        }
        if let text = link.value("text"), let reading = typed(text) { return reading }
        if let value = link.value("ll") { return pair(value, longitudeFirst: true) }
        return nil
    }

    /// `ll` and `coordinate` are the place, `q` and `daddr` may be a typed point, `sll` is near where
    /// the search was made.
    static func apple(_ link: Link) -> TypedCoordinates.Reading? {
        for key in ["ll", "coordinate"] {
            if let value = link.value(key), let reading = pair(value) { return reading }
        }
        for key in ["q", "daddr"] {
            if let value = link.value(key), let reading = typed(value) { return reading }
        }
        if let value = link.value("sll") { return pair(value) }
        return nil
    }

    /// The marker (`mlat`, `mlon`), then the map's middle (`#map=12/55.75/37.62`), then the old
    /// `lat` and `lon`. Short `osm.org/go/…` links hold an encoded square, not read here.
    static func openStreetMap(_ link: Link) -> TypedCoordinates.Reading? {
        if let lat = link.value("mlat").flatMap({ decimal(Substring($0)) }), let lon = link.value("mlon").flatMap({ decimal(Substring($0)) }) {
            return TypedCoordinates.reading(latitude: lat, longitude: lon)
        }
        if let map = link.fragment.first(where: { $0.0 == "map" })?.1 {
            let fields = map.split(separator: "/", omittingEmptySubsequences: false)
            if fields.count == 3, let lat = decimal(fields[1]), let lon = decimal(fields[2]) {
                return TypedCoordinates.reading(latitude: lat, longitude: lon)
            }
        }
        if let lat = link.value("lat").flatMap({ decimal(Substring($0)) }), let lon = link.value("lon").flatMap({ decimal(Substring($0)) }) {
            return TypedCoordinates.reading(latitude: lat, longitude: lon)
        }
        if let query = link.value("query") { return typed(query) }
        return nil
    }
}
