import ClosetCore
import ClosetNetwork
import ClosetTables
import Foundation

/// A session: the engine's state between statements (settings, variables, the last listing,
/// failure counts), the installed packs' states, and the store's transactions. Statements
/// run through the evaluator (`Evaluator.swift`) and print through `SessionOutput.swift`.
///
/// Each statement runs inside a savepoint: if it fails, the store is rolled back to it, so a
/// failed statement changes nothing. Committing is the caller's choice: after every statement
/// at the prompt and in `-c` (`executeAndCommit`), once per file for scripts (`runScript`).
public final class Session {
    public struct Settings: Sendable {
        public var format: OutputFormat = .table
        public var echo = false
        package var bail = false
        package var timer = false
        /// Output taller than the terminal goes through a pager (interactive sessions only).
        package var pager = true
        /// Header rows in table, csv, box and markdown output (`.headers`).
        public var headers = true
        /// `.output <file>`: results go to this file instead of standard output.
        public var output: String?
        /// `.width <n>`: tables fit this width whatever the terminal's.
        package var fixedWidth: Int?
        /// The terminal's width, kept by an interactive host (`.width auto` goes back to it).
        package var terminalWidth: Int?
        /// Box-drawn tables, and the terminal width to fit (interactive sessions).
        public var table = TableRenderer()
        /// Colour for errors and table headers: a terminal without `NO_COLOR` only.
        package var color = false
        /// What people read output in (`.lang ko|en`).
        public var language = OutputLanguage.en
        /// `remove` typed at the prompt asks first, as the apps do (`.confirm off`).
        package var confirm = true
        /// Results go nowhere (standard output is /dev/null): skip rendering them, as tar skips
        /// writing an archive to /dev/null. Diagnostics are still printed.
        package var discardResults = false
        /// Output is held until the statement (at the prompt, `-c`, stdin) or the file (`run`)
        /// it belongs to is committed: results are dropped if the commit fails, so nothing is
        /// shown as done until it is. Diagnostics are held with them, so the order is kept.
        package var holdResultsUntilCommit = false
        /// `.pictures`, `--pictures`: how pictures are shown; `auto` is `terminalPictures`.
        public var pictures = PictureMode.auto
        package var pictureSize = PictureSize.medium
        /// What `auto` shows: set by the host where results go to a terminal; off elsewhere.
        package var terminalPictures = PictureMode.off
        /// The terminal's height in rows, and a cell's size in pixels, when the host knows them.
        package var terminalRows: Int?
        package var cellPixels: (width: Int, height: Int)?
        public init() {}
    }

    /// Nested `.read` deeper than this is a loop, not a plan.
    package static let maximumReadDepth = 16

    package var settings: Settings
    /// The store statements work on; `.open` changes it.
    public private(set) var store: Store
    package let registry: CommandRegistry
    /// The last command found by its two words as written (`add <entity>`): a seed script names
    /// the same one 100,000 times, and finding it again hashed both words each time.
    var lastCommand: QuickCommand?
    /// Files a command given as data names instead of paths (a served upload's bytes), for the
    /// statement running now only (`run(_ request: CommandRequest)`).
    var attachments: [String: [UInt8]] = [:]
    /// Whether simple statements may be bound straight from their text (`QuickBinder`); off
    /// only in the tests that hold the two paths to each other.
    package var quickBinding = true
    public let clock: Clock
    public let ids: IDGenerator
    /// `--deterministic`: output must not depend on the machine (timer figures are hidden).
    package let isDeterministic: Bool
    /// Who is at the prompt (`.user`, `--user`, else `$USER`): packs record it as the author
    /// of what is written and allow only authors to remove their own.
    public var user: String
    public let network: Network
    /// Each installed pack's state, in registry order, made when first needed: a statement
    /// pays for the packs it uses (their tables, repositories and caches), not for every
    /// installed one. Nil until made.
    private var states: [(any PackState)?] = []
    /// What a pack's state is made with (the session's store, clock, ids and network).
    private var services: PackServices
    /// Entity kind (singular) → the number of the pack that holds it.
    private var catalogIndex: [String: Int] = [:]

