import BotClock
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One Chromium driven over its DevTools protocol through `--remote-debugging-pipe`: the browser
/// reads commands from its file descriptor 3 and writes answers and events to its descriptor 4,
/// each message JSON ended by a NUL byte. Both descriptors are one end of a Unix socket pair, so
/// a write to a browser that has died fails instead of raising SIGPIPE in the tests.
///
/// Messages are read on a thread of its own (its reads block); commands are written without
/// blocking; every wait has a timeout and ends when the calling task is cancelled.
final class DevToolsConnection: Sendable {
    /// The process started: Debian's wrapper script or the browser itself, leading a process
    /// group that Chromium's helpers stay in.
    let process: pid_t
    private let socket: Int32
    private let errors: URL
    private let state = Mutex(State())
    private let stopping = Atomic(false)
    private let finished = Mutex(Finished())

    private struct State {
        var open = true
        var ended: HeadlessBrowserError?
        var nextToken = 0
        var waiters: [Int: Waiter] = [:]
    }

    /// A command's answer or an event waited for.
    private struct Waiter {
        var event: (method: String, session: String?)?
        var continuation: CheckedContinuation<DevToolsValue, any Error>?
        var outcome: Result<DevToolsValue, any Error>?
    }

    /// Whether the reading thread ended, and who waits for it to.
    private struct Finished {
        var done = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private init(process: pid_t, socket: Int32, errors: URL) {
        self.process = process
        self.socket = socket
        self.errors = errors
    }

