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
            let error = await #expect(throws: HeadlessBrowserError.self) {
                try await browser.dom(of: URL(string: "app?data=never#\(Self.launch)", relativeTo: server.url)!.absoluteURL)
            }
            #expect(error?.code == .timedOut)
            let description = error?.description ?? ""
            #expect(description.contains("/app"), "\(description)")
            #expect(!description.contains("c0ffee42") && !description.contains("tgWebAppData"), "\(description)")
        }
    }

    @Test func aRealClickReachesThePagesListener() async throws {
        let browser = try #require(HeadlessBrowser.find())
        try await PageServer.serving { server in
            try await browser.withSession(of: URL(string: "rows#\(Self.launch)", relativeTo: server.url)!.absoluteURL) { page in
                try await page.waitFor("document.documentElement.dataset.ready === 'rows'")
                #expect(try await page.evaluate("document.getElementById('said').textContent") == "")
                try await page.click("#add")
                // A trusted click, as only real input gives, after a press and a release on the button.
                #expect(try await page.evaluate("document.getElementById('said').textContent") == "clicked, trusted, after down and up")
                #expect(try await page.dom().contains("<p id=\"said\">clicked, trusted, after down and up</p>"))
            }
        }
    }

    @Test func aDragByTheHandleReordersTheRows() async throws {
        let browser = try #require(HeadlessBrowser.find())
        try await PageServer.serving { server in
            try await browser.withSession(of: URL(string: "rows#\(Self.launch)", relativeTo: server.url)!.absoluteURL) { page in
                try await page.waitFor("document.body.dataset.order === '1,2,3'")
                // The third row's handle, dragged onto the list's title, above the first row.
                try await page.drag(from: "li[data-id='3'] .handle", to: "#title")
                #expect(try await page.evaluate("document.body.dataset.order") == "3,1,2")
                // The handle kept the pointer through the drag, as setPointerCapture asked.
                #expect(try await page.evaluate("document.body.dataset.captured") == "every move")
                // And back down, below the last row, by a height.
                let bottom = try #require(try await page.evaluate("document.querySelector('li:last-child').getBoundingClientRect().bottom"))
                try await page.drag(from: "li[data-id='3'] .handle", toY: try #require(Double(bottom)) - 4, steps: 8)
                #expect(try await page.evaluate("document.body.dataset.order") == "1,2,3")
            }
        }
    }

    @Test func aSessionSeesTheViewportAndColorSchemeAskedAndPicturesIt() async throws {
        let browser = try #require(HeadlessBrowser.find())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-session-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try await PageServer.serving { server in
            let url = URL(string: "app#\(Self.launch)", relativeTo: server.url)!.absoluteURL
            try await browser.withSession(of: url, viewport: (390, 700), colorScheme: .dark) { page in
                try await page.waitFor("document.documentElement.dataset.ready === '1'")
                // Exact in the full browser too: the session sets the page's size itself.
                #expect(try await page.evaluate("document.getElementById('screen').textContent") == "390×700 dark")
                #expect(try await page.evaluate("document.getElementById('weather').textContent") == "Москва −3 °C")
                #expect(try await page.evaluate("innerWidth") == "390")
                #expect(try await page.evaluate("({ a: [1, 2.5, true, null] })") == #"{"a":[1,2.5,true,null]}"#)
                #expect(try await page.evaluate("undefined") == nil)
                try await page.screenshot(to: file)
            }
        }
        let png = try Data(contentsOf: file)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let width = png.count >= 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        let height = png.count >= 24 ? png[20..<24].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 390 && height == 700)
    }

    @Test func aBrowserThatEndsAtOnceFailsTheSessionWithWhatItSaid() async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-not-a-browser-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: script) }
        try Data("#!/bin/sh\necho 'cannot open a display' >&2\nexit 3\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        // The timeout is far beyond the run: only the browser's own end can fail the session with `.failed`.
        let error = await #expect(throws: HeadlessBrowserError.self) {
            try await HeadlessBrowser(executable: script, timeout: .seconds(3_600)).withSession(
                of: URL(string: "http://127.0.0.1:9/app#\(Self.launch)")!) { _ in }
        }
        #expect(error?.code == .failed)
        #expect(error?.description.contains("cannot open a display") == true, "\(error?.description ?? "")")
    }

    @Test func aSessionsFailuresSayWhatWentWrongAndHideTheLaunchData() async throws {
        var browser = try #require(HeadlessBrowser.find())
        browser.timeout = .seconds(3)
        try await PageServer.serving { server in
            try await browser.withSession(of: URL(string: "rows#\(Self.launch)", relativeTo: server.url)!.absoluteURL) { page in
                try await page.waitFor("document.documentElement.dataset.ready === 'rows'")
                let waited = await #expect(throws: HeadlessBrowserError.self) {
                    try await page.waitFor("document.body.dataset.order === '2,1,3'", timeout: .milliseconds(300))
                }
                #expect(waited?.code == .timedOut)
                let missing = await #expect(throws: HeadlessBrowserError.self) { try await page.click("#nowhere") }
                #expect(missing?.code == .noElement)
                let covered = await #expect(throws: HeadlessBrowserError.self) { try await page.click("#under") }
                #expect(covered?.code == .covered)
                #expect(covered?.description.contains("div#sheet") == true, "\(covered?.description ?? "")")
                let thrown = await #expect(throws: HeadlessBrowserError.self) {
                    try await page.evaluate("(() => { throw new Error('no launch in ' + location.href) })()")
                }
                #expect(thrown?.code == .scriptFailed)
                let description = thrown?.description ?? ""
                #expect(description.contains("no launch in"), "\(description)")
                #expect(!description.contains("c0ffee42") && !description.contains("tgWebAppData"), "\(description)")
                // A step that never ends is given up after the browser's timeout, and the page stays usable.
                let stuck = await #expect(throws: HeadlessBrowserError.self) { try await page.evaluate("new Promise(() => {})") }
                #expect(stuck?.code == .timedOut)
                #expect(try await page.evaluate("1 + 1") == "2")
            }
        }
    }
}