    /// Every installed pack's state (made now if it was not yet); a pack that cannot start on
    /// the store is left out here and fails the statements that need it.
    public var packStates: [any PackState] { registry.packs.indices.compactMap { try? state(ofPack: $0) } }

    /// The state of pack number `number`, made on first use.
    package func state(ofPack number: Int) throws -> any PackState {
        if let made = states[number] { return made }
        let made = try registry.packs[number].makeState(services)
        states[number] = made
        return made
    }

    /// A pack's state, for work done after its command returned (pictures loaded when shown).
    public func state<State: PackState>(_ type: State.Type) -> State? { try? state(type, preferring: { nil }) }

    /// The state of type `State`: already made, or the pack whose command is running, or the
    /// first pack whose state is one.
    package func state<State: PackState>(_ type: State.Type, preferring pack: () -> Int?) throws -> State? {
        for case let made? in states { if let state = made as? State { return state } }
        if let pack = pack(), let state = try state(ofPack: pack) as? State { return state }
        for number in registry.packs.indices where states[number] == nil {
            if let state = try state(ofPack: number) as? State { return state }
        }
        return nil
    }
    public internal(set) var variables = Variables()
    public internal(set) var lastListing: Listing?
    /// The last listing's pictures, row by row (nil: it shows none), for `export picture @N`
    /// and `export pictures`; loaded only when exported.
    var listedPictures: [@Sendable (Session) -> Picture]?
    /// The most recent paged listing (a remote feed), which `next` continues.
    public internal(set) var pagedListing: PagedListing?
    /// The command of the most recent listing when that listing does not page (`list
    /// boxoffice`): `next` says it has no next page rather than continuing an older one.
    public internal(set) var unpagedListing: String?
    /// Set by `.quit`; the host stops feeding statements.
    public internal(set) var quitRequested = false
    /// Set by `.exit <code>`: the process's exit status.
    public internal(set) var exitCode: Int32?
    /// What the app says after a statement succeeds (등록 완료), printed under its result for
    /// people in the session's language; set by the command, cleared before each statement.
    var notice: FieldValue?
    /// While the rc file runs: its problems are warnings, and do not count as failures.
    private(set) var reportsWarnings = false

    /// Runs `body` with every problem reported as a warning that counts as no failure (the rc
    /// file: a person's settings must not make every run fail).
    package func reportingWarnings(_ body: () -> Void) {
        let failures = failureCount
        reportsWarnings = true
        defer {
            reportsWarnings = false
            failureCount = failures
        }
        body()
    }
    /// Rows the last statement changed (`.changes`).
    public internal(set) var lastChanges = 0
    /// `.once <file>`: the next statement's results go there.
    var onceOutput: String?
    /// The file the running statement's results go to (`.once`, else `.output`).
    var outputFile: String?
    /// The `.output`/`.once` file a write to failed: the rest of that statement's results are
    /// not written to it (a gap would follow). Cleared when a file is named again.
    var failedOutputFile: String?
    /// Set when Ctrl-C stopped a script; every enclosing `.read` stops too. The prompt clears it.
    package var interrupted = false
    /// Statements that failed so far (the host's exit status depends on it).
    public internal(set) var failureCount = 0
    /// Statements that failed because the store's write lock could not be had (or the store
    /// became unwritable): a script then exits with status 3, as for a store that cannot open.
    public internal(set) var storeBusyFailures = 0
    /// The text of the statement running now (`.shell` passes its words on as typed).
    var currentSourceText = ""
    /// The statement running now (or last), so a host can tell which one printed what.
    public private(set) var currentStatement: StatementLocation?
    unowned let host: SessionHost
    var readDepth = 0
    /// Output written since the last commit while results are held, in order.
    var heldOutput: [(text: String, channel: OutputChannel, file: String?)] = []
    /// Bytes in `heldOutput`. Past `maximumHeldBytes` the output of a huge file is written as
    /// it comes (memory stays bounded; its commit is still reported if it fails).
    var heldBytes = 0
    /// How many times held output was written out: a script's mark into `heldOutput` is only
    /// good while this has not changed.
    var heldReleases = 0
    package static let maximumHeldBytes = 64 << 20

    var references: References { References(session: self) }

