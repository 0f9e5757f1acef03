import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetStore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `closet` program: options → a session on a store → statements from `-c`, files, stdin
/// or the prompt → an exit status (SPEC §7).
package enum ClosetCommand {
    package static let version = "0.1.0"

    /// Objects left for the process's exit to reclaim (see `runStatements`).
    nonisolated(unsafe) static var keptUntilExit: [AnyObject] = []

    package enum ExitStatus: Int32 {
        case success = 0
        case failure = 1
        case usage = 2
        case store = 3
    }

    /// The process's own arguments, read as bytes: one that is not UTF-8 is refused (exit 2)
    /// rather than changed to U+FFFD and stored.
    package static func runProcess() -> Int32 {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            switch UTF8Text.decode(bytes) {
            case .success(let text): arguments.append(text)
            case .failure(let invalid):
                let message = Diagnostic.notUTF8("argument \(index)", offset: invalid.offset).message
                ProcessHost.writeAll(
                    Array("error: \(message)\nrun 'closet --help' for usage\n".utf8), to: STDERR_FILENO)
                return ExitStatus.usage.rawValue
            }
        }
        return main(arguments, environment: ProcessHost.environment())
    }

    package static func main(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            // The message quotes the user's words: `complain` shows their controls escaped (a
            // usage it ends with keeps its lines).
            for line in ("error: " + error.message).split(separator: "\n", omittingEmptySubsequences: false) {
                complain(String(line))
            }
            complain("run 'closet --help' for usage")
            return ExitStatus.usage.rawValue
        }
        switch options.action {
        case .help:
            print(Options.usage + "\n\n" + HelpText.overview(InstalledPacks.registry), terminator: "")
            return 0
        case .version:
            print("closet \(version)")
            return 0
        case .test(let update, let record, let junit, let paths, let selection):
            var ask: ((String) -> String?)?
            if selection.review {
                // A review asks a person: at a terminal only (refused under CI=true by the runner).
                let inCI = ["true", "1", "yes"].contains(environment["CI"]?.lowercased() ?? "")
                guard isatty(STDIN_FILENO) == 1 || inCI else {
                    complain("error: 'closet test --review' asks at a terminal; run it there, or use --update")
                    return ExitStatus.usage.rawValue
                }
                ask = { question in
                    ProcessHost.writeAll(Array(question.utf8), to: STDOUT_FILENO)
                    return readLine(strippingNewline: true)
                }
            }
            return GoldenRunner(environment: environment, ask: ask).run(
                paths: paths, update: update, record: record, junit: junit, selection: selection
            )
            .rawValue
        case .recover(let store, let target):
            return recover(store, into: target, environment: environment).rawValue
        case .check(let store):
            return check(store ?? options.store, options, environment: environment).rawValue
        case .serve(let serve):
            return ServeCommand.run(serve, options, environment: environment).rawValue
        case .interactiveOrStdin, .statements, .run, .dump:
            ProcessMemory.keepLargeBlocksOnHeap()
            var exitCode: Int32?
            let status = runStatements(options, environment: environment) { exitCode = $0 }
            return exitCode ?? status.rawValue
        }
    }

    /// Before anything else: the rc file (unless `--no-rc`), then each `--init` statement.
    /// The rc file's problems are warnings (a person's settings file must not make every run
    /// fail); `--init`'s failures count, as any statement's.
    static func runStartup(_ session: Session, host: ProcessHost, options: Options, environment: [String: String]) {
        if !options.noRC, let path = rcFile(environment) {
            session.reportingWarnings {
                do {
                    let script = try ScriptFile.read(path, relativeTo: nil)
                    host.baseDirectory = FilePath.parent(of: path)
                    session.runScript(script.text, name: script.displayName)
                    host.baseDirectory = nil
                    _ = session.commit()
                } catch {
                    session.output.fail(
                        error as? Diagnostic ?? .cannotRead(path, because: "\(error)"), source: nil, origin: nil)
                }
            }
        }
        for statement in options.initStatements where !session.quitRequested {
            session.executeAndCommit(StatementSource(statement), origin: "--init")
        }
    }

    /// SPEC §7: `$XDG_CONFIG_HOME/closet/closetrc`, else `~/.closetrc`; nil when neither is there.
    static func rcFile(_ environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty {
            candidates.append(config + "/closet/closetrc")
        }
        if let home = environment["HOME"], !home.isEmpty { candidates.append(home + "/.closetrc") }
        return candidates.first { access($0, F_OK) == 0 }
    }

    /// One line on stderr, escaped: store paths and notices come from the command line and
    /// the file system, and must not reach the terminal raw.
    static func complain(_ line: String) {
        ProcessHost.writeAll(Array((TerminalText.visible(line) + "\n").utf8), to: STDERR_FILENO)
    }

    /// `closet check`: what was checked on stdout, each problem on stderr; exit 3 if any. A
    /// store that is not there is not made.
    static func check(_ location: String?, _ options: Options, environment: [String: String]) -> ExitStatus {
        if case .directory(let path) = StoreLocation.resolve(location, environment: environment) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                complain("error: there is no store at '\(path)'")
                return .store
            }
        }
        let store: Store
        do throws(StoreOpenError) {
            store = try openStore(location, options, environment: environment).store
        } catch {
            complain("error: \(error.description)")
            return .store
        }
        let result = store.check()
        let width = (["store"] + result.checked.map(\.0)).map(\.count).max() ?? 0
        func line(_ name: String, _ value: String) -> String {
            name + String(repeating: " ", count: width - name.count + 2) + TerminalText.visible(value) + "\n"
        }
        var text = line("store", store.location) + result.checked.map { line($0.0, $0.1) }.joined()
        text += result.problems.isEmpty ? "ok\n" : ""
        if let failed = ProcessHost.writeAll(Array(text.utf8), to: STDOUT_FILENO) {
            complain("error: cannot write to standard output: \(ScriptFile.reason(failed))")
            return .failure
        }
        guard result.problems.isEmpty else {
            complain("error: " + Diagnostic.storeDamaged(store.location, result.problems, at: nil).message)
            return .store
        }
        return .success
    }

    /// `closet recover`: the damaged store is only read; the report goes to stdout.
    static func recover(_ store: String, into target: String?, environment: [String: String]) -> ExitStatus {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let source = ScriptFile.expandingTilde(store, home: home)
        let destination = target.map { ScriptFile.expandingTilde($0, home: home) } ?? source + "-recovered"
        do {
            let report = try StoreRecovery.recover(from: source, to: destination, tables: SessionFactory.tables)
            let text = report.lines.map { TerminalText.visible($0) + "\n" }.joined()
            if let failed = ProcessHost.writeAll(Array(text.utf8), to: STDOUT_FILENO) {
                complain("error: cannot write to standard output: \(ScriptFile.reason(failed))")
                return .failure
            }
            // The new store lacks something the damaged one held: said, and not a success.
            return report.warnings.isEmpty ? .success : .failure
        } catch {
            complain("error: \(error.description)")
            return .store
        }
    }

    static func configuration(_ options: Options, environment: [String: String]) -> SessionFactory.Configuration {
        var configuration = SessionFactory.Configuration()
        configuration.environment = environment
        if options.offline { configuration.network = .offline(reason: "(--offline)") }
        if let folder = options.replay { configuration.network = .replay(folder: ScriptFile.expandingTilde(folder)) }
        if let folder = options.record { configuration.network = .record(folder: ScriptFile.expandingTilde(folder)) }
        if let seconds = options.timeoutSeconds { configuration.timeoutSeconds = seconds }
        if let bytes = options.maximumResponseBytes { configuration.maximumResponseBytes = bytes }
        configuration.user = options.user
        configuration.settings.format = options.format ?? .table
        if let language = options.language { configuration.settings.language = language }
        if let pictures = options.pictures { configuration.settings.pictures = pictures }
        configuration.settings.bail = options.bail
        configuration.settings.echo = options.echo
        configuration.deterministic = options.deterministic
        configuration.seed = options.seed
        configuration.today = options.today ?? options.replay.flatMap { recordedDay(in: $0) }
        return configuration
    }

    /// The day a recordings folder names (its `today` file); a file that names none is said
    /// once and the real day kept.
    static func recordedDay(in folder: String) -> Date? {
        do throws(NetworkError) {
            return try RecordingFolder(path: ScriptFile.expandingTilde(folder)).day()
        } catch {
            complain("closet: warning: \(error.message); the clock keeps today's date")
            return nil
        }
    }

    /// The store at `--store` (or `.open`'s location): in memory, or a folder opened with the
    /// command line's `--busy-timeout`; and the folder its packs cache pictures in. The store
    /// is never freed: the process ends right after, and freeing 100,000 rows one by one
    /// would only delay the exit.
    static func openStore(_ location: String?, _ options: Options, environment: [String: String])
        throws(StoreOpenError) -> (store: Store, cacheRoot: String?)
    {
        let opened: (store: Store, cacheRoot: String?)
        switch StoreLocation.resolve(location, environment: environment) {
        case .memory:
            opened = (SessionFactory.memoryStore(), nil)
        case .directory(let path):
            let store = try SessionFactory.durableStore(
                at: path, busyTimeout: options.busyTimeout ?? DurableStore.defaultBusyTimeout
            ) { notice in
                complain("closet: \(notice)")
            }
            opened = (store, SessionFactory.cacheRoot(environment))
            // A row that passes its checksums but cannot be read is damage, found where a row
            // is read: said as opening would say it, and the process ends with exit 3 before
            // anything else is read or written (what it held back was never committed).
            UnreadableRow.handler = { what in
                complain(
                    "error: store '\(path)' is damaged: \(what); nothing in it was changed; 'closet recover \(path)' copies what is intact into a new store"
                )
                exit(ExitStatus.store.rawValue)
            }
        }
        keptUntilExit.append(opened.store)
        return opened
    }

    /// `exitCode` receives the status a `.exit <code>` asked for, which then wins. Standard
    /// output is written out before the status is decided: output that could not be written
    /// (a full disk, `/dev/full`) is a failure, never a silent success.
    static func runStatements(
        _ options: Options, environment: [String: String], exitCode: (Int32) -> Void = { _ in }
    ) -> ExitStatus {
        let host = ProcessHost()
        var status = runStatements(options, environment: environment, host: host, exitCode: exitCode)
        host.flush()
        if let failure = host.outputFailure {
            complain("error: cannot write to standard output: \(failure)")
            if status == .success { status = .failure }
        }
        return status
    }

    private static func runStatements(
        _ options: Options, environment: [String: String], host: ProcessHost, exitCode: (Int32) -> Void
    ) -> ExitStatus {
        let store: Store
        do throws(StoreOpenError) {
            store = try openStore(options.store, options, environment: environment).store
        } catch {
            complain("error: \(error.description)")
            return .store
        }
        let session: Session
        do {
            session = try SessionFactory.makeSession(
                store: store, host: host, configuration(options, environment: environment))
        } catch let error as NetworkError {
            complain("error: \(error.message)")
            return .usage
        } catch {
            complain("error: \(error)")
            return .store
        }
        host.storeOpener = { location in
            do throws(StoreOpenError) {
                return try openStore(location, options, environment: environment)
            } catch {
                throw Diagnostic.cannotOpenStore(location, because: error.description)
            }
        }
        // Results nobody reads are not made: asked for (`--quiet`), or going to /dev/null.
        session.settings.discardResults = options.quiet || ProcessHost.standardOutputIsDevNull
        // Output is shown once what it reports is committed: per statement at the prompt, in
        // `-c` and from stdin, per file for `run` (errors held with results, in order).
        session.settings.holdResultsUntilCommit = true
        defer {
            session.output.finish()
            if let code = session.exitCode { exitCode(code) }
        }

        if case .dump = options.action {
        } else {
            Interactive.fitToTerminal(session, environment: environment)
        }
        runStartup(session, host: host, options: options, environment: environment)
        switch options.action {
        case .statements(let texts):
            for text in texts {
                var lineNumber = 0
                var assembler = LineAssembler()
                // Several lines in one -c: errors say which line (`-c:2:7:`), as a script's do.
                let origin = text.scriptLines.count > 1 ? "-c" : nil
                for line in text.scriptLines {
                    lineNumber += 1
                    if let source = assembler.add(line, lineNumber: lineNumber) {
                        session.executeAndCommit(source, origin: origin)
                        if session.quitRequested || (options.bail && session.tally.failures > 0) { break }
                    }
                }
                if let rest = assembler.finish(), !session.quitRequested {
                    session.executeAndCommit(rest, origin: origin)
                }
                if session.quitRequested || (options.bail && session.tally.failures > 0) { break }
            }
        case .run(let files):
            for file in files {
                let script: (text: String, displayName: String)
                do {
                    script = try ScriptFile.read(file, relativeTo: nil)
                } catch {
                    session.output.report(error, source: nil, origin: nil)
                    return .failure
                }
                // Paths inside a script are its own: relative to its folder (as psql's \ir).
                host.baseDirectory =
                    file == "-"
                    ? nil : FilePath.parent(of: ScriptFile.resolve(file, relativeTo: nil))
                let result = session.runScript(script.text, name: script.displayName)
                host.baseDirectory = nil
                guard session.commit() else { return .failure }
                if result.stopped || session.quitRequested { break }
            }
        case .interactiveOrStdin:
            // A statement never waits for a snapshot's rewrite: made in the background, named
            // by a later commit or when the session ends.
            session.settings.compactsInBackground = true
            session.store.compactInBackground()
            // At a terminal the person saw every error as it happened; leaving with Ctrl-D
            // or .quit is a success (as in sqlite3 and psql). Pipes keep the exit status.
            let leftCleanly = Interactive.run(session, host: host, environment: environment)
            session.store.finishBackgroundWork()
            if leftCleanly { return .success }
        case .dump(let images, nil, let skipDamaged):
            var statement = ".dump"
            if let images { statement += " --images " + DumpWriter.quote(images) }
            if skipDamaged { statement += " --skip-damaged" }
            session.executeAndCommit(StatementSource(statement))
        case .dump(let images, let output?, let skipDamaged):
            guard DumpFile.write(session, to: output, images: images, skipDamaged: skipDamaged, host: host) else {
                return .failure
            }
        case .help, .version, .test, .recover, .check, .serve:
            break
        }
        // A writer that waited out --busy-timeout exits as a store that cannot be opened does.
        if session.tally.storeBusy > 0 { return .store }
        return session.tally.failures > 0 ? .failure : .success
    }
}

/// Where `--store` points (SPEC §7 default path rules).
package enum StoreLocation: Equatable {
    case memory
    case directory(String)

    public static func resolve(_ option: String?, environment: [String: String]) -> StoreLocation {
        // `~` is the home folder here too (`--store=~/x` does not make a folder named `~`).
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let option {
            return option == ":memory:" ? .memory : .directory(ScriptFile.expandingTilde(option, home: home))
        }
        if let path = environment["CLOSET_STORE"], !path.isEmpty {
            return path == ":memory:" ? .memory : .directory(ScriptFile.expandingTilde(path, home: home))
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return .directory(data + "/closet") }
        return .directory(home + "/.local/share/closet")
    }
}
