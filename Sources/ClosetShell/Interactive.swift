import ClosetCore
import ClosetLanguage
import ClosetLineEditor
import ClosetNetwork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Chooses how standard input is read: libedit with history, completion, colour and box
/// tables on a terminal; a plain reader otherwise (no prompt, no banner, no history).
enum Interactive {
    /// Colour on a terminal unless `NO_COLOR` is set or `TERM=dumb`.
    static func colorAllowed(_ environment: [String: String]) -> Bool {
        isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// Output going to a terminal is fitted as at the prompt, whatever reads statements
    /// (`-c`, `run`, piped input; psql does this for any tty): its width, box tables, colour.
    static func fitToTerminal(_ session: Session, environment: [String: String]) {
        guard isatty(STDOUT_FILENO) == 1 else { return }
        let width = LibEditLineEditor.terminalColumns
        session.settings.terminalWidth = width
        session.settings.table.maxWidth = session.settings.fixedWidth ?? width
        session.settings.table.boxDrawing = true
        session.settings.color = colorAllowed(environment)
        TerminalPictures.configure(session, environment: environment, mayAsk: false)
    }

    /// Returns whether the session was at a terminal.
    @discardableResult
    static func run(_ session: Session, host: ProcessHost, environment: [String: String]) -> Bool {
        let isTerminal = isatty(STDIN_FILENO) == 1
        let color = isTerminal && colorAllowed(environment)
        let write: (String) -> Void = {
            host.write($0, to: .standardOutput)
            host.flush()
        }
        guard isTerminal else {
            PromptLoop(session: session, editor: PlainLineReader(), isTerminal: false, color: false, write: write).run()
            return false
        }
        let completer = Completer(session: session, listPaths: PathListing.entries(startingWith:))
        let editor = LibEditLineEditor(
            historyPath: historyPath(environment),
            complete: { line, cursor in
                let result = completer.complete(line: line, cursor: cursor)
                return CompletionOffer(
                    wordStart: result.wordStart,
                    choices: result.candidates.map {
                        .init(text: $0.text, display: $0.display, endsWord: $0.isComplete)
                    })
            },
            cellWidth: TextWidth.of)
        guard let editor else {
            PromptLoop(session: session, editor: PlainLineReader(), isTerminal: true, color: false, write: write).run()
            return true
        }
        host.interruptCheck = LibEditLineEditor.takeInterrupt
        // A live request waiting for the helper (in its own process group) is cancelled here.
        HelperTransport.interruptedAtTerminal = { LibEditLineEditor.peekInterrupt() }
        host.asksForSecrets = true
        defer { host.asksForSecrets = false }
        if isatty(STDOUT_FILENO) == 1 {
            let terminal = TerminalOutput(environment: environment, rows: { LibEditLineEditor.terminalRows })
            terminal.pagerEnabled = { session.settings.pager }
            terminal.interrupted = LibEditLineEditor.takeInterrupt
            host.terminal = terminal
        }
        defer { host.terminal = nil }
        session.settings.color = color
        TerminalPictures.configure(session, environment: environment, mayAsk: true)
        let loop = PromptLoop(session: session, editor: editor, isTerminal: true, color: color, write: write)
        loop.afterStatement = host.flush
        loop.beforeStatement = {
            // A Ctrl-C that cleared the line before is not one for this statement.
            _ = LibEditLineEditor.takeInterrupt()
            session.settings.table.boxDrawing = isatty(STDOUT_FILENO) == 1
            let terminalWidth = isatty(STDOUT_FILENO) == 1 ? LibEditLineEditor.terminalColumns : nil
            session.settings.terminalWidth = terminalWidth
            session.settings.table.maxWidth = session.settings.fixedWidth ?? terminalWidth
            TerminalPictures.measure(session)
        }
        loop.run()
        return true
    }

    /// SPEC §7: `$XDG_STATE_HOME/closet/history`, else `~/.closet_history`.
    static func historyPath(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/closet/history" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.closet_history"
    }
}

/// File-name completion for `.read` and `image=`: entries of the folder named so far.
enum PathListing {
    static func entries(startingWith partial: String) -> [String] {
        let expanded = partial == "~" ? partial : ScriptFile.expandingTilde(partial)
        let folder = expanded.hasSuffix("/") ? expanded : FilePath.parent(of: expanded)
        let stem = expanded.hasSuffix("/") ? "" : FilePath.lastComponent(of: expanded)
        let shownFolder = partial.hasSuffix("/") ? partial : String(partial.dropLast(stem.count))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.filter { $0.hasPrefix(stem) && (!$0.hasPrefix(".") || stem.hasPrefix(".")) }.sorted().map { name in
            var isDirectory: ObjCBool = false
            let full = (folder.isEmpty ? name : FilePath.join(folder, name))
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            return shownFolder + name + (isDirectory.boolValue ? "/" : "")
        }
    }
}
