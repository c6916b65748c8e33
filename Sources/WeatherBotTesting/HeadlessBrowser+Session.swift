public import Foundation
import Synchronization

extension HeadlessBrowser {
    /// Opens the page at `url` in a browser kept running, runs `body` with it, and closes the
    /// browser after, whether `body` returned or threw.
    ///
    /// - Parameters:
    ///   - url: the page; its fragment (the Mini App's launch parameters) is passed on untouched
    ///     and never shown in an error.
    ///   - viewport: the page's size in CSS pixels, exactly, whichever Chromium runs it.
    ///   - colorScheme: what `prefers-color-scheme` says.
    /// - Throws: ``HeadlessBrowserError``, or what `body` throws.
    public func withSession<Result>(
        of url: URL, viewport: (width: Int, height: Int) = (420, 900), colorScheme: ColorScheme = .light,
        isolation: isolated (any Actor)? = #isolation, _ body: (Session) async throws -> Result
    ) async throws -> Result {
        let session = try await session(of: url, viewport: viewport, colorScheme: colorScheme)
        do {
            let result = try await body(session)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }

    /// Opens the page at `url` in a browser kept running until ``Session/close()``, and returns
    /// once the page has loaded. Prefer ``withSession(of:viewport:colorScheme:isolation:_:)``,
    /// which always closes; a session dropped without being closed kills its browser then.
    ///
    /// The browser takes one of the two slots the one-shot runs share, waiting for one if both
    /// are taken; each step of the session (the start, a command, each event of a click or a
    /// drag) may take up to ``timeout``.
    /// - Throws: ``HeadlessBrowserError``.
    public func session(
        of url: URL, viewport: (width: Int, height: Int) = (420, 900), colorScheme: ColorScheme = .light
    ) async throws -> Session {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-browser-\(UUID().uuidString)")
        let profile = folder.appendingPathComponent("profile")
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
            "--disable-background-networking", "--user-data-dir=\(profile.path)",
            "--window-size=\(viewport.width),\(viewport.height)",
            "--blink-settings=preferredColorScheme=\(colorScheme == .dark ? 0 : 1)",
            "--remote-debugging-pipe", "about:blank",
        ]
        await Self.slots.acquire()
        let connection: DevToolsConnection
        do {
            do {
                try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            } catch {
                throw HeadlessBrowserError(code: .notStarted, description: "no profile folder for Chromium: \(error)")
            }
            connection = try DevToolsConnection.launch(executable, arguments: arguments, errors: folder.appendingPathComponent("stderr"))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            await Self.slots.release()
            throw error
        }
        do {
            let page = try await Session.open(url, in: connection, viewport: viewport, colorScheme: colorScheme, timeout: timeout)
            return Session(connection: connection, page: page, folder: folder, url: url, timeout: timeout)
        } catch {
            await connection.stop()
            try? FileManager.default.removeItem(at: folder)
            await Self.slots.release()
            throw Session.redacted(error, url: url)
        }
    }

    /// One page open in a browser that keeps running, driven as a person would: it is clicked
    /// and dragged with real pointer input, read, and pictured, until ``close()``.
    ///
    /// Clicks and drags are the mouse's, sent as the browser's own input: the page receives
    /// `pointerdown` and `mousedown`, `pointermove` and `mousemove`, `pointerup`, `mouseup` and
    /// `click` (of `pointerType` "mouse", all trusted) where the element is on the screen, so
    /// pointer capture works as it does for a person, and an element under another is not reached.
    /// The page runs on real time: wait for what it does with ``waitFor(_:timeout:)``.
    public final class Session: Sendable {
        private let connection: DevToolsConnection
        /// The DevTools session of the page's target.
        private let page: String
        private let folder: URL
        private let url: URL
        private let timeout: Duration
        private let closed = Atomic(false)

