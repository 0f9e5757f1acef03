import ClosetCore

/// `.mode [table|json|csv|line|box|markdown]`: the output format; with no word, print it.
enum ModeCommand {
    static let spec = DotCommandSpec(
        name: ".mode", summary: "set the output format, or print it",
        arguments: ["[" + OutputFormat.allCases.map(\.rawValue).joined(separator: "|") + "]"],
        choices: OutputFormat.allCases.map(\.rawValue), examples: [".mode json", ".mode"],
        run: { invocation in
            let words = invocation.call.arguments
            guard let word = words.first else {
                return .settings([("mode", invocation.session.settings.format.rawValue)])
            }
            if words.count > 1 { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
            guard let format = OutputFormat(rawValue: word.text.lowercased()) else {
                throw Diagnostic.unknown(
                    "mode", word.text, at: word.range, among: OutputFormat.allCases.map(\.rawValue),
                    hint: "use " + OutputFormat.spelledOut)
            }
            invocation.session.settings.format = format
            return .nothing
        })
}
