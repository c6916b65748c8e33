public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real browser for the tests of the Mini App: Chromium, headless, opening a page served on
/// loopback and giving back its document once its scripts ran, or a picture of it; or keeping
/// the page open for a test to click and drag in (see "Clicking and dragging").
///
/// Tests that need it are `.enabled(if: HeadlessBrowser.available)`: on a machine with only the
/// Swift toolchain they are skipped; CI installs Chromium, so they run there.
///
/// ## How a page is waited for
/// Each call is one run of Chromium with `--dump-dom` (or `--screenshot`) and
/// `--virtual-time-budget`. With a budget, Chromium runs the page on virtual time: timers fire as
/// soon as nothing else is left to do, and virtual time stands still while any network request
/// of the page is still waiting for its answer, so a `fetch()` to a slow loopback server is waited
/// for in real time, then the script that renders its answer runs, and the document is taken only
/// once the budget of virtual time is spent. Tried by hand on Debian's Chromium 156 with a page
/// that fetches JSON from 127.0.0.1 and writes it into the page: without a budget the document
/// came back at load, before the answer (the test of this harness fails so too); with a budget of
/// 1 s, answers that took 0.3 s, 2 s and 6 s were all in it (runs of 1.0 s, 2.9 s and 7.1 s), and
/// so were two fetches in a row with a timer between them. A budget of 60 s over a page with a
/// `requestAnimationFrame` loop and a 16 ms interval took no longer than one of 1 s: virtual time
/// costs next to nothing. So no marker needs polling and no DevTools connection is needed. The one
/// case it does not end is a request that is never answered: virtual time then never runs out,
/// and the run's ``timeout`` ends it.
///
/// ## Clicking and dragging
/// A one-shot run cannot touch the page. ``withSession(of:viewport:colorScheme:isolation:_:)``
/// keeps one browser running on one page instead, and drives it over Chromium's DevTools
/// protocol through `--remote-debugging-pipe`: clicks and drags are real mouse input, sent as
/// the browser's own input events, and the test waits for the page by polling a condition of its
/// own (``Session/waitFor(_:timeout:)``), on real time. Tried on the headless shell 156: a session
/// opens a page in 0.2 s (0.5 s in the full browser), a click takes 20 ms, a drag 15 ms a step
/// (each move waits for the page's next frame), and closing 0.1 s.
///
/// ## The command line
/// `--headless=new --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage
/// --disable-background-networking --user-data-dir=<a new folder, removed after>
/// --virtual-time-budget=<waitFor in ms> --window-size=<width>,<height>
/// --blink-settings=preferredColorScheme=<0 dark, 1 light>`, then `--dump-dom`, or
/// `--screenshot=<file> --hide-scrollbars`, then the URL as one argument, its fragment untouched.
/// The colour scheme goes through Blink's setting because `--force-dark-mode` reaches the page
/// in the full browser but not in the headless shell.
///
/// ## Which Chromium
/// Debian's `chromium-headless-shell` is preferred to `chromium`: the full browser run headless
/// lays a page out in a window with its toolbars, at least 500 px wide and about 143 px shorter
/// than asked (`--window-size=420,900` gave a page of 500 × 757), while the headless shell lays it
/// out at exactly the size asked, and starts faster: a page whose fetch is answered in 0.3 s took
/// 0.6 s a run in the shell and 0.9 s in the full browser, a page without requests 0.3 s in the
/// shell. ``exactViewport`` says which one was found.
///
/// ## Sharing the machine
/// At most two browsers run at once, whichever test asks: tests run in parallel on two cores
/// shared with the rest of the suite, and a run keeps a core busy while it starts. A launch waits
/// for a slot even when its task is cancelled; the slots are freed within the runs' timeouts.
public struct HeadlessBrowser: Sendable {
    /// The colour scheme the page's `prefers-color-scheme` media query sees.
    public enum ColorScheme: Sendable {
        case light
        case dark
    }

    /// The Chromium executable run.
    public let executable: URL
    /// How long one run may take before it is killed.
    public var timeout: Duration

    /// The names looked for on `PATH`, in order of preference: the headless shells lay a page
    /// out at exactly the size asked.
    public static let executableNames = ["chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome"]

    /// A browser run from `executable`.
    public init(executable: URL, timeout: Duration = .seconds(60)) {
        self.executable = executable
        self.timeout = timeout
    }

