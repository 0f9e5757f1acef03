import ClosetCore
import ClosetNetwork
import ClosetTables
import Foundation

/// A session: the engine's state between statements (settings, variables, the last listing,
/// failure counts), the installed packs' states, and the store's transactions. Statements
/// run through the evaluator (`Evaluator`) and print through `SessionOutput`; the packs'
/// states are `PackStates`.
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
        /// `.redact <field>...`: fields shown as `[id]`, `[time]` or `[field]` in every result.
        package var redacted: [String] = []
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
        /// A long-lived session (the prompt): its stores compact in the background, so a
        /// statement never waits for a snapshot's rewrite (`TransactionalStore.compactInBackground`).
        package var compactsInBackground = false
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
    /// The command of the last request given as data, with its keys' places (`RequestBinder`).
    var lastRequest: RequestBinder?
    /// Files a command given as data names instead of paths (a served upload's bytes), for the
    /// statement running now only (`run(_ request: CommandRequest)`).
    var attachments: [String: [UInt8]] = [:]
    /// Whether simple statements may be bound straight from their text (`QuickBinder`), and
    /// requests straight from their arguments (`RequestBinder`); off
    /// only in the tests that hold the two paths to each other.
    package var quickBinding = true
    /// Scripts this long (bytes) or longer are split into statements, and those read, on a
    /// second thread (`ScriptReadAhead`); tests lower it to hold the two ways to each other.
    package var readsScriptsAheadFrom = ScriptReadAhead.smallestScript
    public let clock: Clock
    public let ids: IDGenerator
    /// `--deterministic`: output must not depend on the machine (timer figures are hidden).
    package let isDeterministic: Bool
    /// Who is at the prompt (`.user`, `--user`, else `$USER`): packs record it as the author
    /// of what is written and allow only authors to remove their own.
    public var user: String { didSet { userBox.user = user } }
    public let network: Network
    /// Each installed pack's state, made when first needed.
    package let packs: PackStates

    /// A pack's state, for work done after its command returned (pictures loaded when shown).
    public func state<State: PackState>(_ type: State.Type) -> State? {
        try? packs.state(type, preferring: { nil })
    }
    public internal(set) var variables = Variables()
    /// The last listing (`@N`), its pictures, and what `next` continues.
    var listings = Listings()
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
        let failures = tally.failures
        reportsWarnings = true
        defer {
            reportsWarnings = false
            tally.failures = failures
        }
        body()
    }
    /// Rows the last statement changed (`.changes`).
    public internal(set) var lastChanges = 0
    /// Set when Ctrl-C stopped a script; every enclosing `.read` stops too. The prompt clears it.
    package var interrupted = false
    /// The text of the statement running now (`.shell` passes its words on as typed).
    var currentSourceText = ""
    /// The statement running now (or last), so a host can tell which one printed what.
    public private(set) var currentStatement: StatementLocation?
    unowned let host: SessionHost
    var readDepth = 0

    var references: References { References(session: self) }
    /// What the statements so far came to: failures (the host's exit status), and which.
    public internal(set) var tally = StatementTally()
    /// Where results, echoes and diagnostics go, and what is held until a commit.
    package private(set) lazy var output = SessionOutput(session: self)

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
        let userBox = UserBox(user: user)
        self.userBox = userBox
        packs = PackStates(
            packs: registry.packs,
            services: PackServices(
                store: store, clock: clock, ids: ids, network: network, cacheRoot: cacheRoot,
                user: { [userBox] in userBox.user }))
    }

    private let userBox: UserBox

    /// `.open`: works on another store from now on. Every pack starts over on it; variables
    /// and listings name the old store's rows, so they are cleared. If a pack cannot start
    /// on the new store, nothing changes (every pack is made here, to know).
    func open(_ newStore: Store, cacheRoot: String?) throws {
        let newServices = PackServices(
            store: newStore, clock: clock, ids: ids, network: network, cacheRoot: cacheRoot,
            user: { [userBox] in userBox.user })
        try packs.replace(with: newServices)
        store.finishBackgroundWork()
        if settings.compactsInBackground { newStore.compactInBackground() }
        store = newStore
        variables = Variables()
        listings = Listings()
    }

    /// Scripts running now (`run`, `.read`): `.open` is refused inside one, which is a
    /// single transaction on one store.
    var scriptDepth = 0

    // MARK: running statements

    /// Runs one statement and reports whether it succeeded (blank and comment lines succeed).
    /// `origin` names the file for diagnostics (`seed.closet:12:5:`); nil at the prompt.
    @discardableResult
    package func execute(_ source: StatementSource, origin: String? = nil) -> Bool {
        execute(source, origin: origin, read: nil)
    }

    /// The same with the statement's arguments read already (`ScriptReadAhead`).
    func execute(
        _ source: StatementSource, origin: String?,
        read: QuickBinder.PlacedStatement?
    ) -> Bool {
        guard let blanked = source.mustFailBlanked else {
            let succeeded = execute(source, shown: source, origin: origin, read: read)
            if !succeeded { tally.unmarkedFailures.append(StatementLocation(origin: origin, line: source.firstLine)) }
            return succeeded
        }
        // `! statement`: its failure is what was expected (not counted); its success is one,
        // and what it did is undone.
        let failures = tally.failures
        let savepoint = store.savepoint()
        guard execute(blanked, shown: source, origin: origin, read: nil) else {
            tally.failures = failures
            return true
        }
        store.rollback(to: savepoint)
        output.report(Diagnostic.expectedToFail, source: source, origin: origin)
        tally.markedSuccesses.append(StatementLocation(origin: origin, line: source.firstLine))
        tally.failures += 1
        return false
    }

    private func execute(
        _ source: StatementSource, shown: StatementSource, origin: String?,
        read: QuickBinder.PlacedStatement?
    ) -> Bool {
        currentStatement = StatementLocation(origin: origin, line: source.firstLine)
        currentSourceText = source.text
        // A seed script's statements are bound straight from their text when they can be
        // (`QuickBinder`); the rest are parsed. Only inside a transaction that has written:
        // no other process's commits are brought in before such a statement (it holds the
        // lock), so binding it now reads what binding it after that would. One read ahead
        // for the command found last needs only its values made.
        var quick =
            quickBinding && store.tables.hasPendingChanges
            ? read.flatMap { QuickBinder.invocation(source.text, placed: $0.arguments, range: $0.range, session: self) }
                ?? QuickBinder.invocation(source.text, session: self) : nil
        var statement: Statement?
        if quick == nil {
            do {
                statement = try Parser.parse(source.text, examples: registry.syntaxExamples)
            } catch {
                output.echo(shown)
                output.report(error, source: shown, origin: origin)
                tally.failures += 1
                return false
            }
            guard statement != nil else { return true }
        }
        output.echo(shown)
        // `.once` applies to the statement after it; `.output` to every one.
        output.file = output.once ?? settings.output
        let isOnceTarget = output.once != nil
        defer {
            if isOnceTarget { output.once = nil }
            output.file = settings.output
        }

        // Timed only if the timer was on when the statement began (`.timer on` itself is not).
        let timed = settings.timer
        let started = timed ? host.monotonicSeconds() : 0
        // Between transactions, see what other processes committed first.
        if !store.tables.hasPendingChanges {
            do throws(StoreError) {
                try store.refresh()
            } catch {
                output.report(Diagnostic.storeFailed(error, at: nil), source: shown, origin: origin)
                tally.failures += 1
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
                    if let quick { return try Evaluator(session: self).perform(quick) }
                    if let statement { return try Evaluator(session: self).evaluate(statement) }
                    return Outcome.nothing
                })
            output.print(outcome)
            output.printNotice()
        } catch {
            if let failure = error as? StoreWriteFailure {
                if failure.busy { tally.storeBusy += 1 }
                // About the statement as a whole: its line is named, nothing is marked.
                output.report(Diagnostic.storeFailed(failure.error, at: nil), source: shown, origin: origin)
            } else {
                output.report(error, source: shown, origin: origin)
            }
            tally.failures += 1
            return false
        }
        // Statements are timed, not dot commands (as sqlite3's `.timer`).
        if timed, settings.timer, !isDot { output.printTime(since: started) }
        return true
    }

    /// A statement at the prompt or in `-c`: on success it is committed before returning.
    @discardableResult
    package func executeAndCommit(_ source: StatementSource, origin: String? = nil) -> Bool {
        let savepoint = store.savepoint()
        guard execute(source, origin: origin) else {
            output.releaseHeld()
            return false
        }
        do {
            try store.commit()
            output.releaseHeld()
            return true
        } catch {
            store.rollback(to: savepoint)
            output.dropHeldResults()
            output.report(Diagnostic.couldNotSave(error), source: nil, origin: nil)
            output.releaseHeld()
            tally.failures += 1
            return false
        }
    }

    package struct ScriptResult: Sendable, Equatable {
        public var failures = 0
        /// `--bail` or Ctrl-C stopped the script, and it was rolled back.
        package var stopped = false
        package var statements = 0
        /// How many statements were run with arguments read on a second thread
        /// (`ScriptReadAhead`).
        package var readAhead = 0
    }

    /// Runs a script as one transaction (SPEC §8): failing statements are reported and
    /// skipped, the rest commits at the end; with bail on, the first failure stops the script
    /// and nothing of it is kept.
    @discardableResult
    package func runScript(_ text: String, name: String) -> ScriptResult {
        scriptDepth += 1
        defer { scriptDepth -= 1 }
        let savepoint = store.savepoint()
        let heldMark = (count: output.held.count, releases: output.releases)
        let remoteWritesBefore = network.remoteWrites
        var result = ScriptResult()
        var stop = false

        func run(
            _ source: StatementSource,
            read: QuickBinder.PlacedStatement? = nil
        ) {
            if interrupted || host.interruptRequested() {
                // Ctrl-C: stop here, keep nothing of this script (an enclosing one stops too).
                if !interrupted {
                    output.write(
                        "interrupted: stopped '\(TerminalText.visible(name))' before line \(source.firstLine); nothing of it was kept\n",
                        to: .standardError)
                }
                interrupted = true
                stop = true
                return
            }
            result.statements += 1
            if !execute(source, origin: name, read: read) {
                result.failures += 1
                if settings.bail { stop = true }
            }
            if quitRequested { stop = true }
        }

        if text.utf8.count >= readsScriptsAheadFrom {
            let ahead = ScriptReadAhead(text)
            ahead.start()
            defer { ahead.stop() }
            reading: while let batch = ahead.next() {
                for index in batch.statements.indices {
                    ahead.follow(lastCommand)
                    let (source, read) = ahead.statement(index, of: batch)
                    if read != nil { result.readAhead += 1 }
                    run(source, read: read)
                    if stop { break reading }
                }
            }
        } else {
            var assembler = LineAssembler()
            var lineNumber = 0
            text.forEachScriptLine { line in
                lineNumber += 1
                if let source = assembler.add(line, lineNumber: lineNumber) { run(source) }
                return !stop
            }
            if !stop, let rest = assembler.finish() { run(rest) }
        }

        if stop, interrupted || (result.failures > 0 && settings.bail) {
            store.rollback(to: savepoint)
            result.stopped = true
            let resultsShown =
                !interrupted
                && output.held[min(heldMark.count, output.held.count)...].contains {
                    $0.channel == .standardOutput
                }
            if !interrupted {
                output.write(
                    "note: '\(TerminalText.visible(name))' stopped at its first error (bail); nothing of it was kept\(resultsShown ? " (the results above were undone)" : "")\n",
                    to: .standardError)
            }
            // A remote server's writes are not in the store's hands.
            let remote = network.remoteWrites - remoteWritesBefore
            if remote > 0 {
                output.write(
                    "note: \(remote) remote write\(remote == 1 ? " was" : "s were") made before it stopped and cannot be undone\n",
                    to: .standardError)
            }
            // Ctrl-C: results of a file that was undone are not shown (its errors still are).
            // Bail shows the results before the failing statement, as sqlite3's -bail does,
            // and the note after them says they were undone.
            if interrupted {
                let mark = heldMark.releases == output.releases ? min(heldMark.count, output.held.count) : 0
                output.held = Array(output.held[..<mark]) + output.held[mark...].filter { $0.channel == .standardError }
                output.heldBytes = output.held.reduce(0) { $0 + $1.text.utf8.count }
            }
        }
        return result
    }

    /// Commits what the scripts and statements so far did; for the host to call at the end
    /// of a `run` file. Reports and returns false if the store could not save.
    public func commit() -> Bool {
        do {
            try store.commit()
            output.releaseHeld()
            return true
        } catch {
            // Undone whole, so the store lets go of its write lock (and its pid file) now, not
            // at exit.
            store.rollback(to: Savepoint(position: 0))
            output.dropHeldResults()
            output.report(Diagnostic.couldNotSave(error), source: nil, origin: nil)
            output.releaseHeld()
            tally.failures += 1
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

/// Who the user is, for pack states to ask without holding the session: the session keeps it
/// current. Not a weak reference to the session: one gives the session a side table, and every
/// retain of it (several a statement, a few hundred thousand in an import) took the slow path.
final class UserBox {
    var user: String

    init(user: String) { self.user = user }
}
