import ClosetLanguage
import ClosetLineEditor
import Foundation

/// Statements typed at the prompt or piped in: the same loop drives libedit on a terminal, a
/// plain reader for pipes, and a scripted editor in tests.
///
/// Lines ending in `\` continue under the continuation prompt; Ctrl-C abandons what is being
/// typed (continuation lines included) and gives a fresh prompt; Ctrl-D on an empty line, or
/// the end of the pipe, quits. Each statement commits before the next prompt.
package final class PromptLoop {
    let session: Session
    let editor: LineEditor
    let isTerminal: Bool
    let color: Bool
    /// Called before each statement: a terminal may have been resized.
    var beforeStatement: () -> Void = {}
    /// Called after each statement: output must reach the screen before the next prompt.
    var afterStatement: () -> Void = {}
    let write: (String) -> Void

    /// `isTerminal`: show the banner and prompts, report errors without a file position.
    public init(session: Session, editor: LineEditor, isTerminal: Bool, color: Bool, write: @escaping (String) -> Void)
    {
        self.session = session
        self.editor = editor
        self.isTerminal = isTerminal
        self.color = color
        self.write = write
    }

    public static func banner(_ session: Session) -> String {
        // What the store holds (every pack's), or that it is empty; `1 donation`, `3 stories`.
        let held = session.packs.entityCounts.filter { $0.1 > 0 }
        let counts = held.isEmpty ? "empty" : held.map { $0.0.counted($0.1) }.joined(separator: ", ")
        let store =
            "closet \(ClosetCommand.version) · store \(TerminalText.visible(session.store.location)) (\(counts))"
        let help = "'.help' for help, Ctrl-D to quit"
        // One line when it fits the terminal; else the help on a line of its own, never wrapped.
        let width = session.settings.terminalWidth ?? Int.max
        return TextWidth.of(store) + 3 + TextWidth.of(help) <= width ? "\(store) · \(help)\n" : "\(store)\n\(help)\n"
    }

    /// The prompt with its colour escapes wrapped in \1 so libedit does not count them.
    func prompt(continuing: Bool) -> String {
        let text = continuing ? Prompt.continuation : Prompt.primary
        guard color else { return text }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let leading = String(text.prefix { $0 == " " })
        return leading + "\u{1}\u{1B}[1;32m\u{1}" + trimmed + "\u{1}\u{1B}[0m\u{1} "
    }

    public func run() {
        if isTerminal { write(Self.banner(session)) }
        var assembler = LineAssembler()
        var lineNumber = 0
        let origin = isTerminal ? nil : "<stdin>"
        while !session.quitRequested {
            switch editor.readLine(prompt: prompt(continuing: assembler.isContinuing)) {
            case .endOfInput:
                let rest = assembler.finish()
                if let rest, !isTerminal { execute(rest, origin: origin) }
                if isTerminal {
                    write("\n")
                    // Ctrl-D in the middle of a statement leaves it unrun: said, not silent.
                    if rest != nil {
                        write("note: the statement being continued was not finished, and did not run\n")
                    }
                }
                editor.close()
                return
            case .interrupted:
                assembler.reset()
                write("\n")
            case .invalidText(let offset):
                lineNumber += 1
                assembler.reset()
                session.output.fail(
                    Diagnostic.notUTF8("line \(lineNumber)", offset: offset),
                    source: StatementSource(lines: [""], firstLine: lineNumber), origin: origin)
                if !isTerminal, session.settings.bail {
                    editor.close()
                    return
                }
            case .line(let line):
                lineNumber += 1
                guard let source = assembler.add(line, lineNumber: lineNumber) else { continue }
                editor.remember(Self.historyEntry(source, masked: session.registry.masked))
                execute(source, origin: origin)
                if !isTerminal, session.settings.bail, session.tally.failures > 0 {
                    editor.close()
                    return
                }
            }
        }
        editor.close()
    }

    /// A whole statement is one history entry, its continued lines joined on one line (the
    /// `\` dropped), so Up brings it back as one editable line; a statement abandoned with
    /// Ctrl-C is not kept at all.
    static func historyEntry(_ source: StatementSource, masked: (String) -> String) -> String {
        // Blanks around a line break are one blank to the lexer (a string never spans lines).
        source.lines.enumerated().map { index, line in
            var piece = Substring(line)
            if index < source.lines.count - 1 {
                piece = piece.dropLast()
                while piece.last == " " || piece.last == "\t" { piece.removeLast() }
            }
            if index > 0 { piece = piece.drop { $0 == " " || $0 == "\t" } }
            return masked(String(piece))
        }.joined(separator: " ")
    }

    private func execute(_ source: StatementSource, origin: String?) {
        beforeStatement()
        session.interrupted = false
        session.executeAndCommit(source, origin: origin)
        afterStatement()
    }
}