    /// The browser of this machine: the executable named by the `CHROMIUM` environment variable,
    /// else the first of ``executableNames`` found on `PATH`; nil when there is none.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> HeadlessBrowser? {
        let files = FileManager.default
        if let named = environment["CHROMIUM"], !named.isEmpty {
            if named.contains("/") {
                return files.isExecutableFile(atPath: named) ? HeadlessBrowser(executable: URL(fileURLWithPath: named)) : nil
            }
            return onPath(named, environment: environment).map { HeadlessBrowser(executable: $0) }
        }
        for name in executableNames {
            if let executable = onPath(name, environment: environment) { return HeadlessBrowser(executable: executable) }
        }
        return nil
    }

    /// Whether this machine has a browser for the tests.
    public static var available: Bool { find() != nil }

    /// Whether pages are laid out at exactly the viewport asked: true for a headless shell; the
    /// full browser makes a page at least 500 px wide and shorter than asked by its toolbars.
    public var exactViewport: Bool { executable.lastPathComponent.contains("headless-shell") }

    /// The document of the page at `url` as HTML, once its scripts ran and its requests were
    /// answered (see "How a page is waited for").
    ///
    /// - Parameters:
    ///   - url: the page; its fragment (the Mini App's launch parameters) is passed on untouched.
    ///   - viewport: the window's size in CSS pixels.
    ///   - colorScheme: what `prefers-color-scheme` says.
    ///   - waitFor: the page's budget of virtual time: its timers up to this far run, time spent
    ///     waiting for answers not counted.
    /// - Throws: ``HeadlessBrowserError``.
    public func dom(
        of url: URL, viewport: (width: Int, height: Int) = (420, 900), colorScheme: ColorScheme = .light, waitFor: Duration = .seconds(5)
    ) async throws -> String {
        let run = try await launch(["--dump-dom"], url: url, viewport: viewport, colorScheme: colorScheme, waitFor: waitFor)
        guard !run.output.isEmpty else {
            throw HeadlessBrowserError(code: .noOutput, description: "Chromium printed no document for \(Self.shown(url))\(run.errorsTail)")
        }
        return String(decoding: run.output, as: UTF8.self)
    }

    /// A PNG picture of the page at `url`, of the viewport's size, written to `file`, taken when
    /// ``dom(of:viewport:colorScheme:waitFor:)`` would take the document. Scrollbars are hidden.
    /// - Throws: ``HeadlessBrowserError``.
    public func screenshot(
        of url: URL, to file: URL, viewport: (width: Int, height: Int) = (420, 900), colorScheme: ColorScheme = .light,
        waitFor: Duration = .seconds(5)
    ) async throws {
        try? FileManager.default.removeItem(at: file)
        let run = try await launch(
            ["--screenshot=\(file.path)", "--hide-scrollbars"], url: url, viewport: viewport, colorScheme: colorScheme, waitFor: waitFor)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard size > 0 else {
            throw HeadlessBrowserError(code: .noOutput, description: "Chromium wrote no picture of \(Self.shown(url))\(run.errorsTail)")
        }
    }

    /// What one run of Chromium printed.
    private struct Run {
        var output: Data
        var errors: String

        /// The end of what Chromium wrote to stderr, for an error's description.
        var errorsTail: String { HeadlessBrowser.errorsTail(errors) }
    }

    /// The end of what Chromium wrote to stderr, for an error's description, less what it says
    /// on every run of a machine without a desktop (no D-Bus, no GPU).
    static func errorsTail(_ errors: String) -> String {
        let noise = ["dbus", "bluez", "vaapi", "InitializeSandbox", "/usr/bin/chromium:"]
        let lines = errors.split(separator: "\n").filter { line in !noise.contains { line.contains($0) } }.suffix(12)
        return lines.isEmpty ? "" : "; Chromium said:\n" + lines.joined(separator: "\n")
    }

    /// Runs Chromium on `url` with the common flags and `extra`, in a profile of its own removed
    /// after, once one of the two launch slots is free.
    private func launch(
        _ extra: [String], url: URL, viewport: (width: Int, height: Int), colorScheme: ColorScheme, waitFor: Duration
    ) async throws -> Run {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-browser-\(UUID().uuidString)")
        let budget = max(1, Int(waitFor.components.seconds * 1000 + waitFor.components.attoseconds / 1_000_000_000_000_000))
        let arguments =
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                "--disable-background-networking", "--user-data-dir=\(profile.path)",
                "--virtual-time-budget=\(budget)", "--window-size=\(viewport.width),\(viewport.height)",
                "--blink-settings=preferredColorScheme=\(colorScheme == .dark ? 0 : 1)",
            ] + extra + [url.absoluteString]
        await Self.slots.acquire()
        do {
            do {
                try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            } catch {
                throw HeadlessBrowserError(code: .notStarted, description: "no profile folder for Chromium: \(error)")
            }
            defer { try? FileManager.default.removeItem(at: profile) }
            let run = try await run(arguments, url: url)
            await Self.slots.release()
            return run
        } catch {
            await Self.slots.release()
            throw error
        }
    }

    /// One run of the executable with `arguments`: stdout and stderr read to their ends while it
    /// runs, killed with its children past ``timeout`` or when the calling task is cancelled.
    private func run(_ arguments: [String], url: URL) async throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let (exits, exited) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in exited.finish() }
        let started = ContinuousClock.now
        do {
            try process.run()
        } catch {
            throw HeadlessBrowserError(code: .notStarted, description: "\(executable.path) did not start: \(error)")
        }
        // On Linux the child leads a process group of its own (Foundation's Process makes it one)
        // and Chromium's helpers stay in it, so killing the group ends them all, Debian's wrapper
        // script with them; elsewhere only the child itself is killed.
        let group = process.processIdentifier
        let killed = Locked(false)
        let stop: @Sendable () -> Void = {
            guard process.isRunning else { return }
            killed.withLock { $0 = true }
            if kill(-group, SIGKILL) != 0 { _ = kill(group, SIGKILL) }
        }
        async let printed = Self.readToEnd(output.fileHandleForReading)
        async let said = Self.readToEnd(errors.fileHandleForReading)
        let watchdog = Task { [timeout] in
            try await Task.sleep(for: timeout)
            stop()
        }
        await withTaskCancellationHandler {
            for await _ in exits {}
        } onCancel: {
            stop()
        }
        watchdog.cancel()
        let run = Run(output: await printed, errors: Self.redacted(String(decoding: await said, as: UTF8.self), url: url))
        if killed.withLock({ $0 }) {
            let elapsed = ContinuousClock.now - started
            throw HeadlessBrowserError(
                code: .timedOut, description: "Chromium was stopped after \(elapsed) on \(Self.shown(url))\(run.errorsTail)")
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw HeadlessBrowserError(
                code: .failed,
                description: "Chromium ended with \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus) on \(Self.shown(url))\(run.errorsTail)")
        }
        return run
    }

    /// Everything read from `handle` until its end, on a thread of its own: the read blocks, and
    /// the pipe must be emptied while the browser writes or a large document would stall it.
    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: (try? handle.readToEnd()) ?? Data())
            }.start()
        }
    }

    /// `url` as an error may show it: without its fragment and query, which carry signed data.
    static func shown(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the page" }
        parts.fragment = nil
        parts.query = nil
        return parts.string ?? "the page"
    }

    /// `text` with `url`'s fragment and query, as given or decoded, cut out.
    static func redacted(_ text: String, url: URL) -> String {
        var text = text
        let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let secrets = [parts?.percentEncodedFragment, parts?.fragment, parts?.percentEncodedQuery, parts?.query]
        for case let secret? in secrets where secret.count >= 4 {
            text = text.replacingOccurrences(of: secret, with: "…")
        }
        return text
    }

    /// The browsers running, two at most: one-shot runs and sessions alike.
    static let slots = LaunchSlots(2)

    /// The executable called `name` in a folder of `PATH`.
    private static func onPath(_ name: String, environment: [String: String]) -> URL? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for folder in folders where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// Why a run of the browser gave nothing, or a step of a session failed. Its description names
/// the page without its fragment or query, which hold the Mini App's signed launch data.
public struct HeadlessBrowserError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable {
        /// The executable could not be started.
        case notStarted
        /// The run took longer than its timeout (or its task was cancelled) and was killed; in a
        /// session, a step or a wait took longer than its timeout.
        case timedOut
        /// Chromium ended with an error status or a signal; in a session, it ended, refused a
        /// command, or could not open the page.
        case failed
        /// Chromium ended well but printed no document or wrote no picture.
        case noOutput
        /// In a session: the page's script threw.
        case scriptFailed
        /// In a session: no element matches the selector, or it has no size on the page.
        case noElement
        /// In a session: the element's centre is under another element, which a real click
        /// would reach instead.
        case covered
    }

    /// What went wrong.
    public let code: Code
    /// What happened, with the end of Chromium's stderr.
    public let description: String
}

/// A fixed number of launch slots: a launch waits, in order of arrival, until one is free.
actor LaunchSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = count
    }

    /// Takes a slot, waiting for one to be released if none is free.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
