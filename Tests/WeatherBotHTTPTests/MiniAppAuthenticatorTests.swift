import Crypto
import Foundation
import Testing
import WeatherBotHTTP

/// The Mini App's requests are taken only with an initData Telegram signed for this bot, recently,
/// and the user they name is the one Telegram launched the app for.
@Suite struct MiniAppAuthenticatorTests {
    static let token = "1234:FAKE-token-for-the-mini-app-tests"
    static let launch = Date(timeIntervalSince1970: 1_764_400_000)
    let authenticator = MiniAppAuthenticator(botToken: Self.token)

    /// Why `initData` is refused at `now`, or nil when it is taken.
    func refusal(_ initData: String?, now: Date = MiniAppAuthenticatorTests.launch.addingTimeInterval(10)) -> MiniAppAuthenticator.Refusal? {
        do {
            _ = try authenticator.check(initData, now: now)
            return nil
        } catch {
            return error
        }
    }

    func launched(by id: Int64 = 42, at date: Date = MiniAppAuthenticatorTests.launch, botToken: String = MiniAppAuthenticatorTests.token) -> String {
        MiniAppAuthenticator.sign(user: (id: id, firstName: "Anna", languageCode: "en"), authDate: date, botToken: botToken)
    }

    @Test func aSignedInitDataIsTheUsersOwn() throws {
        let name = "Анна +1 & Co=op"
        let initData = MiniAppAuthenticator.sign(
            user: (id: 279_058_397, firstName: name, languageCode: "ru"), authDate: Self.launch, botToken: Self.token)
        #expect(!initData.contains("+"), "a space is written %20, never +, so that a + in the name stays a +")
        let user = try authenticator.check(initData, now: Self.launch.addingTimeInterval(5))
        #expect(user == MiniAppUser(id: 279_058_397, languageCode: "ru", firstName: name, authDate: Self.launch))

        let bare = MiniAppAuthenticator.sign(
            user: (id: 7, firstName: "Bob", languageCode: nil), authDate: Self.launch, botToken: Self.token, queryID: nil)
        #expect(!bare.contains("query_id"))
        #expect(try authenticator.check(bare, now: Self.launch) == MiniAppUser(id: 7, languageCode: nil, firstName: "Bob", authDate: Self.launch))
    }

