import ClosetDomain
import Foundation

/// Evaluator and session state: runs statements against the view models and the store, and
/// prints what they produce through the host.
///
/// Each statement runs inside a savepoint: if it fails, the store is rolled back to it, so a
/// failed statement changes nothing. Committing is the caller's choice: after every statement
/// at the prompt and in `-c` (`executeAndCommit`), once per file for scripts (`runScript`).
public final class Session {
    public struct Settings: Sendable {
        public var format: OutputFormat = .table
        public var echo = false
        public var bail = false
        public var timer = false
        /// Box-drawn tables, and the terminal width to fit (interactive sessions).
        public var table = TableRenderer()
        /// Colour for errors and table headers: a terminal without `NO_COLOR` only.
        public var color = false
        /// Results go nowhere (standard output is /dev/null): skip rendering them, as tar skips
        /// writing an archive to /dev/null. Diagnostics are still printed.
        public var discardResults = false
        public init() {}
    }

    /// Nested `.read` deeper than this is a loop, not a plan.
    public static let maximumReadDepth = 16

    public var settings: Settings
    public let store: WardrobeStore
    public let registry: CommandRegistry
    public let clock: Clock
    public let ids: IDGenerator
    /// `--deterministic`: output must not depend on the machine (timer figures are hidden).
    public let isDeterministic: Bool
    /// Pictures read by `show` go through this (the app's `ImageCacheManager`).
    public let imageCache = ImageCacheManager()
    public internal(set) var variables = Variables()
    public internal(set) var lastListing: Listing?
    /// Set by `.quit`; the host stops feeding statements.
    public internal(set) var quitRequested = false
    /// Set when Ctrl-C stopped a script; every enclosing `.read` stops too. The prompt clears it.
    public var interrupted = false
    /// Statements that failed so far (the host's exit status depends on it).
    public internal(set) var failureCount = 0
    /// The statement running now (or last), so a host can tell which one printed what.
    public private(set) var currentStatement: StatementLocation?
    unowned let host: SessionHost
    var readDepth = 0

    public private(set) lazy var clothesViewModel = ClothesViewModel(repository: store, fetchNow: false)
    public private(set) lazy var styleViewModel = StyleViewModel(repository: store, fetchNow: false)

    var references: References { References(session: self) }

    public init(
        store: WardrobeStore, host: SessionHost, settings: Settings = Settings(),
        registry: CommandRegistry = .standard, clock: Clock = SystemClock(),
        ids: IDGenerator = RandomIDGenerator(), isDeterministic: Bool = false
    ) {
        self.store = store
        self.host = host
        self.settings = settings
        self.registry = registry
        self.clock = clock
        self.ids = ids
        self.isDeterministic = isDeterministic
    }

    // MARK: running statements

    /// Runs one statement and reports whether it succeeded (blank and comment lines succeed).
    /// `origin` names the file for diagnostics (`seed.closet:12:5:`); nil at the prompt.
    @discardableResult
    public func execute(_ source: StatementSource, origin: String? = nil) -> Bool {
        currentStatement = StatementLocation(origin: origin, line: source.firstLine)
        let statement: Statement?
        do {
            statement = try Parser.parse(source.text)
        } catch {
            echo(source)
            report(error, source: source, origin: origin)
            failureCount += 1
            return false
        }
        guard let statement else { return true }
        echo(source)

        let started = settings.timer ? host.monotonicSeconds() : 0
        let savepoint = store.savepoint()
        do {
            let outcome = try evaluate(statement)
            print(outcome)
        } catch {
            store.rollback(to: savepoint)
            report(error, source: source, origin: origin)
            failureCount += 1
            return false
        }
        if settings.timer { printTime(since: started) }
        return true
    }

