import ClosetCore

/// `.read <file>`: run a script inside this session, as `run` does: one transaction for the
/// file, failures reported and skipped, or the whole file undone under `.bail on`. Paths in
/// the file are taken from the file's own folder, wherever it is read from.
enum ReadCommand {
    static let spec = DotCommandSpec(
        name: ".read", summary: "run the statements of a .closet file", arguments: ["<file>"], takesPath: true,
        examples: [".read Examples/mock-data.closet"],
        run: { invocation in
            let session = invocation.session
            let words = invocation.call.arguments
            guard let path = words.first else {
                throw Diagnostic.usage(".read <file>", at: invocation.call.name.range)
            }
            if words.count > 1 {
                throw Diagnostic.readTakesOneFile(at: words[1].range)
            }
            guard session.readDepth < Session.maximumReadDepth else {
                throw Diagnostic.readTooDeep(limit: Session.maximumReadDepth, at: path.range)
            }
            let script: (text: String, displayName: String)
            do {
                script = try session.host.readScript(at: path.text)
            } catch let error as Diagnostic {
                throw error.at(path.range)
            }
            session.readDepth += 1
            defer { session.readDepth -= 1 }
            let result = session.host.readingScript(at: path.text) {
                session.runScript(script.text, name: script.displayName)
            }
            if result.stopped { throw AlreadyReported() }
            return .nothing
        })
}
