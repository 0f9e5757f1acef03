import ClosetLanguage
import ClosetShell

/// Arbitrary bytes through the whole front end: lines, lexer, parser, binder, evaluation
/// against an in-memory store, output rendered and thrown away. A crash, hang or leak here
/// is a statement that could take down a user's session.
final class DiscardingHost: SessionHost {
    var written = 0
    /// Whether standard output is meant for a terminal now (table and line modes).
    var outputIsForPeople: () -> Bool = { true }

    func write(_ text: String, to stream: OutputChannel) {
        written &+= text.utf8.count
        // Diagnostics always, results in table and line modes: nothing a terminal acts on.
        if stream == .standardError || outputIsForPeople() { requireTerminalSafe(text) }
    }

    func readScript(at path: String) throws -> (text: String, displayName: String) {
        // A `.read` of the path's own text: nesting (and its depth limit) is fuzzed too.
        (path, path)
    }

    func readFile(at path: String, limit: Int) throws -> [UInt8] {
        // The path's own bytes stand in for the file: the picture reader sees fuzzed input.
        Array(path.utf8)
    }

    func writeFile(at path: String, bytes: [UInt8], creatingFolder: Bool) throws { written &+= bytes.count }

    func monotonicSeconds() -> Double { 0 }
}

/// The language fuzz target's body, in the main package so it may use the engine's `package`
/// declarations (the `Fuzz/` package, built with the sanitizers, cannot see them).
public enum LanguageFuzzing {
    public static func run(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
        let host = DiscardingHost()
        var configuration = SessionFactory.Configuration()
        configuration.deterministic = true
        // Nothing leaves the process: network commands fail in one line, as in golden tests.
        configuration.network = .offline(reason: "(fuzzing)")
        // Pick the output format from the first byte so every renderer is exercised.
        let formats = OutputFormat.allCases
        configuration.settings.format = formats[Int(size > 0 ? data[0] : 0) % formats.count]
        configuration.settings.echo = size > 0 && data[0] & 0x10 != 0
        guard
            let session = try? SessionFactory.makeSession(
                store: SessionFactory.memoryStore(), host: host, configuration)
        else { fatalError("the installed packs did not start on a memory store") }
        host.outputIsForPeople = { [unowned session] in
            session.settings.format == .table || session.settings.format == .line
        }
        _ = session.runScript(text, name: "fuzz")
        // The input itself as stored text, through every renderer a terminal sees.
        let grid = Grid(columns: ["text"], rows: [[text]], isListing: true)
        requireTerminalSafe(TableRenderer().render(grid))
        requireTerminalSafe(LineRenderer.render(grid))
        requireTerminalSafe(
            DiagnosticRenderer.render(
                Diagnostic("fuzz", "about '\(text)'", at: SourceRange(0, min(3, text.utf8.count))),
                source: StatementSource(text), origin: "fuzz"))
        let completer = Completer(session: session) { _ in [] }
        _ = completer.complete(line: text, cursor: min(text.utf8.count, Int(size > 1 ? data[1] : 0)))
        return 0
    }
}

/// No control character (but the newlines that end lines, and tabs kept for caret alignment),
/// no DEL, C1 control, bidi override or line separator may reach a terminal raw.
func requireTerminalSafe(_ text: String) {
    for scalar in text.unicodeScalars where scalar != "\n" && scalar != "\t" && TerminalText.needsEscape(scalar) {
        fatalError("U+\(String(scalar.value, radix: 16)) reached a terminal raw")
    }
}