    /// A statement at the prompt or in `-c`: on success it is committed before returning.
    @discardableResult
    public func executeAndCommit(_ source: StatementSource, origin: String? = nil) -> Bool {
        let savepoint = store.savepoint()
        guard execute(source, origin: origin) else { return false }
        do {
            try store.commit()
            return true
        } catch {
            store.rollback(to: savepoint)
            report(Diagnostic("could not save: \(error.errorDescription)", at: nil), source: nil, origin: nil)
            failureCount += 1
            return false
        }
    }

    public struct ScriptResult: Sendable, Equatable {
        public var failures = 0
        /// `--bail` or Ctrl-C stopped the script, and it was rolled back.
        public var stopped = false
        public var statements = 0
    }

    /// Runs a script as one transaction (SPEC §8): failing statements are reported and
    /// skipped, the rest commits at the end; with bail on, the first failure stops the script
    /// and nothing of it is kept.
    @discardableResult
    public func runScript(_ text: String, name: String) -> ScriptResult {
        let savepoint = store.savepoint()
        var result = ScriptResult()
        var assembler = LineAssembler()
        var lineNumber = 0
        var stop = false

        func run(_ source: StatementSource) {
            if interrupted || host.interruptRequested() {
                // Ctrl-C: stop here, keep nothing of this script (an enclosing one stops too).
                if !interrupted {
                    host.write("interrupted: stopped '\(name)' before line \(source.firstLine); nothing of it was kept\n", to: .standardError)
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

        for line in text.scriptLines {
            lineNumber += 1
            if let source = assembler.add(line, lineNumber: lineNumber) { run(source) }
            if stop { break }
        }
        if !stop, let rest = assembler.finish() { run(rest) }

        if stop, interrupted || (result.failures > 0 && settings.bail) {
            store.rollback(to: savepoint)
            result.stopped = true
        }
        return result
    }

    /// Commits what the scripts and statements so far did; for the host to call at the end
    /// of a `run` file. Reports and returns false if the store could not save.
    public func commit() -> Bool {
        do {
            try store.commit()
            return true
        } catch {
            report(Diagnostic("could not save: \(error.errorDescription)", at: nil), source: nil, origin: nil)
            failureCount += 1
            return false
        }
    }

    // MARK: images

    /// Reads a picture file and checks it, before anything is written.
    func importImage(_ path: String, range: SourceRange) throws(Diagnostic) -> (bytes: [UInt8], info: ImageInfo) {
        let bytes: [UInt8]
        do {
            bytes = try host.readFile(at: path, limit: ImageHeader.maximumBytes)
        } catch let error as Diagnostic {
            throw Diagnostic(error.message, at: range)
        } catch {
            throw Diagnostic("cannot read '\(path)': \(error)", at: range)
        }
        do {
            var info = try ImageHeader.inspect(bytes)
            info.checksum = Checksum.crc32(bytes)
            return (bytes, info)
        } catch {
            throw Diagnostic("'\(path)' is \(error.message)", at: range)
        }
    }

    /// A clothes' picture through the cache, as the app's detail screen loaded it.
    @discardableResult
    func loadImage(of clothes: Clothes) -> [UInt8]? {
        guard let image = clothes.image else { return nil }
        let key = "\(clothes.id.uuidString)-\(image.checksum)"
        if let cached = imageCache.get(for: key) { return cached }
        guard let bytes = store.loadImage(image, for: clothes.id) else { return nil }
        imageCache.store(bytes, for: key)
        return bytes
    }

    // MARK: evaluation

    func evaluate(_ statement: Statement) throws -> Outcome {
        switch statement.kind {
        case .command(let call):
            return try run(call)
        case .binding(let binding):
            let outcome = try run(binding.command)
            variables[binding.name] = try value(toBind: outcome, binding)
            return .nothing
        case .dot(let call):
            guard let spec = registry.dotCommand(named: call.name.text) else {
                throw Diagnostic.unknown(
                    "dot command", call.name.text, at: call.name.range, among: registry.dotCommands.map(\.name),
                    hint: "'.help' lists them")
            }
            return try spec.run(DotInvocation(session: self, spec: spec, call: call))
        }
    }

    private func run(_ call: CommandCall) throws -> Outcome {
        let (spec, words) = try registry.resolve(call.words)
        let invocation = try ArgumentBinder(session: self).bind(spec, words: words, call: call)
        let outcome: Outcome
        do {
            outcome = try spec.run(invocation)
        } catch let error as RepositoryError {
            throw Diagnostic(error.errorDescription, at: call.range)
        }
        switch outcome {
        case .clothesList(let list): lastListing = .clothes(list.map(\.id))
        case .styles(let list): lastListing = .styles(list.map(\.id))
        case .clothes, .style, .count, .removed, .cacheStats, .transferred, .text, .table, .nothing: break
        }
        return outcome
    }

    private func value(toBind outcome: Outcome, _ binding: Binding) throws(Diagnostic) -> VariableValue {
        switch outcome {
        case .clothes(let clothes): return .clothes([clothes.id], isList: false)
        case .clothesList(let list): return .clothes(list.map(\.id), isList: true)
        case .style(let style): return .styles([style.id], isList: false)
        case .styles(let list): return .styles(list.map(\.id), isList: true)
        case .count(let count): return .count(count)
        case .removed, .cacheStats, .transferred, .text, .table, .nothing:
            throw Diagnostic(
                "'\(binding.command.words.map(\.text).joined(separator: " "))' returns nothing to bind; 'let' takes a command that returns clothes, styles or a count",
                at: binding.command.range)
        }
    }

    // MARK: output

    public func print(_ outcome: Outcome) {
        if settings.discardResults { return }
        switch outcome {
        case .nothing:
            return
        case .text(let text):
            host.write(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
            return
        case .clothes, .clothesList, .style, .styles, .count, .removed, .cacheStats, .transferred, .table:
            break
        }
        let format = settings.format
        switch format {
        case .json:
            if let text = JSONRenderer.render(outcome) { host.write(text, to: .standardOutput) }
        case .table, .csv, .line:
            guard let grid = GridBuilder.grid(for: outcome, format: format) else { return }
            let text: String
            switch format {
            case .table:
                var renderer = settings.table
                renderer.color = settings.color
                text = renderer.render(grid)
            case .csv: text = CSVRenderer.render(grid)
            case .line: text = LineRenderer.render(grid)
            case .json: text = ""
            }
            host.write(text, to: .standardOutput)
        }
    }

    func echo(_ source: StatementSource) {
        guard settings.echo else { return }
        var text = ""
        for (index, line) in source.lines.enumerated() {
            text += (index == 0 ? Prompt.primary : Prompt.continuation) + line + "\n"
        }
        host.write(text, to: .standardOutput)
    }

    public func report(_ error: Error, source: StatementSource?, origin: String?) {
        let diagnostic: Diagnostic
        switch error {
        case is AlreadyReported: return
        case let known as Diagnostic: diagnostic = known
        case let repository as RepositoryError: diagnostic = Diagnostic(repository.errorDescription, at: nil)
        default: diagnostic = Diagnostic("\(error)", at: nil)
        }
        host.write(
            DiagnosticRenderer.render(diagnostic, source: source, origin: origin, color: settings.color), to: .standardError)
    }

    private func printTime(since start: Double) {
        if isDeterministic {
            host.write("time: (hidden by --deterministic)\n", to: .standardOutput)
        } else {
            let elapsed = host.monotonicSeconds() - start
            host.write("time: \(String(format: "%.3f", elapsed * 1000)) ms\n", to: .standardOutput)
        }
    }
}

/// The prompts, shared by the echo of scripts and the interactive line editor.
public enum Prompt {
    public static let primary = "closet> "
    public static let continuation = "   ...> "
}

/// A failure whose cause was already printed (a script `.read` stopped by `--bail`): it
/// fails the statement without a second message.
struct AlreadyReported: Error {}

/// A statement's file (nil at the prompt) and first line.
public struct StatementLocation: Hashable, Sendable {
    public var origin: String?
    public var line: Int
}
