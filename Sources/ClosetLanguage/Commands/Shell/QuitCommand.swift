import ClosetCore

/// `.quit` / `.exit [<code>]`: stop reading statements; `.exit` may name the process's exit
/// status (0 to 255), as a script ends with `exit 2`.
enum QuitCommand {
    static let spec = DotCommandSpec(
        name: ".quit", aliases: [".exit"], summary: "leave closet; .exit <code> leaves with that exit status",
        examples: [".quit", ".exit 2"],
        run: { invocation in
            let words = invocation.call.arguments
            if let word = words.first {
                guard invocation.call.name.text.lowercased() == ".exit" else {
                    throw Diagnostic.takesNoWords(".quit", at: word.range)
                }
                guard words.count == 1 else { throw Diagnostic.usage(".exit [<code>]", at: words[1].range) }
                guard word.text.allSatisfy(\.isASCII), let code = Int32(word.text), (0...255).contains(code) else {
                    throw Diagnostic.notAnExitCode(word.text, at: word.range)
                }
                invocation.session.exitCode = code
            }
            invocation.session.quitRequested = true
            return .nothing
        })
}
