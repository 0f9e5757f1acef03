import ClosetCore

/// `.shell <command>` / `.system <command>` (psql's `\!`): runs a command line with
/// `/bin/sh`; what it prints is shown as results are. A non-zero exit status is an error.
enum ShellEscapeCommand {
    static let spec = DotCommandSpec(
        name: ".shell", aliases: [".system"], summary: "run a command with /bin/sh", arguments: ["<command>"],
        examples: [".shell ls *.closet", ".system date"],
        run: { invocation in
            let words = invocation.call.arguments
            guard let first = words.first, let last = words.last else {
                throw Diagnostic.usage(invocation.spec.usage, at: invocation.call.name.range)
            }
            // The command line as typed after the name (quotes are the shell's to read).
            let source = invocation.session.currentSourceText
            let bytes = Array(source.utf8)
            let start = min(first.range.lower, bytes.count)
            let end = min(max(last.range.upper, start), bytes.count)
            let command = String(decoding: bytes[start..<end], as: UTF8.self)
            let (output, status) = try invocation.session.host.runShell(command)
            if !output.isEmpty {
                // JSON output stays JSON: what the command printed is one JSON string there.
                let shown =
                    invocation.session.settings.format == .json
                    ? JSONRenderer.string(output) + "\n" : output.hasSuffix("\n") ? output : output + "\n"
                invocation.session.output.write(shown)
            }
            if status != 0 { throw Diagnostic.shellFailed(command, status: status, at: first.range.union(last.range)) }
            return .nothing
        })
}
