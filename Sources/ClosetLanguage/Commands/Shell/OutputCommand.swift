import ClosetCore

/// `.output [<file>]` (psql's `\o`): results go to the file, emptied first, until `.output`
/// alone sends them back to standard output. `.once <file>`: only the next statement's.
/// Errors stay on standard error.
enum OutputCommand {
    static let spec = DotCommandSpec(
        name: ".output", summary: "send results to a file, or back to the screen", arguments: ["[<file>]"],
        takesPath: true, examples: [".output results.txt", ".output"],
        run: { invocation in
            invocation.session.settings.output = try target(invocation, required: false)
            return .nothing
        })

    static let once = DotCommandSpec(
        name: ".once", summary: "send the next statement's results to a file", arguments: ["<file>"],
        takesPath: true, examples: [".once results.csv"],
        run: { invocation in
            invocation.session.output.once = try target(invocation, required: true)
            return .nothing
        })

    /// The file named (emptied now, so a bad path fails here), or nil for the screen.
    private static func target(_ invocation: DotInvocation, required: Bool) throws -> String? {
        let words = invocation.call.arguments
        guard let word = words.first else {
            if required { throw Diagnostic.usage(invocation.spec.usage, at: invocation.call.name.range) }
            return nil
        }
        guard words.count == 1 else { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
        do {
            try invocation.session.host.appendOutput("", toFile: word.text, truncating: true)
        } catch let error as Diagnostic {
            throw error.at(word.range)
        }
        invocation.session.output.failedFile = nil
        return word.text
    }
}
