import ClosetCore

/// `.width [<columns>|auto]`: the width tables fit (narrowing their widest columns, or a
/// field per line when nothing fits); `auto` is the terminal's own (none in pipes); alone,
/// prints it.
enum WidthCommand {
    static let spec = DotCommandSpec(
        name: ".width", summary: "set the width tables fit, or print it", arguments: ["[<columns>|auto]"],
        choices: ["auto"], examples: [".width 80", ".width auto"],
        run: { invocation in
            let session = invocation.session
            let words = invocation.call.arguments
            guard let word = words.first else {
                return .settings([("width", session.settings.table.maxWidth.map(String.init) ?? "auto")])
            }
            guard words.count == 1 else { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
            if word.text.lowercased() == "auto" {
                session.settings.fixedWidth = nil
                session.settings.table.maxWidth = session.settings.terminalWidth
                return .nothing
            }
            guard word.text.allSatisfy(\.isASCII), let columns = Int(word.text), (20...10_000).contains(columns) else {
                throw Diagnostic.notAWidth(word.text, at: word.range)
            }
            session.settings.fixedWidth = columns
            session.settings.table.maxWidth = columns
            return .nothing
        })
}
