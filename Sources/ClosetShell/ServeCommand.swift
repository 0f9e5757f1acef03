import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetServer
import ClosetServing
import ClosetStore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT and SIGTERM: the server stops at its next turn (a quarter of a second at most).
nonisolated(unsafe) private var serveStopRequested: sig_atomic_t = 0

/// `closet serve`: the installed packs' APIs (`InstalledPacks.installed`) over HTTP, answered from the store
/// the prompt uses, each request one transaction (`Session.serving`) on a worker's session
/// (`ServeHandler`), so a change made at a prompt in another terminal is what the next request
/// sees. One line per request on standard output (method, path, status, time) unless
/// `--quiet`; Ctrl-C or SIGTERM stops it cleanly.
enum ServeCommand {
    static func run(_ serve: ServeOptions, _ options: Options, environment: [String: String])
        -> ClosetCommand.ExitStatus
    {
        if serve.help {
            ProcessHost.writeAll(Array((ServeOptions.help + "\n").utf8), to: STDOUT_FILENO)
            return .success
        }
        let installed = InstalledPacks.installed
        var apis: [ServedAPI] = []
        for name in serve.packs {
            guard let pack = installed.first(where: { $0.pack.name == name.lowercased() }) else {
                ClosetCommand.complain(
                    "error: no pack is named '\(name)'; installed: \(installed.map(\.pack.name).joined(separator: ", "))"
                )
                return .usage
            }
            guard !pack.apis.isEmpty else {
                ClosetCommand.complain("error: the \(pack.pack.name) pack serves no API")
                return .usage
            }
            apis += pack.apis
        }
        if serve.packs.isEmpty { apis = installed.flatMap(\.apis) }
        var throughBases: [String: String] = [:]
        for through in serve.through {
            let live = apis.filter { $0.live != nil }
            if through.api == "all" {
                for api in live { throughBases[api.name] = api.live }
                continue
            }
            guard live.contains(where: { $0.name == through.api }), let base = through.base else {
                ClosetCommand.complain(
                    "error: '--through' names no API answered from recordings: '\(through.api)'; these are: \(live.map(\.name).joined(separator: ", "))"
                )
                return .usage
            }
            throughBases[through.api] = base.hasSuffix("/") ? String(base.dropLast()) : base
        }
        if serve.record != nil, throughBases.isEmpty {
            ClosetCommand.complain(
                "error: '--record' keeps what '--through' fetches; give --through <api>=<url> or all")
            return .usage
        }
        // The pictures the replaying APIs' answers name, from the store or the recordings.
        if apis.contains(where: { $0.picture != nil }) { apis.append(ServedPictures.api(asking: apis)) }

        let store: Store
        do throws(StoreOpenError) {
            store = try ClosetCommand.openStore(options.store, options, environment: environment).store
        } catch {
            ClosetCommand.complain("error: \(error.description)")
            return .store
        }
        // The served store's writer compacts in the background: no request waits for a rewrite,
        // nor, on few cores, for the thread that makes it (it runs below the writes' lane).
        store.compactInBackground()
        (store as? DurableStore)?.backgroundThreadStarts = { HTTPServer.lowerThisThreadsPriority(by: 19) }
        var sessionConfiguration = ClosetCommand.configuration(options, environment: environment)
        let today = serve.today ?? serve.replay.first.flatMap { ClosetCommand.recordedDay(in: $0) }
        if let today { sessionConfiguration.today = today }
        let busyTimeout = options.busyTimeout ?? DurableStore.defaultBusyTimeout
        let inMemory = store.location == ":memory:"
        // Another session on the served store: a reader of its own (or, for the writes' lane,
        // a new writer after the first met damage). A store in memory cannot be opened twice.
        var first: Store? = store
        let make: (Int) throws -> (Session, SessionHost) = { _ in
            let host = ProcessHost()
            // The first session is the writes' lane's, on the store just opened.
            if let opened = first {
                first = nil
                return (try SessionFactory.makeSession(store: opened, host: host, sessionConfiguration), host)
            }
            guard !inMemory else { throw StoreError("a store in memory cannot be opened again") }
            let opened = try SessionFactory.durableStore(at: store.location, busyTimeout: busyTimeout) { notice in
                ClosetCommand.complain("closet: \(notice)")
            }
            return (try SessionFactory.makeSession(store: opened, host: host, sessionConfiguration), host)
        }
        // The writes' lane has one session; the reads' lane a reader of its own for each
        // worker (a store in memory has one session only, so it is served from the one lane).
        let lanes = inMemory ? [1] : [1, serve.workers]
        let sessions: ServeSessions
        do {
            sessions = try ServeSessions(lanes: lanes, make: make)
        } catch let error as StoreOpenError {
            ClosetCommand.complain("error: \(error.description)")
            return .store
        } catch {
            ClosetCommand.complain("error: \(error)")
            return .store
        }

        var configuration = HTTPServer.Configuration()
        configuration.host = serve.host
        configuration.port = serve.port
        configuration.requestTimeout = serve.requestTimeout
        configuration.idleTimeout = serve.idleTimeout
        configuration.maximumConnections = serve.maximumConnections
        configuration.maximumConnectionsPerAddress = serve.maximumConnectionsPerAddress
        configuration.maximumHeldBytes = serve.maximumHeldBytes
        configuration.limits.bodyBytes = serve.maximumBodyBytes
        configuration.limits.headerBytes = serve.maximumHeaderBytes
        configuration.lanes = lanes
        // Writes (password hashing) yield to reads, where reads have a lane of their own.
        if lanes.count > 1 { configuration.yieldingLanes = [ServeHandler.writeLane] }
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(serve.host)
        let cache = ServedReadCache(
            storeFolder: store.location == ":memory:" ? nil : store.location, maximumBytes: serve.answerCacheBytes)
        var recordings: ServedRecordings? = throughBases.isEmpty ? nil : ServedRecordings([:])
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
        var through: ServedThrough?
        if !throughBases.isEmpty {
            var live = sessionConfiguration
            live.network = serve.record.map { .record(folder: ScriptFile.expandingTilde($0)) } ?? .live
            do throws(NetworkError) {
                // One made now, so a folder `--record` cannot write is said before serving.
                through = ServedThrough(bases: throughBases, first: try SessionFactory.network(live).transport) {
                    () throws(NetworkError) -> Transport in try SessionFactory.network(live).transport
                }
            } catch {
                ClosetCommand.complain("error: \(error.message)")
                return .failure
            }
        }
        let handler = ServeHandler(
            apis: apis, sessions: sessions, recordings: recordings, cache: cache, log: log, options: serve,
            today: sessionConfiguration.today, through: through)
        let server: HTTPServer
        do throws(HTTPServer.StartError) {
            server = try HTTPServer(configuration, refusal: handler.refusal) { handler.dispatch($0) }
        } catch {
            ClosetCommand.complain("error: \(error.description)")
            return .failure
        }
        let shownHost = serve.host.contains(":") ? "[\(serve.host)]" : serve.host
        let baseURL = "http://\(shownHost):\(server.port)"
        server.awoke = { cache.look() }
        handler.retire = { server.retireWorker(answering: $0) }
        handler.retiredWorkers = { server.retiredWorkers }
        // Without a `Host` (HTTP/1.0), an answer's URLs name an address a client can reach.
        handler.listenBase =
            ["0.0.0.0", "::"].contains(serve.host) ? "http://127.0.0.1:\(server.port)" : baseURL
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
        // Without recordings (and no --through) a replaying API answers nothing: said so.
        let unanswered = serve.replay.isEmpty && serve.through.isEmpty ? apis.filter { $0.live != nil } : []
        var names = apis.filter { api in !unanswered.contains { $0.name == api.name } }.map(\.name)
            .joined(separator: ", ")
        if !unanswered.isEmpty {
            names += " (\(unanswered.map(\.name).joined(separator: ", ")) answer with --replay <folder>)"
        }
        let day = sessionConfiguration.today.map { " · today " + String(Timestamp.format($0).prefix(10)) } ?? ""
        say("closet serve: \(baseURL) · store \(store.location) · \(names)\(day) · Ctrl-C to stop")
        server.run { serveStopRequested != 0 }
        // A compaction still running is named now (its snapshot spares the next open a replay).
        if server.isIdle { store.finishBackgroundWork() }
        say("closet serve: stopped")
        return .success
    }

    private static let sayLock = NSLock()

    /// One whole line on standard output (workers say theirs as they finish).
    static func say(_ line: String) {
        let bytes = Array((TerminalText.visible(line) + "\n").utf8)
        sayLock.lock()
        ProcessHost.writeAll(bytes, to: STDOUT_FILENO)
        sayLock.unlock()
    }
}