    /// Makes every installed pack's state over the store (a pack that cannot start, say
    /// because the store is not one it can use, fails the session).
    package init(
        store: Store, host: SessionHost, registry: CommandRegistry, settings: Settings = Settings(),
        clock: Clock = SystemClock(), ids: IDGenerator = RandomIDGenerator(), isDeterministic: Bool = false,
        network: Network = .offline(), cacheRoot: String? = nil, user: String = "me"
    ) throws {
        self.user = user
        self.store = store
        self.host = host
        self.settings = settings
        self.registry = registry
        self.clock = clock
        self.ids = ids
        self.isDeterministic = isDeterministic
        self.network = network
        let userBox = UserBox()
        self.userBox = userBox
        services = PackServices(
            store: store, clock: clock, ids: ids, network: network, cacheRoot: cacheRoot,
            user: { [userBox] in userBox.session?.user ?? "me" })
        states = Array(repeating: nil, count: registry.packs.count)
        for (number, pack) in registry.packs.enumerated() {
            for kind in pack.entityKinds { catalogIndex[kind.singular] = number }
        }
        userBox.session = self
    }

    private let userBox: UserBox

    /// `.open`: works on another store from now on. Every pack starts over on it; variables
    /// and listings name the old store's rows, so they are cleared. If a pack cannot start
    /// on the new store, nothing changes (every pack is made here, to know).
    func open(_ newStore: Store, cacheRoot: String?) throws {
        let newServices = PackServices(
            store: newStore, clock: clock, ids: ids, network: network, cacheRoot: cacheRoot,
            user: { [userBox] in userBox.session?.user ?? "me" })
        let made = try registry.packs.map { try $0.makeState(newServices) }
        store = newStore
        services = newServices
        states = made
        variables = Variables()
        lastListing = nil
        listedPictures = nil
        pagedListing = nil
        unpagedListing = nil
    }

    /// Scripts running now (`run`, `.read`): `.open` is refused inside one, which is a
    /// single transaction on one store.
    var scriptDepth = 0

    /// The state of the pack that holds a kind of entity.
    package func catalog(for kind: EntityKind) -> EntityCatalog? {
        catalogIndex[kind.singular].flatMap { try? state(ofPack: $0) }
    }

    /// How many of each stored entity kind there are, across packs (`.store`, the banner).
    package var entityCounts: [(EntityKind, Int)] { packStates.flatMap(\.counts) }

    /// The counts a one-line summary names (the banner, a dump's first line): each pack
    /// that holds something, or the first pack's when the store is empty. So a store of one
    /// app reads the same whatever other packs are installed.
    package var summaryCounts: [(EntityKind, Int)] {
        let perPack = packStates.map(\.counts).filter { !$0.isEmpty }
        let holding = perPack.filter { $0.contains { $0.1 > 0 } }
        return (holding.isEmpty ? Array(perPack.prefix(1)) : holding).flatMap { $0 }
    }

    // MARK: running statements

    /// Runs one statement and reports whether it succeeded (blank and comment lines succeed).
    /// `origin` names the file for diagnostics (`seed.closet:12:5:`); nil at the prompt.
    @discardableResult
    package func execute(_ source: StatementSource, origin: String? = nil) -> Bool {
        guard let blanked = source.mustFailBlanked else {
            let succeeded = execute(source, shown: source, origin: origin)
            if !succeeded { unmarkedFailures.append(StatementLocation(origin: origin, line: source.firstLine)) }
            return succeeded
        }
        // `! statement`: its failure is what was expected (not counted); its success is one,
        // and what it did is undone.
        let failures = failureCount
        let savepoint = store.savepoint()
        guard execute(blanked, shown: source, origin: origin) else {
            failureCount = failures
            return true
        }
        store.rollback(to: savepoint)
        report(Diagnostic.expectedToFail, source: source, origin: origin)
        markedSuccesses.append(StatementLocation(origin: origin, line: source.firstLine))
        failureCount += 1
        return false
    }

    /// Statements that failed without a `!` (the golden runner's `--update` names each: an
    /// error recorded by accident is then seen).
    public private(set) var unmarkedFailures: [StatementLocation] = []
    /// Statements marked `!` that succeeded: a golden test with one fails, whatever its text.
    public private(set) var markedSuccesses: [StatementLocation] = []