    /// Starts `executable` with `arguments` (which must include `--remote-debugging-pipe`), its
    /// stdin and stdout on /dev/null and its stderr into the file `errors`, in a process group
    /// of its own, and starts reading what it says.
    static func launch(_ executable: URL, arguments: [String], errors: URL) throws(HeadlessBrowserError) -> DevToolsConnection {
        #if canImport(Glibc)
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw HeadlessBrowserError(code: .notStarted, description: "no socket pair for Chromium: errno \(errno)")
        }
        // The child's end is moved above 4 so that its duplicates onto 3 and 4 are real copies
        // (dup2 onto itself would keep close-on-exec).
        let child = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[1])
        guard child >= 0 else {
            close(ends[0])
            throw HeadlessBrowserError(code: .notStarted, description: "no descriptor for Chromium's pipe: errno \(errno)")
        }
        defer { close(child) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, child, 3)
        posix_spawn_file_actions_adddup2(&actions, child, 4)
        // Descriptors other tests leave open without close-on-exec (their pipes) stay out of
        // the browser, which would otherwise hold them open as long as it runs.
        // (glibc 2.34 has the action, which Swift sees only through the dynamic linker: its
        // header declares it for _GNU_SOURCE alone).
        if let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 5)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var process: pid_t = 0
        let spawned = posix_spawn(&process, executable.path, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            close(ends[0])
            throw HeadlessBrowserError(code: .notStarted, description: "\(executable.path) did not start: errno \(spawned)")
        }
        let connection = DevToolsConnection(process: process, socket: ends[0], errors: errors)
        Thread { connection.read() }.start()
        return connection
        #else
        throw HeadlessBrowserError(code: .notStarted, description: "an interactive browser session is built for Linux only")
        #endif
    }

    /// Sends the command `method` with `parameters`, to the page attached as `session` if given,
    /// and returns its result once the browser answers, within `timeout`.
    func call(_ method: String, _ parameters: DevToolsValue = [:], session: String? = nil, timeout: Duration) async throws -> DevToolsValue {
        let token = register(event: nil)
        var message: [String: DevToolsValue] = ["id": .number(Double(token)), "method": .string(method), "params": parameters]
        if let session { message["sessionId"] = .string(session) }
        do {
            try await write(JSONEncoder().encode(DevToolsValue.object(message)) + [0], method: method, timeout: timeout)
        } catch {
            resolve(token, with: .failure(error))
        }
        return try await outcome(of: token, timeout: timeout, waitingFor: "the answer to \(method)")
    }

    /// Runs `trigger` and returns the parameters of the first event `method` of `session` that
    /// comes after `trigger` began, within `timeout`.
    func event(
        _ method: String, session: String?, timeout: Duration, after trigger: () async throws -> Void
    ) async throws -> DevToolsValue {
        let token = register(event: (method, session))
        do {
            try await trigger()
        } catch {
            resolve(token, with: .failure(error))
        }
        return try await outcome(of: token, timeout: timeout, waitingFor: "the event \(method)")
    }

    /// Kills the browser with its helpers, fails whatever still waits, and returns once the
    /// reading thread has ended and the process is reaped. Safe to call more than once.
    func stop() async {
        kill()
        await withCheckedContinuation { continuation in
            let done = finished.withLock { finished in
                if finished.done { return true }
                finished.waiting.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Kills the browser's process group and fails every waiter, without waiting for anything.
    func kill() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        #if canImport(Glibc)
        if Glibc.kill(-process, SIGKILL) != 0 { _ = Glibc.kill(process, SIGKILL) }
        // Wakes the reading thread at once rather than at its next look at the flag.
        state.withLock { state in
            if state.open { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
        #endif
        end(HeadlessBrowserError(code: .failed, description: "the browser session was closed"))
    }

    // MARK: - Waiting

    private func register(event: (method: String, session: String?)?) -> Int {
        state.withLock { state in
            state.nextToken += 1
            let token = state.nextToken
            state.waiters[token] = Waiter(event: event, outcome: state.ended.map { .failure($0) })
            return token
        }
    }

    /// Settles the waiter `token`: resumes it if it is waiting, else keeps the outcome for it.
    private func resolve(_ token: Int, with outcome: Result<DevToolsValue, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<DevToolsValue, any Error>? in
            guard var waiter = state.waiters[token], waiter.outcome == nil else { return nil }
            if let continuation = waiter.continuation {
                state.waiters[token] = nil
                return continuation
            }
            waiter.outcome = outcome
            state.waiters[token] = waiter
            return nil
        }
        continuation?.resume(with: outcome)
    }

    private func outcome(of token: Int, timeout: Duration, waitingFor what: String) async throws -> DevToolsValue {
        do {
            return try await Deadline.within(timeout) { [self] in try await self.outcome(of: token) }
        } catch is Deadline.Passed {
            resolve(token, with: .failure(CancellationError()))
            throw HeadlessBrowserError(code: .timedOut, description: "no \(what) within \(timeout)")
        }
    }

    /// The outcome of the waiter `token`, whenever it comes; cancelled, the waiter is given up.
    private func outcome(of token: Int) async throws -> DevToolsValue {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<DevToolsValue, any Error>? in
                    guard var waiter = state.waiters[token] else { return .failure(CancellationError()) }
                    if let outcome = waiter.outcome {
                        state.waiters[token] = nil
                        return outcome
                    }
                    waiter.continuation = continuation
                    state.waiters[token] = waiter
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            resolve(token, with: .failure(CancellationError()))
        }
    }

    /// Fails every waiter and every later call with `error`, once.
    private func end(_ error: HeadlessBrowserError) {
        let waiting = state.withLock { state -> [CheckedContinuation<DevToolsValue, any Error>] in
            guard state.ended == nil else { return [] }
            state.ended = error
            var waiting: [CheckedContinuation<DevToolsValue, any Error>] = []
            for (token, var waiter) in state.waiters where waiter.outcome == nil {
                if let continuation = waiter.continuation {
                    waiting.append(continuation)
                    state.waiters[token] = nil
                } else {
                    waiter.outcome = .failure(error)
                    state.waiters[token] = waiter
                }
            }
            return waiting
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }

    // MARK: - The pipe

    /// Writes `bytes` without blocking, retrying while the socket is full, within `timeout`.
    private func write(_ bytes: Data, method: String, timeout: Duration) async throws {
        #if canImport(Glibc)
        let deadline = ContinuousClock.now + timeout
        var sent = 0
        while sent < bytes.count {
            let result = try state.withLock { state -> Int in
                if let ended = state.ended { throw ended }
                guard state.open else { throw HeadlessBrowserError(code: .failed, description: "the browser session was closed") }
                return bytes.withUnsafeBytes { buffer in
                    send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
            }
            if result > 0 {
                sent += result
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard ContinuousClock.now < deadline else {
                    throw HeadlessBrowserError(code: .timedOut, description: "the browser took no command \(method) within \(timeout)")
                }
                try await Task.sleep(for: .milliseconds(5))
            } else if errno == EPIPE || errno == ECONNRESET {
                throw ended("Chromium ended before the command \(method)")
            } else {
                throw HeadlessBrowserError(code: .failed, description: "the command \(method) could not be sent: errno \(errno)")
            }
        }
        #endif
    }

    /// The reading thread: splits what the browser writes at NUL bytes and hands each message
    /// on, until the browser ends or the connection is stopped; then closes the socket, reaps
    /// the process and lets ``stop()`` return.
    private func read() {
        #if canImport(Glibc)
        var buffer: [UInt8] = []
        var scanned = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var why = "Chromium ended the session"
        reading: while !stopping.load(ordering: .sequentiallyConsistent) {
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 200)
            if polled < 0, errno != EINTR {
                why = "the browser's pipe could not be read: errno \(errno)"
                break
            }
            guard polled > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET { break }
                why = "the browser's pipe could not be read: errno \(errno)"
                break
            }
            if count == 0 { break }
            buffer.append(contentsOf: chunk[0..<count])
            while let end = buffer[scanned...].firstIndex(of: 0) {
                dispatch(Data(buffer[..<end]))
                buffer.removeSubrange(...end)
                scanned = 0
                if buffer.isEmpty { continue reading }
            }
            scanned = buffer.count
        }
        if !stopping.load(ordering: .sequentiallyConsistent) {
            end(ended(why))
        }
        state.withLock { state in
            state.open = false
            close(socket)
        }
        _ = Glibc.kill(-process, SIGKILL)
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0, errno == EINTR {}
        #endif
        let waiting = finished.withLock { finished in
            finished.done = true
            defer { finished.waiting = [] }
            return finished.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The error of a browser that ended by itself: `why`, and the end of what it wrote to stderr.
    private func ended(_ why: String) -> HeadlessBrowserError {
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return HeadlessBrowserError(code: .failed, description: why + HeadlessBrowser.errorsTail(said))
    }

    /// Hands one message on: an answer to its command's waiter, an event to those waiting for it.
    private func dispatch(_ message: Data) {
        guard let value = try? JSONDecoder().decode(DevToolsValue.self, from: message) else { return }
        if let id = value["id"]?.number {
            if let error = value["error"] {
                let text = error["message"]?.string ?? "an error"
                let data = error["data"]?.string.map { " (\($0))" } ?? ""
                resolve(Int(id), with: .failure(HeadlessBrowserError(code: .failed, description: "the browser answered: \(text)\(data)")))
            } else {
                resolve(Int(id), with: .success(value["result"] ?? [:]))
            }
        } else if let method = value["method"]?.string {
            let session = value["sessionId"]?.string
            let tokens = state.withLock { state in
                state.waiters.filter { _, waiter in
                    waiter.outcome == nil && waiter.event.map { $0.method == method && ($0.session == nil || $0.session == session) } == true
                }.map(\.key)
            }
            for token in tokens { resolve(token, with: .success(value["params"] ?? [:])) }
        }
    }
}
