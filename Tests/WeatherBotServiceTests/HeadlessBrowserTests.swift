import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Testing
import WeatherBotTesting

/// The browser the Mini App's tests open their pages in: Chromium, headless, reading a page that
/// Hummingbird serves on loopback, as the bot will serve the Mini App. Skipped where there is no
/// Chromium.
@Suite(.enabled(if: HeadlessBrowser.available, "needs Chromium (CI installs it)"))
struct HeadlessBrowserTests {
    /// Launch data as Telegram puts it in the fragment: percent-encoded, signed.
    static let launch = "tgWebAppData=query_id%3DAAH7%26auth_date%3D1764400000%26hash%3Dc0ffee42"
        + "&tgWebAppThemeParams=%7B%22bg_color%22%3A%22%23ffffff%22%7D"

    @Test func aPageThatFetchesIsReadAfterItsAnswerCame() async throws {
        let browser = try #require(HeadlessBrowser.find())
        try await PageServer.serving { server in
            let dom = try await browser.dom(of: URL(string: "app#\(Self.launch)", relativeTo: server.url)!.absoluteURL)
            #expect(dom.contains("<p id=\"weather\">Москва −3 °C</p>"), "\(dom)")
            #expect(dom.contains("<p id=\"launch\">query_id=AAH7&amp;auth_date=1764400000&amp;hash=c0ffee42</p>"), "\(dom)")
            #expect(dom.contains("data-ready=\"1\""))
            #expect(server.answered.withLock { $0 } == 1)
        }
    }

    @Test func thePageSeesTheViewportAndColorSchemeAsked() async throws {
        let browser = try #require(HeadlessBrowser.find())
        try await PageServer.serving { server in
            let page = URL(string: "app#\(Self.launch)", relativeTo: server.url)!.absoluteURL
            let dark = try await browser.dom(of: page, viewport: (390, 700), colorScheme: .dark)
            #expect(dark.contains(" dark</p>"), "\(dark)")
            if browser.exactViewport {
                #expect(dark.contains("<p id=\"screen\">390×700 dark</p>"), "\(dark)")
            }
            let light = try await browser.dom(of: page, viewport: (600, 800))
            #expect(light.contains(" light</p>"), "\(light)")
            if browser.exactViewport {
                #expect(light.contains("<p id=\"screen\">600×800 light</p>"), "\(light)")
            }
        }
    }

    @Test func aLargeDocumentIsReadWhole() async throws {
        let browser = try #require(HeadlessBrowser.find())
        try await PageServer.serving { server in
            let dom = try await browser.dom(of: URL(string: "app?rows=40000#\(Self.launch)", relativeTo: server.url)!.absoluteURL)
            #expect(dom.utf8.count > 1_000_000)
            #expect(dom.contains("<p>Row 39999 · Москва</p>"))
            #expect(dom.hasSuffix("</html>") || dom.hasSuffix("</html>\n"))
        }
    }

    @Test func aScreenshotIsAPictureOfTheViewport() async throws {
        let browser = try #require(HeadlessBrowser.find())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-screenshot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try await PageServer.serving { server in
            try await browser.screenshot(of: URL(string: "app#\(Self.launch)", relativeTo: server.url)!.absoluteURL, to: file, viewport: (420, 900))
        }
        let png = try Data(contentsOf: file)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 2_000)
        // The header's width and height: big-endian, after the signature and the IHDR chunk's head.
        let width = png.count >= 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        let height = png.count >= 24 ? png[20..<24].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 420 && height == 900)
    }

    @Test func aPageWaitingForAnAnswerThatNeverComesIsStoppedAndTheErrorHidesTheLaunchData() async throws {
        var browser = try #require(HeadlessBrowser.find())
        browser.timeout = .seconds(4)
        try await PageServer.serving { server in
            let started = ContinuousClock.now
            let error = await #expect(throws: HeadlessBrowserError.self) {
                try await browser.dom(of: URL(string: "app?data=never#\(Self.launch)", relativeTo: server.url)!.absoluteURL)
            }
            #expect(ContinuousClock.now - started < .seconds(15))
            #expect(error?.code == .timedOut)
            let description = error?.description ?? ""
            #expect(description.contains("/app"), "\(description)")
            #expect(!description.contains("c0ffee42") && !description.contains("tgWebAppData"), "\(description)")
        }
    }
}

/// A page like the Mini App's, on Hummingbird on an ephemeral loopback port: its script reads the
/// launch data from the fragment, fetches `/data` (answered after 300 ms) and writes both into the
/// page, then marks it ready. With `?data=never` in its address it fetches `/never`, which is not
/// answered until the server stops; with `?rows=N` it adds N paragraphs.
private struct PageServer {
    /// The server's root, such as `http://127.0.0.1:40123/`.
    let url: URL
    /// How many times `/data` was answered.
    let answered: Locked<Int>

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Погода</title></head>
        <body><p id="weather">…</p><p id="launch"></p><p id="screen"></p>
        <script>
        const launch = new URLSearchParams(location.hash.slice(1));
        document.getElementById("launch").textContent = launch.get("tgWebAppData");
        const scheme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
        document.getElementById("screen").textContent = innerWidth + "×" + innerHeight + " " + scheme;
        const search = new URLSearchParams(location.search);
        for (let row = 0; row < Number(search.get("rows") || 0); row++) {
            document.body.appendChild(document.createElement("p")).textContent = "Row " + row + " · Москва";
        }
        const path = search.get("data") === "never" ? "/never" : "/data";
        fetch(path).then(answer => answer.json()).then(weather => {
            document.getElementById("weather").textContent = weather.city + " " + weather.temperature;
            document.documentElement.dataset.ready = "1";
        });
        </script></body></html>
        """

    /// Runs `body` with the server started, and stops it after.
    static func serving(_ body: (PageServer) async throws -> Void) async throws {
        let answered = Locked(0)
        let released = Locked(false)
        let router = Router()
        router.get("app") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }
        router.get("data") { _, _ in
            try await Task.sleep(for: .milliseconds(300))
            answered.withLock { $0 += 1 }
            let json = #"{"city": "Москва", "temperature": "−3 °C"}"#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
        }
        router.get("never") { _, _ in
            while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
            return Response(status: .serviceUnavailable)
        }
        let port = Locked<Int?>(nil)
        var logger = Logger(label: "weatherbot.tests.browser")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } }, logger: logger)
        let task = Task { try await app.run() }
        func stop() async {
            released.withLock { $0 = true }
            task.cancel()
            _ = try? await task.value
        }
        do {
            try await waitUntil("the page's server") { port.withLock { $0 } != nil }
            try await body(PageServer(url: URL(string: "http://127.0.0.1:\(port.withLock { $0 }!)/")!, answered: answered))
        } catch {
            await stop()
            throw error
        }
        await stop()
    }
}