    private func execute(_ source: StatementSource, shown: StatementSource, origin: String?) -> Bool {
        currentStatement = StatementLocation(origin: origin, line: source.firstLine)
        currentSourceText = source.text
        // A seed script's statements are bound straight from their text when they can be
        // (`QuickBinder`); the rest are parsed. Only inside a transaction that has written:
        // no other process's commits are brought in before such a statement (it holds the
        // lock), so binding it now reads what binding it after that would.
        var quick =
            quickBinding && store.tables.hasPendingChanges ? QuickBinder.invocation(source.text, session: self) : nil
        var statement: Statement?
        if quick == nil {
            do {
                statement = try Parser.parse(source.text, examples: registry.syntaxExamples)
            } catch {
                echo(shown)
                report(error, source: shown, origin: origin)
                failureCount += 1
                return false
            }
            guard statement != nil else { return true }
        }
        echo(shown)
        // `.once` applies to the statement after it; `.output` to every one.
        outputFile = onceOutput ?? settings.output
        let isOnceTarget = onceOutput != nil
        defer {
            if isOnceTarget { onceOutput = nil }
            outputFile = settings.output
        }

        // Timed only if the timer was on when the statement began (`.timer on` itself is not).
        let timed = settings.timer
        let started = timed ? host.monotonicSeconds() : 0
        // Between transactions, see what other processes committed first.
        if !store.tables.hasPendingChanges {
            do throws(StoreError) {
                try store.refresh()
            } catch {
                report(Diagnostic.storeFailed(error, at: nil), source: shown, origin: origin)
                failureCount += 1
                return false
            }
        }
        let savepoint = store.savepoint()
        let isDot = statement?.isDot ?? false
        defer {
            // As sqlite3's: dot commands leave it alone (`.changes` reports the statement before
            // it; after `.read`, the script's last statement).
            if !isDot { lastChanges = max(0, store.savepoint().position - savepoint.position) }
        }
        // Another process may commit between this statement's reads and its first write:
        // the store says so, and the statement runs again on the new state, under the lock.
        let remoteWritesBefore = network.remoteWrites
        do {
            let outcome = try store.retryingConflicts(
                from: savepoint, unit: "statement",
                refusal: {
                    // Running it again would repeat what a server already did.
                    network.remoteWrites == remoteWritesBefore
                        ? nil
                        : "another process changed the store while this statement ran; its remote writes were made, nothing of it was kept here"
                },
                attempt: { again in
                    notice = nil
                    if again, quick != nil {
                        // Bound again the general way, on the new state.
                        quick = nil
                        statement = try Parser.parse(source.text, examples: registry.syntaxExamples)
                    }
                    if let quick { return try perform(quick) }
                    if let statement { return try evaluate(statement) }
                    return Outcome.nothing
                })
            print(outcome)
            printNotice()
        } catch {
            if let failure = error as? StoreWriteFailure {
                if failure.busy { storeBusyFailures += 1 }
                // About the statement as a whole: its line is named, nothing is marked.
                report(Diagnostic.storeFailed(failure.error, at: nil), source: shown, origin: origin)
            } else {
                report(error, source: shown, origin: origin)
            }
            failureCount += 1
            return false
        }
        // Statements are timed, not dot commands (as sqlite3's `.timer`).
        if timed, settings.timer, !isDot { printTime(since: started) }
        return true
    }

    /// A statement at the prompt or in `-c`: on success it is committed before returning.
    @discardableResult
    package func executeAndCommit(_ source: StatementSource, origin: String? = nil) -> Bool {
        let savepoint = store.savepoint()
        guard execute(source, origin: origin) else {
            releaseHeldOutput()
            return false
        }
        do {
            try store.commit()
            releaseHeldOutput()
            return true
        } catch {
            store.rollback(to: savepoint)
            dropHeldResults()
            report(Diagnostic.couldNotSave(error), source: nil, origin: nil)
            releaseHeldOutput()
            failureCount += 1
            return false
        }
    }