/// A page like the Mini App's, on Hummingbird on an ephemeral loopback port: its script reads the
/// launch data from the fragment, fetches `/data` (answered after 300 ms) and writes both into the
/// page, then marks it ready. With `?data=never` in its address it fetches `/never`, which is not
/// answered until the server stops; with `?rows=N` it adds N paragraphs. `/rows` is a page to
/// click and drag in: a button that says it was clicked, a button covered by a sheet, and a list
/// whose rows are reordered by dragging their handles.
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

    /// A button whose click listener writes into the page, and a list reordered as the favorites'
    /// is: a row's handle takes the pointer on `pointerdown` (`setPointerCapture`), the row
    /// changes places with a neighbour whenever the pointer crosses that neighbour's middle, and
    /// on `pointerup` the order is written to `body`'s `data-order`. Neighbours move around the
    /// dragged row rather than the row itself: a node taken out of the document, even to be put
    /// back at once, loses the pointer capture of everything in it.
    static let rows = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Избранное</title><style>
        body { margin: 0; font: 16px sans-serif; }
        ul { list-style: none; margin: 0; padding: 0; }
        li { display: flex; align-items: center; gap: 12px; height: 48px; border-bottom: 1px solid #ccc; }
        .handle { width: 40px; height: 40px; background: #ddd; touch-action: none; cursor: grab; }
        #covered { position: relative; height: 40px; }
        #sheet { position: absolute; inset: 0; background: rgba(0, 0, 0, 0.2); }
        </style></head>
        <body><button id="add">Добавить</button><p id="said"></p>
        <div id="covered"><button id="under">Под листом</button><div id="sheet"></div></div>
        <h2 id="title">Избранное</h2>
        <ul id="list"><li data-id="1"><span class="handle"></span>Москва</li><li data-id="2"><span class="handle"></span>Казань</li><li data-id="3"><span class="handle"></span>Сочи</li></ul>
        <script>
        let pressed = false;
        const add = document.getElementById("add");
        add.addEventListener("pointerdown", () => { pressed = true; });
        add.addEventListener("click", event => {
            document.getElementById("said").textContent = "clicked" + (event.isTrusted ? ", trusted" : "") + (pressed ? ", after down and up" : "");
        });
        const list = document.getElementById("list");
        const report = () => { document.body.dataset.order = [...list.children].map(row => row.dataset.id).join(","); };
        for (const handle of list.querySelectorAll(".handle")) {
            handle.addEventListener("pointerdown", down => {
                down.preventDefault();
                const row = handle.closest("li");
                handle.setPointerCapture(down.pointerId);
                let captured = true;
                const move = event => {
                    if (event.pointerId !== down.pointerId) return;
                    captured = captured && handle.hasPointerCapture(event.pointerId);
                    const before = row.previousElementSibling, after = row.nextElementSibling;
                    if (before) {
                        const box = before.getBoundingClientRect();
                        if (event.clientY < box.top + box.height / 2) { list.insertBefore(before, row.nextElementSibling); return; }
                    }
                    if (after) {
                        const box = after.getBoundingClientRect();
                        if (event.clientY > box.top + box.height / 2) list.insertBefore(after, row);
                    }
                };
                const up = event => {
                    if (event.pointerId !== down.pointerId) return;
                    handle.removeEventListener("pointermove", move);
                    handle.removeEventListener("pointerup", up);
                    handle.removeEventListener("pointercancel", up);
                    document.body.dataset.captured = captured ? "every move" : "lost";
                    report();
                };
                handle.addEventListener("pointermove", move);
                handle.addEventListener("pointerup", up);
                handle.addEventListener("pointercancel", up);
            });
        }
        report();
        document.documentElement.dataset.ready = "rows";
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
        router.get("rows") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: rows)))
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