    /// A launch written out by hand in Telegram's order and encoding (a space as `+`, as a browser's
    /// URLSearchParams writes it), its hash computed apart from the authenticator: here with
    /// Crypto over a data-check-string written out sorted, and once more with Python's hmac
    /// module, whose answer is the literal.
    @Test func aLaunchWrittenOutByHandIsTaken() throws {
        let user = #"{"id":279058397,"first_name":"Анна Мария","last_name":"A+B & C=D","language_code":"ru","allows_write_to_pm":true,"photo_url":"https:\/\/t.me\/i\/userpic\/320\/anna.svg"}"#
        let signature = "kQ3u1bY7vQfT0m9x_Lr2cNe8Wd4Zs6Hj1Ka5Pg3Ub7Yt2Oq9Ic0Ev-Xn4Rw8Mz6Bl1Df5Sh3Ga7Jp2Ku9Nc0Aw"
        let fields =
            "query_id=AAHdF6IQAAAAAN0XohDhrOrc"
            + "&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22%D0%90%D0%BD%D0%BD%D0%B0+%D0%9C%D0%B0%D1%80%D0%B8%D1%8F%22"
            + "%2C%22last_name%22%3A%22A%2BB+%26+C%3DD%22%2C%22language_code%22%3A%22ru%22%2C%22allows_write_to_pm%22%3Atrue"
            + "%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2Fanna.svg%22%7D"
            + "&auth_date=1764400000&signature=\(signature)"
            + "&chat_type=private&chat_instance=-3788475317572404878&start_param=paris"
        // Every field but the hash, decoded, sorted by key, one a line; the signature stays in.
        let dataCheckString = #"""
            auth_date=1764400000
            chat_instance=-3788475317572404878
            chat_type=private
            query_id=AAHdF6IQAAAAAN0XohDhrOrc
            signature=kQ3u1bY7vQfT0m9x_Lr2cNe8Wd4Zs6Hj1Ka5Pg3Ub7Yt2Oq9Ic0Ev-Xn4Rw8Mz6Bl1Df5Sh3Ga7Jp2Ku9Nc0Aw
            start_param=paris
            user={"id":279058397,"first_name":"Анна Мария","last_name":"A+B & C=D","language_code":"ru","allows_write_to_pm":true,"photo_url":"https:\/\/t.me\/i\/userpic\/320\/anna.svg"}
            """#
        let secret = HMAC<SHA256>.authenticationCode(for: Data(Self.token.utf8), using: SymmetricKey(data: Data("WebAppData".utf8)))
        let hash = HMAC<SHA256>.authenticationCode(for: Data(dataCheckString.utf8), using: SymmetricKey(data: secret))
            .map { String(format: "%02x", $0) }.joined()
        #expect(hash == "464eb9d10947daecfea4df3341d54761b87298cb146029cdf60779d04a8a170c")

        let taken = try authenticator.check(fields + "&hash=" + hash, now: Self.launch.addingTimeInterval(100))
        #expect(taken == MiniAppUser(id: 279_058_397, languageCode: "ru", firstName: "Анна Мария", authDate: Self.launch))
        #expect(try authenticator.check(fields + "&hash=" + hash.uppercased(), now: Self.launch) == taken)

        let signed = MiniAppAuthenticator.sign(
            [
                ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"), ("user", user), ("auth_date", "1764400000"), ("signature", signature),
                ("chat_type", "private"), ("chat_instance", "-3788475317572404878"), ("start_param", "paris"),
            ], botToken: Self.token)
        #expect(signed.hasSuffix("&hash=" + hash))
    }

    @Test func theSignatureFieldIsPartOfWhatIsSigned() {
        let initData = MiniAppAuthenticator.sign(
            [("auth_date", "1764400000"), ("user", #"{"id":42,"first_name":"Anna"}"#), ("signature", "c2lnbmVk")], botToken: Self.token)
        #expect(refusal(initData) == nil)
        #expect(refusal(initData.replacingOccurrences(of: "&signature=c2lnbmVk", with: "")) == .forged)
        #expect(refusal(initData.replacingOccurrences(of: "c2lnbmVk", with: "c2lnbmVl")) == .forged)
    }

    @Test func anAlteredFieldIsForged() {
        let initData = launched(by: 42)
        let altered = initData.replacingOccurrences(of: "%22id%22%3A42", with: "%22id%22%3A43")
        #expect(altered != initData)
        #expect(refusal(initData) == nil)
        #expect(refusal(altered) == .forged)
        #expect(refusal(initData.replacingOccurrences(of: "auth_date=1764400000", with: "auth_date=1764400001")) == .forged)
    }

    @Test func aHashOfAnotherBotIsForged() {
        #expect(refusal(launched(botToken: "5678:FAKE-token-of-another-bot")) == .forged)
    }

    @Test func aDayOldLaunchIsExpired() {
        #expect(refusal(launched(), now: Self.launch.addingTimeInterval(86_401)) == .expired)
        #expect(refusal(launched(), now: Self.launch.addingTimeInterval(400_000)) == .expired)
    }

    @Test func aLaunchABitUnderADayOldIsTaken() {
        #expect(refusal(launched(), now: Self.launch.addingTimeInterval(86_399)) == nil)
        #expect(refusal(launched(), now: Self.launch.addingTimeInterval(86_400)) == nil)
    }

    @Test func aShorterMaxAgeIsKept() throws {
        let hourly = MiniAppAuthenticator(botToken: Self.token, maxAge: .seconds(3_600))
        #expect(throws: MiniAppAuthenticator.Refusal.expired) { try hourly.check(launched(), now: Self.launch.addingTimeInterval(3_601)) }
        #expect(try hourly.check(launched(), now: Self.launch.addingTimeInterval(3_600)).id == 42)
    }

    @Test func aLaunchFromTheFutureIsRefused() {
        #expect(refusal(launched(at: Self.launch.addingTimeInterval(61)), now: Self.launch) == .expired)
        #expect(refusal(launched(at: Self.launch.addingTimeInterval(30)), now: Self.launch) == nil, "clocks a little apart")
    }

    @Test func missingAndMalformedAreToldApart() {
        let user = #"{"id":42,"first_name":"Anna"}"#
        #expect(refusal(nil) == .missing)
        #expect(refusal("") == .missing)
        #expect(refusal("hash=zz") == .malformed)
        #expect(refusal("just some text") == .malformed)
        #expect(refusal("auth_date=1764400000&user=%7B%7D") == .malformed, "no hash")
        #expect(refusal("auth_date=1764400000&hash=" + String(repeating: "0", count: 63)) == .malformed, "a hash one digit short")
        #expect(refusal("auth_date=1764400000&hash=" + String(repeating: "g", count: 64)) == .malformed, "a hash not in hex")
        #expect(refusal("user=%zz&hash=" + String(repeating: "0", count: 64)) == .malformed, "a broken escape")
        #expect(refusal(MiniAppAuthenticator.sign([("auth_date", "1764400000")], botToken: Self.token)) == .malformed, "no user")
        #expect(refusal(MiniAppAuthenticator.sign([("auth_date", "1764400000"), ("user", "not json")], botToken: Self.token)) == .malformed)
        #expect(refusal(MiniAppAuthenticator.sign([("auth_date", "1764400000"), ("user", #"{"id":42}"#)], botToken: Self.token)) == .malformed)
        #expect(refusal(MiniAppAuthenticator.sign([("user", user)], botToken: Self.token)) == .malformed, "no auth_date")
        #expect(refusal(MiniAppAuthenticator.sign([("auth_date", "yesterday"), ("user", user)], botToken: Self.token)) == .malformed)
        #expect(refusal(launched() + "&auth_date=1764400000") == .malformed, "a key twice")
        #expect(refusal(launched() + "&hash=" + String(repeating: "0", count: 64)) == .malformed, "a hash twice")
        // The hash is checked before any field is read: a forged launch without a user is forged.
        #expect(refusal("auth_date=1764400000&hash=" + String(repeating: "0", count: 64)) == .forged)
    }

    @Test func theRefusalNeverShowsTheData() {
        let initData = launched()
        let hash = String(initData.split(separator: "&").last!.dropFirst("hash=".count))
        let forged = initData.replacingOccurrences(of: "%22id%22%3A42", with: "%22id%22%3A43")
        let refusals = [refusal(nil), refusal("hash=zz"), refusal(forged), refusal(initData, now: Self.launch.addingTimeInterval(90_000))]
        #expect(refusals.map(\.?.code) == [.missing, .malformed, .forged, .expired])
        for refusal in refusals.compactMap(\.self) {
            let description = refusal.description
            #expect(description.contains(refusal.code.rawValue))
            #expect(!description.contains("\n"))
            for secret in [Self.token, hash, "Anna", "1764400000"] {
                #expect(!description.contains(secret))
                #expect(!String(reflecting: refusal).contains(secret))
            }
        }

        let key = HMAC<SHA256>.authenticationCode(for: Data(Self.token.utf8), using: SymmetricKey(data: Data("WebAppData".utf8)))
            .map { String(format: "%02x", $0) }.joined()
        var dumped = ""
        dump(authenticator, to: &dumped)
        for shown in [authenticator.description, authenticator.debugDescription, String(reflecting: authenticator), "\(authenticator)", dumped] {
            #expect(!shown.contains(Self.token))
            #expect(!shown.contains("AAFakeToken"))
            #expect(!shown.lowercased().contains(key))
        }
    }
}