        fileprivate init(connection: DevToolsConnection, page: String, folder: URL, url: URL, timeout: Duration) {
            self.connection = connection
            self.page = page
            self.folder = folder
            self.url = url
            self.timeout = timeout
        }

        deinit {
            guard !closed.load(ordering: .sequentiallyConsistent) else { return }
            connection.kill()
            try? FileManager.default.removeItem(at: folder)
            Task { await HeadlessBrowser.slots.release() }
        }

        /// Ends the browser with its helpers, removes its profile and frees its slot. Safe to
        /// call more than once.
        public func close() async {
            guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
            await connection.stop()
            try? FileManager.default.removeItem(at: folder)
            await HeadlessBrowser.slots.release()
        }

        /// Waits until the JavaScript expression `condition` is truthy in the page, evaluating it
        /// every 25 ms, such as `document.documentElement.dataset.ready === 'favorites'`.
        /// - Throws: ``HeadlessBrowserError`` with `.timedOut` past `timeout`, `.scriptFailed` as
        ///   soon as the expression throws.
        public func waitFor(_ condition: String, timeout: Duration = .seconds(10)) async throws {
            try await guarded {
                let deadline = ContinuousClock.now + timeout
                while true {
                    let value = try await remoteObject(of: "!!(\n\(condition)\n)")
                    if value["value"] == .bool(true) { return }
                    guard ContinuousClock.now < deadline else {
                        throw HeadlessBrowserError(code: .timedOut, description: "the page did not come to `\(condition)` within \(timeout)")
                    }
                    try await Task.sleep(for: .milliseconds(25))
                }
            }
        }

        /// The value of the JavaScript expression `javascript` in the page, a promise's once it
        /// settles: a string as it is, a number or a boolean as JavaScript writes it, an object
        /// or an array as JSON; nil for `undefined` and `null`.
        /// - Throws: ``HeadlessBrowserError`` with `.scriptFailed` when the script throws.
        public func evaluate(_ javascript: String) async throws -> String? {
            try await guarded {
                let object = try await remoteObject(of: javascript)
                if let unserializable = object["unserializableValue"]?.string { return unserializable }
                switch object["value"] {
                case nil, .null?: return nil
                case .string(let text)?: return text
                case .bool(let flag)?: return flag ? "true" : "false"
                case .number(let number)?:
                    return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                case let value?:
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    return String(decoding: try encoder.encode(value), as: UTF8.self)
                }
            }
        }

        /// Clicks the first element matching `cssSelector` with the mouse: scrolls it into the
        /// middle of the page, moves the pointer to its centre, presses and releases the left
        /// button there.
        /// - Throws: ``HeadlessBrowserError`` with `.noElement` when nothing matches or it has no
        ///   size, `.covered` when another element lies over its centre.
        public func click(_ cssSelector: String) async throws {
            try await guarded {
                let point = try await centre(of: cssSelector, scrolling: true)
                try await mouse("mouseMoved", at: point, buttons: 0)
                try await mouse("mousePressed", at: point, buttons: 1, clickCount: 1)
                try await mouse("mouseReleased", at: point, buttons: 0, clickCount: 1)
            }
        }

        /// Drags the first element matching `cssSelector` (such as a row's handle) to the centre
        /// of the first element matching `target`: presses the left button on its centre, moves
        /// in `steps` even steps, and releases there. The element is scrolled into view first;
        /// the target is measured where it then is.
        /// - Throws: ``HeadlessBrowserError`` as ``click(_:)`` does, and `.noElement` when nothing
        ///   matches `target`.
        public func drag(from cssSelector: String, to target: String, steps: Int = 12) async throws {
            try await guarded {
                let start = try await centre(of: cssSelector, scrolling: true)
                let end = try await centre(of: target, scrolling: false, mustReach: false)
                try await drag(from: start, to: end, steps: steps)
            }
        }