    package struct ScriptResult: Sendable, Equatable {
        public var failures = 0
        /// `--bail` or Ctrl-C stopped the script, and it was rolled back.
        package var stopped = false
        package var statements = 0
    }

    /// Runs a script as one transaction (SPEC §8): failing statements are reported and
    /// skipped, the rest commits at the end; with bail on, the first failure stops the script
    /// and nothing of it is kept.
    @discardableResult
    package func runScript(_ text: String, name: String) -> ScriptResult {
        scriptDepth += 1
        defer { scriptDepth -= 1 }
        let savepoint = store.savepoint()
        let heldMark = (count: heldOutput.count, releases: heldReleases)
        let remoteWritesBefore = network.remoteWrites
        var result = ScriptResult()
        var assembler = LineAssembler()
        var lineNumber = 0
        var stop = false

        func run(_ source: StatementSource) {
            if interrupted || host.interruptRequested() {
                // Ctrl-C: stop here, keep nothing of this script (an enclosing one stops too).
                if !interrupted {
                    writeOutput(
                        "interrupted: stopped '\(TerminalText.visible(name))' before line \(source.firstLine); nothing of it was kept\n",
                        to: .standardError)
                }
                interrupted = true
                stop = true
                return
            }
            result.statements += 1
            if !execute(source, origin: name) {
                result.failures += 1
                if settings.bail { stop = true }
            }
            if quitRequested { stop = true }
        }

        text.forEachScriptLine { line in
            lineNumber += 1
            if let source = assembler.add(line, lineNumber: lineNumber) { run(source) }
            return !stop
        }
        if !stop, let rest = assembler.finish() { run(rest) }

        if stop, interrupted || (result.failures > 0 && settings.bail) {
            store.rollback(to: savepoint)
            result.stopped = true
            let resultsShown =
                !interrupted
                && heldOutput[min(heldMark.count, heldOutput.count)...].contains {
                    $0.channel == .standardOutput
                }
            if !interrupted {
                writeOutput(
                    "note: '\(TerminalText.visible(name))' stopped at its first error (bail); nothing of it was kept\(resultsShown ? " (the results above were undone)" : "")\n",
                    to: .standardError)
            }
            // A remote server's writes are not in the store's hands.
            let remote = network.remoteWrites - remoteWritesBefore
            if remote > 0 {
                writeOutput(
                    "note: \(remote) remote write\(remote == 1 ? " was" : "s were") made before it stopped and cannot be undone\n",
                    to: .standardError)
            }
            // Ctrl-C: results of a file that was undone are not shown (its errors still are).
            // Bail shows the results before the failing statement, as sqlite3's -bail does,
            // and the note after them says they were undone.
            if interrupted {
                let mark = heldMark.releases == heldReleases ? min(heldMark.count, heldOutput.count) : 0
                heldOutput = Array(heldOutput[..<mark]) + heldOutput[mark...].filter { $0.channel == .standardError }
                heldBytes = heldOutput.reduce(0) { $0 + $1.text.utf8.count }
            }
        }
        return result
    }

    /// Commits what the scripts and statements so far did; for the host to call at the end
    /// of a `run` file. Reports and returns false if the store could not save.
    public func commit() -> Bool {
        do {
            try store.commit()
            releaseHeldOutput()
            return true
        } catch {
            // Undone whole, so the store lets go of its write lock (and its pid file) now, not
            // at exit.
            store.rollback(to: Savepoint(position: 0))
            dropHeldResults()
            report(Diagnostic.couldNotSave(error), source: nil, origin: nil)
            releaseHeldOutput()
            failureCount += 1
            return false
        }
    }
}

/// The prompts, shared by the echo of scripts and the interactive line editor.
package enum Prompt {
    package static let primary = "closet> "
    public static let continuation = "   ...> "
}

/// A failure whose cause was already printed (a script `.read` stopped by `--bail`): it
/// fails the statement without a second message.
struct AlreadyReported: Error {}

/// A statement's file (nil at the prompt) and first line.
public struct StatementLocation: Hashable, Sendable {
    package var origin: String?
    public var line: Int
}

/// Lets pack states ask who the user is without holding the session.
final class UserBox {
    weak var session: Session?
}
