import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetServer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT and SIGTERM: the server stops at its next turn (a quarter of a second at most).
nonisolated(unsafe) private var serveStopRequested: sig_atomic_t = 0

/// `closet serve`: the installed packs' APIs (`Pack.served`) over HTTP, answered from the store
/// the prompt uses, each request one transaction (`Session.serving`), so a change made at a
/// prompt in another terminal is what the next request sees. One line per request on standard
/// output (method, path, status, time) unless `--quiet`; Ctrl-C or SIGTERM stops it cleanly.
enum ServeCommand {
    static func run(_ serve: ServeOptions, _ options: Options, environment: [String: String])
        -> ClosetCommand.ExitStatus
    {
        if serve.help {
            ProcessHost.writeAll(Array((ServeOptions.help + "\n").utf8), to: STDOUT_FILENO)
            return .success
        }
        let registry = InstalledPacks.registry
        var apis: [ServedAPI] = []
        for name in serve.packs {
            guard let pack = registry.packs.first(where: { $0.name == name.lowercased() }) else {
                ClosetCommand.complain(
                    "error: no pack is named '\(name)'; installed: \(registry.packs.map(\.name).joined(separator: ", "))"
                )
                return .usage
            }
            guard !pack.served.isEmpty else {
                ClosetCommand.complain("error: the \(pack.name) pack serves no API")
                return .usage
            }
            apis += pack.served
        }
        if serve.packs.isEmpty { apis = registry.packs.flatMap(\.served) }
        // The pictures the replaying APIs' answers name, from the store or the recordings.
        if apis.contains(where: { $0.picture != nil }) { apis.append(ServedPictures.api(asking: apis)) }

        let store: Store
        do throws(StoreOpenError) {
            store = try ClosetCommand.openStore(options.store, options, environment: environment).store
        } catch {
            ClosetCommand.complain("error: \(error.description)")
            return .store
        }
        let host = ProcessHost()
        let session: Session
        do {
            session = try SessionFactory.makeSession(
                store: store, host: host, ClosetCommand.configuration(options, environment: environment))
        } catch {
            ClosetCommand.complain("error: \(error)")
            return .store
        }

        var configuration = HTTPServer.Configuration()
        configuration.host = serve.host
        configuration.port = serve.port
        configuration.requestTimeout = serve.requestTimeout
        configuration.maximumConnections = serve.maximumConnections
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(serve.host)
        var baseURL = ""
        let cache = ServedReadCache(storeFolder: store.location == ":memory:" ? nil : store.location)
        var faults = ServeFaults(serve)
        var recordings: ServedRecordings?
        if !serve.replay.isEmpty {
            do throws(NetworkError) {
                var all: [String: Recording] = [:]
                for folder in serve.replay {
                    all.merge(try RecordingFolder(path: ScriptFile.expandingTilde(folder)).load()) { first, _ in first }
                }
                recordings = ServedRecordings(all)
            } catch {
                ClosetCommand.complain("error: \(error.message)")
                return .failure
            }
        }
        var log: ServeLog?
        if let path = serve.log {
            do {
                log = try ServeLog(path: ScriptFile.expandingTilde(path))
            } catch {
                ClosetCommand.complain("error: \(error)")
                return .failure
            }
        }
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration) { request in
                let draw = faults.isNone ? ServeFaults.Draw() : faults.draw()
                return answer(
                    request, apis: apis, session: session, baseURL: baseURL, recordings: recordings,
                    quiet: serve.quiet, cache: cache, draw: draw, log: log)
            }
        } catch {
            ClosetCommand.complain("error: \(error.description)")
            return .failure
        }
        let shownHost = serve.host.contains(":") ? "[\(serve.host)]" : serve.host
        baseURL = "http://\(shownHost):\(server.port)"
        if !loopback {
            ClosetCommand.complain(
                "warning: serving on \(serve.host), not only this machine: anyone who can reach it can read and change the store"
            )
        }
        signal(SIGINT) { _ in serveStopRequested = 1 }
        signal(SIGTERM) { _ in serveStopRequested = 1 }
        // A parent may have started us with these blocked (a test runner's thread does): they
        // must arrive.
        var stopping = sigset_t()
        sigemptyset(&stopping)
        sigaddset(&stopping, SIGINT)
        sigaddset(&stopping, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
        let names = apis.map(\.name).joined(separator: ", ")
        say("closet serve: \(baseURL) · store \(store.location) · \(names) · Ctrl-C to stop")
        server.run { serveStopRequested != 0 }
        say("closet serve: stopped")
        return .success
    }

    static func say(_ line: String) {
        ProcessHost.writeAll(Array((TerminalText.visible(line) + "\n").utf8), to: STDOUT_FILENO)
    }

    /// The first API that claims the request answers it, in one transaction; an error is the
    /// server's own 500 (or 503 when the store is busy), never a trap.
    static func answer(
        _ request: ServedRequest, apis: [ServedAPI], session: Session, baseURL: String,
        recordings: ServedRecordings? = nil, quiet: Bool, cache: ServedReadCache,
        draw: ServeFaults.Draw = ServeFaults.Draw(), log: ServeLog? = nil
    ) -> HTTPServer.Answer {
        let started = quiet && log == nil ? 0 : ProcessHost.monotonicNow()
        let context = ServedContext(session: session, baseURL: baseURL, recordings: recordings)
        var response: HTTPResponse
        var cut: ServedCut?
        if draw.fail {
            // Instead of running it: nothing of it is done.
            response =
                apis.lazy.compactMap { $0.failure(request) }.first
                ?? HTTPResponse.text("failed on purpose (--fail)\n", status: 500)
        } else if let kept = cache.answer(for: request) {
            response = kept
        } else {
            (response, cut) = fresh(request, apis: apis, session: session, context: context, cache: cache)
        }
        if !quiet || log != nil {
            let milliseconds = (ProcessHost.monotonicNow() - started) * 1000 + draw.delay * 1000
            // A recorded failure given as recorded is said as a fault is.
            let names = draw.names + (cut.map { [$0 == .midBody ? "cut mid-body" : "closed unanswered"] } ?? [])
            if !quiet {
                let faults = names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")"
                say(
                    "\(request.method) \(request.path) \(response.status) \(String(format: "%.1f", milliseconds)) ms"
                        + faults)
            }
            log?.write(request, status: response.status, milliseconds: milliseconds, faults: names)
        }
        return HTTPServer.Answer(
            response, dropMidBody: draw.drop || cut == .midBody, closeWithoutAnswer: cut == .withoutAnswer,
            delay: draw.delay)
    }

    /// The answer, or the recorded failure it breaks off as (`ServedCut`).
    static func fresh(
        _ request: ServedRequest, apis: [ServedAPI], session: Session, context: ServedContext, cache: ServedReadCache
    ) -> (HTTPResponse, ServedCut?) {
        var response: HTTPResponse
        var cacheable = false
        do {
            response =
                try session.serving {
                    for api in apis {
                        if let response = try api.answer(request, context) {
                            cacheable = api.readsOnlyTheStore
                            return response
                        }
                    }
                    return nil
                }
                ?? HTTPResponse.text("no API served here answers \(request.path)\n", status: 404)
        } catch let cut as ServedCut {
            // Something of a body to cut half-way through: a client sees an answer break off.
            let body = Data(("{" + String(repeating: " ", count: 62) + "}").utf8)
            return (
                HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: body), cut
            )
        } catch let error as StoreError {
            response = HTTPResponse.text("the store cannot be used now: \(error.description)\n", status: 503)
        } catch let error as any LocalizedMessage {
            response = HTTPResponse.text(error.message + "\n", status: 400)
        } catch {
            response = HTTPResponse.text("\(error)\n", status: 500)
        }
        if cacheable { cache.keep(response, for: request) }
        return (response, nil)
    }
}