        /// Drags the first element matching `cssSelector` straight up or down to `y`, in CSS
        /// pixels from the top of the page's visible area, as ``drag(from:to:steps:)`` does.
        public func drag(from cssSelector: String, toY y: Double, steps: Int = 12) async throws {
            try await guarded {
                let start = try await centre(of: cssSelector, scrolling: true)
                try await drag(from: start, to: (start.x, y), steps: steps)
            }
        }

        /// The document as HTML: the `outerHTML` of its root element, as it is now.
        public func dom() async throws -> String {
            try await guarded {
                guard let html = try await remoteObject(of: "document.documentElement.outerHTML")["value"]?.string else {
                    throw HeadlessBrowserError(code: .noOutput, description: "the page has no document")
                }
                return html
            }
        }

        /// A PNG picture of the page's visible area, as it is now, written to `file`.
        public func screenshot(to file: URL) async throws {
            try await guarded {
                let shot = try await connection.call("Page.captureScreenshot", ["format": "png"], session: page, timeout: timeout)
                guard let text = shot["data"]?.string, let png = Data(base64Encoded: text), !png.isEmpty else {
                    throw HeadlessBrowserError(code: .noOutput, description: "the browser gave no picture of the page")
                }
                do {
                    try png.write(to: file, options: .atomic)
                } catch {
                    throw HeadlessBrowserError(code: .noOutput, description: "the picture could not be written to \(file.path): \(error)")
                }
            }
        }

        // MARK: - Steps

