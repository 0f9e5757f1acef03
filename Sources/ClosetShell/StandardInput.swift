import ClosetLanguage
import Foundation

/// Statements from standard input. A pipe is read plainly: no prompt, no banner, each
/// statement committed as it succeeds. A terminal gets the prompt (the line editor issue
/// replaces this plain reader with libedit).
enum StandardInput {
    static func run(_ session: Session, host: ProcessHost, interactive: Bool) {
        var assembler = LineAssembler()
        var lineNumber = 0
        if interactive {
            host.write("closet \(ClosetCommand.version) on \(session.store.location); '.help' for help\n", to: .standardOutput)
        }
        while !session.quitRequested {
            if interactive {
                host.write(assembler.isContinuing ? Prompt.continuation : Prompt.primary, to: .standardOutput)
                host.flush()
            }
            guard let line = readLine(strippingNewline: true) else { break }
            lineNumber += 1
            guard let source = assembler.add(line, lineNumber: lineNumber) else { continue }
            session.executeAndCommit(source, origin: interactive ? nil : "<stdin>")
            if !interactive, session.settings.bail, session.failureCount > 0 { break }
        }
        if let rest = assembler.finish(), !session.quitRequested {
            session.executeAndCommit(rest, origin: interactive ? nil : "<stdin>")
        }
        if interactive { host.write("\n", to: .standardOutput) }
    }
}
