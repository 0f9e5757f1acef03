import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetStore
import ClosetTables
import Foundation

/// The one place sessions are made: the command line, the golden runner, the tests and the
/// fuzzer all come here, so packs, stores, clocks and ids are wired the same way everywhere.
package enum SessionFactory {
    /// How a session is set up beyond its store and host.
    package struct Configuration {
        package var settings = Session.Settings()
        /// `--deterministic`: a stepping clock from 2024-01-01 and seeded ids.
        public var deterministic = false
        package var seed: UInt64 = 0
        /// `--today` (or the replayed folder's `today` file): the day the clock starts on.
        package var today: Date?
        package var registry = InstalledPacks.registry
        /// Where requests go: live (the default), off, replayed or recorded.
        public var network = NetworkMode.live
        /// `--timeout`: whole seconds without progress before a request is given up.
        package var timeoutSeconds = 10
        /// `--max-response`: the most bytes an answer's body may have.
        package var maximumResponseBytes = PreparedRequest.defaultMaximumResponseBytes
        /// `--user`; else `$USER`; `tester` in golden tests, so they read the same everywhere.
        public var user: String?
        /// Base URLs (`CLOSET_*_URL`), keys and `CLOSET_HTTP_HELPER`.
        package var environment: [String: String] = [:]

        public init() {}

        /// What golden tests run with: deterministic, echoing, seed 0.
        package static var golden: Configuration {
            var configuration = Configuration()
            configuration.deterministic = true
            configuration.settings.echo = true
            configuration.user = "tester"
            configuration.network = .offline(
                reason: "in golden tests (put recordings in an 'http' folder beside the test)")
            return configuration
        }
    }

    /// Every table of the installed packs: the store opens with them, so rows written in an
    /// older format can be read.
    public static var tables: [AnyTableSchema] { InstalledPacks.all.flatMap(\.tables) }

    /// A store kept in memory (`:memory:`).
    package static func memoryStore() -> Store { MemoryStore(tables) }

    /// The durable store in a directory, created on first use. `report` receives notices
    /// (a torn transaction dropped from the journal's end).
    package static func durableStore(
        at path: String, busyTimeout: Double = DurableStore.defaultBusyTimeout, report: @escaping (String) -> Void
    ) throws(StoreOpenError) -> Store {
        do {
            return try DurableStore(path: path, tables: tables, busyTimeout: busyTimeout, report: report)
        } catch {
            throw StoreOpenError(description: error.description)
        }
    }

    /// Where a session's requests go.
    package enum NetworkMode: Equatable, Sendable {
        case live
        /// Nothing leaves the process; `reason` says why in each error: `(--offline)`.
        case offline(reason: String)
        case replay(folder: String)
        case record(folder: String)
    }

    /// The transport for a configuration. A replay folder is read now, so a bad one is
    /// reported before any statement runs.
    public static func network(_ configuration: Configuration) throws(NetworkError) -> Network {
        func live() -> Transport {
            HelperTransport(
                timeoutSeconds: configuration.timeoutSeconds,
                maximumResponseBytes: configuration.maximumResponseBytes, userAgent: "closet/\(ClosetCommand.version)",
                helperPath: HelperTransport.defaultHelperPath(environment: configuration.environment))
        }
        let transport: Transport
        let mode: String
        // A folder by its name only: `.show` in a golden must not name the machine.
        switch configuration.network {
        case .live:
            transport = live()
            mode = "live"
        case .offline(let reason):
            transport = OfflineTransport(reason: reason)
            mode = "offline " + reason
        case .replay(let folder):
            transport = try ReplayTransport(folder: RecordingFolder(path: folder))
            mode = "replay from " + folder
        case .record(let folder):
            transport = RecordingTransport(live(), into: RecordingFolder(path: folder))
            mode = "live, recorded into " + folder
        }
        return Network(transport: transport, environment: configuration.environment, mode: mode)
    }

    /// `$XDG_CACHE_HOME/closet`, else `~/.cache/closet`: where packs keep caches between
    /// sessions of a durable store.
    static func cacheRoot(_ environment: [String: String]) -> String? {
        if let folder = environment["XDG_CACHE_HOME"], folder.hasPrefix("/") { return folder + "/closet" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache/closet"
    }

    package static func makeSession(
        store: Store, host: SessionHost, _ configuration: Configuration = Configuration()
    ) throws -> Session {
        let clock: Clock =
            switch (configuration.deterministic, configuration.today) {
            case (true, let today): SteppingClock(start: today ?? SteppingClock.start)
            case (false, let today?): DayClock(today: today)
            case (false, nil): SystemClock()
            }
        let ids: IDGenerator =
            configuration.deterministic ? SeededIDGenerator(seed: configuration.seed) : RandomIDGenerator()
        return try Session(
            store: store, host: host, registry: configuration.registry, settings: configuration.settings,
            clock: clock, ids: ids, isDeterministic: configuration.deterministic, network: network(configuration),
            cacheRoot: store.location == ":memory:" ? nil : cacheRoot(configuration.environment),
            user: configuration.user ?? configuration.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "me")
    }
}

/// Why a store could not be opened: exit status 3.
package struct StoreOpenError: Error, CustomStringConvertible {
    public var description: String
}