        /// Attaches to the browser's page, sets its viewport and colour scheme, opens `url` in it
        /// and waits until it has loaded; returns the page's DevTools session.
        fileprivate static func open(
            _ url: URL, in connection: DevToolsConnection, viewport: (width: Int, height: Int), colorScheme: ColorScheme,
            timeout: Duration
        ) async throws -> String {
            let deadline = ContinuousClock.now + timeout
            var target: String?
            while target == nil {
                let targets = try await connection.call("Target.getTargets", timeout: timeout)["targetInfos"]?.array ?? []
                target = targets.first { $0["type"]?.string == "page" }?["targetId"]?.string
                if target == nil {
                    guard ContinuousClock.now < deadline else {
                        throw HeadlessBrowserError(code: .notStarted, description: "Chromium opened no page within \(timeout)")
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let attached = try await connection.call("Target.attachToTarget", ["targetId": .string(target!), "flatten": true], timeout: timeout)
            guard let page = attached["sessionId"]?.string else {
                throw HeadlessBrowserError(code: .notStarted, description: "Chromium gave no session for its page")
            }
            _ = try await connection.call("Page.enable", session: page, timeout: timeout)
            _ = try await connection.call(
                "Emulation.setDeviceMetricsOverride",
                ["width": .number(Double(viewport.width)), "height": .number(Double(viewport.height)), "deviceScaleFactor": 1, "mobile": false],
                session: page, timeout: timeout)
            _ = try await connection.call(
                "Emulation.setEmulatedMedia",
                ["features": [["name": "prefers-color-scheme", "value": colorScheme == .dark ? "dark" : "light"]]],
                session: page, timeout: timeout)
            _ = try await connection.event("Page.loadEventFired", session: page, timeout: timeout) {
                let navigated = try await connection.call("Page.navigate", ["url": .string(url.absoluteString)], session: page, timeout: timeout)
                if let failure = navigated["errorText"]?.string, !failure.isEmpty {
                    throw HeadlessBrowserError(code: .failed, description: "\(HeadlessBrowser.shown(url)) did not open: \(failure)")
                }
            }
            return page
        }

        /// Runs `body`, with the page's address cut out of the description of what it throws.
        private func guarded<Value>(_ body: () async throws -> Value) async throws -> Value {
            do {
                return try await body()
            } catch {
                throw Self.redacted(error, url: url)
            }
        }

        /// `error` with `url`'s fragment and query cut out of its description.
        fileprivate static func redacted(_ error: any Error, url: URL) -> any Error {
            guard let error = error as? HeadlessBrowserError else { return error }
            return HeadlessBrowserError(code: error.code, description: HeadlessBrowser.redacted(error.description, url: url))
        }

        /// What `Runtime.evaluate` gives for `javascript`, by value, a promise awaited.
        private func remoteObject(of javascript: String) async throws -> DevToolsValue {
            let answer = try await connection.call(
                "Runtime.evaluate", ["expression": .string(javascript), "returnByValue": true, "awaitPromise": true],
                session: page, timeout: timeout)
            if let exception = answer["exceptionDetails"] {
                let said = exception["exception"]?["description"]?.string ?? exception["text"]?.string ?? "an exception"
                throw HeadlessBrowserError(code: .scriptFailed, description: "the page's script threw: \(said)")
            }
            return answer["result"] ?? .null
        }

        /// The centre of the first element matching `selector`, in CSS pixels of the visible
        /// area, after scrolling it to the middle if `scrolling`; when `mustReach`, the element
        /// must be the one a pointer there would touch.
        private func centre(of selector: String, scrolling: Bool, mustReach: Bool = true) async throws -> (x: Double, y: Double) {
            let quoted = String(decoding: try JSONEncoder().encode(selector), as: UTF8.self)
            let script = """
                ((selector, scrolling) => {
                    const element = document.querySelector(selector);
                    if (!element) return { found: false };
                    if (scrolling) element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
                    const box = element.getBoundingClientRect();
                    if (box.width === 0 || box.height === 0) return { found: true, empty: true };
                    const x = box.left + box.width / 2, y = box.top + box.height / 2;
                    const hit = document.elementFromPoint(x, y);
                    const name = hit ? hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "")
                        + [...hit.classList].map(name => "." + name).join("") : "nothing";
                    return { found: true, x, y, reached: hit !== null && element.contains(hit), hit: name };
                })(\(quoted), \(scrolling))
                """
            let box = try await remoteObject(of: script)["value"] ?? .null
            guard box["found"] == .bool(true) else {
                throw HeadlessBrowserError(code: .noElement, description: "no element on the page matches \(selector)")
            }
            guard let x = box["x"]?.number, let y = box["y"]?.number else {
                throw HeadlessBrowserError(code: .noElement, description: "the element \(selector) has no size on the page")
            }
            if mustReach, box["reached"] != .bool(true) {
                let hit = box["hit"]?.string ?? "another element"
                throw HeadlessBrowserError(code: .covered, description: "the centre of \(selector) is covered by \(hit)")
            }
            return (x, y)
        }

        /// Presses the left button at `start`, moves to `end` in `steps` even steps, releases.
        private func drag(from start: (x: Double, y: Double), to end: (x: Double, y: Double), steps: Int) async throws {
            let steps = max(1, steps)
            try await mouse("mouseMoved", at: start, buttons: 0)
            try await mouse("mousePressed", at: start, buttons: 1, clickCount: 1)
            for step in 1...steps {
                let done = Double(step) / Double(steps)
                try await mouse("mouseMoved", at: (start.x + (end.x - start.x) * done, start.y + (end.y - start.y) * done), buttons: 1)
            }
            try await mouse("mouseReleased", at: end, buttons: 0, clickCount: 1)
        }

        /// One mouse event of `type` at `point`; `buttons` says which are held (1: the left),
        /// and the event is of the left button unless it is a move with none held.
        private func mouse(_ type: String, at point: (x: Double, y: Double), buttons: Int, clickCount: Int = 0) async throws {
            var event: [String: DevToolsValue] = [
                "type": .string(type), "x": .number(point.x), "y": .number(point.y), "buttons": .number(Double(buttons)),
                "button": type == "mouseMoved" && buttons == 0 ? "none" : "left", "pointerType": "mouse",
            ]
            if clickCount > 0 { event["clickCount"] = .number(Double(clickCount)) }
            _ = try await connection.call("Input.dispatchMouseEvent", .object(event), session: page, timeout: timeout)
        }
    }
}
