import ClosetCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The live network, kept off the start-up path: linking FoundationNetworking loads libcurl
/// and about 30 libraries into every process (5–10 ms and ~10 MB, network or not), so the
/// shell itself never links it. The first live request starts `closet-http` (built beside
/// `closet`), which keeps one URLSession for the rest of the session; requests and responses
/// cross a socket as `WireFormat` frames. A helper that dies or hangs is stopped and started
/// again on the next request.
package final class HelperTransport: Transport {
    let timeoutSeconds: Int
    let maximumResponseBytes: Int
    let userAgent: String
    /// Found at the first request: a session that sends none never looks for the helper.
    lazy var helperPath = findHelper()
    private let findHelper: () -> String
    private var channel: FrameChannel?
    private var child: pid_t = 0
    private let lock = NSLock()
    /// Whether the person asked to stop (Ctrl-C at the terminal), set once by the shell: the
    /// helper runs in a process group of its own, so the terminal's Ctrl-C never reaches it,
    /// and a request waiting for it is cancelled by closet instead (the helper is stopped and
    /// started again on the next request).
    nonisolated(unsafe) package static var interruptedAtTerminal: (@Sendable () -> Bool)?
    /// This transport's own check, before the terminal's (tests cancel one transport so).
    package var interrupted: (@Sendable () -> Bool)?

    public init(
        timeoutSeconds: Int, maximumResponseBytes: Int = PreparedRequest.defaultMaximumResponseBytes,
        userAgent: String, helperPath: @escaping @autoclosure () -> String
    ) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumResponseBytes = maximumResponseBytes
        self.userAgent = userAgent
        findHelper = helperPath
    }

    deinit { stop() }

    /// Where the helper is: `$CLOSET_HTTP_HELPER`, else `closet-http` beside this executable.
    package static func defaultHelperPath(environment: [String: String]) -> String {
        if let path = environment["CLOSET_HTTP_HELPER"], !path.isEmpty { return path }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "closet"
        return FilePath.join(FilePath.parent(of: executable), "closet-http")
    }

    public func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        let prepared = PreparedRequest(
            request, timeoutSeconds: timeoutSeconds, userAgent: userAgent, maximumResponseBytes: maximumResponseBytes)
        lock.lock()
        defer { lock.unlock() }
        let channel = try running()
        do {
            try channel.write(WireFormat.encode(prepared))
            // The helper enforces the deadline itself; this margin only catches a helper that hangs.
            let frame = try channel.read(
                deadline: Date().addingTimeInterval(Double(prepared.deadlineSeconds + 5)),
                interrupted: interrupted ?? Self.interruptedAtTerminal)
            guard let result = WireFormat.decodeResult(frame) else {
                stop()
                throw NetworkError.helper("it answered with a frame it should not have")
            }
            // A helper that gave an answer up ends after saying so; the next request starts another.
            if case .failure(.givenUp, _) = result { stop() }
            return try result.get(prepared)
        } catch let error as NetworkError {
            throw error
        } catch FrameChannel.Failure.timedOut {
            stop()
            throw .timedOut(url: prepared.displayURL, seconds: prepared.timeoutSeconds)
        } catch FrameChannel.Failure.interrupted {
            stop()
            throw .cancelled(method: prepared.method, url: prepared.displayURL)
        } catch {
            let status = stop()
            // Ctrl-C at the terminal reaches the helper too: the request was cancelled.
            if status == "signal \(SIGINT)" {
                throw .cancelled(method: prepared.method, url: prepared.displayURL)
            }
            throw .helper("it stopped" + (status.map { " (\($0))" } ?? ""))
        }
    }

    /// The helper's process while one runs (tests stop it as a terminal's Ctrl-C would).
    package var helperProcess: pid_t? { lock.withLock { channel == nil ? nil : child } }

    private func running() throws(NetworkError) -> FrameChannel {
        if let channel {
            // A helper that ended between requests (killed, or a helper of an older build that
            // shared the terminal's Ctrl-C) is started again; only one ending during a request
            // fails it.
            var status: Int32 = 0
            let waited = waitpid(child, &status, WNOHANG)
            // Ended; or gone already, reaped by another waiter in this process (ECHILD).
            guard waited == child || (waited == -1 && errno == ECHILD) else { return channel }
            close(channel.fd)
            self.channel = nil
            child = 0
        }
        guard FileManager.default.isExecutableFile(atPath: helperPath) else {
            throw .helper("no helper program at '\(helperPath)' (build it with 'swift build')")
        }
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw .helper("cannot make a socket: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_addclose(&actions, pair[1])
        // A process group of its own: the terminal's Ctrl-C (sent to the foreground group)
        // cancels what closet runs, not the helper between requests.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let arguments = [helperPath]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, helperPath, &actions, &attributes, argv, environ)
        close(pair[1])
        guard spawned == 0 else {
            close(pair[0])
            throw .helper("cannot start '\(helperPath)': \(String(cString: strerror(spawned)))")
        }
        child = pid
        let channel = FrameChannel(fd: pair[0])
        self.channel = channel
        return channel
    }

    /// Stops the helper (closing its socket ends it) and says how it ended.
    @discardableResult
    private func stop() -> String? {
        guard let channel else { return nil }
        close(channel.fd)
        self.channel = nil
        var status: Int32 = 0
        var waited = waitpid(child, &status, WNOHANG)
        if waited == 0 {
            kill(child, SIGKILL)
            waited = waitpid(child, &status, 0)
        }
        child = 0
        guard waited > 0 else { return nil }
        if status & 0x7f == 0 { return "exit status \((status >> 8) & 0xff)" }
        return "signal \(status & 0x7f)"
    }
}
